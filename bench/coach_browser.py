"""The coach's review times inside the browser (Pyodide, Chromium).

    nice -n 10 .venv/bin/python bench/coach_browser.py [--games 3] [--players 2]

Plays medium-bot games in headless Chromium through bench/coach_browser.html, then times, for
seat 0: the walk of the whole game into hands (`game.coach.walk`), each hand's discard review
(every discard over every starter, exact), each play's review (the hard bot's search at the
coach's budget), and a hand's review in all (its discard and its plays). The page reviews plays
one at a time in 25 ms slices while the bots think, so "play" is work spread over the hand,
not a pause; "discard" is what the show waits for.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "bench")]

from bot_browser import percentile, write_config  # noqa: E402
from harness import LAUNCH, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    write_config()
    with serve.spawn() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**LAUNCH)
        page = browser.new_page()
        page.goto(base + f"bench/coach_browser.html?games={args.games}&players={args.players}")
        wait_ready(page)
        page.wait_for_function("window.__coachTimes !== undefined", timeout=20 * 60_000, polling=500)
        times = json.loads(page.evaluate("window.__coachTimes"))
        browser.close()
    print(f"coach reviews, {args.players} players, {args.games} games, in Chromium (Pyodide)")
    for kind, values in times.items():
        if values:
            print(f"  {kind:<8} n={len(values):>4}  median {statistics.median(values):6.1f} ms  "
                  f"p95 {percentile(values, 0.95):6.1f} ms  max {max(values):6.1f} ms")


if __name__ == "__main__":
    main()
