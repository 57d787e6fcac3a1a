"""What the fair deal costs, under CPython: a guest's check of one hand, the host's extra trial
move at a deal, and the bytes it adds on the wire per hand.

    nice -n 10 .venv/bin/python bench/fair_deal.py [--players 3] [--rounds 2000]

Prints the median and 95th percentile of `game.fair.hand_seed` + `check_seen` (what a guest
runs after each reveal) and of `Session.act` on the move that deals (two `apply` calls instead
of one), and the size of each fair-deal message.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import Config, deal_from, shuffled_deck  # noqa: E402
from game.fair import Round, Seen, check_reveal, check_seen, commitment  # noqa: E402
from web.friends import protocol  # noqa: E402


def figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[int(0.95 * (len(samples) - 1))]
    return f"median {statistics.median(samples) * 1e6:7.1f} µs, p95 {p95 * 1e6:7.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    config, rng = Config(players=args.players), random.Random(1)
    checks = []
    for _ in range(args.rounds):
        secret = rng.randbytes(32).hex()
        shares = tuple(rng.randbytes(32).hex() for _ in range(config.players))
        round_ = Round(0, 3, commitment(secret), shares, ("host",) + ("guest",) * (config.players - 1), secret)
        round_ = round_.stood_in()
        started = time.perf_counter()
        seed = round_.seed("room-0123456789abcdef")
        hands, extra, rest = deal_from(config, 1, shuffled_deck(seed, 3))
        seen = Seen(1, 1, frozenset(hands[1]), True, rest[0], frozenset((s, h[0]) for s, h in enumerate(hands)),
                    tuple((s, False, h[:4]) for s, h in enumerate(hands)))
        assert not check_reveal(round_, secret, ()) and not check_seen(config, seed, 3, seen)
        checks.append(time.perf_counter() - started)
    print(f"guest's check of one hand ({config.players} players): {figures(checks)}")

    from web.session import Session
    deal_moves, plain_moves = [], []
    for game in range(40):
        for fair, times in ((True, deal_moves), (False, plain_moves)):
            session = Session.new(config.players, 121, ["A", "B", "C", "D"][:config.players],
                                  [None] * config.players, seed=game)
            if fair:
                session.seed_for = lambda hand: hand * 7919
            play = random.Random(game)
            while session.state.phase != "over":
                state = session.state
                seat = next(s for s in range(config.players) if session.view(s).legal)
                action = play.choice(session.view(seat).legal)
                started = time.perf_counter()
                session.act(seat, action)
                if session.state.hand_no > state.hand_no:
                    times.append(time.perf_counter() - started)
    print(f"the move that deals, fair table:  {figures(deal_moves)}")
    print(f"the move that deals, other games: {figures(plain_moves)}")

    secret = "ab" * 32
    round_ = Round(12, 7, commitment(secret), ("cd" * 32,) * 4, ("host", "guest", "guest", "bot"), secret)
    sizes = {"fair_commit": protocol.fair_commit(round_), "fair_contribute": protocol.fair_contribute(12, 7, "cd" * 32),
             "fair_deal": protocol.fair_deal(round_), "fair_reveal": protocol.fair_reveal(round_)}
    for name, text in sizes.items():
        print(f"{name:16} {len(text.encode()):4} bytes")
    print(f"per hand and guest (4 players): {sum(len(t.encode()) for t in sizes.values())} bytes "
          f"(commit, deal and reveal received, one share sent)")

if __name__ == "__main__":
    main()
