"""Why is a repeat visit of dist/ (answered by the service worker) barely faster than the first?

    .venv/bin/python bench/startup/sw_repeat.py [--runs 3] [--only sw --only nosw]

Builds dist/ once (scripts/build_dist.py) into a temporary folder, makes variants of it, serves
each with serve.py --root, and per run and variant, in a fresh profile: a first visit (kept
open until the service worker, if any, is active, then --settle seconds), a repeat visit by a
new browser on the same profile (bench/load_time.py's "repeat"), then a third visit in that
same browser ("again": a warm browser process). Ready is <html data-ready="true"> in ms since
navigation; `wasm cache` is the size of the profile's Code Cache/wasm folder at the end, and
`sw` how many requests of the repeat visit the service worker answered.

Variants (each a copy of dist/ with one change):
  sw            dist/ as built
  nosw          no service worker registered: the repeat visit uses the HTTP cache only
  sw-wasm-net   the service worker lets .wasm requests through to the network (HTTP cache)
  sw-wasm-fetch the service worker answers .wasm requests with its own fetch() (HTTP cache)
  sw-nav-only   the service worker answers only the page itself, the rest goes to the network
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts"), str(ROOT / "bench")]

import build_dist  # noqa: E402
from load_time import load, open_profile  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402

RESPOND = "  event.respondWith("


def make_variants(base: Path, temp: Path) -> dict[str, Path]:
    """Copies of the built dist/ at `base`, one per variant."""
    variants = {}
    for name in ("sw", "nosw", "sw-wasm-net", "sw-wasm-fetch", "sw-nav-only"):
        folder = temp / name
        shutil.copytree(base, folder)
        for copy in list(folder.glob("index.html.*")) + list(folder.glob("sw.js.*")):
            copy.unlink()   # the edited files are served as they are
        sw, page = folder / "sw.js", folder / "index.html"
        if name == "nosw":
            html = page.read_text(encoding="utf-8")
            page.write_text(html.replace('navigator.serviceWorker.register("./sw.js")', "null"), encoding="utf-8")
        elif name == "sw-wasm-net":
            text = sw.read_text(encoding="utf-8")
            sw.write_text(text.replace(RESPOND, '  if (request.url.endsWith(".wasm")) return;\n' + RESPOND),
                          encoding="utf-8")
        elif name == "sw-wasm-fetch":
            text = sw.read_text(encoding="utf-8")
            sw.write_text(text.replace(RESPOND, '  if (request.url.endsWith(".wasm")) return event.respondWith(fetch(request));\n'
                                       + RESPOND), encoding="utf-8")
        elif name == "sw-nav-only":
            text = sw.read_text(encoding="utf-8")
            sw.write_text(text.replace(RESPOND, '  if (request.mode !== "navigate") return;\n' + RESPOND),
                          encoding="utf-8")
        variants[name] = folder
    return variants


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def run_variant(playwright, url: str, log: Path, settle: float, sw: bool = True) -> dict:
    """First, repeat (new browser) and again (same browser) visits in one fresh profile."""
    with tempfile.TemporaryDirectory() as profile:
        context, meter = open_profile(playwright, profile, log)
        try:
            first = load(context, meter, url, until_sw=sw, settle=settle)
        finally:
            context.close()
        context, meter = open_profile(playwright, profile, log)
        try:
            repeat = load(context, meter, url)
            answered = sum(1 for request in meter.finished
                           if request.response() is not None and request.response().from_service_worker)
            again = load(context, meter, url)
        finally:
            context.close()
        cache = dir_size(Path(profile) / "Default" / "Code Cache" / "wasm")
    return {"first": first.ready_ms, "repeat": repeat.ready_ms, "again": again.ready_ms,
            "wasm cache": cache, "sw": answered}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--only", action="append", help="a variant to run (repeatable)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp_name, sync_playwright() as playwright:
        temp = Path(temp_name)
        build_dist.build(temp / "dist")
        variants = make_variants(temp / "dist", temp)
        names = args.only or list(variants)
        results = {name: [] for name in names}
        log = temp / "serve.log"
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {args.runs} runs")
        for run in range(args.runs):
            for name in names[run % len(names):] + names[: run % len(names)]:
                with log.open("a") as stream, serve.spawn(root=variants[name], stderr=stream) as url:
                    results[name].append(run_variant(playwright, url, log, args.settle, sw=name != "nosw"))
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    header = f"{'variant':<14}{'first ms':>10}{'repeat ms':>11}{'again ms':>10}{'repeat/first':>14}{'wasm cache MB':>15}{'sw hits':>9}"
    print(header)
    print("-" * len(header))
    for name, rows in results.items():
        med = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        print(f"{name:<14}{med['first']:>10.0f}{med['repeat']:>11.0f}{med['again']:>10.0f}"
              f"{med['repeat'] / med['first']:>14.2f}{med['wasm cache'] / 1e6:>15.1f}{med['sw']:>9.0f}")


if __name__ == "__main__":
    main()
