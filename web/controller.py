"""The table against the bots, without the browser: a `Session` behind the player's seat.

`Controller` is a `web.seat.SeatTable` whose moves go to a local session, where the bots play
the other seats. The browser glue calls `command` and `bot_thinking`, and keeps nothing of its
own. Pure Python: tested under CPython.

>>> ctl = Controller(seed_source=lambda: 5)
>>> ctl.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
>>> ctl.session.names, ctl.screen
(['Ann', 'Bot'], 'table')
>>> card = ctl.view().hand[0]
>>> ctl.command("select", str(card)); ctl.seat_screen.selected == {card}
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from game.actions import Action
from game.bots import BOT_LEVELS, Thinking, run
from game.engine import OVER, SHOWING
from game.errors import ParseError
from game.events import Event
from game.view import View

from .seat import SeatTable
from .session import Session, clean_name

if TYPE_CHECKING:   # the coach loads after the start (web.lazy.AFTER_READY)
    from .coach.follow import TableCoach

BOT_NAMES = ("Bot", "Robin", "Sage", "Pip")


class Controller(SeatTable):
    """One player's table in the browser: seat 0 is the player, the other seats are bots."""

    seat: int     # always a seat (a guest's is None until the host welcomes it: web.friends.guest)

    def __init__(self, seed_source: Callable[[], int], prefs: dict[str, Any] | None = None) -> None:
        super().__init__(prefs)
        self.seed_source = seed_source        # () -> a fresh random seed
        self.session: Session | None = None
        self._coach: TableCoach | None = None     # see `coach`

    @property
    def game(self) -> Session:
        """The session of the game on the table, for what only a table with a game does."""
        assert self.session is not None, "no game at this table yet"
        return self.session

    # -- what is on screen --

    def names(self) -> list[str]:
        return self.game.names

    def side_names(self) -> list[str]:
        return self.game.side_names()

    def levels(self) -> list[str | None]:
        """Each seat's bot level, or None for a person."""
        return self.game.bots

    def can_resume(self) -> bool:
        return self.session is not None and self.session.state.phase != OVER

    def bot_waiting(self) -> bool:
        """Whether a bot should move now (never while the player reads the show, nor in the
        beat before it: ``show`` is set from the move that ends the play; but a muggins
        table's show goes on hand by hand, the bots counting theirs as it does)."""
        showing = bool(self.seat_screen.show) and self.game.state.phase != SHOWING
        return self.screen == "table" and not showing and self.game.bot_to_move() is not None

    def is_over(self) -> bool:
        return self.session is not None and self.session.state.phase == OVER

    # -- the coach --

    @property
    def coach(self) -> TableCoach:
        """The seat's `web.coach.follow.TableCoach` (hints and reviews), made on first use: the
        coach's modules are a third of what the start would import otherwise, and they load
        just after it instead (web.lazy.AFTER_READY)."""
        if self._coach is None:
            from .coach.follow import TableCoach

            self._coach = TableCoach(self.seat)
        return self._coach

    def coach_follow(self) -> bool:
        if self.session is None:
            return False
        self.coach.sync(self.session.state)
        return True

    def hints_allowed(self) -> bool:
        return self.session is not None and not self.multiplayer

    def hint_asked(self, view: View) -> None:
        self.game.used_hint(view.state_id)

    # -- input --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        return {**super().commands(), "start": self.start, "new-game": self.new_game, "resume": self.back,
                "to-start": self.to_start}

    def start(self, form: dict[str, Any] | None) -> None:
        form = form or {}
        players = int(form.get("players", self.prefs["players"]))
        length = form.get("target", self.prefs["target"])    # 121, 61 or "five" (five-card, to 61)
        target, variant = (61, "five") if length == "five" else (int(length), "standard")
        level = form.get("level", self.prefs["level"])
        if level not in BOT_LEVELS:
            raise ParseError(f"choose a bot level: {', '.join(BOT_LEVELS)}")
        name = clean_name(form.get("name"), "You")
        self.prefs.update(name=name, level=level, players=players,
                          target="five" if variant == "five" else target)
        names = [name] + list(BOT_NAMES[1:players]) if players > 2 else [name, BOT_NAMES[0]]
        bots = [None] + [level] * (players - 1)
        self.session = Session.new(players, target, names, bots, seed=self.seed_source(), variant=variant,
                                   muggins=self.prefs.get("muggins") is True)   # (Settings)
        self.begin("New game.")

    def resume(self, session: Session) -> None:
        self.session = session
        self.begin("Game resumed.")

    def begin(self, words: str) -> None:
        """The table shows the session's game from its start (or from where it was resumed)."""
        self.screen = "table"
        session = self.game
        self.seat_screen.restart(session.view(self.seat), session.names, session.log,
                                 f"{words} {' '.join(session.log[-1:])}".strip())

    def new_game(self, _: object = None) -> None:
        self.game.rematch(self.seed_source())
        self.begin("New game.")

    def back(self, _: object = None) -> None:
        if self.session is not None:
            self.screen = "table"

    def to_start(self, _: object = None) -> None:
        """Back to the start screen; the game waits there ("Back to the game")."""
        self.screen = "start"
        self.seat_screen.leave()

    def move(self, action: Action) -> None:
        self.saw(self.game.act(self.seat, action))

    def saw(self, events: Iterable[Event]) -> None:
        """The session's game changed by ``events``: the seat sees its new view."""
        session = self.game
        self.seat_screen.see(session.view(self.seat), events, session.names, session.log)

    def bot_step(self) -> None:
        """One bot move, if one is due."""
        run(self.bot_thinking())

    def bot_thinking(self) -> Thinking[None]:
        """`bot_step` as a generator that yields while the bot thinks (see
        `Session.bot_choice`): the page runs it in slices."""
        if self.bot_waiting():
            session = self.game
            choice = yield from session.bot_choice()
            if choice is not None and session is self.session:
                self.play_for_bot(*choice)

    def play_for_bot(self, seat: int, action: Action) -> None:
        self.saw(self.game.act(seat, action))
