"""The profile's screens and commands (settings, statistics, replays), without the browser.

The browser glue offers every command to `ProfileScreens.command` first; the ones it does not
know go on to the table's controller. It keeps the `Profile` and says when to save it.

>>> screens = ProfileScreens(Profile.new("Ann"), clock=lambda: "2026-11-30T12:00:00Z")
>>> screens.command("settings"), screens.screen
(True, 'settings')
>>> screens.command("pref", ("theme", "dark")), screens.profile.prefs["theme"]
(True, 'dark')
>>> screens.command("play", "5H")     # not a profile command: the table's controller takes it
False
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from html import escape
from typing import TYPE_CHECKING, Any

from game.bots import Thinking
from game.errors import ParseError

from .model import Profile
from .records import (GameRecord, coach_figures, record_from_link_code, record_game, record_to_link_code,
                      walk_record)
from ..session import Session

if TYPE_CHECKING:   # loaded on first use (web.lazy), the coach after the start (web.lazy.AFTER_READY)
    from game.coach import GameReview, HandReview, HandSeen

    from .device_link import LinkState


class ProfileScreens:
    """Which profile screen is open (if any), and the profile behind it."""

    def __init__(self, profile: Profile, clock: Callable[[], str]) -> None:
        self.profile = profile
        self.clock = clock                  # () -> the time now, ISO 8601
        self.screen: str | None = None      # None: the table or the start screen is showing
        self.replaying: GameRecord | None = None   # the record in the replay viewer
        self.hand = 0
        self.pegging = False                # the replayed hand's pegging review was asked for
        self.message = ""
        self.changed = False                # the profile needs saving
        self.clipboard = ""                 # a link for the glue to copy
        self.link: LinkState | None = None  # a device link in progress
        # (record id, hands still to review, reviews done)
        self.review_job: tuple[str, list[tuple[int, HandSeen]], list[HandReview]] | None = None

    def commands(self) -> dict[str, Callable[[Any], None]]:
        """The profile's commands by name, as the page's buttons and forms send them."""
        return {"settings": self.open_settings, "stats": self.open_stats, "close-screen": self.close_screen,
                "pref": self.set_pref, "nickname": self.set_nickname, "replay": self.open_replay,
                "replay-hand": self.replay_hand, "replay-pegging": self.replay_pegging,
                "import-profile": self.import_profile, "share-record": self.share_record,
                "open-record": self.open_record}

    def takes(self, name: str) -> bool:
        """Whether ``name`` is a profile command."""
        return name in self.commands()

    def command(self, name: str, arg: object = None) -> bool:
        """Handle a profile command; False when ``name`` is not one."""
        handler = self.commands().get(name)
        if handler is None:
            return False
        self.message = ""
        try:
            handler(arg)
        except ParseError as refused:
            self.message = str(refused)
        return True

    def render(self) -> str:
        # The screens' views (statistics, charts, replays) are imported on first use (web.lazy).
        from .view import render_replay, render_settings, render_stats
        if self.screen == "settings":
            return render_settings(self.profile, self.message, self.link)
        if self.screen == "stats":
            note = f'<p class="notice" role="status">{escape(self.message)}</p>' if self.message else ""
            return note + render_stats(self.profile)
        assert self.replaying is not None, "the replay screen shows a record"
        return render_replay(self.replaying, self.hand, self.pegging)

    # -- commands --

    def open_settings(self, _: object = None) -> None:
        self.screen = "settings"

    def open_stats(self, _: object = None) -> None:
        self.screen = "stats"

    def close_screen(self, _: object = None) -> None:
        self.screen = None

    def set_pref(self, name_and_text: tuple[str, object]) -> None:
        from .view import parse_pref
        name, text = name_and_text
        value = parse_pref(name, text) if isinstance(text, str) else text
        if value is None:
            raise ParseError(f"{name} cannot be {text!r}")
        change: dict[str, Any] = {name: value}     # a preference's value: text, a number or a switch
        self.change(self.profile.with_prefs(self.clock(), **change))

    def set_nickname(self, text: object) -> None:
        self.change(self.profile.with_prefs(self.clock(), nickname=str(text or "")))

    def open_replay(self, record_id: object) -> None:
        record = next((r for r in self.profile.records if r.id == record_id), None)
        if record is None:
            raise ParseError("that game is no longer in your history")
        self.replaying, self.hand, self.pegging, self.screen = record, 0, False, "replay"

    def replay_hand(self, index: str | int) -> None:
        self.hand, self.pegging = int(index), False

    def replay_pegging(self, index: str | int) -> None:
        self.hand, self.pegging = int(index), True

    def import_profile(self, text: str) -> None:
        """Merge a profile file: its games (verified by replaying) and, if newer, its settings."""
        try:
            incoming = Profile.from_json(text, verify_records=True)
        except ParseError as refused:   # say what happened first; the reason (a card, a field) after
            raise ParseError(f"That file was refused and your profile is unchanged ({refused}).") from None
        before = len(self.profile.records)
        self.change(self.profile.merge(incoming))
        added = len(self.profile.records) - before
        self.message = f"Profile loaded: {added} new game{'s' if added != 1 else ''}."

    def share_record(self, record_id: object) -> None:
        record = next((r for r in self.profile.records if r.id == record_id), None)
        if record is None:
            raise ParseError("that game is no longer in your history")
        self.clipboard = "#record=" + record_to_link_code(record)
        self.message = "A link to this game is on your clipboard."

    def open_record(self, code: str) -> None:
        """A game someone shared as a link: keep it and open it in the replay viewer."""
        record = record_from_link_code(code)
        self.change(self.profile.add_record(record))
        self.replaying, self.hand, self.pegging, self.screen = record, 0, False, "replay"

    # -- from the table --

    def game_finished(self, session: Session, seat: int = 0, coach: GameReview | None = None,
                      fair: dict[str, Any] | None = None, mode: str | None = None,
                      blind: dict[str, Any] | None = None) -> None:
        """Keep the record of a game that just ended (once, whatever the caller repeats), with
        the coach's review of it (a `game.coach.GameReview`) when the coach was on, and the
        fair deal's transcript of a table the player hosted; ``mode`` when the seats do not say
        it (`web.profile.records.record_mode`: a pass and play game's); a blind game's audited
        hands (``blind``) of a table the player hosted."""
        self.keep(record_game(session, seat, self.clock(), mode=mode, coach=coach, fair=fair, blind=blind))

    # -- the coach's figures of games from elsewhere, worked out here in the background --

    def review_due(self) -> bool:
        """Whether an imported game (the coach was on for it) still owes its figures."""
        return any(record.coach_due for record in self.profile.records)

    def reviewing(self) -> Thinking[None]:
        """Review one hand of the first game that owes its figures, as a generator that yields
        while it searches (the page runs it in slices when nothing else waits); the game keeps
        its figures once its last hand is done."""
        from game.coach import GameReview, think_hand   # the coach loads after the start (web.lazy.AFTER_READY)

        record = next((r for r in self.profile.records if r.coach_due), None)
        if record is None:
            return
        if self.review_job is None or self.review_job[0] != record.id:
            hands = [(n, hand) for n, hand in enumerate(walk_record(record), start=1) if hand.discard]
            self.review_job = (record.id, hands, [])
        _, todo, done = self.review_job
        if todo:
            number, hand = todo[0]
            done.append((yield from think_hand(hand, number)))
            todo.pop(0)
        if not todo:
            figures = coach_figures(GameReview(tuple(done)))
            self.change(self.profile.update_record(replace(record, coach=figures, coach_due=False)))
            self.review_job = None

    def keep(self, record: GameRecord) -> None:
        """Add a verified `GameRecord` (a game that ended here, or one a host sent us)."""
        self.change(self.profile.add_record(record))

    def export(self) -> str:
        """The whole profile as a file's text."""
        return json.dumps(json.loads(self.profile.to_json()), indent=1)

    def change(self, profile: Profile) -> None:
        """The profile is now ``profile`` (marked changed, for the page to keep, if it differs)."""
        if profile != self.profile:
            self.profile, self.changed = profile, True
