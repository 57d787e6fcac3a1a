"""Who is at a blind-dealt hand, which deck positions it uses, who holds the key to each, and
each human seat's secret keys for the hand.

The deck is dealt as `game.engine.deal_from` deals it, so position ``j`` is the engine's
``deck[j]``: the dealt cards, the 3-player crib card, then the starter. Only those `Setup.used`
positions are ever locked and unlocked. A position dealt to a bot is held by the host's human
seat (the host's browser runs the bots); the crib card and the starter by no one until every
human seat unlocks them in public.

>>> setup = Setup("room", 0, 0, players=3, dealer=2, humans=(0, 1), host=0)
>>> setup.used, setup.starter, setup.extra, setup.dealt_to(0), setup.keyholder(2)
(17, 16, 15, 0, 0)
>>> setup.keyholder(15) is None, setup.positions_of(1)
(True, (1, 4, 7, 10, 13))
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from functools import cache

from game.cards import DECK
from game.engine import Config, deal_from
from game.errors import ParseError, shown

from .group import Q, read_scalar, scalar_text

SIZE = len(DECK)


@dataclass(frozen=True)
class Setup:
    """One hand: the ``table`` id, the ``game`` and ``hand`` numbers (as `game.fair` counts
    them), the number of ``players``, the ``dealer``, the ``humans`` (the seats whose browsers
    hold keys, in seat order) and the ``host`` (a human seat: it runs the bots)."""

    table: str
    game: int
    hand: int
    players: int
    dealer: int
    humans: tuple[int, ...]
    host: int

    def __post_init__(self) -> None:
        config = Config(players=self.players)
        config.check_seat(self.dealer)
        if not isinstance(self.table, str) or not 0 < len(self.table) <= 64:
            raise ParseError("a table id is 1 to 64 characters")
        if any(type(n) is not int or not 0 <= n < 2**31 for n in (self.game, self.hand)):
            raise ParseError(f"a game and a hand are whole numbers, not {shown(self.game)}, {shown(self.hand)}")
        if not isinstance(self.humans, tuple) or any(type(s) is not int or not 0 <= s < self.players
                                                     for s in self.humans) \
                or list(self.humans) != sorted(set(self.humans)) or type(self.host) is not int \
                or self.host not in self.humans:
            raise ParseError("the human seats are distinct seats of the table in order, the host's among them")

    @property
    def config(self) -> Config:
        return Config(players=self.players)

    def to_json(self) -> dict[str, object]:
        """The hand's setup as JSON (what a browser keeps, with the hand's messages and its `Keys`,
        to rebuild the transcript after a reload: `game.blind.transcript.replay`)."""
        return {"table": self.table, "game": self.game, "hand": self.hand, "players": self.players,
                "dealer": self.dealer, "humans": list(self.humans), "host": self.host}

    @classmethod
    def from_json(cls, data: object) -> Setup:
        """Read `to_json` output; anything else raises `ParseError`.

        >>> setup = Setup("room", 0, 4, 3, 2, (0, 2), 0)
        >>> Setup.from_json(setup.to_json()) == setup
        True
        >>> Setup.from_json({**setup.to_json(), "humans": [2, 0]})
        Traceback (most recent call last):
        game.errors.ParseError: the human seats are distinct seats of the table in order, the host's among them
        """
        if not isinstance(data, dict) or set(data) != {"table", "game", "hand", "players", "dealer", "humans", "host"} \
                or not isinstance(data["humans"], list) or len(data["humans"]) > 4:
            raise ParseError("a hand's setup has a table, game, hand, players, dealer, humans and host")
        return cls(data["table"], data["game"], data["hand"], data["players"], data["dealer"], tuple(data["humans"]),
                   data["host"])

    @property
    def used(self) -> int:
        """How many positions the hand uses: 13, 17 or 21 for 2, 3 or 4 players."""
        config = self.config
        return config.dealt * self.players + (1 if self.players == 3 else 0) + 1

    @property
    def starter(self) -> int:
        return self.used - 1

    @property
    def extra(self) -> int | None:
        """The 3-player crib card's position (None at 2 and 4 players)."""
        return self.used - 2 if self.players == 3 else None

    def dealt_to(self, position: int) -> int | None:
        """The seat the position is dealt to (None for the crib card and the starter)."""
        return _deals(self.players, self.dealer)[position]

    def keyholder(self, position: int) -> int | None:
        """The human seat that alone learns the position's card at the deal: its seat, or the host for
        a bot's card; None for the crib card and the starter."""
        seat = self.dealt_to(position)
        return seat if seat is None or seat in self.humans else self.host

    def positions_of(self, seat: int) -> tuple[int, ...]:
        """The positions dealt to ``seat``, in the order the engine deals them."""
        return tuple(j for j in range(self.used) if self.dealt_to(j) == seat)

    def context(self, seat: int, step: str, position: int) -> str:
        """What a proof is bound to: table, game, hand, seat, step and position."""
        return f"{self.table}/{self.game}/{self.hand}/{seat}/{step}/{position}"


@cache
def _deals(players: int, dealer: int) -> tuple[int | None, ...]:
    hands, extra, rest = deal_from(Config(players=players), dealer, DECK)
    owner: dict[int, int | None] = {DECK.index(card): seat for seat, cards in enumerate(hands) for card in cards}
    used = len(owner) + (1 if extra else 0) + 1
    return tuple(owner.get(j) for j in range(used))


@dataclass(frozen=True)
class Keys:
    """A human seat's secrets for one hand: the ``shuffle`` key and a ``locks`` key per used
    position, each from 1 to Q - 1."""

    seat: int
    shuffle: int
    locks: tuple[int, ...]

    def __repr__(self) -> str:   # never print a secret by accident
        return f"Keys(seat={self.seat}, ...)"

    def to_json(self) -> dict[str, object]:
        """The keys as the ``keys`` message publishes them at the end of the hand (and as a
        browser keeps them, to carry on after a reload)."""
        return {"step": "keys", "seat": self.seat, "shuffle": scalar_text(self.shuffle),
                "locks": [scalar_text(k) for k in self.locks]}

    @classmethod
    def from_json(cls, data: object, used: int) -> Keys:
        """Read `to_json` output for a hand of ``used`` positions; damage raises `ParseError`.

        >>> keys = new_keys(Setup("room", 0, 0, 2, 0, (0, 1), 0), 1)
        >>> Keys.from_json(keys.to_json(), 13) == keys
        True
        """
        if not isinstance(data, dict) or set(data) != {"step", "seat", "shuffle", "locks"} \
                or data["step"] != "keys" or type(data["seat"]) is not int or not 0 <= data["seat"] <= 3:
            raise ParseError("keys are a step, a seat, a shuffle key and locks")
        locks = data["locks"]
        if not isinstance(locks, list) or len(locks) != used:
            raise ParseError(f"a seat's locks are a list of {used}")
        return cls(data["seat"], read_scalar(data["shuffle"], "a shuffle key"),
                   tuple(read_scalar(k, "a lock key") for k in locks))


def new_keys(setup: Setup, seat: int, rng: random.Random | None = None) -> Keys:
    """Fresh keys for ``seat``, from the system's cryptographic generator (the browser's
    ``crypto.getRandomValues`` under Pyodide) unless a test passes a seeded ``rng``.

    >>> setup = Setup("room", 0, 0, 2, 0, (0, 1), 0)
    >>> len(new_keys(setup, 1).locks)
    13
    """
    rng = rng or secrets.SystemRandom()
    return Keys(seat, rng.randrange(1, Q), tuple(rng.randrange(1, Q) for _ in range(setup.used)))
