"""Discard evaluation: which cards to keep and which to give to the crib.

Every level chooses among the same options, the view's legal discards; they differ in how
they value a kept hand:

- `beginner_value`: the points the kept cards show on their own (no starter, no crib).
- `hand_values`: the exact show value of the kept cards for every possible starter.
- `crib_values`: the expected crib for every starter rank, from the project's own table
  (`game.bots.crib_table`), counted for its owner.

>>> from game.cards import parse_cards
>>> pool = [c for c in __import__("game.cards").cards.DECK
...         if c not in parse_cards("5H 5D JS QC 2C 9D")]
>>> round(sum(hand_values(parse_cards("5H 5D JS QC"), pool)) / len(pool), 2)
12.7
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action
from ..cards import Card
from ..scoring import score_hand
from . import Thinking, crib_table, run
from .common import hand_points

if TYPE_CHECKING:
    from ..view import View

Row = tuple[Action, tuple[Card, ...], float, list[int], list[float]]
"""A discard weighed: (action, kept, mean value, per-starter hand values, per-starter crib)."""


def options(view: View) -> list[tuple[Action, tuple[Card, ...], tuple[Card, ...]]]:
    """``(action, kept, thrown)`` for every legal discard of ``view``."""
    result = []
    for action in view.legal:
        thrown = set(action.cards)
        kept = tuple(card for card in view.hand if card not in thrown)
        result.append((action, kept, action.cards))
    return result


def beginner_value(kept: Sequence[Card]) -> int:
    """What the kept cards are worth at a glance."""
    return hand_points(kept)


def hand_values(kept: Sequence[Card], pool: Iterable[Card]) -> list[int]:
    """The show value of ``kept`` with each starter in ``pool``."""
    return [score_hand(kept, starter).total for starter in pool]


def crib_sign(view: View) -> float:
    """How a crib point counts for this seat: +1 for its own side's crib, -1 for the other
    side's (-1/2 in three players, where the crib goes to one of two rivals)."""
    if view.my_crib:
        return 1.0
    return -0.5 if view.config.players == 3 else -1.0


def crib_values(view: View, thrown: Sequence[Card], pool: Iterable[Card]) -> list[float]:
    """Expected crib points (for its owner) with each starter of ``pool``, given ``thrown``."""
    dealer = view.my_crib
    if len(thrown) == 2:
        table = crib_table.pair_row(thrown[0].rank, thrown[1].rank, dealer)
    else:
        table = crib_table.single_row(view.config.players, thrown[0].rank)
    by_rank = table[1:]
    return [by_rank[starter.rank - 1] for starter in pool]


def think_values(view: View, with_crib: bool = True) -> Thinking[list[Row]]:
    """`expected_values` as a generator that yields after each option (see `levels.think`)."""
    pool = view.unseen()
    sign = crib_sign(view)
    rows: list[Row] = []
    for action, kept, thrown in options(view):
        hands = hand_values(kept, pool)
        crib = crib_values(view, thrown, pool) if with_crib else []
        values: Sequence[float] = [h + sign * c for h, c in zip(hands, crib)] if with_crib else hands
        rows.append((action, kept, sum(values) / len(values), hands, crib))
        yield None
    rows.sort(key=lambda row: -row[2])
    return rows


def expected_values(view: View, with_crib: bool = True) -> list[Row]:
    """``(action, kept, mean value, per-starter values, per-starter crib)`` for every discard,
    best first (the crib list is empty without ``with_crib``).

    The value is the kept hand's show plus, with ``with_crib``, the crib counted for its owner,
    averaged exactly over every starter this seat has not seen.
    """
    return run(think_values(view, with_crib))
