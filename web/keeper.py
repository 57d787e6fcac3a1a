"""Storage and profile sync for the app (`web.dom.App`): the profile and the game in progress
read at the start, the profile kept whenever it changed (its preferences are the table's), each
finished game recorded in it once, and the table in progress kept after every input, each where
it belongs (`web.storage`'s keys).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from game.errors import ParseError

from . import passplay
from .clock import now_iso
from .profile.model import Profile
from .session import Session
from .shelf import Shelf
from .storage import HOST_KEY, HOST_TEXTS, PREFS_KEY, PROFILE_KEY, SAVE_KEY, names_under, read, write

# Which table the app holds, its controller's flags say (multiplayer, hosting): the tables with
# friends are imported where first used (web.lazy).
if TYPE_CHECKING:
    from .controller import Controller
    from .friends.guest import GuestController
    from .friends.host import HostTable
    from .friends.host_controller import HostController
    from .profile.screens import ProfileScreens
    from .seat import SeatTable


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

    def __init__(self, profile: ProfileScreens, save_seat: Callable[[GuestController], None]) -> None:
        self.profile = profile
        self.save_seat = save_seat        # a guest's seat, by table and host pin
        # the finished game last offered to the profile: a guest's record id, else (session, state id, seed)
        self.recorded: str | tuple[int, int, int] | None = None
        self.shelf: Shelf | None = None   # the hosted table's relayed texts, each kept once

    def table_prefs(self) -> dict[str, Any]:
        """The profile's preferences as the table's controller reads them."""
        return {**self.profile.profile.prefs, "name": self.profile.profile.nickname}

    def sync_prefs(self, ctl: SeatTable) -> None:
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

    def save(self, ctl: SeatTable) -> None:
        """After every input: the profile, and the table in progress where it belongs."""
        self.sync_prefs(ctl)
        self.save_profile()
        if ctl.multiplayer and not ctl.hosting:
            self.save_seat(cast("GuestController", ctl))
        elif ctl.hosting:
            self.save_host(cast("HostController", ctl).table)
        else:
            session = cast("Controller", ctl).session
            if session is not None:
                write(SAVE_KEY, session.to_json())

    def save_host(self, table: HostTable) -> None:
        """The hosted table, and each text its blind hands relayed once, under its own key."""
        if self.shelf is None:
            self.shelf = Shelf(lambda name, text: write(HOST_TEXTS + name, text), names_under(HOST_TEXTS))
        self.shelf.keep(table.saved_texts(), lambda: write(HOST_KEY, table.to_json()))

    def record_finished(self, ctl: SeatTable) -> None:
        """Keep each finished game (ours, hosted, or one we joined) in the profile, once."""
        if ctl.multiplayer and not ctl.hosting:
            record = cast("GuestController", ctl).finished
            if record is not None and record.id != self.recorded:
                self.recorded = record.id
                self.profile.keep(record)
            return
        session = cast("Controller", ctl).session     # the bot table's, or the host's (a HostController)
        if session is None or session.state.phase != "over":
            return
        if ctl.coach_waiting():
            return   # the coach's last reviews first, in the idle loop's slices (not in this move)
        key = (id(session), session.state.state_id, session.state.seed)
        if key != self.recorded:
            self.recorded = key
            table = cast("HostController", ctl).table if ctl.hosting else None
            fair = table.fair_transcript() if table is not None else None
            blind = table.blind_record() if table is not None else None   # its audited decks (docs/blind-deal.md)
            # (pass and play is a mode of its own: the other people were at this device, not friends far away)
            mode = passplay.MODE if not ctl.multiplayer and passplay.is_pass_and_play(session.bots) else None
            self.profile.game_finished(session, seat=0, coach=ctl.finished_review(), fair=fair,
                                      mode=mode, blind=blind)
