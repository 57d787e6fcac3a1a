"""What the blind deal (game.blind) costs per hand under CPython: for each human seat, the
modular exponentiations and milliseconds of its own work (shuffle, lock, unlocks, finding its
cards, reveals), plus what its browser checks of the other seats' messages (`accept`; its own
are accepted ``made_here``, unchecked) and the audit, which every browser runs;
the bytes of JSON per hand; and the longest step of any `Work` generator (the slice a browser
cannot cut: it runs steps until its budget is spent, then gives the page a turn).

    nice -n 10 .venv/bin/python bench/blind_deal.py [--hands 3]

Tables: 2, 3 and 4 players all human (the costliest: every seat holds keys), and the test
tables with bots (their cards held by the host). The card elements are shipped precomputed
(game/blind/elements.py); what deriving them would cost is printed apart. Work is counted in
exponentiations: each `pow` modulo P as one, each product reduced modulo P in Python
(game.blind.group's fixed base, multi-exponentiation, product_of_powers) as 1/300 of one (a
`pow` with a 256-bit exponent is about 300 of them); the count costs about 2 % of the time.
"""

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import game.blind.audit  # noqa: E402
import game.blind.deck  # noqa: E402
import game.blind.group  # noqa: E402
import game.blind.local as local  # noqa: E402
import game.blind.proofs  # noqa: E402
import game.blind.transcript  # noqa: E402
import game.cards  # noqa: E402
from game.blind.seating import Setup  # noqa: E402

TABLES = [(2, (0, 1)), (3, (0, 1, 2)), (4, (0, 1, 2, 3)), (3, (0, 2)), (4, (0, 1, 3)), (4, (0, 2))]


class Meter:
    """Counts exponentiations and time for whoever is working now (a seat, or "every")."""

    def __init__(self):
        self.who = "every"
        self.pows = defaultdict(int)
        self.seconds = defaultdict(float)
        self.longest = (0.0, 0, "")         # seconds, pows, what
        self.steps = []                     # (seconds, pows) of every step

    def pow(self, *args):
        """An exponentiation modulo P (an inverse modulo Q, 256 bits, costs a thousandth of one)."""
        self.pows[self.who] += args[-1] == game.blind.group.P
        return builtin_pow(*args)

    def multiplied(self):
        """A product reduced modulo P in Python: 1/300 of an exponentiation."""
        self.pows[self.who] += 1 / 300

    def drive(self, who, what, work):
        """Run a Work generator as the browser would, step by step, timing each step."""
        self.who = who
        while True:
            pows, start = sum(self.pows.values()), time.perf_counter()
            try:
                next(work)
            except StopIteration as done:
                self.step(start, pows, what)
                self.who = "every"
                return done.value
            self.step(start, pows, what)

    def step(self, start, pows, what):
        took = time.perf_counter() - start
        self.seconds[self.who] += took
        self.steps.append((took, sum(self.pows.values()) - pows, what))
        if took > self.longest[0]:
            self.longest = (took, sum(self.pows.values()) - pows, what)


builtin_pow = pow
METER = Meter()


class Modulus(int):
    """P, telling the meter of each reduction modulo it in Python code."""

    def __rmod__(self, other):
        METER.multiplied()
        return int(other) % int(self)


def install():
    """Count every pow of game.blind, and run each seat's work and each check through the meter."""
    for module in (game.blind.audit, game.blind.deck, game.blind.group, game.blind.proofs, game.blind.transcript):
        module.pow = METER.pow
    game.blind.group.P = Modulus(game.blind.group.P)
    for name in ("shuffle", "lock", "deal_unlocks", "public_unlocks", "reveal", "own_cards"):
        original = getattr(local, name)

        def seat_work(*args, original=original, name=name):
            value = METER.drive(args[1].seat, name, original(*args))
            return iter_value(value)
        setattr(local, name, seat_work)
    original_accept, original_audit = local.accept, local.audit

    def accept(hand, message):          # charged to the sender: its own browser skips it (made_here)
        return iter_value(METER.drive(f"from {message['seat']}", "accept", original_accept(hand, message)))

    def audit(hand):
        return iter_value(METER.drive("every", "audit", original_audit(hand)))
    local.accept, local.audit = accept, audit


def iter_value(value):
    """A finished Work: `finish` in local.py takes it back at once."""
    return value
    yield


def one_hand(players, humans, seed):
    METER.pows.clear()
    METER.seconds.clear()
    setup = Setup("bench-table", 0, seed, players, seed % players, humans, humans[0])
    start = time.perf_counter()
    run = local.play_hand(setup, random.Random(seed))
    assert run.alarms == (), run.alarms
    wall = time.perf_counter() - start
    sizes = defaultdict(int)
    for text in run.sent:
        sizes[json.loads(text)["step"]] += len(text)
    return dict(METER.pows), dict(METER.seconds), sizes, wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    for card in game.cards.DECK:
        game.blind.group.derive_element(card)
    print(f"card elements (shipped, not computed by a page): 52 pows of 1792 bits would take "
          f"{(time.perf_counter() - start) * 1e3:.0f} ms")
    x = game.blind.group.G
    start = time.perf_counter()
    for _ in range(50):
        x = builtin_pow(x, game.blind.group.Q - 5, game.blind.group.P)
    print(f"one pow (256-bit exponent mod the 2048-bit P): {(time.perf_counter() - start) / 50 * 1e3:.2f} ms\n")
    install()
    print("players humans | per seat: own pows / ms (host first, then each friend) | per seat: checks of the others'"
          " messages, pows | checks of every message (no made_here) | audit pows | a seat's total ms (the most)"
          " | JSON bytes per hand | wall s")
    for players, humans in TABLES:
        results = [one_hand(players, humans, seed) for seed in range(args.hands)]

        def median(who, index, results=results):
            return statistics.median(r[index].get(who, 0) for r in results)
        checks = {seat: sum(median(f"from {s}", 0) for s in humans if s != seat) for seat in humans}
        checks_ms = {seat: sum(median(f"from {s}", 1) for s in humans if s != seat) * 1e3 for seat in humans}
        every = sum(median(f"from {s}", 0) for s in humans)
        total = max(median(s, 1) * 1e3 + checks_ms[s] + median("every", 1) * 1e3 for s in humans)
        size = statistics.median(sum(r[2].values()) for r in results)
        seats = "  ".join(f"{int(median(s, 0))}/{median(s, 1) * 1e3:.0f}" for s in humans)
        print(f"{players} {','.join(map(str, humans)):7} | {seats:34} | {' '.join(str(int(checks[s])) for s in humans)}"
              f" | {int(every)} | {int(median('every', 0))} | {total:.0f} | {size / 1024:.0f} KiB | "
              f"{statistics.median(r[3] for r in results):.1f}")
        parts = results[0][2]
        print("   bytes by step: " + ", ".join(f"{step} {parts[step] / 1024:.1f} KiB" for step in sorted(parts)))
    took, pows, what = METER.longest
    times = sorted(t for t, _, _ in METER.steps)
    most = max(METER.steps, key=lambda step: step[1])
    print(f"\nsteps of the Work generators: {len(times)}, the most pows in one {most[1]:.1f} (in {most[2]}), "
          f"median {statistics.median(times) * 1e3:.1f} ms, 99th percentile {times[int(0.99 * len(times))] * 1e3:.1f} ms, "
          f"longest {took * 1e3:.1f} ms ({pows} pows, in {what}; a long one with few pows is the machine's load)")


if __name__ == "__main__":
    main()
