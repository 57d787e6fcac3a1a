"""The declared interface of a seat's table: what the renderer, the lobby and the app read of
whichever table the player sits at (the bot table, a friends table's host or a guest: each a
`web.seat.SeatTable`), and the names that travel between them. Reading goes through these and
nothing else, so a renamed attribute is a type error, not a silent default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from game.coach import GameReview, HandReview, Hint
    from game.view import View

    from .screen import SeatScreen

Screen = Literal["start", "table", "lobby", "join", "rejected"]
Menu = Literal["", "open", "rules"]
SeatKind = Literal["host", "person", "bot", "open"]


class TableModel(Protocol):
    """A seat's table as the renderer draws it."""

    screen: Screen
    prefs: dict[str, Any]      # the player's preferences (`web.profile.model.PREFERENCES`) and name
    error: str
    seat_screen: SeatScreen    # (the player's seat is its view's: ``view.seat``)
    multiplayer: bool
    hosting: bool
    watching: bool             # a spectator: the seat's place is the host's, its hand face down
    link: str
    menu: Menu

    @property
    def pending(self) -> bool: ...     # a move is on its way (a guest's): no other until it is
    def view(self) -> View | None: ...
    def names(self) -> list[str]: ...
    def side_names(self) -> list[str]: ...
    def levels(self) -> list[str | None]: ...
    def presence(self) -> list[bool] | None: ...
    def can_resume(self) -> bool: ...
    def cover(self) -> str | None: ...    # pass and play: the person the device goes to, while covered
    def hints_allowed(self) -> bool: ...
    # the coach's, for the parts around the table (web.render)
    def current_hint(self) -> Hint | None: ...
    def hand_review(self) -> tuple[HandReview, int] | None: ...
    def game_review(self) -> tuple[GameReview, int] | None: ...
