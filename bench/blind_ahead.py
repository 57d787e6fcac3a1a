"""Time, in CPython, how long a blind table waits between a hand's end and the next hand's
discards, with the next hand dealt one hand ahead (web/friends/blind_ahead.py) and without.

A whole game to 61 runs in one process with tests/test_blind_wired.py's `BlindWire` (the host's
`HostTable(blind=True)` and its guests exchanging the protocol's texts). For each hand after the
first: the CPU time from the host's end of the hand before (its audit done, `end_hand`) until
every seated browser's hand waits for the discards. Every browser's work runs in this one
process, so the figure is the sum of the seats' work in that gap; at a real table the seats
shuffle, lock and unlock one after the other, so the wait is about the same (plus the messages'
trips), and a slow phone's share is several times its CPython figure (docs/blind-deal.md).

    nice -n 10 .venv/bin/python bench/blind_ahead.py --players 2 3 --think 1
    nice -n 10 .venv/bin/python bench/blind_ahead.py --players 2 3 --think 4

The people move at once (``--think 1``: the hand ahead gets only the gaps the browsers' own
work leaves) or every few rounds (``--think 4``: a move every 2 s of the table's clock, and
the host and guests work through every round). What is left of the wait when the hand ahead
is ready: each guest's audit of the hand that ended (it takes the hand's last message after
the host's audit, and the next hand's begin after that) and the views.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from game.blind.alarms import finish  # noqa: E402
from web.friends import blind_ahead  # noqa: E402
from web.friends.blind_flow import due  # noqa: E402

from test_blind_wired import BlindWire  # noqa: E402

HUMANS = {2: (1,), 3: (1, 2), 4: (1, 2, 3)}


def ready(wire: Any, hand: int) -> bool:
    """Every seated browser follows ``hand`` as the current one and waits for the discards."""
    seats = [wire.table.blind_hand] + [guest.blind_seat for guest in wire.guests.values()]
    if any(seat is None for seat in seats):
        return False
    return all((seat.setup.hand if hasattr(seat, "setup") else seat.flow.setup.hand) == hand
               and due(seat.flow).step not in ("begin", "shuffle", "lock", "unlock") for seat in seats)


def gaps(players: int, ahead: bool, seed: int, think: int) -> list[float]:
    """The CPU seconds between each hand's end and the next hand's discards, for one game."""
    wanted = blind_ahead.wanted
    if not ahead:
        blind_ahead.wanted = lambda table: False       # type: ignore[assignment]
    try:
        wire = BlindWire(players, seed=seed)
        for n, seat in enumerate(HUMANS[players]):
            wire.join(f"c{seat}", f"Friend{n}")
        wire.host.command("start-table")
        ended: list[float] = []
        found: list[float] = []
        table = wire.table
        end_hand = table.end_hand
        table.end_hand = lambda hand: (ended.append(time.process_time()), end_hand(hand))[1]  # type: ignore[method-assign]
        current, rounds = None, 0
        while table.session.state.phase != "over":
            wire.now += 0.5
            table.tick()
            for conn, guest in list(wire.guests.items()):
                for text in guest.take_outbox():
                    table.receive(conn, text)
            while table.blind_ready():
                finish(table.blind_work())
                wire.deliver()
            wire.deliver()
            for guest in wire.guests.values():
                while guest.blind_ready():
                    finish(guest.blind_work())
            hand = table.blind_hand.setup.hand if table.blind_hand is not None else None
            if len(found) < len(ended) and hand is not None and hand != current and ready(wire, hand):
                found.append(time.process_time())
                current = hand
            rounds += 1
            if rounds % think == 0:      # the people's pace: a move every ``think`` rounds
                wire.choose()
        return [b - a for a, b in zip(ended, found)]
    finally:
        blind_ahead.wanted = wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=int, default=1, help="the people move every THINK rounds (1: at once)")
    args = parser.parse_args()
    for players in args.players:
        for ahead in (False, True):
            waits = gaps(players, ahead, args.seed, args.think)
            print(f"{players} players, {'dealt ahead' if ahead else 'dealt after'}: {len(waits)} hands, "
                  f"wait from a hand's end to the next one's discards: median {statistics.median(waits):.3f} s, "
                  f"max {max(waits):.3f} s (CPU, every browser's work summed)", flush=True)


if __name__ == "__main__":
    main()
