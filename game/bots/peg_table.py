"""What a kept four is worth in the play: learned from self-play, by table size and seat.

Hands that show alike can peg very differently. What two-player self-play taught the table:
as pone, aces to fours answer, make the go and the thirty-one (each worth about half a point
more than a king), and a pair helps; as dealer, every card up to the seven pays, the five
most, and the ten-cards least. With three and four players the low cards pay at every seat
(an ace 0.3-0.8 of a point more than a king) and a kept pair costs up to 0.4.

`value` is the expected pegging points of a kept four for its holder's side minus the
others' (in three players each rival counts half, as in the pegging search), for the
holder's seat from the dealer (`ROLES`), from a linear model over a few `features` of the
four (how many of each rank, pairs, fifteens, neighbouring ranks), fitted to hard self-play
(`make_peg_table`, `peg_data`), one model per table size and seat.

>>> features([5, 5, 10, 11])[:3], features([5, 5, 10, 11])[13:]
((1.0, 0.0, 0.0), (1.0, 4.0, 1.0, 0.0))
>>> value([1, 2, 3, 4], "pone") > value([5, 5, 10, 13], "pone")   # low cards peg, as pone
True
>>> role(4, dealer=3, seat=1)
"dealer's partner"
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .peg_data import WEIGHTS

# Seats in playing order from the dealer's: the pone leads, the dealer plays last.
ROLES = {2: ("dealer", "pone"), 3: ("dealer", "pone", "third"),
         4: ("dealer", "pone", "dealer's partner", "pone's partner")}
FEATURES = (("bias",) + tuple(f"rank {r}" for r in range(1, 13))
            + ("pairs", "fifteens", "neighbours", "one apart"))


def _value(rank: int) -> int:
    return min(rank, 10)


def features(ranks: Sequence[int]) -> tuple[float, ...]:
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


def role(players: int, dealer: int, seat: int) -> str:
    """The name of ``seat``'s place at the table this hand (`ROLES`)."""
    return ROLES[players][(seat - dealer) % players]


def fitted(players: int) -> bool:
    """Whether the table holds a model for this many players."""
    return players in WEIGHTS


def value(ranks: Sequence[int], role: str, players: int = 2) -> float:
    """Expected pegging points of keeping ``ranks``, our side's minus the others', for
    ``role`` (a name from `ROLES`) at a table of ``players``."""
    return sum(w * x for w, x in zip(WEIGHTS[players][role], features(ranks)))
