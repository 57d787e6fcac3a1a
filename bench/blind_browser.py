"""The blind deal (game.blind) in Chromium's Pyodide, on the page's main thread, at CPU x1 and x4.

    nice -n 10 .venv/bin/python bench/blind_browser.py [--hands 2] [--rates 1,4]

Serves the repository, opens bench/blind_browser.html in headless Chromium with the pinned
Pyodide (bench/blind_browser.toml, written here from pyscript.toml's game files plus
game/blind, which the product's pages do not load yet, and removed afterwards), slows the CPU
with CDP's ``Emulation.setCPUThrottlingRate``, and deals hands at 2, 3 and 4 players, every
seat human. The page runs every `Work` step by step, giving the page a turn once the next step
would not fit in 40 ms. Prints, per table: each seat's own work in ms (shuffle, lock, unlocks,
finding its cards, its starter unlock), its checks of the other seats' messages (its own it
accepts ``made_here``), a seat's total for the deal, the audit, the longest slice, the long tasks (over 50 ms) a
PerformanceObserver saw while the hands ran, and the JSON bytes of the deal and of the hand's
deal plus keys (every message reaches every other seat through the host).
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

CONFIG = ROOT / "bench" / "blind_browser.toml"
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
"""


def write_config() -> None:
    """The page's files: the engine's (as pyscript.toml lists them), game/blind, web.slices."""
    files = tomllib.loads((ROOT / "pyscript.toml").read_text())["files"]
    wanted = [src.removeprefix("./") for src in files if src.startswith("./game/")]
    wanted += [str(path.relative_to(ROOT)) for path in sorted((ROOT / "game" / "blind").glob("*.py"))]
    wanted += ["web/__init__.py", "web/slices.py"]
    lines = ["# Written by bench/blind_browser.py: do not edit.",
             'interpreter = "../web/vendor/pyodide/pyodide.mjs"', "", "[files]"]
    lines += [f'"../{path}" = "./{path}"' for path in dict.fromkeys(wanted)]
    CONFIG.write_text("\n".join(lines) + "\n")


def run_job(page, players, hand):
    page.evaluate("window.__result = undefined; window.__since = performance.now()")
    page.evaluate(f"window.__job = {json.dumps(json.dumps({'players': players, 'hand': hand}))}")
    page.wait_for_function("window.__result !== undefined", timeout=30 * 60_000, polling=200)
    result = json.loads(page.evaluate("window.__result"))
    result["long_tasks"] = page.evaluate("window.__longTasks.filter(([start]) => start >= window.__since)")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--rates", default="1,4")
    args = parser.parse_args()
    write_config()
    try:
        with serve.spawn() as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(**LAUNCH)
            for rate in map(int, args.rates.split(",")):
                page = browser.new_page()
                page.add_init_script(LONG_TASKS)
                page.goto(base + "bench/blind_browser.html")
                wait_ready(page)
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
                report(rate, page, args.hands)
                page.close()
            browser.close()
    finally:
        CONFIG.unlink(missing_ok=True)


def report(rate, page, hands):
    print(f"CPU x{rate} (Chromium, Pyodide, main thread, 40 ms slices)")
    first = run_job(page, 2, 0)
    print(f"  importing game.blind.group, once per page (the card elements read, G's table computed): "
          f"{first['imported']:.0f} ms")
    print("  players | each seat's own work ms | its checks of the others' messages ms | a seat's deal ms (the most)"
          " | audit ms | longest slice ms (longest step: in) | long tasks > 50 ms (longest) | deal JSON KiB, with keys")
    for players in (2, 3, 4):
        results = [first] if players == 2 else []
        results += [run_job(page, players, hand) for hand in range(len(results), hands)]
        own = [statistics.median(r["spent"][str(seat)] for r in results) for seat in range(players)]
        sent = [statistics.median(r["spent"][f"from {seat}"] for r in results) for seat in range(players)]
        checks = [sum(sent) - sent[seat] for seat in range(players)]
        audit = statistics.median(r["spent"]["audit"] for r in results)
        tasks = [duration for r in results for _, duration in r["long_tasks"]]
        print(f"  {players} | {' '.join(f'{ms:.0f}' for ms in own)} | {' '.join(f'{ms:.0f}' for ms in checks)} | "
              f"{max(a + b for a, b in zip(own, checks)):.0f} | "
              f"{audit:.0f} | {max(r['longest'] for r in results):.0f} ({max(r['step'] for r in results)[0]:.0f}: "
              f"{max(r['step'] for r in results)[1]}) | {len(tasks)} ({max(tasks, default=0):.0f}) | "
              f"{results[0]['deal_bytes'] / 1024:.0f}, {results[0]['bytes'] / 1024:.0f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
