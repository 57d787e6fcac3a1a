"""A bot's decision times under CPython, and the longest slice between its pauses.

    .venv/bin/python bench/bot_times.py --level hard --players 2 --games 4

Plays ``--games`` self-play games and times every decision with more than one legal action
(`Bot.think` driven to its end), in CPU time of this process (``time.process_time``), so a
busy machine inflates the figures less than wall time would. A *slice* is the work between two
pauses of `Bot.think`: the page lets the browser run between slices (`web.dom.THINK_SLICE`), so
the longest slice bounds how long a bot can block the page. Pyodide in Chromium runs the same
code some 1.5 to 3 times slower (`bench/bot_browser.py` measures it there).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.bots import make_bot  # noqa: E402
from game.engine import Config, apply, new_game  # noqa: E402
from game.view import view  # noqa: E402


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times = {"discard": [], "play": []}
    slices = []
    clock = time.process_time
    for game in range(args.games):
        config = Config(players=args.players)
        state = new_game(config, args.seed * 1000 + game)
        bots = [make_bot(args.level, game * 4 + seat) for seat in range(args.players)]
        while state.phase != "over":
            seat = next(s for s in range(args.players) if view(state, s).legal)
            seen = view(state, seat)
            steps = bots[seat].think(seen)
            start = last = clock()
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    action = done.value.action
                    break
                now = clock()
                slices.append(now - last)
                last = now
            end = clock()
            slices.append(end - last)
            if len(seen.legal) > 1:
                times[seen.phase].append(end - start)
            state, _ = apply(state, action)
    print(f"{args.level}, {args.players} players, {args.games} games, CPython CPU time")
    for phase, values in times.items():
        print(f"  {phase:7} n={len(values):5}  median {1000 * quantile(values, 0.5):6.1f} ms  "
              f"p95 {1000 * quantile(values, 0.95):6.1f} ms  max {1000 * max(values):6.1f} ms")
    print(f"  slices  n={len(slices):5}  p95 {1000 * quantile(slices, 0.95):6.1f} ms  "
          f"max {1000 * max(slices):6.1f} ms")


if __name__ == "__main__":
    main()
