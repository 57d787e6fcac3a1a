"""The table's behaviour, without the browser: what a click or a key does, what is shown next.

`Controller` holds a `Session` plus what only the screen needs (selected cards, a show waiting
to be read, the latest announcements). The browser glue calls `command`, `bot_step` and
`render`, and keeps nothing of its own. Pure Python: tested under CPython.

>>> ctl = Controller(seed_source=lambda: 5)
>>> ctl.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
>>> ctl.session.names, ctl.screen
(['Ann', 'Bot'], 'table')
>>> card = ctl.view().hand[0]
>>> ctl.command("select", str(card)); ctl.selected == {card}
True
"""

from __future__ import annotations

from game.bots import BOT_LEVELS, run
from game.cards import Card
from game.actions import Action
from game.engine import DISCARDING, OVER, PLAYING
from game.errors import ParseError
from game.events import Event
from game.view import View

from .coach.seat import CoachedSeat
from .profile.model import DEFAULT_PREFS
from .profile.model import clean_prefs as profile_prefs
from .session import Session, clean_name
from .table.play_end import ShowAfterPlay, pegs_of

ME = 0
BOT_NAMES = ("Bot", "Robin", "Sage", "Pip")
DEFAULTS = {"name": "", **DEFAULT_PREFS}


def clean_prefs(prefs) -> dict:
    """The profile's preferences (see `web.profile.model.PREFERENCES`) plus the player's name;
    storage is untrusted, so unknown keys and odd values fall back to the defaults.

    >>> clean_prefs({"players": 9, "level": "hard", "evil": "<script>"})["players"], clean_prefs(None)["level"]
    (2, 'medium')
    """
    prefs = prefs if isinstance(prefs, dict) else {}
    name = prefs.get("name")
    return {"name": clean_name(name, "") if isinstance(name, str) else "", **profile_prefs(prefs)}


def hand_order(cards, sort: str = "rank") -> list:
    """The player's cards in the order the screen shows them (and keys 1-6 pick them).

    >>> from game.cards import parse_cards
    >>> [str(c) for c in hand_order(parse_cards("KH 2S 5H"), "suit")]
    ['5H', 'KH', '2S']
    """
    if sort == "suit":
        return sorted(cards, key=lambda card: ("CDHS".index(card.suit), card.rank))
    return sorted(cards)


def toggle_selection(selected: set, card, view) -> set:
    """The crib cards chosen after tapping ``card``: it goes in or out; with one crib card to
    choose, a new one replaces the old. Nothing changes outside one's own discard.

    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> seat_view = view(new_game(Config(players=3), seed=1), 0)
    >>> first, second = seat_view.hand[:2]
    >>> toggle_selection({first}, second, seat_view) == {second}
    True
    """
    if view.phase != DISCARDING or view.has_discarded[view.seat] or card not in view.hand:
        return selected
    if card in selected:
        return selected - {card}
    if len(selected) < view.config.to_crib:
        return selected | {card}
    return {card} if view.config.to_crib == 1 else selected


def key_command(key: str, view, selected, showing: bool, sort: str):
    """What a key means at the table: ``(command, argument)`` or None.

    1-6 pick the nth card as shown (select it when discarding, play it on your turn); Enter
    puts the chosen cards in the crib, or continues after the show; H asks the coach for a hint.
    """
    if view is None:
        return None
    if key in ("h", "H") and not showing:
        return ("hint", None)
    if key == "Enter":
        if showing:
            return ("continue", None)
        if view.phase == DISCARDING and len(selected) == view.config.to_crib:
            return ("confirm-discard", None)
    elif key.isdigit() and 1 <= int(key) <= len(view.hand) and not showing:
        card = str(hand_order(view.hand, sort)[int(key) - 1])
        if view.phase == DISCARDING:
            return ("select", card)
        if view.phase == PLAYING and view.turn == view.seat:
            return ("play", card)
    return None


def show_total(event, names) -> str:
    """One counted hand in a few words: ``"Bot's crib 8"``."""
    whose = f"{names[event.seat]}'s crib" if event.kind == "crib" else names[event.seat]
    return f"{whose} {event.breakdown.total}"


class Controller(ShowAfterPlay, CoachedSeat):
    """One player's table in the browser: seat 0 is the player, the other seats are bots."""

    def __init__(self, seed_source, prefs: dict | None = None):
        self.seed_source = seed_source        # () -> a fresh random seed
        self.prefs = clean_prefs(prefs)
        self.screen = "start"
        self.session: Session | None = None
        self.selected: set[Card] = set()
        self.show: tuple[Event, ...] = ()     # the counted hands waiting for "continue"
        self.show_starter: Card | None = None  # the starter they were counted with
        self.show_intro: tuple[str, ...] = ()  # how the play ended (last card, go) before the show
        self.last_pegs: dict[int, str] = {}   # side -> why its peg last moved
        self.announcement = ""                # for the live region
        self.error = ""
        self._coach = None                    # see `coach`
        self.hint = None                      # the hint asked for, while its decision lasts

    # -- what is on screen --

    def view(self) -> View:
        return self.session.view(ME)

    # The renderer reads the table through these few methods, so that a guest's table (which
    # has views from the host instead of a session) can be drawn by the same code.

    def names(self) -> list[str]:
        return self.session.names

    def side_names(self) -> list[str]:
        return self.session.side_names()

    def levels(self) -> list[str | None]:
        """Each seat's bot level, or None for a person."""
        return self.session.bots

    def log(self) -> list[str]:
        return self.session.log

    def can_resume(self) -> bool:
        return self.session is not None and self.session.state.phase != OVER

    def bot_waiting(self) -> bool:
        """Whether a bot should move now (never while the player reads the show, nor in the
        beat before it: ``show`` is set from the move that ends the play)."""
        return (self.screen == "table" and not self.show
                and self.session.bot_to_move() is not None)

    def is_over(self) -> bool:
        return self.session is not None and self.session.state.phase == OVER

    # -- the coach --

    @property
    def coach(self):
        """The seat's `web.coach.follow.TableCoach` (hints and reviews), made on first use: the
        coach's modules are a third of what the start would import otherwise, and they load
        just after it instead (web.lazy.AFTER_READY)."""
        if self._coach is None:
            from .coach.follow import TableCoach

            self._coach = TableCoach(ME)
        return self._coach

    def coach_follow(self) -> bool:
        if self.session is None:
            return False
        self.coach.sync(self.session.state)
        return True

    def hints_allowed(self) -> bool:
        return self.session is not None and not getattr(self, "multiplayer", False)

    def current_hint(self):
        """The hint asked for, if its decision is still the one on the table (the bots
        discarding beside the player leave a discard's hint standing)."""
        if self.hint is None or self.session is None:
            return None
        from .coach.follow import decision_of    # (loaded already: the hint came from the coach)
        if self.hint.decision == decision_of(self.view()):
            return self.hint
        return None

    # -- input --

    def command(self, name: str, arg=None) -> None:
        """Do what the player asked; a refused move leaves a message in ``error``."""
        self.error = ""
        handler = getattr(self, f"_do_{name.replace('-', '_')}", None)
        if handler is None:
            raise ParseError(f"unknown command {name!r}")
        try:
            handler(arg)
        except ValueError as refused:   # ParseError and IllegalActionError: say why, change nothing
            self.error = str(refused)

    def _do_start(self, form) -> None:
        form = form or {}
        players = int(form.get("players", self.prefs["players"]))
        target = int(form.get("target", self.prefs["target"]))
        level = form.get("level", self.prefs["level"])
        if level not in BOT_LEVELS:
            raise ParseError(f"choose a bot level: {', '.join(BOT_LEVELS)}")
        name = clean_name(form.get("name"), "You")
        self.prefs.update(name=name, level=level, players=players, target=target)
        names = [name] + list(BOT_NAMES[1:players]) if players > 2 else [name, BOT_NAMES[0]]
        bots = [None] + [level] * (players - 1)
        self.session = Session.new(players, target, names, bots, seed=self.seed_source())
        self._reset_screen()

    def resume(self, session: Session) -> None:
        self.session = session
        self._reset_screen()
        self.announcement = "Game resumed. " + " ".join(self.session.log[-1:])

    def _reset_screen(self) -> None:
        self.screen, self.selected, self.show, self.last_pegs = "table", set(), (), {}
        self.play_end = None
        self.announcement = "New game. " + " ".join(self.session.log[-1:])

    def _do_select(self, text) -> None:
        card = Card.parse(text)
        view = self.view()
        self.selected = toggle_selection(self.selected, card, view)

    def _do_confirm_discard(self, _=None) -> None:
        self._act(Action.discard(ME, self.selected))
        self.selected = set()

    def _do_play(self, text) -> None:
        self._act(Action.play(ME, Card.parse(text)))

    def _do_key(self, key: str) -> None:
        """Keyboard: 1-6 pick the nth card (select or play), Enter confirms or continues."""
        view = self.view() if self.screen == "table" else None
        meaning = key_command(key, view, self.selected, bool(self.show), self.prefs["sort"])
        if meaning:
            getattr(self, "_do_" + meaning[0].replace("-", "_"))(meaning[1])

    def _do_hint(self, _=None) -> None:
        """The coach's suggestion for the decision at hand; asking is recorded with the game."""
        if not self.hints_allowed():
            raise ParseError("hints are for games against the bots")
        view = self.view()
        hint = self.coach.hint(view)
        if hint is None:
            raise ParseError("there is nothing to choose just now")
        self.hint = hint
        self.session.used_hint(view.state_id)
        if hint.kind == "only":
            self.announcement = f"Hint: only the {hint.suits[0].name} can be played"
        elif hint.kind == "discard":
            best = hint.discard.best
            self.announcement = (f"Hint: throw {' '.join(c.name for c in sorted(best.thrown))}, "
                                 f"{float(best.value):.1f} points expected")
        else:
            rank, value = hint.values[0]
            card = next(c for c in hint.suits if c.rank == rank)
            self.announcement = f"Hint: play the {card.name}, {value:+.1f} points by the estimate"

    def _do_continue(self, _=None) -> None:
        """Past the show; in the beat before it (the play's end on the table), to the show."""
        if self.play_end is not None:
            self.open_show()
        else:
            self.show = ()

    def _do_new_game(self, _=None) -> None:
        self.session.rematch(self.seed_source())
        self._reset_screen()

    def _do_resume(self, _=None) -> None:
        if self.session is not None:
            self.screen = "table"

    def _do_menu(self, _=None) -> None:
        self.screen, self.show, self.play_end = "start", (), None

    def bot_step(self) -> None:
        """One bot move, if one is due."""
        run(self.bot_thinking())

    def bot_thinking(self):
        """`bot_step` as a generator that yields while the bot thinks (see
        `Session.bot_think`): the page runs it in slices."""
        if self.bot_waiting():
            session = self.session
            before = self.view()
            events = yield from session.bot_think()
            if events and session is self.session:
                self._take(events, before)

    def _act(self, action: Action) -> None:
        before = self.view()
        self._take(self.session.act(ME, action), before)

    def _take(self, events, before: View) -> None:
        """Show what a move did; ``before`` is the player's view from before it."""
        names = self.session.names

        def said(part) -> str:   # the play's last lines, then the show's totals
            shows = [event for event in part if event.kind in ("show", "crib")]
            played = part[:part.index(shows[0])] if shows else part
            lines = [event.describe(names) for event in played if event.kind not in ("deal", "discard")]
            totals = [f"The show: {'; '.join(show_total(event, names) for event in shows)}"] if shows else []
            return ". ".join(lines[-3:] + totals)
        if self.bring_show(events, before, self.session.state.state_id, names, said):
            return
        self.last_pegs.update(pegs_of(events))
        lines = [event.describe(names) for event in events if event.kind not in ("deal", "discard")]
        if lines:
            self.announcement = ". ".join(lines[-4:])
