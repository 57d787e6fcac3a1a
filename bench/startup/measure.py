"""What Pyodide's own start-up options buy: cold and warm time to ready, bytes, per variant.

    .venv/bin/python bench/startup/measure.py [--runs 5] [--only NAME ...] [--deadline 1800] [--json FILE]

Standard library and Playwright only. Starts its own static server on a free loopback port
(explicit MIME types, `Cache-Control: no-cache` plus an ETag like serve.py, so a second visit
revalidates), serving the repository's web/, game/ and bench/ files and, under /art/, the
artifacts this script makes in a temporary folder:

  1. game-files.json (the game/ entries of pyscript.toml's [files]), the PyScript configs,
     lock-min.json (pyodide-lock.json's "info" with no packages);
  2. stdmods.json: the stdlib files that Pyodide + the game import (PyScript boot and plain);
  3. stdlib-pyc.zip (whole stdlib precompiled to unchecked-hash .pyc), stdlib-mini.zip (only
     stdmods, sources), stdlib-mini-pyc.zip (only stdmods, precompiled): built by Pyodide itself;
  4. snap-default.bin / snap-minipyc.bin: memory snapshots taken after importing the game, with
     the default stdlib and with stdlib-mini-pyc.zip (a snapshot must be loaded with the stdlib
     zip it was made with: the zip importer's directory cache is part of the snapshot).

Then every variant is loaded `--runs` times in a fresh persistent profile: once cold, then
once warm in the same profile (bench/load_time.py's method; harness.py's Chromium flags). Ready
is <html data-ready="true">, in ms since navigation. Variants alternate within each round.
"""

import argparse
import gzip
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from harness import LAUNCH, READY_CLOCK  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

MIME = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".py": "text/x-python; charset=utf-8",
    ".toml": "application/toml; charset=utf-8", ".wasm": "application/wasm",
    ".zip": "application/zip", ".bin": "application/octet-stream",
}
SERVED = ("web/", "game/", "bench/")
VENDOR = ROOT / "web" / "vendor" / "pyodide"
PAGE_TIMEOUT_MS = 60_000

PS_ENV = "&".join(["lock=/art/lock-min.json", "std=/art/stdlib-mini-pyc.zip"])
# name -> (path and query, seconds to wait between the cold and the warm load)
VARIANTS = {
    "ps-empty": ("bench/startup/ps.html?config=/art/ps-empty.toml", 0),
    "ps-game": ("bench/startup/ps.html?config=/art/ps-game.toml&expect=1", 0),
    "ps-game +preload": ("bench/startup/ps.html?config=/art/ps-game.toml&expect=1&pre=default", 0),
    "ps-game +pyc-std,lock": ("bench/startup/ps.html?config=/art/ps-wrap-game.toml&expect=1"
                              "&lock=/art/lock-min.json&std=/art/stdlib-pyc.zip&pre=wasm,asm,mjs,std", 0),
    "ps-snap +mini-pyc,lock": ("bench/startup/ps.html?config=/art/ps-wrap.toml&expect=1&snap=/art/snap-minipyc.bin"
                               f"&{PS_ENV}&pre=wasm,asm,mjs,std,snap", 0),
    "plain-empty": ("bench/startup/plain.html", 0),
    "plain-game": ("bench/startup/plain.html?game=1", 0),
    "plain-game warm+5s": ("bench/startup/plain.html?game=1", 5),
    "plain-game wasm no-store": ("bench/startup/plain.html?game=1&index=/nostore/web/vendor/pyodide/", 0),
    "plain-game +preload": ("bench/startup/plain.html?game=1&pre=default", 0),
    "plain-game +lock-min": ("bench/startup/plain.html?game=1&lock=/art/lock-min.json", 0),
    "plain-game +pyc-std": ("bench/startup/plain.html?game=1&std=/art/stdlib-pyc.zip", 0),
    "plain-game +mini-std": ("bench/startup/plain.html?game=1&std=/art/stdlib-mini.zip", 0),
    "plain-game +mini-pyc-std": ("bench/startup/plain.html?game=1&std=/art/stdlib-mini-pyc.zip", 0),
    "plain-snap": ("bench/startup/plain.html?game=1&snap=/art/snap-default.bin", 0),
    "plain-snap warm+5s": ("bench/startup/plain.html?game=1&snap=/art/snap-default.bin", 5),
    "plain-snap gzip": ("bench/startup/plain.html?game=1&snap=/gz/art/snap-default.bin", 0),
    "plain-snap +mini-pyc,lock": ("bench/startup/plain.html?game=1&snap=/art/snap-minipyc.bin"
                                  f"&{PS_ENV}&pre=asm", 0),
    "wasm compile only": ("bench/startup/compile.html", 0),
}


class Handler(http.server.BaseHTTPRequestHandler):
    """GET files (repo, /art/, /nostore/ = repo with the wasm sent as
    no-store, /gz/ = any of those gzip-encoded); PUT /upload/NAME."""

    art: Path

    def log_message(self, *args):
        pass

    gzipped: ClassVar[dict[tuple[Path, str], bytes]] = {}   # shared by every request's handler

    def locate(self) -> tuple[Path | None, bool]:
        path = unquote(urlsplit(self.path).path).lstrip("/")
        if ".." in path.split("/"):
            return None, False
        self.gzip = path.startswith("gz/")
        path = path.removeprefix("gz/")
        nostore = path.startswith("nostore/")
        if nostore:
            path = path[len("nostore/"):]
        if path.startswith("art/"):
            file = self.art / path[4:]
        elif path.startswith(SERVED):
            file = ROOT / path
        else:
            return None, False
        return (file if file.is_file() else None), nostore

    def do_GET(self):
        file, nostore = self.locate()
        if file is None:
            self.send_error(404)
            return
        stat = file.stat()
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        no_store = nostore and file.suffix == ".wasm"
        if not no_store and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            return
        body = file.read_bytes()
        if self.gzip:
            key = (file, etag)
            if key not in self.gzipped:
                self.gzipped[key] = gzip.compress(body, 6)
            body = self.gzipped[key]
        self.send_response(200)
        if self.gzip:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Type", MIME.get(file.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        if no_store:
            self.send_header("Cache-Control", "no-store")
        else:
            self.send_header("Cache-Control", "no-cache")
            self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        path = unquote(urlsplit(self.path).path)
        name = path.removeprefix("/upload/")
        if name == path or "/" in name or not name:
            self.send_error(404)
            return
        length = int(self.headers["Content-Length"])
        data = self.rfile.read(length)
        (self.art / name).write_bytes(data)
        self.send_response(204)
        self.end_headers()


def start_server(art: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = type("BoundHandler", (Handler,), {"art": art})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def write_configs(art: Path) -> list[str]:
    """game-files.json, the PyScript configs and lock-min.json; returns the game files."""
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    files = sorted(key.removeprefix("./") for key in config["files"] if key.startswith("./game/"))
    (art / "game-files.json").write_text(json.dumps(files))
    table = "\n".join(f'"/{p}" = "./{p}"' for p in files)
    vendor = 'interpreter = "/web/vendor/pyodide/pyodide.mjs"\n'
    wrapper = 'interpreter = "/bench/startup/wrapper.mjs"\n'
    (art / "ps-empty.toml").write_text(vendor)
    (art / "ps-game.toml").write_text(f"{vendor}\n[files]\n{table}\n")
    (art / "ps-wrap-game.toml").write_text(f"{wrapper}\n[files]\n{table}\n")
    (art / "ps-wrap.toml").write_text(wrapper)
    lock = json.loads((VENDOR / "pyodide-lock.json").read_text())
    (art / "lock-min.json").write_text(json.dumps({"info": lock["info"], "packages": {}}))
    return files


def open_page(playwright, profile: str):
    context = playwright.chromium.launch_persistent_context(profile, **LAUNCH)
    context.add_init_script(READY_CLOCK)
    return context, context.pages[0]


def load(page, url: str) -> dict:
    """Navigate and wait for ready (or an error marker); time, bytes, requests, marks."""
    finished, errors = [], []

    def record(request):
        finished.append(request)

    def fail(error):
        errors.append(str(error))

    page.on("requestfinished", record)
    page.on("pageerror", fail)
    page.goto(url)
    page.wait_for_selector('html[data-ready="true"], html[data-error]', state="attached", timeout=PAGE_TIMEOUT_MS)
    error = page.evaluate("document.documentElement.dataset.error")
    if error:
        raise RuntimeError(f"{url}: {error} {errors}")
    page.wait_for_function("window.__readyAt !== undefined", timeout=5000)
    result = page.evaluate("({ready: window.__readyAt, marks: window.__marks || null, stdmods: window.__stdmods})")
    page.remove_listener("requestfinished", record)
    page.remove_listener("pageerror", fail)
    sizes = [(r.url, r.sizes()) for r in finished if r.url.startswith("http")]
    result["bytes"] = sum(s["responseHeadersSize"] + s["responseBodySize"] for _, s in sizes)
    result["requests"] = len(sizes)
    return result


def prepare(playwright, base: str, art: Path) -> None:
    """Record the imported stdlib files, then build stdlib zips and snapshots in the browser."""
    stdmods: set[str] = set()
    for path in ("bench/startup/plain.html?game=1&stdmods=1",
                 "bench/startup/ps.html?config=/art/ps-game.toml&expect=1&stdmods=1"):
        with tempfile.TemporaryDirectory() as profile:
            context, page = open_page(playwright, profile)
            stdmods |= set(json.loads(load(page, base + path)["stdmods"]))
            context.close()
    (art / "stdmods.json").write_text(json.dumps(sorted(stdmods)))
    print(f"stdlib files imported by plain + PyScript boot with the game: {len(stdmods)}")
    steps = [
        "bench/startup/plain.html?prepare=stdlib",
        "bench/startup/plain.html?game=1&prepare=snap&out=snap-default.bin",
        "bench/startup/plain.html?game=1&prepare=snap&out=snap-minipyc.bin&std=/art/stdlib-mini-pyc.zip",
    ]
    for path in steps:
        with tempfile.TemporaryDirectory() as profile:
            context, page = open_page(playwright, profile)
            load(page, base + path)
            context.close()
    for name in ["python_stdlib.zip", "stdlib-pyc.zip", "stdlib-mini.zip", "stdlib-mini-pyc.zip",
                 "snap-default.bin", "snap-minipyc.bin", "pyodide.asm.wasm"]:
        file = VENDOR / name if (VENDOR / name).exists() else art / name
        data = file.read_bytes()
        print(f"  {name:<22}{len(data) / 1e6:>8.2f} MB   gzip -6: {len(gzip.compress(data, 6)) / 1e6:>7.2f} MB")


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def measure(playwright, base: str, names: list[str], runs: int, deadline: float) -> dict:
    results = {name: {"cold": [], "warm": [], "codecache": []} for name in names}
    for round_ in range(runs):
        for name in names:
            if time.monotonic() > deadline:
                print("deadline reached: stopping early", file=sys.stderr)
                return results
            path, pause = VARIANTS[name]
            with tempfile.TemporaryDirectory() as profile:
                context, page = open_page(playwright, profile)
                results[name]["cold"].append(load(page, base + path))
                if pause:
                    time.sleep(pause)
                results[name]["warm"].append(load(page, base + path))
                context.close()
                results[name]["codecache"].append(dir_size(Path(profile) / "Default" / "Code Cache" / "wasm"))
        print(f"round {round_ + 1}/{runs} done", file=sys.stderr, flush=True)
    return results


def report(results: dict) -> None:
    head = (f"{'variant':<28}{'cold ready ms':>20}{'warm ready ms':>20}{'warm/cold':>10}"
            f"{'cold MB':>9}{'warm MB':>9}{'reqs':>6}{'wasm cache MB':>15}")
    print(head)
    print("-" * len(head))
    for name, loads in results.items():
        if not loads["cold"] or not loads["warm"]:
            continue
        cells, medians = [], []
        for kind in ("cold", "warm"):
            times = [r["ready"] for r in loads[kind]]
            medians.append(statistics.median(times))
            cells.append(f"{medians[-1]:.0f} ({min(times):.0f}-{max(times):.0f})")
        mb = [statistics.median(r["bytes"] for r in loads[k]) / 1e6 for k in ("cold", "warm")]
        reqs = statistics.median(r["requests"] for r in loads["cold"])
        cache = statistics.median(loads["codecache"]) / 1e6
        print(f"{name:<28}{cells[0]:>20}{cells[1]:>20}{medians[1] / medians[0]:>10.2f}"
              f"{mb[0]:>9.2f}{mb[1]:>9.3f}{reqs:>6.0f}{cache:>15.1f}")
    print("\nplain loader breakdown, medians ms since navigation: loadPyodide resolved / game imported")
    for name, loads in results.items():
        for kind in ("cold", "warm"):
            marks = [r["marks"] for r in loads[kind] if r["marks"] and "loaded" in r["marks"]]
            if marks:
                loaded = statistics.median(m["loaded"] for m in marks)
                imported = statistics.median(m["imported"] for m in marks)
                print(f"  {name:<28}{kind:<6}{loaded:>8.0f}{imported:>8.0f}")
            marks = [r["marks"] for r in loads[kind] if r["marks"] and "compiled" in r["marks"]]
            if marks:
                print(f"  {name:<28}{kind:<6} compiled at {statistics.median(m['compiled'] for m in marks):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", action="append", help="a variant to run (repeatable; default: all)")
    parser.add_argument("--deadline", type=float, default=1800, help="seconds before giving up (default 1800)")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    args = parser.parse_args()
    names = args.only or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {list(VARIANTS)}")
    started = time.monotonic()
    # A watchdog: whatever happens, the benchmark ends.
    watchdog = threading.Timer(args.deadline + 120, lambda: os._exit(3))
    watchdog.daemon = True
    watchdog.start()
    art = Path(tempfile.mkdtemp(prefix="startup-art-"))
    server, base = start_server(art)
    try:
        write_configs(art)
        with sync_playwright() as playwright:
            print(f"{os.cpu_count()} cores, {args.runs} runs, server {base}, artifacts {art}")
            prepare(playwright, base, art)
            results = measure(playwright, base, names, args.runs, started + args.deadline)
        report(results)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1))
    finally:
        server.shutdown()
        shutil.rmtree(art, ignore_errors=True)


if __name__ == "__main__":
    main()
