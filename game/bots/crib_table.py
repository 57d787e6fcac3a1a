"""The expected crib, looked up in the table the project computes itself.

The numbers live in `game.bots.crib_data` (a plain Python literal, so the browser imports it
like any module); `python -m game.bots.make_crib_table` regenerates that file.

- Two players: for each pair of ranks thrown and each starter rank, the average crib when the
  pair goes to one's own crib (``dealer``) or to the opponent's, with the other player
  discarding the way a good player does.
- Three and four players: for each single rank thrown and each starter rank, the average crib.

>>> row = pair_row(5, 5, dealer=True)
>>> row[0], row[5] > row[10] > row[1] > 6   # index 0 unused; a 5 or a ten starter helps 5-5
(None, True)
>>> # The dealer adds good cards to its own crib, so 5-5 from the pone is worth even more.
>>> pair_row(5, 5, False)[10] > pair_row(5, 5, True)[10] > pair_row(10, 13, False)[10]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from . import crib_data
from .common import PAIR_INDEX, PAIRS

CribRow = tuple[None, *tuple[float, ...]]
"""Expected crib points by starter rank: index 0 unused (None), then ranks 1 (ace) to 13."""


def _rows(flat: Sequence[int], count: int) -> tuple[CribRow, ...]:
    """Split a flat tuple of hundredths into ``count`` rows indexed by starter rank 1..13."""
    scale = crib_data.SCALE
    return tuple((None, *(x / scale for x in flat[13 * i:13 * i + 13])) for i in range(count))


_DEALER = _rows(crib_data.PAIRS_DEALER, len(PAIRS))
_PONE = _rows(crib_data.PAIRS_PONE, len(PAIRS))
_SINGLE = {3: _rows(crib_data.SINGLE_3P, 13), 4: _rows(crib_data.SINGLE_4P, 13)}


def pair_index(rank_a: int, rank_b: int) -> int:
    """The row of a thrown pair, in any order."""
    return PAIR_INDEX[(rank_a, rank_b) if rank_a <= rank_b else (rank_b, rank_a)]


def pair_row(rank_a: int, rank_b: int, dealer: bool) -> CribRow:
    """Expected crib by starter rank (index 1..13) when these two ranks are thrown in two
    players, by the dealer (``dealer=True``) or by the pone."""
    return (_DEALER if dealer else _PONE)[pair_index(rank_a, rank_b)]


def single_row(players: int, rank: int) -> CribRow:
    """Expected crib by starter rank when a single ``rank`` is thrown (3 or 4 players)."""
    return _SINGLE[players][rank - 1]


def pair_mean(rank_a: int, rank_b: int, dealer: bool) -> float:
    """The expected crib over all starters (each rank weighted by its four suits)."""
    row = pair_row(rank_a, rank_b, dealer)
    return sum(row[1:]) / 13
