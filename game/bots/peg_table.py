"""What a kept four is worth in the play, two players: learned from self-play.

Hands that show alike can peg very differently. What self-play taught the table: as pone,
aces to fours answer, make the go and the thirty-one (each worth about half a point more
than a king), and a pair helps; as dealer, every card up to the seven pays, the five most,
and the ten-cards least. `value` is the expected
pegging points of a kept four for its holder minus the other player's, as dealer or pone,
from a linear model over a few `features` of the four (how many of each rank, pairs,
fifteens, neighbouring ranks), fitted to hard self-play (`make_peg_table`, `peg_data`).

>>> features([5, 5, 10, 11])[:3], features([5, 5, 10, 11])[13:]
((1.0, 0.0, 0.0), (1.0, 4.0, 1.0, 0.0))
>>> value([1, 2, 3, 4], "pone") > value([5, 5, 10, 13], "pone")   # low cards peg, as pone
True
"""

from __future__ import annotations

from itertools import combinations

from .peg_data import WEIGHTS

FEATURES = (("bias",) + tuple(f"rank {r}" for r in range(1, 13))
            + ("pairs", "fifteens", "neighbours", "one apart"))


def _value(rank: int) -> int:
    return min(rank, 10)


def features(ranks) -> tuple:
    """The model's inputs for a kept four (ranks 1-13; the king is the base rank)."""
    counts = [0.0] * 12
    for rank in ranks:
        if rank < 13:
            counts[rank - 1] += 1.0
    pairs = fifteens = neighbours = gaps = 0.0
    for a, b in combinations(ranks, 2):
        if a == b:
            pairs += 1
        if _value(a) + _value(b) == 15:
            fifteens += 1
        if abs(a - b) == 1:
            neighbours += 1
        elif abs(a - b) == 2:
            gaps += 1
    return (1.0, *counts, pairs, fifteens, neighbours, gaps)


def value(ranks, role: str) -> float:
    """Expected pegging points of keeping ``ranks``, ours minus the other's, for ``role``
    ("dealer" or "pone")."""
    return sum(w * x for w, x in zip(WEIGHTS[role], features(ranks)))
