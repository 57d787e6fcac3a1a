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

Two profiles, measured in the same run, the pages taking turns: `desktop` (no throttling) and
`mobile`, Lighthouse's mobile preset applied through the DevTools protocol to the page before
it navigates: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip
(Network.emulateNetworkConditions) and the CPU slowed 4x (Emulation.setCPUThrottlingRate). The
mobile profile measures the empty page (cold) and dist/ (cold, repeat), not index.html. A
second table splits each first visit's bytes by kind of file (the wasm, the standard library,
our modules, the runtime's JavaScript and the page's own files).

--dist KIND (repeatable) builds and measures dist/ with that standard library
(scripts/build_dist.py --stdlib: full, pyc, py; add "-APP" for build_dist.py --app APP: "pyc-both"
is a web/app.zip with sources; "before" is dist/ as it was before issue 14: the whole
stdlib, app.zip with sources, the wasm at brotli quality 9), so the variants are compared in
one run; each is checked against the goals. "git:REF" is dist/ as the repository's commit REF
built it (its own scripts/vendor.py over a copy of this checkout's web/vendor/, so that what it
makes of the runtime (the precompiled stdlib, the .br copies) is its own, and its own
scripts/build_dist.py): "git:main" against
the default build is the before/after of the work on this branch.

--floors also measures, cold, two pages written into each dist/ variant's bench/ folder (not
shipped) that load its runtime exactly as dist/ does (same files, same preloads, same brotli):
"runtime floor" only starts Pyodide (loadPyodide, nothing else), "PyScript floor" is the empty
PyScript page on dist's interpreter (web/snapshot.mjs, which also installs what dist fetches
once the wasm is in). No page built on this runtime can be ready sooner than the
first, so its ratio to the empty page bounds what any change above the runtime can reach.
"""

import argparse
import contextlib
import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts")]

import brotli  # noqa: E402
import build_dist  # noqa: E402
from harness import BOOT_TIMEOUT_MS, LAUNCH, READY_CLOCK, wait_ready  # noqa: E402
from playwright.sync_api import BrowserContext, Playwright, Request, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

import serve  # noqa: E402

PAGES = {"index.html": "", "empty PyScript": "bench/empty.html"}
EMPTY = "empty PyScript"
PROFILES = ("desktop", "mobile")
# Lighthouse's mobile preset, as the DevTools protocol takes it (bytes per second, ms).
MOBILE_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
MOBILE_CPU = 4
MOBILE_TIMEOUT_MS = 240_000
# Kinds of file, for the bytes of a first visit: the first pattern a URL's path matches.
KINDS = (("wasm", re.compile(r"\.wasm$")), ("stdlib", re.compile(r"(python_stdlib|stdlib_after_start)\.zip$")),
         ("app", re.compile(r"(app\.zip|\.py|pyscript\.toml|empty\.toml)$")),
         ("runtime js", re.compile(r"/vendor/.*\.(m?js|json)$")),
         ("page", re.compile(r".")))
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
GOALS = {"first paint ms": 300, "cold / empty": 1.1, "repeat / cold": 0.7, "repeat KB": 100,
         "mobile cold / empty": 0.6, "first visit MB": 4.0}


@dataclass
class Load:
    paint_ms: float | None
    ready_ms: float
    received: int     # bytes over the network
    requests: int     # requests that reached the server
    served: int       # body bytes in the server's access log
    snapshot: str | None = None   # <html data-snapshot> at ready (dist/: "loaded", "none", ...)
    kinds: dict | None = None     # received bytes by KINDS


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

    def totals(self) -> tuple[int, int, dict[str, int]]:
        received = requests = 0
        kinds = dict.fromkeys([kind for kind, _ in KINDS], 0)
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
            path = request.url.split("?")[0]
            kinds[next(kind for kind, pattern in KINDS if pattern.search(path))] += cost
        return received, requests, kinds


def throttle(page, profile: str) -> None:
    """Apply the profile's network and CPU emulation to the page (nothing for desktop)."""
    if profile != "mobile":
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", MOBILE_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": MOBILE_CPU})


def load(context: BrowserContext, meter: Meter, url: str, until_sw: bool = False, settle: float = 0,
         profile: str = "desktop") -> Load:
    """Navigate the context's page to url under the profile's emulation and wait until ready
    (and, with until_sw, until the service worker is active; then `settle` seconds more);
    return what it took."""
    page = context.pages[0] if context.pages else context.new_page()
    throttle(page, profile)
    meter.mark()
    page.goto(url, timeout=MOBILE_TIMEOUT_MS)
    wait_ready(page, timeout=MOBILE_TIMEOUT_MS if profile == "mobile" else BOOT_TIMEOUT_MS)
    ready_ms = page.evaluate("window.__readyAt")
    paint_ms = page.evaluate(FIRST_PAINT)
    snapshot = page.evaluate("document.documentElement.dataset.snapshot ?? null")
    if until_sw and not page.evaluate(SW_READY):
        print("warning: the service worker did not become active within 60 s", file=sys.stderr)
    if until_sw and page.evaluate(SNAPSHOT_SAVED) not in (None, "stored"):
        print("warning: no memory snapshot was stored", file=sys.stderr)
    page.wait_for_load_state("load")
    page.wait_for_timeout(settle * 1000)
    received, requests, kinds = meter.totals()
    return Load(paint_ms, ready_ms, received, requests, meter.served(), snapshot, kinds)


def open_profile(playwright: Playwright, profile: str, log: Path) -> tuple[BrowserContext, Meter]:
    context = playwright.chromium.launch_persistent_context(profile, **LAUNCH)
    context.add_init_script(READY_CLOCK)
    return context, Meter(context, log)


def measure_repo_page(playwright: Playwright, url: str, log: Path, profile: str = "desktop") -> dict[str, Load]:
    """Cold then warm load in one fresh profile."""
    with tempfile.TemporaryDirectory() as folder:
        context, meter = open_profile(playwright, folder, log)
        try:
            cold = load(context, meter, url, profile=profile)
            if profile == "mobile":
                return {"cold": cold}
            return {"cold": cold, "warm": load(context, meter, url, profile=profile)}
        finally:
            context.close()


def measure_dist(playwright: Playwright, url: str, log: Path, settle: float, profile: str = "desktop") -> dict[str, Load]:
    """First visit (until the service worker is active); a revisit in a new tab of the same,
    still running browser (the first tab closed; desktop only); then a repeat visit by a new
    browser on the same profile."""
    with tempfile.TemporaryDirectory() as folder:
        context, meter = open_profile(playwright, folder, log)
        try:
            cold = load(context, meter, url, until_sw=True, settle=settle, profile=profile)
            revisit = None
            if profile != "mobile":
                first_tab = context.pages[0]
                context.new_page()
                first_tab.close()
                revisit = load(context, meter, url)
        finally:
            context.close()
        context, meter = open_profile(playwright, folder, log)
        try:
            repeat = load(context, meter, url, profile=profile)
        finally:
            context.close()
    if revisit is None:
        return {"cold": cold, "repeat": repeat}
    return {"cold": cold, "revisit": revisit, "repeat": repeat}


def build(out: Path, spec: str) -> None:
    """Build dist/ as `spec` says: "STDLIB" or "STDLIB-APP" (build_dist.py --stdlib, --app), or
    "sources" (build_dist.py --sources)."""
    kind, _, app = spec.partition("-")
    if spec == "sources":
        figures = build_dist.build(out, bundle=False)
    elif spec == "before":   # dist/ as it was before issue 14: whole stdlib, app.zip with sources, wasm at brotli 9
        figures = build_dist.build(out, stdlib="full", app="both")
        wasm = out / "web" / "vendor" / "pyodide" / "pyodide.asm.wasm"
        (out / (wasm.name + ".br")).unlink(missing_ok=True)
        wasm.with_name(wasm.name + ".br").write_bytes(brotli.compress(wasm.read_bytes(), quality=9))
    elif spec.startswith("git:"):
        figures = build_at_commit(spec.removeprefix("git:"), out)
    else:
        figures = build_dist.build(out, stdlib=kind, app=app or "pyc")
    print(f"dist {spec} built: {figures['files']} files, {figures['bytes'] / 1e6:.1f} MB, "
          f"{figures['compressed'] / 1e6:.1f} MB precompressed; {figures['stdlib']}")
    precached = [line for line in (out / "sw.js").read_text(encoding="utf-8").splitlines()
                 if line.rstrip(",").endswith(('.gz"', '.br"'))]
    if precached:
        print(f"note: sw.js precaches {len(precached)} .gz/.br copies as files of their own "
              "(build_dist.site_files should leave them out)")


def build_at_commit(ref: str, out: Path) -> dict:
    """dist/ as the repository's commit `ref` built it: that commit's files (git archive), with
    this checkout's node_modules/ and a copy of its web/vendor/ (not in git) brought up to date
    by the commit's own vendor.py, built by its own build_dist.py."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        shutil.copytree(ROOT / "web" / "vendor", tree / "web" / "vendor")   # build_dist's rglob skips links
        (tree / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
        vendored = subprocess.run([sys.executable, str(tree / "scripts" / "vendor.py")], cwd=tree,
                                  capture_output=True, text=True)
        if vendored.returncode:
            sys.exit(f"load_time: vendoring {ref} failed:\n{vendored.stderr}")
        built = subprocess.run([sys.executable, str(tree / "scripts" / "build_dist.py"), "--out", str(out)],
                               cwd=tree, capture_output=True, text=True)
        if built.returncode:
            sys.exit(f"load_time: building {ref} failed:\n{built.stderr}")
    files = [path for path in out.rglob("*") if path.is_file() and path.suffix not in (".gz", ".br")]
    raw = sum(path.stat().st_size for path in files)
    packed = sum(min(copy.stat().st_size for copy in [path] + [path.with_name(path.name + ext) for ext in (".br", ".gz")]
                     if copy.exists()) for path in files)
    return {"files": len(files), "bytes": raw, "compressed": packed, "stdlib": built.stdout.strip().splitlines()[-1]}


FLOORS = {"runtime floor": "bench/runtime-floor.html", "PyScript floor": "bench/pyscript-floor.html"}
RUNTIME_FLOOR = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Runtime floor</title>
  <link rel="icon" href="data:,">
{preloads}
  <script type="module">
    // Only the runtime's start, as dist/ starts it: the wasm, the stdlib, CPython and Pyodide's own imports.
    import {{ loadPyodide }} from "../web/vendor/pyodide/pyodide.mjs";
    await loadPyodide({{ indexURL: new URL("../web/vendor/pyodide/", import.meta.url).href }});
    document.documentElement.dataset.ready = "true";
  </script>
</head>
<body></body>
</html>
"""
PYSCRIPT_FLOOR = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>PyScript floor</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="../web/vendor/pyscript/core.css">
  <script type="module" src="../web/vendor/pyscript/core.js"></script>
{preloads}
</head>
<body>
  <script type="py" config='{config}'>
from pyscript import document
document.documentElement.dataset.ready = "true"
  </script>
</body>
</html>
"""


def write_floors(out: Path) -> None:
    """The --floors pages, in out/bench/: dist's own preloads of the runtime (from its
    index.html) and, for the PyScript floor, its PyScript config and preloads but web/main.py's,
    the interpreter being dist's own (web/snapshot.mjs: once the wasm is in, it also fetches and
    installs the bundle, the stdlib's modules that PyScript and the game import, and PyScript's
    bytecode; a cold visit makes no snapshot before it is ready)."""
    page = (out / "index.html").read_text(encoding="utf-8")
    preloads = [line.replace('href="./', 'href="../') for line in page.splitlines()
                if 'rel="modulepreload"' in line or 'rel="preload"' in line]
    runtime = [line for line in preloads if "/vendor/pyodide/" in line]
    config = re.search(r"config='([^']*)'", page).group(1)
    config = re.sub(r'"interpreter":"\./', '"interpreter":"../', config)
    pyscript = [line for line in preloads if "/main.py" not in line]
    (out / "bench").mkdir(exist_ok=True)
    (out / FLOORS["runtime floor"]).write_text(RUNTIME_FLOOR.format(preloads="\n".join(runtime)), encoding="utf-8")
    (out / FLOORS["PyScript floor"]).write_text(
        PYSCRIPT_FLOOR.format(preloads="\n".join(pyscript), config=config), encoding="utf-8")


def dist_name(spec: str) -> str:
    return f"dist {spec}"


def measure(runs: int, settle: float, specs: list[str], profiles: tuple[str, ...] = PROFILES,
            floors: bool = False) -> dict[str, dict[str, dict[str, list[Load]]]]:
    """Every page's visits under every profile, `runs` times each, in fresh profiles; the
    pages and profiles take turns. results[profile][page][visit] is a list of Loads."""
    results: dict = {profile: {} for profile in profiles}
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright, contextlib.ExitStack() as stack:
        repo_log = Path(temp) / "repo.log"
        base = stack.enter_context(serve.spawn(stderr=stack.enter_context(repo_log.open("w"))))
        jobs = []
        for profile in profiles:
            for name, path in PAGES.items():
                if profile == "mobile" and name != EMPTY:
                    continue
                jobs.append((profile, name, lambda path=path, profile=profile:
                             measure_repo_page(playwright, base + path, repo_log, profile)))
        for spec in specs:
            out, log = Path(temp) / f"dist-{spec}", Path(temp) / f"dist-{spec}.log"
            build(out, spec)
            if floors:
                write_floors(out)
            dist_base = stack.enter_context(serve.spawn(root=out, stderr=stack.enter_context(log.open("w"))))
            for profile in profiles:
                jobs.append((profile, dist_name(spec), lambda url=dist_base, log=log, profile=profile:
                             measure_dist(playwright, url, log, settle, profile)))
                for floor, path in FLOORS.items() if floors else ():
                    jobs.append((profile, f"{spec} {floor}", lambda url=dist_base + path, log=log, profile=profile:
                                 measure_repo_page(playwright, url, log, profile)))
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {runs} runs, "
              f"profiles {', '.join(profiles)}, dist variants {', '.join(specs)}")
        for run in range(runs):
            for profile, name, job in jobs[run % len(jobs):] + jobs[: run % len(jobs)]:
                try:
                    visits = job()
                except PlaywrightError as failed:   # a renderer crash (a few in a thousand loads): once more
                    if "crashed" not in failed.message:
                        raise
                    print(f"{profile} {name}: {failed.message.splitlines()[0]}; measured again", flush=True)
                    visits = job()
                for visit, result in visits.items():
                    results[profile].setdefault(name, {}).setdefault(visit, []).append(result)
            print(f"run {run + 1} of {runs} done, load average {os.getloadavg()[0]:.1f}", flush=True)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return results


def size(received: float) -> str:
    return f"{received / 1e6:.2f} MB" if received >= 1e6 else f"{received / 1e3:.1f} KB"


def median(values: list) -> float:
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else float("nan")


def table(results: dict[str, dict[str, list[Load]]]) -> None:
    """One row per page and visit."""
    header = (f"{'page':<30}{'visit':<8}{'first paint ms':>16}{'ready ms':>24}{'transferred':>13}"
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
            print(f"{name:<30}{visit:<8}{paint:>16}{ready:>24}{size(received):>13}{requests:>10.0f}"
                  f"{size(served):>11}{snapshot:>10}")


def kinds_table(results: dict[str, dict[str, list[Load]]]) -> None:
    """First-visit bytes by kind of file, one row per page."""
    names = [kind for kind, _ in KINDS]
    header = f"{'first visit':<30}" + "".join(f"{name:>12}" for name in names) + f"{'total':>12}"
    print(header)
    print("-" * len(header))
    for name, visits in results.items():
        loads = visits["cold"]
        cells = [median([load.kinds[kind] for load in loads]) for kind in names]
        print(f"{name:<30}" + "".join(f"{size(cell):>12}" for cell in cells)
              + f"{size(median([load.received for load in loads])):>12}")


def report(results: dict[str, dict[str, dict[str, list[Load]]]], specs: list[str]) -> None:
    """Print the tables of each profile, the bytes by kind, then the ratios against the goals."""
    for profile, pages in results.items():
        print(f"\n{profile}" + (f" (Lighthouse mobile: 1.6 Mbit/s down, 750 kbit/s up, 150 ms RTT, CPU {MOBILE_CPU}x)"
                                 if profile == "mobile" else ""))
        table(pages)
    first = next(iter(results.values()))
    print()
    kinds_table(first)

    def ready(profile, name, visit="cold"):
        return median([load.ready_ms for load in results[profile][name][visit]])

    def bytes_of(profile, name, visit):
        return median([load.received for load in results[profile][name][visit]])

    print()
    for spec in specs:
        name = dist_name(spec)
        print(f"{name}:")
        lines = []
        if "desktop" in results:
            cold = ready("desktop", name)
            first_mb = bytes_of("desktop", name, "cold") / 1e6
            repeat = bytes_of("desktop", name, "repeat")
            lines += [
                ("first visit", f"{first_mb:.2f} MB", first_mb <= GOALS["first visit MB"], f"<= {GOALS['first visit MB']} MB"),
                ("desktop cold / empty", f"{cold / ready('desktop', EMPTY):.2f}x",
                 cold / ready("desktop", EMPTY) <= GOALS["cold / empty"], f"<= {GOALS['cold / empty']}x"),
                ("desktop repeat / cold", f"{ready('desktop', name, 'repeat') / cold:.2f}x",
                 ready("desktop", name, "repeat") / cold <= GOALS["repeat / cold"], f"<= {GOALS['repeat / cold']}x"),
                ("desktop repeat bytes", size(repeat), repeat < GOALS["repeat KB"] * 1e3, f"< {GOALS['repeat KB']} KB"),
            ]
            if "index.html" in results["desktop"]:
                paints = [median([load.paint_ms for load in loads]) for page, visits in results["desktop"].items()
                          for loads in visits.values() if page != EMPTY]
                lines.append(("first paint", f"slowest median {max(paints):.0f} ms",
                              max(paints) < GOALS["first paint ms"], f"< {GOALS['first paint ms']} ms"))
        if "mobile" in results:
            cold = ready("mobile", name)
            repeat = bytes_of("mobile", name, "repeat")
            lines += [
                ("mobile cold / empty", f"{cold / ready('mobile', EMPTY):.2f}x",
                 cold / ready("mobile", EMPTY) <= GOALS["mobile cold / empty"], f"<= {GOALS['mobile cold / empty']}x"),
                ("mobile repeat / cold", f"{ready('mobile', name, 'repeat') / cold:.2f}x", None, ""),
                ("mobile repeat bytes", size(repeat), repeat < GOALS["repeat KB"] * 1e3, f"< {GOALS['repeat KB']} KB"),
            ]
        for floor in FLOORS:
            for profile in ("desktop", "mobile"):
                if f"{spec} {floor}" in results.get(profile, {}):
                    lines.append((f"{profile} {floor} / empty",
                                  f"{ready(profile, f'{spec} {floor}') / ready(profile, EMPTY):.2f}x", None, ""))
        for label, figure, met, goal in lines:
            verdict = "" if met is None else ("met" if met else "NOT met")
            print(f"  {label:<32}{figure:<24}{'goal ' + goal if goal else '':<16}{verdict}")


def before_after(results: dict[str, dict[str, dict[str, list[Load]]]], specs: list[str]) -> None:
    """One Markdown row per dist/ variant (the closing note's before/after table): first-visit
    bytes by kind, and the ratios to the empty page in this run, medians."""
    names = [kind for kind, _ in KINDS]
    desktop, mobile = results.get("desktop", {}), results.get("mobile", {})

    def ratio(pages, name):
        if name not in pages or EMPTY not in pages:
            return "-"
        return f"{median([x.ready_ms for x in pages[name]['cold']]) / median([x.ready_ms for x in pages[EMPTY]['cold']]):.2f}x"

    print("| first visit | " + " | ".join(names) + " | total | desktop cold / empty | mobile cold / empty | repeat |")
    print("|" + " --- |" * (len(names) + 5))
    for spec in specs:
        name = dist_name(spec)
        pages = desktop if name in desktop else mobile
        loads = pages[name]["cold"]
        cells = [size(median([load.kinds[kind] for load in loads])) for kind in names]
        repeat = size(median([load.received for load in pages[name]["repeat"]]))
        print(f"| {spec} | " + " | ".join(cells) + f" | {size(median([load.received for load in loads]))} | "
              f"{ratio(desktop, name)} | {ratio(mobile, name)} | {repeat} |")


def main() -> None:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="visits of each page (default 3)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds a cold dist/ visit stays open before its browser closes (default 3)")
    parser.add_argument("--dist", action="append", dest="specs", metavar="KIND",
                        help="a dist/ variant: a build_dist.py --stdlib kind (full, pyc, py), optionally "
                             "-APP for its --app (pyc-both); repeatable; default: the default build (pyc)")
    parser.add_argument("--compare-sources", action="store_true",
                        help="also measure dist/ built with its modules as .py sources (build_dist.py --sources)")
    parser.add_argument("--profile", action="append", dest="profiles", choices=PROFILES,
                        help="desktop or mobile (repeatable; default both)")
    parser.add_argument("--floors", action="store_true",
                        help="also measure each dist/ variant's runtime alone and the empty PyScript page on it")
    parser.add_argument("--save", type=Path, help="also write the measurements to this file (pickle)")
    parser.add_argument("--load", type=Path, help="print the tables of measurements saved by --save; measure nothing")
    args = parser.parse_args()
    specs = (args.specs or ["pyc"]) + (["sources"] if args.compare_sources else [])
    if args.load:
        specs, results = pickle.loads(args.load.read_bytes())
    else:
        results = measure(args.runs, args.settle, specs, tuple(args.profiles or PROFILES), args.floors)
        if args.save:
            args.save.write_bytes(pickle.dumps((specs, results)))
    report(results, specs)
    print()
    before_after(results, specs)


if __name__ == "__main__":
    main()
