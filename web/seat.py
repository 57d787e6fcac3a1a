"""A seat's table: what the player's input does at any table, whatever carries the moves.

`SeatTable` is the one base of the three tables a player sits at: the bot table
(`web.controller.Controller`), a friends table's host (`web.friends.host_controller`) and a
guest (`web.friends.guest`). It holds the seat's `web.table.screen.SeatScreen`, takes the
player's commands through one table of handlers (`commands`), and hands each move to `move`:
the local session, the host's table, or the guest's outbox. It is what the renderer reads
(`web.table.model.TableModel`). Pure Python.

>>> from web.controller import Controller
>>> ctl = Controller(seed_source=lambda: 5)
>>> ctl.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
>>> sorted(ctl.commands())[:4]
['claim', 'confirm-discard', 'continue', 'hint']
>>> ctl.command("fold")
Traceback (most recent call last):
...
game.errors.ParseError: unknown command 'fold'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.actions import MUGGINS, PASS, Action
from game.cards import Card
from game.engine import DISCARDING, PLAYING
from game.errors import IllegalActionError, ParseError
from game.view import View

from .coach.seat import CoachedSeat
from .profile.model import DEFAULT_PREFS
from .profile.model import clean_prefs as profile_prefs
from .session import clean_name
from .table.model import Menu, Screen
from .table.screen import SeatScreen

if TYPE_CHECKING:
    from game.bots import Thinking
    from game.coach import Hint

DEFAULTS = {"name": "", **DEFAULT_PREFS}


def clean_prefs(prefs: object) -> dict[str, Any]:
    """The profile's preferences (see `web.profile.model.PREFERENCES`) plus the player's name;
    storage is untrusted, so unknown keys and odd values fall back to the defaults.

    >>> clean_prefs({"players": 9, "level": "hard", "evil": "<script>"})["players"], clean_prefs(None)["level"]
    (2, 'medium')
    """
    prefs = prefs if isinstance(prefs, dict) else {}
    name = prefs.get("name")
    return {"name": clean_name(name, "") if isinstance(name, str) else "", **profile_prefs(prefs)}


class SeatTable(CoachedSeat):
    """The player's seat at a table (see the module's docstring). A table supplies `move`
    and the reading methods of `web.table.model.TableModel` that raise NotImplementedError here."""

    multiplayer = False      # a table with friends (chat, presence, the fair deal)
    hosting = False          # ... and this browser hosts it
    watching = False         # ... or only watches it: no hand, no moves (web.friends.spectator)
    link = ""                # the connection's trouble in words ("" when all is well)
    seat: int | None         # None: a guest the host has not welcomed yet

    def __init__(self, prefs: dict[str, Any] | None = None) -> None:
        self.prefs = clean_prefs(prefs)
        self.screen: Screen = "start"
        self.seat = 0
        self.seat_screen = SeatScreen()
        self.error = ""
        self.hint: Hint | None = None     # the hint asked for, while its decision lasts
        self.menu: Menu = ""              # the table's menu: closed, open, or showing the rules

    @property
    def pending(self) -> bool:
        """A move is on its way, not taken yet: no other until it is (a guest's)."""
        return False

    # -- what the renderer reads (web.table.model.TableModel) --

    def view(self) -> View | None:
        return self.seat_screen.view

    def names(self) -> list[str]:
        """Each seat's name."""
        raise NotImplementedError

    def side_names(self) -> list[str]:
        """Each side's name (partners share one)."""
        raise NotImplementedError

    def levels(self) -> list[str | None]:
        """Each seat's bot level, or None for a person."""
        raise NotImplementedError

    def can_resume(self) -> bool:
        """Whether the start screen offers to go back to a game."""
        raise NotImplementedError

    def cover(self) -> str | None:
        """Who the device goes to next while a cover hides the table (pass and play), else None."""
        return None

    def presence(self) -> list[bool] | None:
        """Who is at the table now, by seat (None at the bot table: the bots never leave)."""
        return None

    def hints_allowed(self) -> bool:
        return False

    def current_hint(self) -> Hint | None:
        """The hint asked for, if its decision is still the one on the table (the bots
        discarding beside the player leave a discard's hint standing)."""
        view = self.view()
        if self.hint is None or view is None:
            return None
        from game.coach import decision_of    # (loaded already: the hint came from the coach)
        return self.hint if self.hint.decision == decision_of(view) else None

    # -- what the page runs between inputs (web.scheduler) --

    def bot_waiting(self) -> bool:
        """Whether a bot should move now (only at a table that seats bots)."""
        return False

    def bot_thinking(self) -> Thinking[None]:
        """The waiting bot's move, as a generator that yields while it thinks."""
        yield from ()

    # -- the player's commands --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        """Every command this table takes, by name (a click's ``data-action``, a key's meaning)."""
        return {"select": self.select, "confirm-discard": self.confirm_discard, "play": self.play,
                "claim": self.claim, "muggins": lambda _: self.answer(True), "pass": lambda _: self.answer(False),
                "key": self.key, "continue": self.advance, "hint": self.ask_hint,
                "menu-open": self.open_menu, "menu-close": self.close_menu, "rules": self.show_rules}

    def open_menu(self, _: object = None) -> None:
        """The table's menu (Esc): open, or closed again when it is open."""
        self.menu = "" if self.menu else "open"

    def close_menu(self, _: object = None) -> None:
        self.menu = ""

    def show_rules(self, _: object = None) -> None:
        self.menu = "rules"

    def command(self, name: str, arg: object = None) -> None:
        """Do what the player asked; a refused move leaves a message in ``error``. Anything but
        the menu's own commands closes the menu."""
        self.error = ""
        if name not in ("menu-open", "rules"):
            self.menu = ""
        handler = self.commands().get(name)
        if handler is None:
            raise ParseError(f"unknown command {name!r}")
        try:
            handler(arg)
        except ValueError as refused:   # ParseError and IllegalActionError: say why, change nothing
            self.error = str(refused)

    def move(self, action: Action) -> None:
        """Send the player's move where this table's moves go."""
        raise NotImplementedError

    def free_view(self) -> View | None:
        """The view the player may move on now: none while a show is on screen or a move is
        on its way."""
        view = self.seat_screen.view
        return None if view is None or self.seat_screen.show or self.pending else view

    def select(self, text: str) -> None:
        if self.free_view() is not None:
            self.seat_screen.select(Card.parse(text))

    def confirm_discard(self, _: object = None) -> None:
        view = self.free_view()
        if view is None or view.phase != DISCARDING:
            return
        need = view.config.to_crib
        if len(self.seat_screen.selected) != need:
            raise IllegalActionError(f"put exactly {need} card{'s' if need > 1 else ''} in the crib")
        self.move(Action.discard(view.seat, self.seat_screen.take_selection()))

    def play(self, text: str) -> None:
        card, view = Card.parse(text), self.free_view()
        if view is None:
            return
        if view.phase != PLAYING or view.turn != view.seat:
            raise IllegalActionError("it is not your turn to play")
        if card.value + view.count > 31:
            raise IllegalActionError(f"{card} would take the count past 31 (it is {view.count})")
        self.move(Action.play(view.seat, card))

    def claim(self, text: object) -> None:
        """Count it yourself (a muggins table): claim the points of the card laid, the hand or
        the crib waiting for this seat's count; the show may be on screen meanwhile."""
        view = self.seat_screen.view
        if view is None or self.pending:
            return
        if view.claim is None or view.claim.seat != view.seat or view.claim.claimed is not None:
            raise IllegalActionError("there are no points of yours to claim now")
        words = str(text or "").strip()
        if not (words.isascii() and words.isdigit() and len(words) <= 2):
            raise ParseError(f"a claim is a number of points, not {words[:8]!r}")
        self.move(Action.claim(view.seat, int(words)))

    def answer(self, muggins: bool) -> None:
        """A rival's claim fell short and this seat may call: muggins (take the points missed)
        or pass."""
        view = self.seat_screen.view
        if view is None or self.pending:
            return
        if view.claim is None or view.claim.caller != view.seat:
            raise IllegalActionError("there is no short claim for you to call")
        self.move(Action(view.seat, MUGGINS if muggins else PASS, ()))

    def key(self, key: object) -> None:
        """Keyboard: 1-6 pick the nth card (select or play), Enter confirms or continues, H hints."""
        meaning = self.seat_screen.key(str(key), self.prefs["sort"]) if self.screen == "table" else None
        if meaning:
            self.commands()[meaning[0]](meaning[1])

    def advance(self, _: object = None) -> None:
        """Past the show; in the beat before it (the play's end on the table), to the show."""
        self.seat_screen.advance()

    def ask_hint(self, _: object = None) -> None:
        """The coach's suggestion for the decision at hand (games against the bots only)."""
        if not self.hints_allowed():
            raise ParseError("hints are for games against the bots")
        view = self.view()
        hint = None if view is None else self.coach.hint(view)
        if view is None or hint is None:       # (no game on the table yet, or no decision of the seat's)
            raise ParseError("there is nothing to choose just now")
        self.hint = hint
        self.hint_asked(view)
        self.seat_screen.announcement = f"Hint: {hint.words()}"

    def hint_asked(self, view: View) -> None:
        """Keep with the game that the player asked the coach (the bot table does)."""
