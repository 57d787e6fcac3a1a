"""Score every four-card hand with every starter through `score_hand`; check the distribution.

    python bench/score_all_hands.py          # all 12,994,800 hands (about half a minute)
    python bench/score_all_hands.py --crib   # the same hands scored as cribs (no published table)

Prints the count of each score 0..29, the time per call, and exits 1 unless the hand counts match
the published table (for example in "The Mathematics of Cribbage" and Wikipedia's Cribbage
statistics).
"""

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.cards import DECK  # noqa: E402
from game.scoring import score_hand  # noqa: E402

PUBLISHED = [1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
             388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0, 8068, 2496, 444,
             356, 3680, 0, 0, 0, 76, 4]


def distribution(crib: bool) -> tuple[list[int], float, int]:
    counts = [0] * 30
    calls = 0
    start = time.perf_counter()
    for hand in combinations(DECK, 4):
        for starter in DECK:
            if starter not in hand:
                counts[score_hand(hand, starter, crib).total] += 1
                calls += 1
    return counts, time.perf_counter() - start, calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crib", action="store_true", help="score as cribs (4-card flushes do not count)")
    crib = parser.parse_args().crib
    counts, seconds, calls = distribution(crib)
    print(f"{'score':>5} {'hands':>10}" + ("" if crib else f" {'published':>10}"))
    for score, count in enumerate(counts):
        print(f"{score:>5} {count:>10}" + ("" if crib else f" {PUBLISHED[score]:>10}"))
    mean = sum(score * count for score, count in enumerate(counts)) / calls
    print(f"{calls:,} calls in {seconds:.1f} s: {seconds / calls * 1e6:.2f} µs per score_hand "
          f"(loop included); mean score {mean:.4f}")
    if crib:
        return 0
    ok = counts == PUBLISHED
    print("matches the published table" if ok else "DOES NOT MATCH the published table")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
