"""The table against the bots, without the browser: a `Session` behind the player's seat.

`Controller` is a `web.seat.SeatTable` whose moves go to a local session, where the bots play
the other seats. The browser glue calls `command` and `bot_thinking`, and keeps nothing of its
own. Pure Python: tested under CPython.

With two people or more it is a pass and play table (`web.passplay`): its seat is the person
the game waits for, a cover hides the table while the device changes hands (`cover`, and the
``reveal`` command), and the coach stays out of it (its hints and reviews would show one
person's cards to whoever holds the device).

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
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.actions import Action
from game.bots import BOT_LEVELS, Thinking, run
from game.engine import OVER, SHOWING
from game.errors import ParseError
from game.events import Event
from game.view import View

from . import passplay
from .passplay import BOT_NAMES
from .seat import SeatTable
from .session import Session, clean_name

if TYPE_CHECKING:   # the coach loads after the start (web.lazy.AFTER_READY)
    from .coach.follow import TableCoach


class Controller(SeatTable):
    """One player's table in the browser: seat 0 is the player, the other seats are bots (at
    pass and play, people too: the seat is then the person the game waits for)."""

    seat: int     # always a seat (a guest's is None until the host welcomes it: web.friends.guest)

    def __init__(self, seed_source: Callable[[], int], prefs: dict[str, Any] | None = None) -> None:
        super().__init__(prefs)
        self.seed_source = seed_source        # () -> a fresh random seed
        self.session: Session | None = None
        self._coach: TableCoach | None = None     # see `coach`
        self.fresh = False     # pass and play: nobody's cards are on screen yet (`cover`)

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

    @property
    def passing(self) -> bool:
        """A pass and play table: two people or more at this device (never a friends table)."""
        return self.session is not None and not self.multiplayer and passplay.is_pass_and_play(self.session.bots)

    def cover(self) -> str | None:
        """Pass and play: the name of the person to hand the device to while the table is
        covered, else None. Never over the beat before the show, nor over the show (all see
        them) unless another person must claim their points or call muggins there."""
        seen = self.seat_screen
        if not self.passing or self.screen != "table" or seen.beat is not None:
            return None
        if seen.show and self.game.state.claim is None:     # (a muggins show: each count is its person's)
            return None
        person = passplay.cover_for(self.game, self.seat, self.fresh)
        return None if person is None else self.game.names[person]

    def free_view(self) -> View | None:
        """No move while the table is covered: the cards on it are not the holder's to play."""
        return None if self.cover() is not None else super().free_view()

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
        return self.session is not None and not self.multiplayer and not self.passing

    def coach_allowed(self) -> bool:
        return not self.passing

    def hint_asked(self, view: View) -> None:
        self.game.used_hint(view.state_id)

    # -- input --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        return {**super().commands(), "start": self.start, "new-game": self.new_game, "resume": self.back,
                "to-start": self.to_start, "reveal": self.reveal}

    def start(self, form: dict[str, Any] | None) -> None:
        form = form or {}
        players = int(form.get("players", self.prefs["players"]))
        length = form.get("target", self.prefs["target"])    # 121, 61 or "five" (five-card, to 61)
        target, variant = (61, "five") if length == "five" else (int(length), "standard")
        level = form.get("level", self.prefs["level"])
        if level not in BOT_LEVELS:
            raise ParseError(f"choose a bot level: {', '.join(BOT_LEVELS)}")
        name = clean_name(form.get("name"), "You")
        bots: list[str | None]
        passing = form.get("mode") == "passplay"
        if passing:
            if players in (2, 3, 4):     # the form's choices stay on it when its seats are refused
                self.prefs.update(level=level, players=players, target="five" if variant == "five" else target)
            names, bots = passplay.seats_from_form(form, players, level)
        else:
            names = [name] + list(BOT_NAMES[1:players]) if players > 2 else [name, BOT_NAMES[0]]
            bots = [None] + [level] * (players - 1)
        self.prefs.update(name=name, level=level, players=players,
                          target="five" if variant == "five" else target)
        muggins = self.prefs.get("muggins") is True     # counting it yourself (Settings)
        self.session = Session.new(players, target, names, bots, seed=self.seed_source(), variant=variant,
                                   muggins=muggins)
        self.begin("New game.")

    def resume(self, session: Session) -> None:
        self.session = session
        self.begin("Game resumed.")

    def begin(self, words: str) -> None:
        """The table shows the session's game from its start (or from where it was resumed);
        a pass and play game from behind a cover, for the first person it waits for."""
        self.screen = "table"
        session = self.game
        self.fresh = self.passing
        self.seat = (passplay.due(session) or 0) if self.passing else 0
        self.seat_screen.restart(session.view(self.seat), session.names, session.log,
                                 f"{words} {' '.join(session.log[-1:])}".strip())

    def new_game(self, _: object = None) -> None:
        self.game.rematch(self.seed_source())
        self.begin("New game.")

    def back(self, _: object = None) -> None:
        if self.session is not None:
            self.screen = "table"

    def to_start(self, _: object = None) -> None:
        """Back to the start screen; the game waits there ("Back to the game"), a pass and play
        game behind a cover: whoever comes back to it may not be the person who left."""
        self.screen = "start"
        self.fresh = self.passing
        self.seat_screen.leave()

    def move(self, action: Action) -> None:
        self.saw(self.game.act(self.seat, action))

    def saw(self, events: Iterable[Event]) -> None:
        """The session's game changed by ``events``: the seat sees its new view. At a pass and
        play table, a move that brings the show (or a muggins call in it) keeps the next hand,
        already dealt, off the table until the show is over: everyone watches the show."""
        session = self.game
        events = tuple(events)
        self.seat_screen.see(self.table_view(any(event.kind in ("show", "crib") for event in events)), events,
                             session.names, session.log)

    def table_view(self, showing: bool = False) -> View:
        """The seat's view for its table; at pass and play, during the show (or as a move
        brings it: ``showing``) with no card in hand, but for a hand its owner is counting
        (muggins; five-card leaves cards unplayed)."""
        seen = self.game.view(self.seat)
        claim = seen.claim
        counting = claim is not None and claim.seat == self.seat and claim.what == "show"
        if self.passing and (showing or self.seat_screen.show) and not counting:
            seen = replace(seen, hand=())
        return seen

    def advance(self, _: object = None) -> None:
        """Past the show; a pass and play table's next hand begins behind a cover."""
        super().advance()
        if self.passing and not self.seat_screen.show and self.seat_screen.beat is None:
            self.fresh = True
            session = self.game
            self.seat_screen.see(session.view(self.seat), (), session.names, session.log)

    def reveal(self, _: object = None) -> None:
        """The person the cover names is holding the device: their table comes out from under it."""
        if self.screen != "table" or self.cover() is None:
            return
        person = passplay.due(self.game)
        assert person is not None, "a cover names the person the game waits for"
        self.fresh = False
        if person != self.seat:
            self.seat = person
            self.seat_screen.see(self.table_view(), (), self.game.names, self.game.log)
        self.seat_screen.announcement = f"{self.game.names[person]}'s turn."

    def key(self, key: object) -> None:
        """Over a cover, Enter reveals the table (wherever the focus is; Space too, on its
        button, which has the focus); else the table's keys."""
        if self.cover() is not None and key == "Enter":
            self.reveal()
        else:
            super().key(key)

    def open_menu(self, _: object = None) -> None:
        """The menu is the table's: not over a cover, whose own button leaves the table."""
        if self.cover() is None:
            super().open_menu()

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
