"""First paint, time to ready and bytes transferred: our index.html against an empty PyScript
page, and the built dist/ (service worker) on a first visit, a revisit and a repeat visit.

    .venv/bin/python bench/load_time.py [--runs 5]      (after scripts/setup --browser)

Each run opens a fresh browser context with its own new profile directory per page. The repo
pages (served by serve.py from this repository) load twice in one context: cold, then warm. A
profile on disk is what a visitor has: an incognito context keeps its cache in memory, which
holds no file as big as Pyodide's 9.6 MB wasm, so every load there would be cold.

dist/ is built by scripts/build_dist.py into a temporary folder (our modules precompiled into
web/app.zip) and served by a second `serve.py --root`. Its cold visit lasts until the service
worker is active, so the bytes it fetched to fill its cache count too. Then the page comes back
twice, answered by the service worker: a revisit in a new tab of the still running browser (the
first tab closed, as a player comes back later the same day), and, after the browser closes, a
repeat visit by a new browser on the same profile (the browser started afresh, as after a
reboot): that one pays for starting the browser's processes again. --compare-sources also measures a dist/ built with `--sources` (the
modules as .py files, as before the bundle), to show what the bundle buys.

First paint is the page's 'first-contentful-paint' entry; time to ready is milliseconds from
navigation start until <html data-ready="true"> appears. Bytes are what crossed the network
(headers and bodies; a revalidated file costs its headers only), counted over every request of
the browser context, the service worker's own included; responses the service worker served
from its cache, and the HTTP cache's hits, cost nothing. Requests counts those that reached the
server. As a check, `server` is the body bytes serve.py's access log shows for the same span:
the two disagree only by headers, and a repeat visit the service worker answers shows none.
Before the browser of a cold dist/ visit closes, the page waits until web/snapshot.mjs has stored
its memory snapshot (made in a worker once the page is ready and idle; <html data-snapshot>
"stored"), so the revisit and the repeat visit start from it, as a visitor's next visits do;
then it stays open --settle seconds more (default 3), as a visitor's would: Chromium writes
compiled wasm to its code cache a little after start. `snapshot` in the table counts the
visits that started from a snapshot (data-snapshot "loaded").
The pages take turns from run to run; the table shows medians, with min-max for times.
"""

import argparse
import contextlib
import os
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts")]

import build_dist
from harness import LAUNCH, READY_CLOCK, wait_ready
from playwright.sync_api import BrowserContext, Playwright, Request, sync_playwright

import serve

PAGES = {"index.html": "", "empty PyScript": "bench/empty.html"}
DIST = "dist/ (sw)"
DIST_SOURCES = "dist/ .py (sw)"
VISITS = {"index.html": ("cold", "warm"), "empty PyScript": ("cold", "warm"),
          DIST: ("cold", "revisit", "repeat")}
# Resolves true once the service worker is active (its install, and so its cache, complete).
# Resolves once web/snapshot.mjs has saved its snapshot (or failed to); at once on a page without it.
SNAPSHOT_SAVED = """() => new Promise((resolve) => {
    const root = document.documentElement, started = performance.now();
    const poll = () => {
        const state = root.dataset.snapshot;
        if (!state || ["stored", "unsaved", "failed"].includes(state) || performance.now() - started > 120000) resolve(state ?? null);
        else setTimeout(poll, 50);
    };
    poll();
})"""
SW_READY = """() => Promise.race([
    navigator.serviceWorker.ready.then(() => true),
    new Promise((resolve) => setTimeout(() => resolve(false), 60000)),
])"""
FIRST_PAINT = "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
LOG_LINE = re.compile(r'"(\S+) (\S+)" (\d+) (\d+|-)$')
GOALS = {"first paint ms": 300, "cold / empty": 1.2, "repeat / cold": 0.7, "repeat KB": 100}


@dataclass
class Load:
    paint_ms: float | None
    ready_ms: float
    received: int     # bytes over the network
    requests: int     # requests that reached the server
    served: int       # body bytes in the server's access log
    snapshot: str | None = None   # <html data-snapshot> at ready (dist/: "loaded", "none", ...)


class Meter:
    """Counts what a browser context's requests cost on the network, from a mark on; and
    what the server's access log (`log`) shows for the same span."""

    def __init__(self, context: BrowserContext, log: Path):
        self.finished: list[Request] = []
        self.log = log
        self.offset = 0
        context.on("requestfinished", self.record)

    def record(self, request: Request) -> None:
        self.finished.append(request)

    def mark(self) -> None:
        self.finished = []
        self.offset = self.log.stat().st_size

    def served(self) -> int:
        with self.log.open("rb") as stream:
            stream.seek(self.offset)
            lines = stream.read().decode("utf-8", "replace").splitlines()
        found = (LOG_LINE.search(line) for line in lines)
        return sum(int(match.group(4)) for match in found if match and match.group(4) != "-")

    def totals(self) -> tuple[int, int]:
        received = requests = 0
        for request in self.finished:
            if not request.url.startswith("http"):
                continue
            response = request.response()
            if response is None or response.from_service_worker:
                continue
            sizes = request.sizes()
            # headers + body is the encoded length: 0 for the HTTP cache's hits.
            cost = max(0, sizes["responseHeadersSize"] + sizes["responseBodySize"])
            received += cost
            requests += cost > 0
        return received, requests


def load(context: BrowserContext, meter: Meter, url: str, until_sw: bool = False, settle: float = 0) -> Load:
    """Navigate the context's page to url and wait until ready (and, with until_sw, until the
    service worker is active; then `settle` seconds more); return what it took."""
    page = context.pages[0] if context.pages else context.new_page()
    meter.mark()
    page.goto(url)
    wait_ready(page)
    ready_ms = page.evaluate("window.__readyAt")
    paint_ms = page.evaluate(FIRST_PAINT)
    snapshot = page.evaluate("document.documentElement.dataset.snapshot ?? null")
    if until_sw and not page.evaluate(SW_READY):
        print("warning: the service worker did not become active within 60 s", file=sys.stderr)
    if until_sw and page.evaluate(SNAPSHOT_SAVED) not in (None, "stored"):
        print("warning: no memory snapshot was stored", file=sys.stderr)
    page.wait_for_load_state("load")
    page.wait_for_timeout(settle * 1000)
    received, requests = meter.totals()
    return Load(paint_ms, ready_ms, received, requests, meter.served(), snapshot)


def open_profile(playwright: Playwright, profile: str, log: Path) -> tuple[BrowserContext, Meter]:
    context = playwright.chromium.launch_persistent_context(profile, **LAUNCH)
    context.add_init_script(READY_CLOCK)
    return context, Meter(context, log)


def measure_repo_page(playwright: Playwright, url: str, log: Path) -> dict[str, Load]:
    """Cold then warm load in one fresh profile."""
    with tempfile.TemporaryDirectory() as profile:
        context, meter = open_profile(playwright, profile, log)
        try:
            return {"cold": load(context, meter, url), "warm": load(context, meter, url)}
        finally:
            context.close()


def measure_dist(playwright: Playwright, url: str, log: Path, settle: float) -> dict[str, Load]:
    """First visit (until the service worker is active); a revisit in a new tab of the same,
    still running browser (the first tab closed); then a repeat visit by a new browser on the
    same profile."""
    with tempfile.TemporaryDirectory() as profile:
        context, meter = open_profile(playwright, profile, log)
        try:
            cold = load(context, meter, url, until_sw=True, settle=settle)
            first_tab = context.pages[0]
            context.new_page()
            first_tab.close()
            revisit = load(context, meter, url)
        finally:
            context.close()
        context, meter = open_profile(playwright, profile, log)
        try:
            repeat = load(context, meter, url)
        finally:
            context.close()
    return {"cold": cold, "revisit": revisit, "repeat": repeat}


def build(out: Path, bundle: bool = True) -> None:
    figures = build_dist.build(out, bundle=bundle)
    print(f"dist/ built: {figures['files']} files, {figures['bytes'] / 1e6:.1f} MB, "
          f"{figures['compressed'] / 1e6:.1f} MB precompressed")
    precached = [line for line in (out / "sw.js").read_text(encoding="utf-8").splitlines()
                 if line.rstrip(",").endswith(('.gz"', '.br"'))]
    if precached:
        print(f"note: sw.js precaches {len(precached)} .gz/.br copies as files of their own "
              "(build_dist.site_files should leave them out)")


def measure(runs: int, settle: float, sources: bool = False) -> dict[str, dict[str, list[Load]]]:
    """Every page's visits, `runs` times each, in fresh profiles; the pages take turns.
    With `sources`, a dist/ built with its modules as .py files is measured too."""
    visits = dict(VISITS, **({DIST_SOURCES: VISITS[DIST]} if sources else {}))
    results = {name: {visit: [] for visit in kinds} for name, kinds in visits.items()}
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright, contextlib.ExitStack() as stack:
        out, out_py = Path(temp) / "dist", Path(temp) / "dist-py"
        build(out)
        repo_log, dist_log, py_log = (Path(temp) / name for name in ("repo.log", "dist.log", "dist-py.log"))
        base = stack.enter_context(serve.spawn(stderr=stack.enter_context(repo_log.open("w"))))
        dist_base = stack.enter_context(serve.spawn(root=out, stderr=stack.enter_context(dist_log.open("w"))))
        jobs = [(name, lambda path=path: measure_repo_page(playwright, base + path, repo_log))
                for name, path in PAGES.items()]
        jobs.append((DIST, lambda: measure_dist(playwright, dist_base, dist_log, settle)))
        if sources:
            build(out_py, bundle=False)
            py_base = stack.enter_context(serve.spawn(root=out_py, stderr=stack.enter_context(py_log.open("w"))))
            jobs.append((DIST_SOURCES, lambda: measure_dist(playwright, py_base, py_log, settle)))
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {runs} runs, "
              f"servers {base} and {dist_base} (dist/)")
        for run in range(runs):
            for name, job in jobs[run % len(jobs):] + jobs[: run % len(jobs)]:
                for visit, result in job().items():
                    results[name][visit].append(result)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return results


def size(received: float) -> str:
    return f"{received / 1e6:.2f} MB" if received >= 1e6 else f"{received / 1e3:.1f} KB"


def median(values: list) -> float:
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else float("nan")


def report(results: dict[str, dict[str, list[Load]]]) -> None:
    """Print one row per page and visit, then the ratios against the goals."""
    header = (f"{'page':<16}{'visit':<8}{'first paint ms':>16}{'ready ms':>22}{'transferred':>13}"
              f"{'requests':>10}{'server':>11}{'snapshot':>10}")
    print(header)
    print("-" * len(header))
    for name, visits in results.items():
        for visit, loads in visits.items():
            times = [load.ready_ms for load in loads]
            ready = f"{median(times):.0f} ({min(times):.0f}-{max(times):.0f})"
            paint = median([load.paint_ms for load in loads])
            received = median([load.received for load in loads])
            requests = median([load.requests for load in loads])
            served = median([load.served for load in loads])
            paint = "-" if paint != paint else f"{paint:.0f}"   # NaN: an empty page paints no content
            loaded = sum(load.snapshot == "loaded" for load in loads)
            snapshot = f"{loaded}/{len(loads)}" if any(load.snapshot for load in loads) else "-"
            print(f"{name:<16}{visit:<8}{paint:>16}{ready:>22}{size(received):>13}{requests:>10.0f}"
                  f"{size(served):>11}{snapshot:>10}")

    def ready(name, visit):
        return median([load.ready_ms for load in results[name][visit]])

    empty = ready("empty PyScript", "cold")
    dist_cold, dist_repeat = ready(DIST, "cold"), ready(DIST, "repeat")
    repeat_bytes = median([load.received for load in results[DIST]["repeat"]])
    paints = [median([load.paint_ms for load in loads]) for name, visits in results.items()
              for loads in visits.values() if name != "empty PyScript"]
    lines = [
        ("cold / empty", f"index.html {ready('index.html', 'cold') / empty:.2f}x, dist/ {dist_cold / empty:.2f}x",
         dist_cold / empty <= GOALS["cold / empty"], f"<= {GOALS['cold / empty']}x"),
        ("repeat / cold", f"dist/ {dist_repeat / dist_cold:.2f}x",
         dist_repeat / dist_cold <= GOALS["repeat / cold"], f"<= {GOALS['repeat / cold']}x"),
        ("revisit / cold", f"dist/ {ready(DIST, 'revisit') / dist_cold:.2f}x (a new tab, browser running)",
         ready(DIST, "revisit") / dist_cold <= GOALS["repeat / cold"], f"<= {GOALS['repeat / cold']}x"),
        ("repeat bytes", size(repeat_bytes), repeat_bytes < GOALS["repeat KB"] * 1e3, f"< {GOALS['repeat KB']} KB"),
        ("first paint", f"slowest median {max(paints):.0f} ms", max(paints) < GOALS["first paint ms"],
         f"< {GOALS['first paint ms']} ms"),
    ]
    if DIST_SOURCES in results:
        py_cold, py_repeat = ready(DIST_SOURCES, "cold"), ready(DIST_SOURCES, "repeat")
        lines.append(("bundle buys", f"cold {dist_cold - py_cold:+.0f} ms, repeat {dist_repeat - py_repeat:+.0f} ms",
                      None, "(against dist/ .py)"))
    print()
    for label, figure, met, goal in lines:
        if met is None:
            print(f"{label:<14}{figure:<40}{goal}")
            continue
        print(f"{label:<14}{figure:<40}goal {goal:<10}{'met' if met else 'NOT met'}")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="visits of each page (default 5)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds a cold dist/ visit stays open before its browser closes (default 3)")
    parser.add_argument("--compare-sources", action="store_true",
                        help="also measure dist/ built with its modules as .py sources (build_dist.py --sources)")
    args = parser.parse_args()
    report(measure(args.runs, args.settle, args.compare_sources))


if __name__ == "__main__":
    main()
