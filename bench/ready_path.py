"""Where a first visit's time goes: a timeline of dist/'s path to a ready table, and what each
of our modules costs to import.

    .venv/bin/python bench/ready_path.py [--profile mobile] [--runs 1]   (after scripts/setup --browser)

Builds dist/ (scripts/build_dist.py, the default build) into a temporary folder, serves it with
serve.py and opens it in a fresh browser profile (a cold first visit) under the profile's
emulation (bench/load_time.py's desktop or Lighthouse mobile). Printed per run:

- the timeline: every file the page fetched (start and end in ms from navigation, bytes over
  the network, from the browser's Resource Timing), then web/main.py's marks (`py:main`: Python
  runs our entry point, i.e. the runtime has started; `py:imported`: web.dom and everything it
  imports at start are imported; `py:mounted`: the table is drawn) and the ready marker;
- the imports: after ready, our modules are taken out of sys.modules and imported again one at
  a time, in the order the start imported them, each timed with what it pulls in that is not
  yet imported (the bytecode is read from the same zip, so this is the cost of unmarshalling
  and running the modules, not of fetching them). Modules the start does not import
  (web.dom's lazy parts) are timed at the end, as a first use would import them.
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts"), str(ROOT / "bench")]

import load_time  # noqa: E402
from harness import BOOT_TIMEOUT_MS, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402

RESOURCES = """() => performance.getEntriesByType("resource").map((e) => ({
    name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd, bytes: e.transferSize}))"""
MARKS = """() => performance.getEntriesByType("mark").filter((m) => m.name.startsWith("py:"))
    .map((m) => ({name: m.name, at: m.startTime}))"""
# Runs in the page's interpreter after ready: re-import our modules one at a time.
REIMPORT = r"""
import importlib, sys, time
ours = lambda name: name.split(".")[0] in ("game", "web")
started = [name for name in sys.modules if ours(name)]   # insertion order: the order of import
for name in started:
    del sys.modules[name]
rows = []
def timed(name):
    if name in sys.modules:
        return
    before = set(sys.modules)
    began = time.perf_counter()
    importlib.import_module(name)
    rows.append((name, (time.perf_counter() - began) * 1000, len(set(sys.modules) - before) - 1))
for name in started:
    timed(name)
import web.dom
for name in getattr(web.dom, "LAZY", ()):
    timed(name)
"\n".join(f"{name}\t{ms:.1f}\t{more}" for name, ms, more in rows)
"""
RUN_PYTHON = """async (code) => {
  const core = globalThis[Symbol.for("@pyscript/core")];
  const { interpreter } = await core.whenDefined("py");
  return interpreter.runPython(code);
}"""


def visit(playwright, url: str, profile: str) -> tuple[list, list, float, list]:
    """One cold first visit; returns (resources, marks, ready ms, import rows)."""
    with tempfile.TemporaryDirectory() as folder:
        context, _ = load_time.open_profile(playwright, folder, Path(folder) / "unused.log")
        try:
            page = context.pages[0] if context.pages else context.new_page()
            load_time.throttle(page, profile)
            page.goto(url, timeout=load_time.MOBILE_TIMEOUT_MS)
            wait_ready(page, timeout=load_time.MOBILE_TIMEOUT_MS if profile == "mobile" else BOOT_TIMEOUT_MS)
            ready = page.evaluate("window.__readyAt")
            resources, marks = page.evaluate(RESOURCES), page.evaluate(MARKS)
            rows = [line.split("\t") for line in page.evaluate(RUN_PYTHON, REIMPORT).splitlines()]
        finally:
            context.close()
    return resources, marks, ready, rows


def print_visit(resources: list, marks: list, ready: float, rows: list, lazy: set[str]) -> None:
    print(f"{'ms from navigation':<22}{'what':<52}{'bytes':>10}")
    events = [(r["start"], r["end"], r["name"], r["bytes"]) for r in resources]
    events += [(m["at"], None, m["name"], None) for m in marks] + [(ready, None, "ready (data-ready)", None)]
    for start, end, name, size in sorted(events, key=lambda event: event[0]):
        span = f"{start:7.0f}" + (f" - {end:7.0f}" if end is not None else "")
        print(f"{span:<22}{name[-50:]:<52}{'' if size is None else load_time.size(size):>10}")
    total = sum(r["bytes"] for r in resources)
    print(f"{'':<22}{'total over the network':<52}{load_time.size(total):>10}")
    print(f"\n{'module (in import order)':<36}{'ms':>8}{'+ modules':>11}")
    start_ms = lazy_ms = 0.0
    for name, ms, more in rows:
        ms = float(ms)
        if name in lazy:
            lazy_ms += ms
        else:
            start_ms += ms
        print(f"{name:<36}{ms:>8.1f}{more:>11}" + ("   (lazy: on first use)" if name in lazy else ""))
    print(f"{'imported at start':<36}{start_ms:>8.1f}\n{'lazy, on first use':<36}{lazy_ms:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=load_time.PROFILES, default="desktop")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dist", default="pyc", metavar="KIND", help="as bench/load_time.py --dist")
    args = parser.parse_args()
    from web.lazy import LAZY

    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        out = Path(temp) / "dist"
        load_time.build(out, args.dist)
        with (Path(temp) / "serve.log").open("w") as log, serve.spawn(root=out, stderr=log) as url:
            for run in range(args.runs):
                print(f"\nrun {run + 1} ({args.profile}, load average {load_time.os.getloadavg()[0]:.1f})")
                print_visit(*visit(playwright, url, args.profile), set(LAZY))


if __name__ == "__main__":
    main()
