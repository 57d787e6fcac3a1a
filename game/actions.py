"""What players do: the `Action` value type (discard, play) and its notation.

The go is not an action: the table says it automatically for a player who cannot play.

>>> Action.parse("0 discard 5H 5D")  # discards list their cards in order
Action.parse('0 discard 5D 5H')
>>> str(Action.play(1, Card.parse("7C")))
'1 play 7C'
>>> Action.from_json({"seat": 1, "type": "play", "cards": ["7C"]}) == Action.parse("1 play 7C")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, format_cards
from .errors import ParseError, shown

DISCARD = "discard"
PLAY = "play"
KINDS = (DISCARD, PLAY)


@dataclass(frozen=True, order=True)
class Action:
    """``seat`` discards ``cards`` to the crib, or plays its one card. Orders by seat, kind, cards."""

    seat: int
    kind: str
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or not 0 <= self.seat <= 3:
            raise ParseError(f"an action's seat is 0 to 3, not {shown(self.seat)}")
        if self.kind not in KINDS:
            raise ParseError(f"an action is 'discard' or 'play', not {shown(self.kind)}")
        if not isinstance(self.cards, tuple) or not all(isinstance(c, Card) for c in self.cards):
            raise ParseError("an action's cards must be a tuple of Card")
        if self.kind == PLAY and len(self.cards) != 1:
            raise ParseError("a play is exactly one card")
        if self.kind == DISCARD and not 1 <= len(self.cards) <= 2:
            raise ParseError("a discard is one or two cards")
        if len(set(self.cards)) != len(self.cards):
            raise ParseError("the same card twice in one discard")

    @classmethod
    def _trusted(cls, seat: int, kind: str, cards: tuple[Card, ...]) -> Action:
        """Build without validation: for the engine's own, already valid, actions."""
        action = object.__new__(cls)
        object.__setattr__(action, "seat", seat)
        object.__setattr__(action, "kind", kind)
        object.__setattr__(action, "cards", cards)
        return action

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
        """Read ``"0 discard 5H 5D"`` or ``"1 play 7C"``; the seat in ASCII digits.

        >>> Action.parse("٣ play 5H")
        Traceback (most recent call last):
        game.errors.ParseError: not an action: '٣ play 5H' (write '0 discard 5H 5D' or '1 play 7C')
        """
        words = text.split() if isinstance(text, str) else []
        if len(words) < 3 or not (words[0].isascii() and words[0].isdigit() and len(words[0]) < 4):
            raise ParseError(f"not an action: {str(text)[:40]!r} (write '0 discard 5H 5D' or '1 play 7C')")
        seat, kind = int(words[0]), words[1].lower()
        cards = tuple(Card.parse(word) for word in words[2:])
        return cls.discard(seat, cards) if kind == DISCARD else cls(seat, kind, cards)

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "type": self.kind, "cards": [str(card) for card in self.cards]}

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Read the dict made by `to_json`; anything else raises `ParseError`."""
        if not isinstance(data, dict) or set(data) != {"seat", "type", "cards"}:
            raise ParseError("an action is an object with exactly: seat, type, cards")
        cards = data["cards"]
        if not isinstance(cards, list) or len(cards) > 2:
            raise ParseError("an action's cards are a list of one or two cards")
        seat, kind = data["seat"], data["type"]
        parsed = tuple(Card.parse(card) for card in cards)
        return cls.discard(seat, parsed) if kind == DISCARD else cls(seat, kind, parsed)

    def __str__(self) -> str:
        return f"{self.seat} {self.kind} {format_cards(self.cards)}"

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"
