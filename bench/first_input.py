"""Is the start form responsive while Python starts? The main thread's long tasks from the
first paint to ready, and how long a tap on the form takes to show, on the built site.

    .venv/bin/python bench/first_input.py [--runs 3] [--dist pyc --dist git:main]
                                           [--taps 0.2,0.5,1.0,1.5] [--deal 0.8] [--profile desktop]

Builds each dist/ variant as bench/load_time.py does (--dist KIND, repeatable; "git:REF" is the
build of the repository's commit REF) and serves it with serve.py. Each run opens every variant
in a fresh browser profile, the variants taking turns from run to run:

- a first visit, kept open until the service worker is active and web/snapshot.mjs has stored
  its memory snapshot (as a visitor's first visit does, bench/load_time.py), then
- a repeat visit by a new browser on the same profile, which starts from that snapshot.

During each visit the page's init script records the Long Tasks API's entries (tasks of the
main thread over 50 ms) and every tap's timing, and the benchmark taps the static start form
at fixed times after the first paint (--taps, seconds after 'first-contentful-paint'): each tap
a different radio button, and the "Deal" button at --deal seconds (by default never: a Deal
pressed before ready starts a game as the page gets ready, which then counts in its ready time). A tap is a real
input event sent through the DevTools protocol (Input.dispatchMouseEvent, a press and, 60 ms
later, a release), which the renderer queues as it queues a mouse's; the taps are sent without
waiting for the page to handle them, so a tap held behind a long task does not hold back the next.

A tap's echo is the time from its release (the pointerup's own time stamp, when it was sent:
the click comes with the release) to the end of the first frame painted after its click was
handled: the Event Timing API's end for the release's events (it reports those of 16 ms or
more), else the start of the first frame after the click (requestAnimationFrame; a message
posted from there is no measure: the start's slices, scheduler.yield() continuations, run
before such tasks).
A radio echoes without any script (the browser checks it); "Deal" echoes through index.html's
own script (its label becomes "Starting as soon as the game has loaded…"); both need a free main
thread. Taps that land after ready are shown with a "+" (Python's form then handles them).
After ready the page must show the last radio tapped in each group as checked (web/early.py hands
the static form's state over to Python's form): "lost" counts the groups where it does not, and
the taps the page never saw.

Printed: per visit and variant, medians over the runs (and the worst run in brackets) of the
longest main-thread task between the first paint and ready, the number of tasks over 200 ms and
over 50 ms there, their total, each tap's echo, first paint and ready (ms from navigation) and
the longest task in the 2 s after ready; then each run's long tasks (start and duration, ms from
navigation, with the start's marks inside each). The machine's other work stretches a task's
wall time (a thread waiting for a core): compare variants measured in the same run, and with
--cpu also read the tasks' thread time (a trace of each visit), which it does not stretch.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "scripts"), str(ROOT / "bench")]

import load_time  # noqa: E402
from harness import BOOT_TIMEOUT_MS, LAUNCH, READY_CLOCK  # noqa: E402
from playwright.async_api import Error as PlaywrightError  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

import serve  # noqa: E402

# Init script: the long tasks, the taps (pointerdown to the frame after the click) and the
# Event Timing entries, in window.__firstInput.
RECORDER = """
(() => {
  const record = window.__firstInput = { tasks: [], taps: [], events: [] };
  const observe = (type, keep, options = {}) => {
    try {
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) keep(entry); })
        .observe({ type, buffered: true, ...options });
    } catch { /* not in this browser */ }
  };
  observe("longtask", (entry) => record.tasks.push([entry.startTime, entry.duration]));
  observe("event", (entry) => record.events.push({ name: entry.name, start: entry.startTime,
    end: entry.startTime + entry.duration, id: entry.interactionId }), { durationThreshold: 16 });
  addEventListener("pointerdown", (event) => {
    if (event.isTrusted) record.taps.push({ down: event.timeStamp });
  }, true);
  addEventListener("pointerup", (event) => {
    const tap = record.taps.at(-1);
    if (event.isTrusted && tap && !("up" in tap)) Object.assign(tap, { up: event.timeStamp, handled: performance.now() });
  }, true);
  addEventListener("click", (event) => {
    const tap = record.taps.at(-1);
    if (!tap || "click" in tap) return;   // a label's click on its input comes second
    tap.click = performance.now();
    requestAnimationFrame(() => { tap.frame = performance.now(); });
  }, true);
})();
"""
# Resolves, once the form is painted, to the first paint (ms from navigation), the page's time
# origin (ms since the epoch) and where to tap: the radios' labels, then the Deal button.
TARGETS = """() => new Promise((resolve) => {
  const look = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const form = document.querySelector('form[data-testid="start"]');
    if (!paint || !form) return setTimeout(look, 5);
    const centre = (element) => {
      const box = element.getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    };
    const radios = [...form.querySelectorAll("label.choice")].map((label) => {
      const input = label.querySelector("input");
      return { name: input.name, value: input.value, at: centre(label.querySelector("span")) };
    });
    resolve({ paint: paint.startTime, origin: performance.timeOrigin, radios,
              deal: centre(form.querySelector('[data-testid="start-game"]')) });
  };
  look();
})"""
# The radios a visit taps, in turn: each changes what the form shows.
TAP_ORDER = (("level", "easy"), ("players", "3"), ("target", "61"), ("level", "hard"),
             ("players", "4"), ("target", "121"), ("level", "medium"), ("players", "2"))
CHECKED = """(choices) => choices.map(([name, value]) =>
    document.querySelector(`form[data-testid="start"] input[name="${name}"][value="${value}"]`)?.checked ?? null)"""
# After Deal was tapped: the game that started, as its save says (web/session.py).
DEALT = """(choices) => {
  const save = JSON.parse(localStorage.getItem(window.cribbageShell.keys.save));
  const config = JSON.parse(save.state).config;
  const seen = { level: save.bots[1], players: String(config.players), target: String(config.target) };
  return choices.map(([name, value]) => seen[name] === value);
}"""
# What a visit leaves behind for the next (a game in progress, the profile's choices), but the
# snapshot's marks: the repeat visit then shows the same form.
FORGET = "() => Object.values(window.cribbageShell.keys).forEach((key) => localStorage.removeItem(key))"
# The marks of the start (web/main.py's py:*, web/snapshot.mjs's js:*), which the run's list of
# long tasks places: a task's marks say what ran in it.
MARKS = """() => performance.getEntriesByType("mark").filter((m) => /^(py|js):/.test(m.name))
    .map((m) => [m.name, m.startTime])"""
PRESS_MS = 60   # between a tap's press and its release
AFTER_READY_MS = 2000   # how long after ready the long tasks count in "after ready"
LONG, VERY_LONG = 50, 200


@dataclass
class Visit:
    paint: float
    ready: float
    tasks: list[tuple[float, float]]            # (start, duration) ms, the whole visit
    taps: list[tuple[float, float | None, bool]] = field(default_factory=list)   # (at after paint, echo, after ready)
    lost: int = 0
    steps: list[str] = field(default_factory=list)   # each tap's handled/click/frame/timing ms (echoes)
    lost_groups: list[str] = field(default_factory=list)   # the radio groups whose last tap the form does not show
    snapshot: str | None = None
    marks: list[tuple[str, float]] = field(default_factory=list)   # the start's performance marks
    # With --cpu, the main thread's tasks from a trace: (start ms from navigation, wall ms, thread ms).
    traced: list[tuple[float, float, float]] | None = None

    def boot_tasks(self) -> list[float]:
        """Durations of the long tasks that ended after the first paint and began before ready."""
        return [duration for start, duration in self.tasks if start + duration > self.paint and start < self.ready]

    def after_ready(self) -> list[float]:
        """Durations of the long tasks that began in the AFTER_READY_MS after ready."""
        return [duration for start, duration in self.tasks if self.ready <= start < self.ready + AFTER_READY_MS]

    def after_ready_cpu(self) -> list[float]:
        return [cpu for start, _, cpu in self.traced or () if self.ready <= start < self.ready + AFTER_READY_MS]

    def boot_cpu(self) -> list[float]:
        """The thread time of the traced tasks that ended after the first paint and began before ready."""
        return [cpu for start, wall, cpu in self.traced or () if start + wall > self.paint and start < self.ready]


async def tap_all(cdp, taps: list[tuple[float, float, float]]) -> None:
    """Each (x, y, wall-clock time.time()) in turn: a press then, its release PRESS_MS later.
    None waits for the page to handle another, but a press never goes before the release of
    the tap before it (when the benchmark itself was held up, the taps follow each other)."""
    sent = []
    for x, y, at in taps:
        await asyncio.sleep(max(0.0, at - time.time()))
        event = {"x": x, "y": y, "button": "left", "clickCount": 1, "pointerType": "mouse"}
        sent.append(asyncio.ensure_future(cdp.send("Input.dispatchMouseEvent", {"type": "mousePressed", **event})))
        await asyncio.sleep(PRESS_MS / 1000)
        sent.append(asyncio.ensure_future(cdp.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **event})))
    await asyncio.gather(*sent)


def echoes(record: dict) -> list[tuple[float, float | None, str]]:
    """(pointerdown, echo ms or None, its steps) per tap, from the recorder's figures. The echo
    runs from the release (pointerup: the click, which checks a radio or presses a button, comes
    with it) to the end of the frame that shows the click: the Event Timing API's end for the
    release's events (it reports only those of 16 ms or more), else the start of the first frame
    after the click's handlers (requestAnimationFrame). The steps are ms from the release to its
    handler, to the click's handler, to that frame and to the Event Timing API's end, as
    "handled/click/frame/timing"."""
    out = []
    for entry in record["taps"]:
        up = entry.get("up")
        if up is None:
            out.append((entry["down"], None, "no release"))
            continue
        timing = [event["end"] for event in record["events"]
                  if event["name"] in ("pointerup", "mouseup", "click") and up - 0.5 <= event["start"] <= up + 0.5]
        ends = timing or ([entry["frame"]] if "frame" in entry else [])
        steps = [entry.get(key) for key in ("handled", "click", "frame")] + [max(timing, default=None)]
        detail = "/".join("-" if at is None else f"{at - up:.0f}" for at in steps)
        out.append((entry["down"], max(ends) - up if ends else None, detail))
    return out


TRACE = {"categories": "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing",
         "transferMode": "ReportEvents"}


async def traced(cdp) -> list[dict]:
    """Ends the trace the page's DevTools session records; returns its events."""
    events, done = [], asyncio.Event()
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.set())
    await cdp.send("Tracing.end")
    await done.wait()
    return events


def main_thread_tasks(events: list[dict], marks: list[tuple[str, float]]) -> list[tuple[float, float, float]]:
    """The tasks of the page's main thread over 10 ms (wall or thread time) as (start ms from
    navigation, wall ms, thread ms): the thread is the one that set the page's first mark, whose
    time on the page's clock puts the trace's clock on it."""
    name, at = marks[0]
    mark = next(event for event in events if event.get("name") == name and event.get("cat") == "blink.user_timing")
    pid, tid = mark["pid"], mark["tid"]
    origin = mark["ts"] / 1000 - at
    return [(event["ts"] / 1000 - origin, event["dur"] / 1000, event.get("tdur", 0) / 1000) for event in events
            if event.get("name") == "RunTask" and event.get("ph") == "X" and (event["pid"], event["tid"]) == (pid, tid)
            and max(event.get("dur", 0), event.get("tdur", 0)) >= 10_000]


async def visit(context, url: str, taps: list[float], deal: float, profile: str, first: bool,
                cpu: bool = False) -> Visit:
    """Open `url` in the context's page, tap as told, wait until ready (and, on a first visit,
    until the snapshot is stored); return what was measured."""
    page = context.pages[0] if context.pages else await context.new_page()
    cdp = await context.new_cdp_session(page)
    if profile == "mobile":
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", load_time.MOBILE_NETWORK)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": load_time.MOBILE_CPU})
    timeout = load_time.MOBILE_TIMEOUT_MS if profile == "mobile" else BOOT_TIMEOUT_MS
    if cpu:
        await cdp.send("Tracing.start", TRACE)
    await page.goto(url, wait_until="commit", timeout=timeout)
    found = await page.evaluate(TARGETS)
    painted = (found["origin"] + found["paint"]) / 1000   # the first paint, in time.time()
    radios = {(radio["name"], radio["value"]): radio["at"] for radio in found["radios"]}
    plan = [(at, *radios[choice], choice) for at, choice in zip(taps, TAP_ORDER, strict=False)]
    if deal:
        plan.append((deal, *found["deal"], None))
    await asyncio.gather(tap_all(cdp, [(x, y, painted + at) for at, x, y, _ in plan]),
                         page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=timeout))
    # The last tap's frame, and AFTER_READY_MS after ready (what the page does then: web/main.py's warm-up).
    await page.wait_for_function(f"performance.now() > window.__readyAt + {AFTER_READY_MS}", timeout=timeout)
    await page.wait_for_timeout(300)
    ready = await page.evaluate("window.__readyAt")
    record = await page.evaluate("window.__firstInput")
    paint = found["paint"]
    result = Visit(paint, ready, [tuple(task) for task in record["tasks"]])
    tapped = echoes(record)
    result.taps = [(down - paint, echo, down >= ready) for down, echo, _ in tapped]
    result.steps = [detail for *_, detail in tapped]
    last = {}
    for *_, choice in plan:   # what the form must show: each radio group's last tap, before ready or after
        if choice:
            last[choice[0]] = choice[1]
    if deal and len(result.taps) == len(plan):   # Deal was tapped, before ready or after: a game started
        await page.wait_for_selector('[data-testid="hand"]', timeout=timeout)
        shown = await page.evaluate(DEALT, list(last.items()))
    else:
        shown = await page.evaluate(CHECKED, list(last.items()))
    result.lost_groups = [f"{name}={value}" for (name, value), checked in zip(last.items(), shown, strict=True)
                          if not checked]
    result.lost = len(result.lost_groups) + max(0, len(plan) - len(result.taps))
    result.snapshot = await page.evaluate("document.documentElement.dataset.snapshot ?? null")
    result.marks = [tuple(mark) for mark in await page.evaluate(MARKS)]
    if cpu:
        result.traced = main_thread_tasks(await traced(cdp), result.marks)
    if first:
        await page.evaluate(load_time.SW_READY)
        await page.evaluate(load_time.SNAPSHOT_SAVED)
        await page.wait_for_timeout(1000)
    await page.evaluate(FORGET)
    return result


async def measure_variant(playwright, url: str, args) -> dict[str, Visit]:
    """A first visit and a repeat visit (a new browser, the same profile)."""
    visits = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in ("first", "repeat"):
            context = await playwright.chromium.launch_persistent_context(folder, **LAUNCH)
            try:
                await context.add_init_script(READY_CLOCK + RECORDER)
                visits[name] = await visit(context, url, args.taps, args.deal, args.profile, name == "first",
                                           args.cpu)
            finally:
                await context.close()
    return visits


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def cell(values: list[float | None], worst=max) -> str:
    """Median (worst) of a figure over the runs; '-' where there is none."""
    known = [value for value in values if value is not None]
    if not known:
        return "-"
    return f"{median(known):.0f} ({worst(known):.0f})"


def inside(marks: list[tuple[str, float]], start: float, end: float) -> str:
    """The marks set during a task, as "[name name]"."""
    names = [name for name, at in marks if start <= at <= end]
    return f"[{' '.join(names)}]" if names else ""


def report(results: dict[str, dict[str, list[Visit]]], args) -> None:
    tap_names = [f"tap {at:g} s" for at in args.taps] + ([f"Deal {args.deal:g} s"] if args.deal else [])
    header = (f"{'variant':<22}{'visit':<8}{'longest ms':>13}{'>200 ms':>9}{'>50 ms':>8}{'total ms':>13}"
              + "".join(f"{name:>14}" for name in tap_names) + f"{'lost':>6}{'paint ms':>10}{'ready ms':>14}"
              + f"{'after ready':>13}")
    print("\nmedian (worst run) over the runs; main-thread tasks from the first paint to ready; "
          "echo ms of each tap, '+' after ready; the longest task in the 2 s after ready")
    print(header)
    print("-" * len(header))
    for spec, visits in results.items():
        for name, runs in visits.items():
            boot = [run.boot_tasks() for run in runs]
            row = (f"{spec[:21]:<22}{name:<8}{cell([max(tasks, default=0) for tasks in boot]):>13}"
                   f"{cell([sum(d > VERY_LONG for d in tasks) for tasks in boot]):>9}"
                   f"{cell([sum(d > LONG for d in tasks) for tasks in boot]):>8}"
                   f"{cell([sum(tasks) for tasks in boot]):>13}")
            for index in range(len(tap_names)):
                taken = [run.taps[index] for run in runs if index < len(run.taps)]
                late = sum(after for _, _, after in taken)
                text = cell([echo for _, echo, _ in taken]) + ("+" if late * 2 > len(taken) else "")
                row += f"{text:>14}"
            row += (f"{sum(run.lost for run in runs):>6}{median([run.paint for run in runs]):>10.0f}"
                    f"{cell([run.ready for run in runs]):>14}"
                    f"{cell([max(run.after_ready(), default=0) for run in runs]):>13}")
            print(row)
    if args.cpu:
        print("\nthe same tasks' thread time (--cpu: the CPU the main thread spent in each task, from a trace; "
              "the machine's other work stretches the wall times above, not these)")
        header = (f"{'variant':<22}{'visit':<8}{'longest ms':>13}{'>200 ms':>9}{'>100 ms':>9}{'>50 ms':>8}"
                  f"{'total ms':>13}{'after ready':>13}")
        print(header)
        print("-" * len(header))
        for spec, visits in results.items():
            for name, runs in visits.items():
                boot = [run.boot_cpu() for run in runs]
                print(f"{spec[:21]:<22}{name:<8}{cell([max(tasks, default=0) for tasks in boot]):>13}"
                      + "".join(f"{cell([sum(d > limit for d in tasks) for tasks in boot]):>{width}}"
                                for limit, width in ((VERY_LONG, 9), (100, 9), (LONG, 8)))
                      + f"{cell([sum(d for d in tasks if d > LONG) for tasks in boot]):>13}"
                      + f"{cell([max(run.after_ready_cpu(), default=0) for run in runs]):>13}")
    print("\nlong tasks of each run (start+duration ms from navigation; * from the first paint to ready, "
          "[the start's marks in it]), taps (ms after the first paint: echo ms (ms from the release to its "
          "handler/the click's handler/the frame after it/Event Timing's end))")
    for spec, visits in results.items():
        for name, runs in visits.items():
            for number, run in enumerate(runs, 1):
                tasks = " ".join(f"{'*' if start + length > run.paint and start < run.ready else ''}"
                                 f"{start:.0f}+{length:.0f}" + inside(run.marks, start, start + length)
                                 for start, length in run.tasks)
                if run.traced is not None:
                    tasks += "\n    cpu   " + " ".join(f"{start:.0f}+{wall:.0f}/{cpu_ms:.0f}"
                                                      + inside(run.marks, start, start + wall)
                                                      for start, wall, cpu_ms in run.traced if max(wall, cpu_ms) >= LONG)
                taps = " ".join(f"{at:.0f}:{'-' if echo is None else f'{echo:.0f}'}{'+' if late else ''}"
                                f"({steps})" for (at, echo, late), steps in zip(run.taps, run.steps, strict=True))
                marks = " ".join(f"{name} {at:.0f}" for name, at in run.marks)
                print(f"{spec[:21]:<22}{name:<7} run {number}: paint {run.paint:.0f}, ready {run.ready:.0f}, "
                      f"snapshot {run.snapshot}, lost {run.lost} {' '.join(run.lost_groups)}\n    tasks {tasks}\n    taps  {taps}\n    marks {marks}")


async def main_async(args) -> None:
    results: dict[str, dict[str, list[Visit]]] = {}
    with tempfile.TemporaryDirectory() as temp:
        urls = {}
        servers = []
        try:
            for spec in args.specs:
                out = Path(temp) / f"dist-{spec.replace('/', '_')}"
                load_time.build(out, spec)
                log = (Path(temp) / f"{out.name}.log").open("w")
                server = serve.spawn(root=out, stderr=log)
                urls[spec] = server.__enter__()
                servers.append((server, log))
            async with async_playwright() as playwright:
                print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {args.runs} runs, "
                      f"{args.profile}, variants {', '.join(args.specs)}", flush=True)
                for run in range(args.runs):
                    order = args.specs[run % len(args.specs):] + args.specs[:run % len(args.specs)]
                    for spec in order:
                        try:
                            visits = await measure_variant(playwright, urls[spec], args)
                        except PlaywrightError as failed:   # a renderer crash (bench/load_time.py): once more
                            if "crashed" not in failed.message:
                                raise
                            print(f"{spec}: {failed.message.splitlines()[0]}; measured again", flush=True)
                            visits = await measure_variant(playwright, urls[spec], args)
                        for name, result in visits.items():
                            results.setdefault(spec, {}).setdefault(name, []).append(result)
                    print(f"run {run + 1} of {args.runs} done, load average {os.getloadavg()[0]:.1f}", flush=True)
        finally:
            for server, log in servers:
                server.__exit__(None, None, None)
                log.close()
    report(results, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dist", action="append", dest="specs", metavar="KIND",
                        help="a dist/ variant as bench/load_time.py --dist takes it (repeatable; default pyc)")
    parser.add_argument("--taps", default="0.2,0.5,1.0,1.5",
                        help="seconds after the first paint to tap a radio button (comma-separated)")
    parser.add_argument("--deal", type=float, default=0.0,
                        help="seconds after the first paint to tap Deal (default 0: never; a Deal before ready "
                             "starts a game at ready, which then counts in the ready time)")
    parser.add_argument("--profile", choices=load_time.PROFILES, default="desktop")
    parser.add_argument("--cpu", action="store_true",
                        help="also trace each visit and report its main-thread tasks' thread time (CPU)")
    args = parser.parse_args()
    args.specs = args.specs or ["pyc"]
    args.taps = [float(at) for at in args.taps.split(",") if at.strip()]
    if len(args.taps) > len(TAP_ORDER):
        parser.error(f"at most {len(TAP_ORDER)} taps")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
