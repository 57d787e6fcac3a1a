"""Time to ready and bytes transferred: our index.html against an empty PyScript page.

    .venv/bin/python bench/load_time.py [--runs 5]      (after scripts/setup --browser)

Each run opens a fresh browser context with its own new profile directory and loads a page
twice: the first load is cold, the second, in the same context, warm. A profile on disk is
what a visitor has: an incognito context keeps its cache in memory, which holds no file as
big as Pyodide's 9.6 MB wasm, so every load there would be cold. Time to ready is read in the
page: milliseconds from navigation start until <html data-ready="true"> appears. Bytes are
what Chromium received, headers and bodies (a revalidated file costs its headers only).
The pages alternate from run to run and the table shows medians, with min-max for times.
The benchmark starts its own serve.py on a free port.
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import LAUNCH, READY_CLOCK, wait_ready
from playwright.sync_api import Page, sync_playwright

import serve

PAGES = {"index.html": "", "empty PyScript": "bench/empty.html"}


def load(page: Page, url: str) -> tuple[float, int, int]:
    """Navigate to url and wait until ready; return (ms to ready, bytes received, requests)."""
    finished = []

    def record(request):
        finished.append(request)

    page.on("requestfinished", record)
    page.goto(url)
    wait_ready(page)
    ready_ms = page.evaluate("window.__readyAt")
    page.remove_listener("requestfinished", record)
    sizes = [request.sizes() for request in finished if request.url.startswith("http")]
    received = sum(size["responseHeadersSize"] + size["responseBodySize"] for size in sizes)
    return ready_ms, received, len(sizes)


def measure(runs: int) -> dict[str, dict[str, list]]:
    """Cold and warm loads of every page, `runs` times each, in fresh contexts."""
    results = {name: {"cold": [], "warm": []} for name in PAGES}
    with serve.spawn() as base, sync_playwright() as playwright:
        print(f"{os.cpu_count()} cores, {runs} runs, server {base}")
        for _ in range(runs):
            for name, path in PAGES.items():
                with tempfile.TemporaryDirectory() as profile:
                    context = playwright.chromium.launch_persistent_context(profile, **LAUNCH)
                    context.add_init_script(READY_CLOCK)
                    page = context.pages[0]
                    results[name]["cold"].append(load(page, base + path))
                    results[name]["warm"].append(load(page, base + path))
                    context.close()
    return results


def report(results: dict[str, dict[str, list]]) -> None:
    """Print one row per page: ready times, megabytes and requests, cold and warm."""
    header = f"{'page':<16}{'cold ready ms':>22}{'warm ready ms':>22}{'cold MB':>9}{'warm MB':>9}{'requests':>10}"
    print(header)
    print("-" * len(header))
    for name, loads in results.items():
        cells = []
        for kind in ("cold", "warm"):
            times = [ms for ms, _, _ in loads[kind]]
            cells.append(f"{statistics.median(times):.0f} ({min(times):.0f}-{max(times):.0f})")
        megabytes = [statistics.median(received for _, received, _ in loads[k]) / 1e6 for k in ("cold", "warm")]
        requests = statistics.median(count for _, _, count in loads["cold"])
        print(f"{name:<16}{cells[0]:>22}{cells[1]:>22}{megabytes[0]:>9.2f}{megabytes[1]:>9.3f}{requests:>10.0f}")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads of each page, cold and warm (default 5)")
    report(measure(parser.parse_args().runs))


if __name__ == "__main__":
    main()
