"""Storage and profile sync for the app (`web.dom.App`): the profile and the game in progress
read at the start, the profile kept whenever it changed (its preferences are the table's), each
finished game recorded in it once, and the table in progress kept after every input, each where
it belongs (`web.storage`'s keys).
"""

from __future__ import annotations

from game.errors import ParseError

from .clock import now_iso
from .profile.model import Profile
from .session import Session
from .storage import HOST_KEY, PREFS_KEY, PROFILE_KEY, SAVE_KEY, read, write


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
            self.profile.change(profile.with_prefs(now_iso(), nickname=prefs.get("name"), **wanted))

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
