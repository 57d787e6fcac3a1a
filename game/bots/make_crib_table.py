"""Regenerate `game/bots/crib_data.py`, the expected-crib table the hard bot discards by.

    python -m game.bots.make_crib_table [--deals 1000] [--jobs 2] [--out game/bots/crib_data.py]

How (seeded, so the same arguments always write the same file):

- Two players: deal the other player six random cards; it discards the way the hard bot does,
  the best average of hand plus crib (counted for its owner) over its 46 unseen starters,
  once as pone (throwing to our crib) and once as dealer. Then for each of our 91 rank pairs
  (random suits among the cards left) every remaining starter is turned and the crib scored.
  The table keeps the average per (pair, starter rank, role), in hundredths of a point. One
  deal of the other hand serves all 91 pairs: its throw cannot depend on cards it has not
  seen, and this makes the simulation 91 times cheaper.
- The other player's crib estimate comes from the previous pass: pass 0 ignores the crib
  (a fair first guess), pass 1 uses pass 0's table. One more pass changes little.
- Three and four players: each single rank thrown; the others throw the card that leaves the
  best kept hand, and in three players the deck adds one card.

With the defaults (1,000 deals, 2 passes) it takes 30 s on two idle cores; the file is
about 15 kB. ``--deals 100`` gives a rough table in a few seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import combinations
from multiprocessing import Pool

from ..cards import DECK, Card
from ..scoring import score_hand
from .common import PAIR_INDEX, PAIRS
from .crib_table import CribRow

OUT = "game/bots/crib_data.py"
SUITS = "CDHS"


def _best_throw(hand: Sequence[Card], pool: Sequence[Card], sign: int,
                rows: Sequence[CribRow] | None) -> tuple[Card, ...]:
    """The two cards ``hand`` (six cards) throws: best mean of hand + sign * crib."""
    best: tuple[Card, ...] | None = None
    best_value: float | None = None
    for thrown in combinations(hand, 2):
        kept = [card for card in hand if card not in thrown]
        value = 0.0
        for starter in pool:
            value += score_hand(kept, starter).total
        if rows is not None:
            a, b = thrown[0].rank, thrown[1].rank
            by_rank = rows[PAIR_INDEX[(a, b) if a <= b else (b, a)]][1:]
            value += sign * sum(by_rank[starter.rank - 1] for starter in pool)
        if best_value is None or value > best_value:
            best, best_value = thrown, value
    assert best is not None   # six cards: fifteen throws weighed
    return best


def _best_single(hand: Sequence[Card], pool: Sequence[Card]) -> Card:
    """The one card a five-card hand throws in 3-4 players: the best kept hand."""
    best: Card | None = None
    best_value = -1
    for card in hand:
        kept = [other for other in hand if other is not card]
        value = sum(score_hand(kept, starter).total for starter in pool)
        if value > best_value:
            best, best_value = card, value
    assert best is not None   # five cards: five throws weighed
    return best


def _my_cards(rng: random.Random, ranks: Iterable[int], busy: Collection[Card]) -> list[Card] | None:
    """Cards of ``ranks`` (random suits) that are not in ``busy``."""
    cards: list[Card] = []
    for rank in ranks:
        free = [card for card in DECK if card.rank == rank and card not in busy
                and card not in cards]
        if not free:
            return None  # the other hand holds that rank already: this pair cannot be ours
        cards.append(rng.choice(free))
    return cards


def pair_job(args: tuple[int, int, dict[bool, list[CribRow]] | None, int],
             ) -> tuple[dict[bool, list[float]], dict[bool, list[int]]]:
    """Crib sums by (pair, starter rank) over a batch of the other player's hands.

    One six-card hand for the other player serves every one of our 91 pairs: its throw does
    not depend on our cards (it has not seen them), so it is computed once per role.
    """
    batch, deals, rows, pass_no = args
    rng = random.Random(f"crib-table/{pass_no}/{batch}")
    sums = {True: [0.0] * (91 * 14), False: [0.0] * (91 * 14)}
    counts = {True: [0] * (91 * 14), False: [0] * (91 * 14)}
    for _ in range(deals):
        other_hand = rng.sample(DECK, 6)
        pool = [card for card in DECK if card not in other_hand]
        for dealer in (True, False):
            # The other player throws to our crib as pone (sign -1), or to its own as dealer.
            their_rows = None if rows is None else rows[not dealer]
            theirs = list(_best_throw(other_hand, pool, -1 if dealer else 1, their_rows))
            total, seen = sums[dealer], counts[dealer]
            for index, pair in enumerate(PAIRS):
                mine = _my_cards(rng, pair, other_hand)
                if mine is None:
                    continue
                crib = mine + theirs
                for starter in pool:
                    if starter not in mine:
                        total[index * 14 + starter.rank] += score_hand(crib, starter, True).total
                        seen[index * 14 + starter.rank] += 1
    return sums, counts


def single_job(args: tuple[int, int, int]) -> tuple[list[float], list[int]]:
    """Crib sums by (rank thrown, starter rank) at a 3- or 4-player table, for one batch."""
    batch, players, deals = args
    rng = random.Random(f"crib-table/single/{players}/{batch}")
    sums, counts = [0.0] * (13 * 14), [0] * (13 * 14)
    for _ in range(deals):
        dealt = rng.sample(DECK, 5 * (players - 1) + (players == 3))
        crib = [_best_single(dealt[5 * i:5 * i + 5], [c for c in DECK if c not in dealt[5 * i:5 * i + 5]])
                for i in range(players - 1)]
        if players == 3:
            crib.append(dealt[-1])  # the card from the deck
        for rank in range(1, 14):
            mine = _my_cards(rng, (rank,), dealt)
            if mine is None:
                continue
            for starter in DECK:
                if starter not in dealt and starter != mine[0]:
                    sums[(rank - 1) * 14 + starter.rank] += score_hand(crib + mine, starter, True).total
                    counts[(rank - 1) * 14 + starter.rank] += 1
    return sums, counts


def _average(results: Sequence[tuple[Sequence[float], Sequence[int]]], rows: int) -> list[int]:
    """Merge batch sums into a flat table of hundredths, 13 starter ranks per row."""
    sums = [sum(x) for x in zip(*(r[0] for r in results))]
    counts = [sum(x) for x in zip(*(r[1] for r in results))]
    return [round(100 * sums[i * 14 + s] / counts[i * 14 + s]) for i in range(rows) for s in range(1, 14)]


def _as_rows(flat: Sequence[int]) -> list[CribRow]:
    return [(None, *(x / 100 for x in flat[13 * i:13 * i + 13])) for i in range(len(PAIRS))]


BATCH = 25


def build(deals: int, jobs: int, passes: int = 2,
          log: Callable[[str], object] = print) -> dict[str, list[int]]:
    """Compute the tables: ``{"PAIRS_DEALER": [...], "PAIRS_PONE": [...], "SINGLE_3P": ...}``."""
    batches = range(max(1, deals // BATCH))
    with Pool(jobs) as pool:
        rows: dict[bool, list[CribRow]] | None = None
        for pass_no in range(passes):
            start = time.perf_counter()
            results = pool.map(pair_job, [(b, BATCH, rows, pass_no) for b in batches])
            dealer = _average([(r[0][True], r[1][True]) for r in results], len(PAIRS))
            pone = _average([(r[0][False], r[1][False]) for r in results], len(PAIRS))
            rows = {True: _as_rows(dealer), False: _as_rows(pone)}
            log(f"pass {pass_no}: {time.perf_counter() - start:.0f} s")
        singles: dict[int, list[int]] = {}
        for players in (3, 4):
            sums = pool.map(single_job, [(b, players, BATCH) for b in batches])
            singles[players] = _average(sums, 13)
    return {"PAIRS_DEALER": dealer, "PAIRS_PONE": pone,
            "SINGLE_3P": singles[3], "SINGLE_4P": singles[4]}


def render(tables: dict[str, list[int]], deals: int) -> str:
    """The text of crib_data.py: 13 numbers (starter ranks A..K) per line."""
    lines = [f'"""Expected crib points in hundredths, by thrown ranks and starter rank A..K.\n\n'
             f'Generated by ``python -m game.bots.make_crib_table --deals {deals}``; do not edit.\n'
             f'See `game.bots.crib_table` for the layout.\n"""\n', "SCALE = 100\n"]
    for name, flat in tables.items():
        lines.append(f"\n{name} = (")
        for i in range(0, len(flat), 13):
            lines.append("    " + ", ".join(str(x) for x in flat[i:i + 13]) + ",")
        lines.append(")\n")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="hands dealt to the other player(s)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tables = build(args.deals, args.jobs, log=lambda text: print(text, file=sys.stderr))
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(render(tables, args.deals))
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
