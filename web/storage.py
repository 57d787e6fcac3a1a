"""What this browser keeps (localStorage): the profile, the game against the bots in progress, a
hosted table, and the seats held at friends' tables. One of the few modules allowed to touch
the browser FFI; what is kept is read and checked by the pure modules that own it (a damaged
save is refused with a message and dropped, never half-used).

The keys are part of the page (scripts/gen_shell.py reads them from here for the start
screen's inline scripts).
"""

from __future__ import annotations

import json

import js

from game.codec import loads
from game.errors import ParseError

from .clock import now_iso
from .profile.model import Profile
from .session import Session

SAVE_KEY = "cribbage.table.v1"       # the game against the bots in progress
PREFS_KEY = "cribbage.prefs.v1"      # version 1 of the profile: read once, then migrated
PROFILE_KEY = "cribbage.profile.v2"
HOST_KEY = "cribbage.host.v1"        # the table this browser hosts (seed and all cards: never sent)
GUEST_KEY = "cribbage.guest.v1"      # the seats this browser holds, by table and host pin (web.friends.guest_store)
USED_KEY = "cribbage.used-invites.v1"   # code invites this browser has answered: each is for one friend
USED_KEPT = 50


def read(key: str) -> str | None:
    """The text kept under ``key``, or None (the browser's null is not Python's None: it is falsy)."""
    text = js.window.localStorage.getItem(key)
    return str(text) if text else None


def write(key: str, text: str | None) -> None:
    """Keep ``text`` under ``key`` (None: forget it)."""
    if text is None:
        js.window.localStorage.removeItem(key)
    else:
        js.window.localStorage.setItem(key, text)


def read_json(key: str, max_depth: int = 4) -> dict | None:
    """A kept JSON object, or None when there is none or it is damaged."""
    try:
        value = loads(read(key) or "null", max_depth=max_depth)
    except ParseError:
        return None
    return value if isinstance(value, dict) else None


def load_profile() -> tuple[Profile, str]:
    """The kept profile (or a new one), and what to tell the player about it ("" if all is well)."""
    text = read(PROFILE_KEY) or read(PREFS_KEY)
    if not text:
        return Profile.new(now=now_iso()), ""
    try:
        return Profile.from_json(text), ""
    except ParseError as damaged:
        return Profile.new(now=now_iso()), f"Your saved profile could not be read ({damaged}); starting a new one."


def load_game() -> tuple[Session | None, str]:
    """The game against the bots left in progress, if any, and what to say if it was damaged."""
    text = read(SAVE_KEY)
    if not text:
        return None, ""
    try:
        return Session.from_json(text), ""
    except ParseError as damaged:
        write(SAVE_KEY, None)
        return None, f"Your saved game could not be restored: {damaged}"


def used_invites() -> list:
    used = read_json(USED_KEY) or {}
    return used.get("offers", []) if isinstance(used.get("offers"), list) else []


def remember_invite(offer: str) -> None:
    write(USED_KEY, json.dumps({"offers": (used_invites() + [offer])[-USED_KEPT:]}))


class Keeper:
    """Storage and profile sync for the app: the profile (kept whenever it changed; its
    preferences are the table's), each finished game recorded in it once, and the table in
    progress kept after every input (a guest's seat is the friends table's: `save_seat`)."""

    def __init__(self, profile, save_seat):
        self.profile = profile            # web.profile.screens.ProfileScreens
        self.save_seat = save_seat        # (controller) -> None: a guest's seat, by table and host pin
        self.recorded = None              # the finished game last offered to the profile

    def table_prefs(self) -> dict:
        """The profile's preferences as the table's controller reads them."""
        return {**self.profile.profile.prefs, "name": self.profile.profile.nickname}

    def sync_prefs(self, ctl) -> None:
        """What the start form changed (name, level, players, length) is the profile's too."""
        prefs, profile = ctl.prefs, self.profile.profile
        wanted = {key: prefs[key] for key in ("level", "players", "target", "auto_continue") if key in prefs}
        if prefs.get("name", profile.nickname) != profile.nickname or \
                any(profile.prefs[key] != value for key, value in wanted.items()):
            self.profile._change(profile.with_prefs(now_iso(), nickname=prefs.get("name"), **wanted))

    def save_profile(self) -> None:
        if self.profile.changed:
            write(PROFILE_KEY, self.profile.profile.to_json())
            self.profile.changed = False

    def save(self, ctl) -> None:
        """After every input: the profile, and the table in progress where it belongs."""
        self.sync_prefs(ctl)
        self.save_profile()
        if ctl.multiplayer and not ctl.hosting:
            self.save_seat(ctl)
        elif ctl.hosting:
            write(HOST_KEY, ctl.table.to_json())
        elif ctl.session is not None:
            write(SAVE_KEY, ctl.session.to_json())

    def record_finished(self, ctl) -> None:
        """Keep each finished game (ours, hosted, or one we joined) in the profile, once."""
        if ctl.multiplayer and not ctl.hosting:
            record = ctl.finished
            if record is not None and record.id != self.recorded:
                self.recorded = record.id
                self.profile.keep(record)
            return
        session = ctl.session
        if session is None or session.state.phase != "over":
            return
        if ctl.coach_waiting():
            return   # the coach's last reviews first, in the idle loop's slices (not in this move)
        key = (id(session), session.state.state_id, session.state.seed)
        if key != self.recorded:
            self.recorded = key
            fair = ctl.table.fair_transcript() if ctl.hosting else None
            self.profile.game_finished(session, seat=0, coach=ctl.finished_review(), fair=fair)
