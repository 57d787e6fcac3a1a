"""Playing cards: the `Card` value type, its notation, and the 52-card deck.

Notation is rank letter + suit letter: ``A23456789TJQK`` and ``CDHS``.

>>> Card.parse("5H")
Card.parse('5H')
>>> str(Card.parse("10♠")), Card.parse("qd").value
('TS', 10)
>>> [str(c) for c in parse_cards("AS 10D jh")]
['AS', 'TD', 'JH']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import ParseError, shown

RANKS = "A23456789TJQK"
SUITS = "CDHS"
GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
JACK = 11


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) .. 13 (king) and ``suit`` one of ``CDHS``.

    Cards order by rank, then suit. ``value`` is the count value (faces count 10).

    >>> Card(13, "S") > Card(1, "S"), Card(12, "D").value, Card(5, "H").name
    (True, 10, 'five of hearts')
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13 or self.suit not in tuple(SUITS):
            raise ParseError(f"not a card: rank {shown(self.rank)}, suit {shown(self.suit)}")

    @property
    def value(self) -> int:
        """The count value: ace 1, two to nine their face, ten and the faces 10."""
        return min(self.rank, 10)

    @property
    def name(self) -> str:
        """The card in words, for screen readers and logs: ``"queen of spades"``."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def face(self) -> str:
        """The card as printed on its corner, for logs: ``"10♥"``, ``"Q♠"``."""
        return ("10" if self.rank == 10 else RANKS[self.rank - 1]) + GLYPHS[self.suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``5H``, ``TD``, ``10d``, ``Q♠``...; raise `ParseError` on anything else."""
        card = _BY_TEXT.get(text.strip().upper() if isinstance(text, str) else None)
        if card is None:
            if not isinstance(text, str):
                raise ParseError(f"a card is written as text like '5H', not {type(text).__name__}")
            raise ParseError(f"{text.strip()[:20]!r} is not a card: write a rank from "
                             f"A23456789TJQK (or 10) and a suit from CDHS, like '5H' or 'TD'")
        return card

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
"""The 52 cards in order (AC AD AH AS 2C ... KS)."""


def _spellings() -> dict[str, Card]:
    table = {}
    for card in DECK:
        rank_texts = [RANKS[card.rank - 1]] + (["10"] if card.rank == 10 else [])
        suit_texts = [card.suit] + [sym for sym, suit in SUIT_SYMBOLS.items() if suit == card.suit]
        for rank_text in rank_texts:
            for suit_text in suit_texts:
                table[rank_text + suit_text] = card
    return table


_BY_TEXT = _spellings()


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a space-separated list of cards: ``"5H 5D JS"`` -> three cards."""
    if not isinstance(text, str):
        raise ParseError("cards are written as text like '5H 5D JS'")
    return tuple(Card.parse(word) for word in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of `parse_cards`: ``"5H 5D JS"``."""
    return " ".join(str(card) for card in cards)
