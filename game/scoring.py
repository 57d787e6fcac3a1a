"""Cribbage scoring as data: the show (hand and crib) and the play, itemised.

Every score is a `Breakdown`: a tuple of `ScoreItem` (kind, cards, points) with a ``total``.
The UI, the logs, the tests and the bots all read the same object.

>>> from game.cards import parse_cards, Card
>>> b = score_hand(parse_cards("5H 5D 5C JS"), Card.parse("5S"))
>>> b.total, b.points_by_kind()["fifteen"], b.points_by_kind()["nobs"]
(29, 16, 1)
>>> score_hand(parse_cards("4H 5D 6C 9S"), Card.parse("KD")).spoken()
'fifteen two, fifteen four, fifteen six, and a run of three is nine'
>>> score_play(parse_cards("7H 8D")).label()
'fifteen for 2'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import JACK, Card
from .errors import IllegalActionError, ParseError

# Counting order of the kinds in a show, and every kind the engine pegs.
SHOW_KINDS = ("fifteen", "pair", "run", "flush", "nobs")
PLAY_KINDS = ("fifteen", "thirty-one", "pair", "run")
KINDS = SHOW_KINDS + ("thirty-one", "heels", "go", "last card", "last", "claimed", "muggins")


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its ``kind``, the ``cards`` that make it and its ``points``."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def label(self) -> str:
        """A short label for a peg: ``"fifteen for 2"``, ``"pair royal for 6"``; five-card
        cribbage's first pone takes ``"three for last"``."""
        if self.kind == "last":
            return "three for last"
        return f"{_item_name(self)} for {self.points}"


class Breakdown:
    """An itemised score. Immutable; equal when the items are equal.

    ``total`` is always ready. A show breakdown made by `score_hand` lists its ``items``
    only when first asked for them, so that bots can total thousands of hands cheaply.

    >>> Breakdown([ScoreItem("go", (), 1)]).total
    1
    """

    __slots__ = ("total", "_items", "_show")
    total: int
    _items: tuple[ScoreItem, ...] | None            # None until a lazy show is itemised
    _show: tuple[tuple[Card, ...], Card, bool] | None  # a lazy show's (hand, starter, crib)

    def __init__(self, items: Iterable[ScoreItem] = ()) -> None:
        items = tuple(items)
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "total", sum(item.points for item in items))
        object.__setattr__(self, "_show", None)

    @classmethod
    def _lazy_show(cls, total: int, hand: tuple[Card, ...], starter: Card, crib: bool) -> Breakdown:
        breakdown = object.__new__(cls)
        object.__setattr__(breakdown, "total", total)
        object.__setattr__(breakdown, "_items", None)
        object.__setattr__(breakdown, "_show", (hand, starter, crib))
        return breakdown

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """The combinations in counting order."""
        items = self._items
        if items is None:
            assert self._show is not None   # a lazy show keeps what it itemises
            items = _itemise_show(*self._show)
            object.__setattr__(self, "_items", items)
        return items

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Breakdown is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Breakdown) and self.items == other.items

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return f"Breakdown({list(self.items)!r})"

    def __bool__(self) -> bool:
        return self.total > 0

    def points_by_kind(self) -> dict[str, int]:
        """Points added up per kind, in counting order: ``{"fifteen": 4, "pair": 2}``."""
        totals: dict[str, int] = {}
        for item in self.items:
            totals[item.kind] = totals.get(item.kind, 0) + item.points
        return totals

    def label(self) -> str:
        """Peg label for every item: ``"fifteen for 2, pair for 2"`` (``"no points"`` if none)."""
        return ", ".join(item.label() for item in self.items) or "no points"

    def spoken(self) -> str:
        """The traditional count with running totals: ``"fifteen two, fifteen four, a pair is six"``."""
        phrases: list[str] = []
        running = runs_said = 0
        for item in self.items:
            running += item.points
            said = _number_words(running)
            if item.kind == "fifteen":
                phrases.append(f"fifteen {said}")
            elif item.kind == "run":
                runs_said += 1
                prefix = "a run" if runs_said == 1 else "another run"
                phrases.append(f"{prefix} of {_number_words(len(item.cards))} is {said}")
            elif item.kind == "nobs":
                phrases.append(f"one for his nobs is {said}")
            elif item.kind == "last":
                phrases.append(f"three for last is {said}")
            else:
                phrases.append(f"{_item_name(item, article=True)} is {said}")
        if not phrases:
            return "nineteen: no points"
        if len(phrases) > 1:
            phrases[-1] = "and " + phrases[-1]
        return ", ".join(phrases)


def _item_name(item: ScoreItem, article: bool = False) -> str:
    if item.kind == "pair":
        name = {2: "pair", 6: "pair royal", 12: "double pair royal"}.get(item.points, "pair")
        return f"a {name}" if article else name
    if item.kind == "run":
        return f"run of {len(item.cards)}"
    if item.kind in ("heels", "nobs"):
        return f"his {item.kind}"
    if item.kind == "flush":
        return "a flush" if article else "flush"
    return item.kind


_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = {20: "twenty", 30: "thirty"}


def _number_words(n: int) -> str:
    if n < 20:
        return _WORDS[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens * 10] + (f"-{_WORDS[ones]}" if ones else "")


# ---- the show -------------------------------------------------------------------------------

# A multiset of five ranks has a unique product of these primes: the key of `_RANK_POINTS`.
_PRIME = (0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_RANK_POINTS: dict[int, int] = {}  # fifteens + pairs + runs, filled on first sight of each key


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> Breakdown:
    """Score four cards with the starter, as a hand or (``crib=True``) as the crib; or the
    three cards of a five-card cribbage hand.

    Fifteens, pairs and runs depend only on the ranks, so their points come from a table
    keyed by the rank multiset; flush and nobs are checked directly. A hand's flush is as many
    points as it has cards, one more if the starter matches; a crib's only with the starter.
    The items are listed lazily (see `Breakdown`).

    >>> from game.cards import parse_cards, Card
    >>> score_hand(parse_cards("2H 4H 6H 8H"), Card.parse("KC")).total
    4
    >>> score_hand(parse_cards("2H 4H 6H 8H"), Card.parse("KC"), crib=True).total
    0
    >>> score_hand(parse_cards("2H 4H 8H"), Card.parse("KC")).total, score_hand(parse_cards("2H 4H 8H"), Card.parse("KH")).total
    (3, 4)
    """
    if len(hand) == 3 and not crib:
        return _score_three(hand, starter)
    try:
        a, b, c, d = hand
        key = (_PRIME[a.rank] * _PRIME[b.rank] * _PRIME[c.rank] * _PRIME[d.rank]
               * _PRIME[starter.rank])
    except (ValueError, TypeError, AttributeError):
        raise ParseError("a show is four cards (three in a five-card hand) and a starter") from None
    total = _RANK_POINTS.get(key)
    if total is None:
        total = _RANK_POINTS[key] = _rank_points((a.rank, b.rank, c.rank, d.rank, starter.rank))
    suit = a.suit
    if b.suit == suit and c.suit == suit and d.suit == suit:
        if starter.suit == suit:
            total += 5
        elif not crib:
            total += 4
    suit = starter.suit
    if (a.rank == JACK and a.suit == suit or b.rank == JACK and b.suit == suit
            or c.rank == JACK and c.suit == suit or d.rank == JACK and d.suit == suit):
        total += 1
    return Breakdown._lazy_show(total, tuple(hand), starter, crib)


def _score_three(hand: Sequence[Card], starter: Card) -> Breakdown:
    """`score_hand` for the three cards of a five-card cribbage hand."""
    try:
        a, b, c = hand
        key = _PRIME[a.rank] * _PRIME[b.rank] * _PRIME[c.rank] * _PRIME[starter.rank]
    except (ValueError, TypeError, AttributeError):
        raise ParseError("a show is four cards (three in a five-card hand) and a starter") from None
    # A product of four primes never equals one of five: the two sizes share the table.
    total = _RANK_POINTS.get(key)
    if total is None:
        total = _RANK_POINTS[key] = _rank_points((a.rank, b.rank, c.rank, starter.rank))
    if b.suit == a.suit and c.suit == a.suit:
        total += 4 if starter.suit == a.suit else 3
    total += sum(1 for card in hand if card.rank == JACK and card.suit == starter.suit)
    return Breakdown._lazy_show(total, tuple(hand), starter, False)


def _rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of four or five ranks, by brute force (once per rank multiset)."""
    values = [min(rank, 10) for rank in ranks]
    fifteens = sum(1 for mask in range(1, 1 << len(ranks))
                   if sum(v for i, v in enumerate(values) if mask >> i & 1) == 15)
    counts = [0] * 15
    for rank in ranks:
        counts[rank] += 1
    pairs = sum(n * (n - 1) for n in counts)  # 2 points for each of n*(n-1)/2 pairs
    runs = 0
    for start, length in _run_spans(counts):
        product = 1
        for rank in range(start, start + length):
            product *= counts[rank]
        runs += length * product
    return 2 * fifteens + pairs + runs


def _run_spans(counts: list[int]) -> Iterator[tuple[int, int]]:
    """(first rank, length) of each maximal span of 3+ consecutive ranks present."""
    rank = 1
    while rank <= 13:
        if counts[rank]:
            start = rank
            while rank <= 13 and counts[rank]:
                rank += 1
            if rank - start >= 3:
                yield start, rank - start
        rank += 1


def _itemise_show(hand: tuple[Card, ...], starter: Card, crib: bool) -> tuple[ScoreItem, ...]:
    cards = sorted(hand + (starter,))
    items = [ScoreItem("fifteen", combo, 2)
             for size in range(2, 6) for combo in combinations(cards, size)
             if sum(card.value for card in combo) == 15]
    items += [ScoreItem("pair", (x, y), 2) for x, y in combinations(cards, 2) if x.rank == y.rank]
    counts = [0] * 15
    for card in cards:
        counts[card.rank] += 1
    for start, length in _run_spans(counts):
        items += [ScoreItem("run", combo, length)
                  for combo in combinations(cards, length)
                  if sorted(card.rank for card in combo) == list(range(start, start + length))]
    suit = hand[0].suit
    if all(card.suit == suit for card in hand):
        if starter.suit == suit:
            items.append(ScoreItem("flush", tuple(hand) + (starter,), len(hand) + 1))
        elif not crib:
            items.append(ScoreItem("flush", tuple(hand), len(hand)))
    items += [ScoreItem("nobs", (card,), 1) for card in hand
              if card.rank == JACK and card.suit == starter.suit]
    return tuple(items)


# ---- the play -------------------------------------------------------------------------------

_PAIR_POINTS = {2: 2, 3: 6, 4: 12}


def score_play(pile: Iterable[Card]) -> Breakdown:
    """What the last card of ``pile`` (the cards laid since the last reset, oldest first) earns.

    Fifteen and thirty-one for the count, pairs and runs for the cards at the end of the pile.
    The go and last-card points are the engine's, not this function's.

    >>> from game.cards import parse_cards
    >>> score_play(parse_cards("5H 5D 5C")).label()
    'fifteen for 2, pair royal for 6'
    >>> score_play(parse_cards("4H 6D 5C")).total
    5
    """
    pile = tuple(pile)
    if not pile:
        raise ParseError("score_play needs at least one card")
    count = sum(card.value for card in pile)
    if count > 31:
        raise IllegalActionError(f"the count would be {count}: it may not pass 31")
    last = pile[-1]
    items = []
    if count == 15:
        items.append(ScoreItem("fifteen", pile, 2))
    elif count == 31:
        items.append(ScoreItem("thirty-one", pile, 2))
    same = 1
    while same < len(pile) and pile[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem("pair", pile[-same:], _PAIR_POINTS[same]))
    for length in range(len(pile), 2, -1):
        ranks = sorted(card.rank for card in pile[-length:])
        if ranks == list(range(ranks[0], ranks[0] + length)):
            items.append(ScoreItem("run", pile[-length:], length))
            break
    return Breakdown(items)
