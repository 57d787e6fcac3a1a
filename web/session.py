"""A table in progress: the engine state, who sits in each seat (a player or a bot), the log.

Pure Python (no browser), so it is tested under CPython. The browser table drives a local
session; a multiplayer host drives the same object and sends each seat its own view.

>>> session = Session.new(players=2, target=121, names=["Ann", "Bot"], bots=[None, "easy"], seed=4)
>>> session.bot_to_move() == 1 and session.view(0).phase
'discard'
>>> events = session.bot_move()
>>> [event.kind for event in events], session.log[-1]
(['discard'], 'Bot puts cards in the crib')
>>> Session.from_json(session.to_json()).state == session.state
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from game.actions import Action
from game.bots import BOT_LEVELS, Thinking, make_bot, run
from game.codec import decode_state, encode_state, loads
from game.engine import Config, State, apply, opening, read_action
from game.errors import IllegalActionError, ParseError
from game.events import Event, side_name
from game.view import View, view

SCHEMA = 1
LOG_LINES = 400
MAX_HINTS = 500
MAX_NAME = 24


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters, never empty."""
    text = "".join(ch for ch in str(name or "") if ch.isprintable()).strip()[:MAX_NAME]
    return text or fallback


class Session:
    """The engine state plus the table around it. Not frozen: it is the one mutable owner."""

    def __init__(self, state: State, names: Sequence[object], bots: Sequence[str | None], log: Iterable[str] = (),
                 hints: Iterable[object] = ()) -> None:
        players = state.config.players
        if len(names) != players or len(bots) != players:
            raise ParseError("a table lists a name and a bot level (or none) for every seat")
        if any(level is not None and level not in BOT_LEVELS for level in bots):
            raise ParseError(f"bot levels are {', '.join(BOT_LEVELS)}")
        self.state = state
        self.names = [clean_name(name, f"Seat {seat + 1}") for seat, name in enumerate(names)]
        self.bots = list(bots)
        self.log = list(log)[-LOG_LINES:]
        self.hints = [n for n in hints if type(n) is int and 0 <= n <= len(state.actions)][:MAX_HINTS]
        # fair tables: hand_no -> the seed to deal it from (web.friends.fair_host)
        self.seed_for: Callable[[int], int] | None = None

    @classmethod
    def new(cls, players: int, target: int, names: Sequence[str], bots: Sequence[str | None], seed: int,
            match_wins: int = 1, hand_seeds: Iterable[int] = (), variant: str = "standard",
            muggins: bool = False) -> Session:
        config = Config(players=players, target=target, match_wins=match_wins, variant=variant,
                        muggins=muggins)
        state, events = opening(config, seed, hand_seeds=hand_seeds)
        session = cls(state, names, bots)
        session.record(events)
        return session

    # -- reading --

    @property
    def config(self) -> Config:
        return self.state.config

    def view(self, seat: int) -> View:
        return view(self.state, seat)

    def side_names(self) -> list[str]:
        return [side_name(self.names, side) for side in range(self.config.sides)]

    def bot_to_move(self) -> int | None:
        """The first bot seat with something to do now, if any."""
        for seat, level in enumerate(self.bots):
            if level is not None and view(self.state, seat).legal:
                return seat
        return None

    # -- changing --

    def act(self, seat: int, action: object) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat``; the seat is the caller's, never the action's claim."""
        action = read_action(action)
        if action.seat != seat:
            raise IllegalActionError("you can only act for your own seat")
        # A fair table's next hand gets its seed as it is dealt (web.friends.fair_table).
        self.state, events = apply(self.state, action, seed_for=self.seed_for)
        self.record(events)
        return events

    def bot_move(self) -> tuple[Event, ...]:
        """Let the next bot act; returns its events (empty when no bot has anything to do)."""
        return run(self.bot_think())

    def bot_think(self) -> Thinking[tuple[Event, ...]]:
        """`bot_move` as a generator that yields while the bot thinks (the page pauses there
        to stay responsive) and returns the events (``()``: nothing was played)."""
        choice = yield from self.bot_choice()
        return () if choice is None else self.act(*choice)

    def bot_choice(self) -> Thinking[tuple[int, Action] | None]:
        """The next bot's move as ``(seat, action)``, thought out in a generator that yields
        while the bot thinks; None if no bot is to move, or if the table moved on meanwhile (a
        person acted, a new game): the thought is dropped. The caller plays it."""
        seat = self.bot_to_move()
        if seat is None:
            return None
        state, level = self.state, self.bots[seat]
        assert level is not None, "bot_to_move names a bot's seat"
        bot = make_bot(level, seed=state.seed * 4 + seat)
        thought = yield from bot.think(view(state, seat))
        return None if self.state is not state else (seat, thought.action)

    def used_hint(self, state_id: int) -> None:
        """The player asked the coach about the decision at ``state_id`` (kept with the game)."""
        if state_id not in self.hints and len(self.hints) < MAX_HINTS:
            self.hints.append(state_id)

    def rematch(self, seed: int, hand_seeds: Iterable[int] = ()) -> None:
        """A new game at the same table, with the same players and bots."""
        self.state, events = opening(self.config, seed, hand_seeds=hand_seeds)
        self.hints = []
        self.log.append("— new game —")
        self.record(events)

    def record(self, events: Iterable[Event]) -> None:
        names = self.names
        self.log += [event.describe(names) for event in events if event.kind != "deal"]
        del self.log[:-LOG_LINES]

    # -- saving --

    def to_json(self) -> str:
        return json.dumps({"v": SCHEMA, "state": encode_state(self.state), "names": self.names,
                           "bots": self.bots, "log": self.log, "hints": self.hints})

    @classmethod
    def from_json(cls, text: str) -> Session:
        """Rebuild a saved table; a damaged save raises `ParseError` with the reason."""
        data = loads(text, "the saved table")
        if not isinstance(data, dict) or data.get("v") != SCHEMA:
            raise ParseError("the saved table is from another version")
        log = data.get("log", [])
        if not isinstance(log, list) or not all(isinstance(line, str) for line in log):
            raise ParseError("the saved table's log is damaged")
        names, bots = data.get("names"), data.get("bots")
        if not isinstance(names, list) or not isinstance(bots, list):
            raise ParseError("the saved table's seats are damaged")
        hints = data.get("hints", [])
        if not isinstance(hints, list):
            raise ParseError("the saved table's hints are damaged")
        return cls(decode_state(data.get("state")), names, bots, log, hints)
