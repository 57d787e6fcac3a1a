"""The bots' decision times inside the browser (Pyodide), and how long the page is blocked.

    .venv/bin/python bench/bot_browser.py [--level hard] [--games 3] [--players 2]

Plays bot-against-bot games in headless Chromium through bench/bot_browser.html, timing each
decision in Python, while a long-task observer records every stretch over 50 ms in which the
page could not respond. Prints medians and 95th percentiles for discards and plays, and what
may block the page: the longest steps of thinking between two yields, and the longest pauses
of Python's garbage collector (its callbacks time each collection).
"""

import argparse
import json
import statistics
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import LAUNCH, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402

LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
"""


def write_config() -> None:
    """bench/bot_browser.toml: our vendored Pyodide and the engine's files, seen from bench/."""
    files = tomllib.loads((ROOT / "pyscript.toml").read_text())["files"]
    lines = ['# Written by bench/bot_browser.py from pyscript.toml: do not edit.',
             'interpreter = "../web/vendor/pyodide/pyodide.mjs"', "", "[files]"]
    lines += [f'"../{src.removeprefix("./")}" = "{dst}"' for src, dst in files.items()
              if src.startswith("./game/") or src in ("./web/__init__.py", "./web/slices.py")]
    (ROOT / "bench" / "bot_browser.toml").write_text("\n".join(lines) + "\n")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    write_config()
    query = f"?level={args.level}&games={args.games}&players={args.players}"
    with serve.spawn() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**LAUNCH)
        page = browser.new_page()
        page.add_init_script(LONG_TASKS)
        page.goto(base + "bench/bot_browser.html" + query)
        wait_ready(page)
        page.wait_for_function("window.__botTimes !== undefined", timeout=20 * 60_000, polling=500)
        found = json.loads(page.evaluate("window.__botTimes"))
        times = found["times"]
        # Only the tasks that began once the games did: the start-up's are reported late too.
        long_tasks = page.evaluate("window.__longTasks.filter(([start]) => start >= window.__since)")
        browser.close()
    print(f"{args.level} bot, {args.players} players, {args.games} games, in Chromium (Pyodide)")
    for kind, values in times.items():
        if values:
            print(f"  {kind:<8} n={len(values):>4}  median {statistics.median(values):6.1f} ms  "
                  f"p95 {percentile(values, 0.95):6.1f} ms  max {max(values):6.1f} ms")
    durations = [duration for _, duration in long_tasks]
    print(f"  long tasks (>50 ms) while the bots played: {len(durations)}, longest "
          f"{max(durations, default=0):.0f} ms")
    print("  (start ms, duration ms): " + ", ".join(f"({a:.0f}, {b:.0f})" for a, b in long_tasks[:8]))
    # What blocked: one step of thinking (between two yields), or Python's garbage collector.
    steps, pauses = found["steps"], found["gc"]
    print(f"  steps of thinking over 20 ms: {len(steps)}, longest {max(steps, default=0):.0f} ms")
    print(f"  garbage collections over 5 ms: {len(pauses)}, longest {max(pauses, default=0):.0f} ms")


if __name__ == "__main__":
    main()
