"""What the main thread does between the wasm's last byte and a ready table, on a first visit.

    nice -n 5 .venv/bin/python bench/start_trace.py [--profile mobile] [--runs 1] [--importtime]

Builds dist/ as bench/ready_path.py does, and opens it cold (a fresh browser profile) under the
profile's emulation with a Chromium performance trace running (the DevTools protocol's
Tracing domain). The served copy of web/snapshot.mjs gets performance marks around
loadPyodide, and an init script marks WebAssembly's compile/instantiate calls, so the timeline
splits into phases:

- `wasm bytes`: the wasm's download (Resource Timing);
- `instantiate`: WebAssembly.instantiateStreaming/instantiate, from its call until it
  resolves; with streaming, compiling overlaps the download and little is left after it;
- `runtime start`: from the instance to loadPyodide's return (Emscripten's start, the stdlib
  written to the file system, CPython's initialisation and Pyodide's own Python imports);
- `pyscript`: loadPyodide's return to `py:main` (PyScript's own Python modules and set-up,
  app.zip fetched and written);
- `our imports` and `mount`: web/main.py's marks, up to the ready marker.

Each phase is printed with the main thread's busy time inside it, split by what the trace says
the thread did (wasm compiling, script compiling, running script, garbage collection, ...).
--importtime also starts Python with PYTHONPROFILEIMPORTTIME (`-X importtime`, which slows the
start a little) and prints the slowest imports of the start, stdlib and ours, from the console.
"""

import argparse
import collections
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts"), str(ROOT / "bench")]

import load_time  # noqa: E402
from harness import BOOT_TIMEOUT_MS, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402

# Marks WebAssembly's calls in the page (and so their times on the trace).
WASM_MARKS = """
for (const name of ["instantiateStreaming", "instantiate", "compileStreaming", "compile"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    performance.mark(`js:${name}`);
    return original.apply(this, args).then((result) => { performance.mark(`js:${name} done`); return result; });
  };
}
"""
LOAD_CALL = "const pyodide = await load({ ...options, createPyodideModule: (settings) => createModule(settings, BOOT_IMPORTS) });"
CATEGORIES = ",".join(["devtools.timeline", "v8", "v8.wasm", "v8.execute", "blink.user_timing", "loading",
                       "disabled-by-default-devtools.timeline", "disabled-by-default-v8.compile"])
MARKS = """() => performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])"""
WASM_END = """() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm"))
    .map((e) => e.responseEnd)[0]"""
# What a main-thread trace event's time counts as (the first pattern its name matches).
KINDS = (
    ("wasm compile", re.compile(r"wasm", re.I)),
    ("script compile", re.compile(r"compile|parse|ScriptStreamer", re.I)),
    ("gc", re.compile(r"gc|garbage|scavenge|sweep|mark", re.I)),
    ("style, layout, paint", re.compile(r"style|layout|paint|composite|prepaint|layerize|HitTest", re.I)),
    ("script", re.compile(r"FunctionCall|EvaluateScript|v8\.run|V8\.Execute|TimerFire|EventDispatch|"
                          r"FireAnimationFrame|RunMicrotasks|v8\.callFunction|ResourceReceive", re.I)),
)


def patch(out: Path, importtime: bool) -> None:
    """Marks around loadPyodide in the served web/snapshot.mjs (and the import-time env)."""
    wrapper = out / "web" / "snapshot.mjs"
    text = wrapper.read_text(encoding="utf-8")
    if text.count(LOAD_CALL) != 1:
        sys.exit(f"start_trace: web/snapshot.mjs no longer holds {LOAD_CALL!r} once")
    env = "options.env = { ...options.env, PYTHONPROFILEIMPORTTIME: '1' };" if importtime else ""
    text = text.replace(LOAD_CALL, f'{env}performance.mark("js:loadPyodide");\n  {LOAD_CALL}\n'
                                   '  performance.mark("js:loadPyodide done");')
    wrapper.write_text(text, encoding="utf-8")
    for stale in (wrapper.with_name(wrapper.name + ".br"), wrapper.with_name(wrapper.name + ".gz")):
        stale.unlink(missing_ok=True)


def visit(playwright, url: str, profile: str) -> tuple[list, dict, float, float, list]:
    """One cold visit with a trace; returns (trace events, marks, wasm end, ready, console lines)."""
    with tempfile.TemporaryDirectory() as folder:
        context, _ = load_time.open_profile(playwright, folder, Path(folder) / "unused.log")
        try:
            context.add_init_script(WASM_MARKS)
            page = context.pages[0] if context.pages else context.new_page()
            console = []
            page.on("console", lambda message: console.append(message.text))
            load_time.throttle(page, profile)
            cdp = page.context.new_cdp_session(page)
            events, done = [], []
            cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
            cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
            cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
            page.goto(url, timeout=load_time.MOBILE_TIMEOUT_MS)
            wait_ready(page, timeout=load_time.MOBILE_TIMEOUT_MS if profile == "mobile" else BOOT_TIMEOUT_MS)
            ready = page.evaluate("window.__readyAt")
            marks = dict(page.evaluate(MARKS))
            wasm_end = page.evaluate(WASM_END)
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(100)
        finally:
            context.close()
    return events, marks, wasm_end, ready, console


def main_thread(events: list) -> tuple[int, int]:
    """(pid, tid) of the page's renderer main thread."""
    for event in events:
        if event.get("name") == "thread_name" and event["args"]["name"] == "CrRendererMain":
            pid, tid = event["pid"], event["tid"]
            if any(e.get("pid") == pid and e.get("name") == "navigationStart" for e in events):
                return pid, tid
    sys.exit("start_trace: no renderer main thread in the trace")


def self_segments(events: list, where: tuple[int, int]) -> list[tuple[float, float, str]]:
    """The main thread's complete events cut into the stretches each one ran itself (not in an
    event nested in it), as (start ms, end ms, name) in trace time (µs / 1000)."""
    spans = sorted(((e["ts"], e["ts"] + e["dur"], e["name"]) for e in events
                    if (e.get("pid"), e.get("tid")) == where and e.get("ph") == "X" and e.get("dur")),
                   key=lambda span: (span[0], -span[1]))
    out, stack = [], []   # stack of [cursor, end, name]: where each open event's own time resumes

    def close_until(moment: float) -> None:
        while stack and stack[-1][1] <= moment:
            cursor, end, name = stack.pop()
            out.append((cursor, end, name))
            if stack:
                stack[-1][0] = end

    for start, end, name in spans:
        close_until(start)
        if stack:
            out.append((stack[-1][0], start, stack[-1][2]))
            end = min(end, stack[-1][1])
        stack.append([start, end, name])
    close_until(float("inf"))
    return [(start / 1000, end / 1000, name) for start, end, name in out if end > start]


def kind_of(name: str) -> str:
    return next((kind for kind, pattern in KINDS if pattern.search(name)), "other")


def report(events, marks, wasm_end, ready, console, top: int) -> None:
    where = main_thread(events)
    # Trace time of navigation start, to put trace events on the page's clock.
    origin = min(e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == where[0]) / 1000
    segments = [(start - origin, end - origin, name) for start, end, name in self_segments(events, where)]

    def clipped(begin: float, end: float) -> list[tuple[float, str]]:
        return [(min(stop, end) - max(start, begin), name) for start, stop, name in segments
                if start < end and stop > begin]

    instance = marks.get("js:instantiateStreaming done") or marks.get("js:instantiate done")
    called = marks.get("js:instantiateStreaming") or marks.get("js:instantiate")
    phases = [("until the wasm's last byte", 0, wasm_end),
              ("instantiate, after the last byte", wasm_end, max(wasm_end, instance)),
              ("runtime start (loadPyodide)", max(wasm_end, instance), marks["js:loadPyodide done"]),
              ("pyscript, to py:main", marks["js:loadPyodide done"], marks["py:main"]),
              ("our imports (py:imported)", marks["py:main"], marks["py:imported"]),
              ("mount, to ready", marks["py:imported"], ready)]
    print(f"marks (ms from navigation): wasm last byte {wasm_end:.0f}, instantiate called {called:.0f}, "
          f"resolved {instance:.0f}, loadPyodide called {marks['js:loadPyodide']:.0f}, returned "
          f"{marks['js:loadPyodide done']:.0f}, py:main {marks['py:main']:.0f}, ready {ready:.0f}")
    kinds = [kind for kind, _ in KINDS] + ["other"]
    print(f"\n{'phase':<34}{'wall ms':>9}{'busy ms':>9}" + "".join(f"{kind[:14]:>16}" for kind in kinds))
    for label, begin, end in phases:
        inside = clipped(begin, end)
        split = collections.Counter()
        for own, name in inside:
            split[kind_of(name)] += own
        print(f"{label:<34}{end - begin:>9.0f}{sum(split.values()):>9.0f}"
              + "".join(f"{split[kind]:>16.0f}" for kind in kinds))
    for label, begin, end in phases:
        busiest = collections.Counter()
        for own, name in clipped(begin, end):
            busiest[name] += own
        print(f"\nbusiest trace events, {label} (self ms):")
        for name, ms in busiest.most_common(top):
            print(f"  {ms:8.0f}  {name}")
    imports = [line for line in console if line.startswith("import time:")]
    if imports:
        rows = []
        for line in imports[1:]:
            cells = [cell.strip() for cell in line.removeprefix("import time:").split("|")]
            if len(cells) == 3 and cells[0].isdigit():
                rows.append((int(cells[1]), int(cells[0]), cells[2]))
        print(f"\n{len(rows)} imports; slowest cumulative (µs, self µs):")
        for cumulative, own, name in sorted(rows, reverse=True)[:top]:
            print(f"  {cumulative:>9} {own:>9}  {name}")
        tops = [(c, o, n) for c, o, n in rows if not n.startswith(" ")]
        print(f"top-level imports in all: {sum(c for c, _, _ in tops) / 1000:.0f} ms, in order (cumulative µs):")
        for cumulative, _, name in tops:
            print(f"  {cumulative:>9}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=load_time.PROFILES, default="mobile")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dist", default="pyc", metavar="KIND", help="as bench/load_time.py --dist")
    parser.add_argument("--importtime", action="store_true", help="also time Python's imports (-X importtime)")
    parser.add_argument("--top", type=int, default=25, help="rows of the busiest lists")
    parser.add_argument("--save", type=Path, help="write the last run's trace here (JSON, for chrome://tracing)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        out = Path(temp) / "dist"
        load_time.build(out, args.dist)
        patch(out, args.importtime)
        with (Path(temp) / "serve.log").open("w") as log, serve.spawn(root=out, stderr=log) as url:
            for run in range(args.runs):
                print(f"\nrun {run + 1} ({args.profile}, load average {load_time.os.getloadavg()[0]:.1f})")
                events, *rest = visit(playwright, url, args.profile)
                if args.save:
                    args.save.write_text(json.dumps({"traceEvents": events}), encoding="utf-8")
                report(events, *rest, top=args.top)


if __name__ == "__main__":
    main()
