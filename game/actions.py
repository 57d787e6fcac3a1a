"""What players do: the `Action` value type (discard, play; and at a table where players count
for themselves, claim, muggins and pass: docs/RULES.md) and its notation.

The go is not an action: the table says it automatically for a player who cannot play.

>>> Action.parse("0 discard 5H 5D")  # discards list their cards in order
Action.parse('0 discard 5D 5H')
>>> str(Action.play(1, Card.parse("7C")))
'1 play 7C'
>>> Action.from_json({"seat": 1, "type": "play", "cards": ["7C"]}) == Action.parse("1 play 7C")
True
>>> Action.parse("0 claim 6").points, str(Action.claim(0, 6)), Action.parse("1 muggins").kind
(6, '0 claim 6', 'muggins')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, format_cards
from .errors import ParseError, shown

DISCARD = "discard"
PLAY = "play"
CLAIM = "claim"        # the points a player says its play, hand or crib made
MUGGINS = "muggins"    # take the points a rival missed
PASS = "pass"          # let them go
KINDS = (DISCARD, PLAY, CLAIM, MUGGINS, PASS)
MAX_CLAIM = 29         # the best hand


@dataclass(frozen=True, order=True)
class Action:
    """``seat`` discards ``cards`` to the crib, plays its one card, claims ``points``, calls
    muggins or passes. Orders by seat, kind, cards, points."""

    seat: int
    kind: str
    cards: tuple[Card, ...]
    points: int = 0        # a claim's

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or not 0 <= self.seat <= 3:
            raise ParseError(f"an action's seat is 0 to 3, not {shown(self.seat)}")
        if self.kind not in KINDS:
            raise ParseError(f"an action is {', '.join(map(repr, KINDS))}, not {shown(self.kind)}")
        if type(self.points) is not int or not 0 <= self.points <= MAX_CLAIM \
                or (self.points and self.kind != CLAIM):
            raise ParseError(f"a claim is 0 to {MAX_CLAIM} points, not {shown(self.points)}")
        if self.kind in (CLAIM, MUGGINS, PASS) and self.cards != ():
            raise ParseError(f"a {self.kind} names no cards")
        if not isinstance(self.cards, tuple) or not all(isinstance(c, Card) for c in self.cards):
            raise ParseError("an action's cards must be a tuple of Card")
        if self.kind == PLAY and len(self.cards) != 1:
            raise ParseError("a play is exactly one card")
        if self.kind == DISCARD and not 1 <= len(self.cards) <= 2:
            raise ParseError("a discard is one or two cards")
        if len(set(self.cards)) != len(self.cards):
            raise ParseError("the same card twice in one discard")

    @classmethod
    def _trusted(cls, seat: int, kind: str, cards: tuple[Card, ...], points: int = 0) -> Action:
        """Build without validation: for the engine's own, already valid, actions."""
        action = object.__new__(cls)
        object.__setattr__(action, "seat", seat)
        object.__setattr__(action, "kind", kind)
        object.__setattr__(action, "cards", cards)
        object.__setattr__(action, "points", points)
        return action

    @classmethod
    def claim(cls, seat: int, points: int) -> Action:
        return cls(seat, CLAIM, (), points)

    @classmethod
    def discard(cls, seat: int, cards: Iterable[Card]) -> Action:
        return cls(seat, DISCARD, tuple(sorted(cards)))

    @classmethod
    def play(cls, seat: int, card: Card) -> Action:
        return cls(seat, PLAY, (card,))

    @property
    def card(self) -> Card:
        """The card of a play."""
        return self.cards[0]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``"0 discard 5H 5D"``, ``"1 play 7C"``, ``"0 claim 6"``, ``"1 muggins"`` or
        ``"1 pass"``; the seat and the points in ASCII digits.

        >>> Action.parse("٣ play 5H")
        Traceback (most recent call last):
        game.errors.ParseError: not an action: '٣ play 5H' (write '0 discard 5H 5D' or '1 play 7C')
        """
        words = text.split() if isinstance(text, str) else []
        short = len(words) == 2 and words[1].lower() in (MUGGINS, PASS)
        if len(words) < 3 and not short or not (words[0].isascii() and words[0].isdigit() and len(words[0]) < 4):
            raise ParseError(f"not an action: {str(text)[:40]!r} (write '0 discard 5H 5D' or '1 play 7C')")
        seat, kind = int(words[0]), words[1].lower()
        if kind == CLAIM:
            number = words[2]
            if len(words) != 3 or not (number.isascii() and number.isdigit() and len(number) < 3):
                raise ParseError(f"not a claim: {str(text)[:40]!r} (write '0 claim 6')")
            return cls(seat, CLAIM, (), int(number))
        cards = tuple(Card.parse(word) for word in words[2:])
        return cls.discard(seat, cards) if kind == DISCARD else cls(seat, kind, cards)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"seat": self.seat, "type": self.kind, "cards": [str(card) for card in self.cards]}
        if self.kind == CLAIM:
            data["points"] = self.points
        return data

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Read the dict made by `to_json`; anything else raises `ParseError`."""
        keys = {"seat", "type", "cards"} | ({"points"} if isinstance(data, dict) and data.get("type") == CLAIM else set())
        if not isinstance(data, dict) or set(data) != keys:
            raise ParseError("an action is an object with exactly: seat, type, cards (and a claim's points)")
        cards = data["cards"]
        if not isinstance(cards, list) or len(cards) > 2:
            raise ParseError("an action's cards are a list of one or two cards")
        seat, kind = data["seat"], data["type"]
        parsed = tuple(Card.parse(card) for card in cards)
        if kind == CLAIM:
            return cls(seat, CLAIM, parsed, data["points"])
        return cls.discard(seat, parsed) if kind == DISCARD else cls(seat, kind, parsed)

    def __str__(self) -> str:
        if self.kind == CLAIM:
            return f"{self.seat} claim {self.points}"
        if self.kind in (MUGGINS, PASS):
            return f"{self.seat} {self.kind}"
        return f"{self.seat} {self.kind} {format_cards(self.cards)}"

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"
