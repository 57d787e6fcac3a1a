"""Time blind-dealt hands at a table in CPython: a host (`web.friends.blind_table.BlindTable`)
and its guests (`web.friends.blind_seat.BlindSeat`) exchanging the JSON texts, at 2, 3 and 4
players with the seats of tests/test_blind_table.py (bots among them). For each hand: the CPU
time of the host's browser and of each guest's (its own work and its checks of everything
relayed), and the bytes the host sends to each guest and receives from each. With
``--games``, a whole game to 61 at each table instead: every hand audits clean, and the host's
engine replayed with the audited decks (`Ledger`) reaches the public play's scores.

    nice -n 10 .venv/bin/python bench/blind_table.py --hands 3
    nice -n 10 .venv/bin/python bench/blind_table.py --games
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.blind.alarms import Work, finish  # noqa: E402
from game.blind.public import OVER  # noqa: E402
from game.blind.seating import Setup  # noqa: E402
from game.cards import Card  # noqa: E402
from game.engine import Config  # noqa: E402
from web.friends.blind_flow import Flow, due, envelope  # noqa: E402
from web.friends.blind_seat import BlindSeat, Choose  # noqa: E402
from web.friends.blind_table import BlindTable, Ledger  # noqa: E402

TABLES = {2: (0, 1), 3: (0, 2), 4: (0, 1, 3)}


def chooser(rng: random.Random) -> Choose:
    def choose(flow: Flow, seat: int, cards: dict[int, Card]) -> tuple[int, ...]:
        public = flow.public
        if public.discarded[seat] is None:
            return tuple(rng.sample(sorted(cards), flow.setup.config.to_crib))
        fits = sorted(j for j, card in cards.items() if public.count + card.value <= 31)
        return (rng.choice(fits),) if fits else ()
    return choose


def one_hand(players: int, hand: int, rng: random.Random, dealer: int | None = None, target: int = 121,
             scores: tuple[int, ...] | None = None) -> tuple[dict[int, float], dict[int, int], dict[int, int], BlindTable]:
    """(CPU seconds by seat, bytes sent to each guest, bytes received from each guest, the table)."""
    cpu: dict[int, float] = defaultdict(float)
    sent: dict[int, int] = defaultdict(int)
    got: dict[int, int] = defaultdict(int)

    def timed(seat: int, work: Work[object]) -> object:
        start = time.process_time()
        result = finish(work)
        cpu[seat] += time.process_time() - start
        return result

    setup = Setup("room", 0, hand, players, hand % players if dealer is None else dealer, TABLES[players], 0)
    scores = scores or (0,) * Config(players=players).sides
    table = BlindTable.open(setup, target, scores, chooser(rng), chooser(rng), rng=rng)
    guests = {seat: BlindSeat.join(seat, text, rng=rng) for seat, text in table.outbox}
    choose = chooser(rng)

    def deliver() -> None:
        for seat, text in table.outbox:
            sent[seat] += len(text)
            timed(seat, guests[seat].take_text(text, hand))
        table.outbox.clear()

    table.outbox.clear()
    while due(table.flow).step != "over":
        timed(0, table.run())
        deliver()
        for seat, guest in guests.items():
            body = timed(seat, guest.next_body(choose))
            if isinstance(body, dict):
                text = envelope(hand, 1, seat, body)
                got[seat] += len(text)
                timed(0, table.receive(seat, text))
                deliver()
    assert table.flow.audit is not None and not table.flow.alarms
    return cpu, sent, got, table


def one_game(players: int, rng: random.Random) -> tuple[int, float]:
    """A whole game to 61: (hands, seconds)."""
    start, dealer, hand = time.perf_counter(), 0, 0
    ledger = Ledger(Config(players=players, target=61), first_dealer=dealer)
    scores = (0,) * ledger.config.sides
    while True:
        *_, table = one_hand(players, hand, rng, dealer, 61, scores)
        public, audit = table.flow.public, table.flow.audit
        assert audit is not None and audit.deck is not None
        engine = ledger.add(public, audit.deck)
        assert engine.scores == public.scores or public.phase == OVER and engine.winner == public.winner
        if public.phase == OVER:
            return hand + 1, time.perf_counter() - start
        scores, dealer, hand = public.scores, (dealer + 1) % players, hand + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--games", action="store_true", help="a whole game to 61 at each table")
    args = parser.parse_args()
    rng = random.Random(1)
    if args.games:
        for players in TABLES:
            hands, seconds = one_game(players, rng)
            print(f"{players} players: a game to 61 in {hands} hands, {seconds:.1f} s, every hand audited clean")
        return
    print("players | humans | host CPU a hand | a guest's CPU a hand | KiB to a guest | KiB from a guest")
    for players, humans in TABLES.items():
        runs = [one_hand(players, hand, rng) for hand in range(args.hands)]
        host = statistics.median(cpu[0] for cpu, _, _, _ in runs)
        guest = [statistics.median(cpu[s] for cpu, _, _, _ in runs) for s in humans[1:]]
        to = statistics.median(max(sent.values()) for _, sent, _, _ in runs) / 1024
        back = statistics.median(max(got.values()) for _, _, got, _ in runs) / 1024
        print(f"{players} | {len(humans)} | {host:.2f} s | {min(guest):.2f} to {max(guest):.2f} s | "
              f"{to:.0f} | {back:.0f}")


if __name__ == "__main__":
    main()
