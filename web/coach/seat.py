"""The coach's part of a table's controller, shared by a game against the bots, a friends
table's host and its guests: whether the coach is on, the reviews to show, the plays still to
review (the page searches them in slices while nobody waits). Pure Python.

A controller mixes `CoachedSeat` in, holds a `TableCoach` as ``coach`` and its preferences as
``prefs``, and says how the coach keeps up (`coach_follow`) and whether its table allows it
(`coach_allowed`).

>>> from web.controller import Controller
>>> ctl = Controller(seed_source=lambda: 5, prefs={"coach": True})
>>> ctl.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
>>> ctl.coach_on(), ctl.hand_review()      # no hand shown yet
(True, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.bots import Thinking, run

if TYPE_CHECKING:   # the coach loads after the start (web.lazy.AFTER_READY)
    from game.coach import GameReview, HandReview

    from .follow import TableCoach


class CoachedSeat:
    """Reviews after each hand, for one seat's controller (see the module's docstring)."""

    prefs: dict[str, Any]       # the player's preferences (`web.profile.model.PREFERENCES`)
    screen: str

    if TYPE_CHECKING:   # an attribute (a guest's) or a property made on first use (the bot table's)
        @property
        def coach(self) -> TableCoach: ...

    def coach_allowed(self) -> bool:
        """Whether the table allows the coach (a game against the bots: always)."""
        return True

    def coach_follow(self) -> bool:
        """Bring the coach up to date with the game; False when there is no game to follow."""
        raise NotImplementedError

    def coach_on(self) -> bool:
        """Reviews after each hand: the player's setting, where the table allows them."""
        return bool(self.prefs.get("coach")) and self.coach_allowed() and self.coach_follow()

    def coach_waiting(self) -> bool:
        """Whether a play of this game still waits for its review (searched in slices when no
        bot is moving)."""
        return self.screen == "table" and self.coach_on() and self.coach.pending() is not None

    def coach_thinking(self) -> Thinking[None]:
        """Review the next pending play, as a generator that yields while it searches."""
        if self.coach_waiting():
            yield from self.coach.thinking()

    def hand_review(self) -> tuple[HandReview, int] | None:
        """The latest shown hand's review and the plays still to review, or None. A hand
        just shown has its review drawn after the coach's next step (`coach_thinking`), so
        the move that brings the show does not wait for it."""
        return self.coach.last_drawn() if self.coach_on() else None

    def game_review(self) -> tuple[GameReview, int] | None:
        """Every hand's review so far and the plays still to review, or None."""
        return self.coach.game_review() if self.coach_on() else None

    def finished_review(self) -> GameReview | None:
        """The finished game's whole review, for its record: the plays not reviewed yet are
        reviewed now (at most the last hand's few). None when the coach is off."""
        if not self.coach_on():
            return None
        while self.coach.pending() is not None:
            run(self.coach.thinking())
        return self.coach.game_review()[0]
