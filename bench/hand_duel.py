"""Hand duels: two bots play the same single hands from both seats; the points tell them apart.

    .venv/bin/python bench/hand_duel.py --a hard --b hard-v1 --deals 400 [--discard-by hard-v1]

Each deal is a fresh two-player hand at 0-0, played twice with the seats swapped: A's points
minus B's over the two plays is one paired sample, so the luck of the cards cancels and a
few hundred deals measure a tenth of a point per hand. Pegging, hand and crib are reported
apart. ``--discard-by LEVEL`` makes both seats discard as LEVEL does, to compare pegging alone.
Whole games (`bench/bot_strength.py`) are the final word: this is the quick lever test.
"""

import argparse
import ast
import importlib
import math
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.arena import PLAY_KINDS  # noqa: E402
from game.bots import make_bot  # noqa: E402
from game.engine import Config, apply, new_game  # noqa: E402
from game.view import view  # noqa: E402


def play_hand(deal: int, levels, discard_by):
    """Points per seat by source for one hand of ``deal`` with ``levels[seat]`` bots."""
    state = new_game(Config(players=2), 900_000 + deal, first_dealer=0)
    bots = [make_bot(level, deal * 2 + seat) for seat, level in enumerate(levels)]
    points = [{"pegging": 0, "hand": 0, "crib": 0} for _ in range(2)]
    while state.phase in ("discard", "play") and state.hand_no == 0:
        for seat in range(2):
            seen = view(state, seat)
            if seen.legal:
                break
        bot = bots[seat]
        if seen.phase == "discard" and discard_by:
            bot = make_bot(discard_by, deal * 2 + seat)
        state, events = apply(state, bot.choose(seen))
        for event in events:
            if event.kind == "peg" and event.breakdown.items[0].kind in PLAY_KINDS:
                points[event.seat]["pegging"] += event.breakdown.total
            elif event.kind == "show":
                points[event.seat]["hand"] += event.breakdown.total
            elif event.kind == "crib":
                points[event.seat]["crib"] += event.breakdown.total
                return points
    return points


def duel(args):
    deal, a, b, discard_by = args
    first = play_hand(deal, (a, b), discard_by)    # A deals
    second = play_hand(deal, (b, a), discard_by)   # B deals the same cards
    return {kind: (first[0][kind] + second[1][kind]) - (first[1][kind] + second[0][kind])
            for kind in ("pegging", "hand", "crib")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="hard-v1")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--discard-by", default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="try a lever: set a constant of game.bots.MODULE (A's and B's)")
    args = parser.parse_args()
    for assignment in args.set:  # e.g. pegging.PLAUSIBLE=0 (hard-v1 lives apart, untouched)
        name, _, value = assignment.partition("=")
        module, _, constant = name.rpartition(".")
        setattr(importlib.import_module(f"game.bots.{module}"), constant, ast.literal_eval(value))
    work = [(deal, args.a, args.b, args.discard_by) for deal in range(args.deals)]
    with Pool(args.jobs) as pool:
        rows = pool.map(duel, work, chunksize=8)
    n = len(rows)
    print(f"{n} deals, each played from both seats: A = {args.a}, B = {args.b}"
          + (f", both discarding as {args.discard_by}" if args.discard_by else "")
          + "".join(f", {assignment}" for assignment in args.set))
    for kind in ("pegging", "hand", "crib", "total"):
        values = [sum(row.values()) if kind == "total" else row[kind] for row in rows]
        mean = sum(values) / n
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
        half = 1.96 * sd / math.sqrt(n) / 2
        print(f"  {kind:8} A - B per hand: {mean / 2:+.3f}  (95% CI {mean / 2 - half:+.3f} "
              f"to {mean / 2 + half:+.3f})")


if __name__ == "__main__":
    main()
