"""The blind deal at a real table with friends in Chromium (issue 38): per seat, how long after a
hand begins its browser reads its cards and knows the starter, the page's longest blocking, and
the bytes on the wire, at CPU x1 and x4.

    nice -n 10 .venv/bin/python bench/blind_table_browser.py [--hands 2] [--rates 1,4] [--players 2,3,4] [--bots]
        [--slow 1]

``--slow`` slows only the pages of the seats given (1 is the host's), the others at x1: one
player on a slow phone, which is what a table usually has; slowing every page at 3 and 4 players
puts three or four x4 pages on a 2-core machine, whose contention stretches every figure. Even
one slowed page shares the 2 cores with the others, so each slowed page is also traced (Chromium's
trace of its main thread): each long task's thread time, which a task waiting for a core does
not stretch (CPU x4 does: a 120 ms task of x4 work measures 95 to 115 ms of it on a quiet
machine), and for a long task with none of the page's Python in it, what the trace saw in it.

Serves the site (the sources, or ``--dist`` a built dist as the browser tests use), opens a
host page and one page for each friend in headless Chromium (a context each, as the tests do),
seats everyone through the invite link over WebRTC (every seat a person, or with ``--bots`` the
last seat a bot at 3 and 4 players), slows every page's CPU with CDP's
``Emulation.setCPUThrottlingRate``, starts a game to 121 and plays ``--hands`` hands through the
pages' own buttons (each page's first choices, as soon as they show: Playwright's clicks, a few
ms each, are in the figures).

Per hand and seat (tests/e2e/blind_pages.py's watch, in each page's Python): the seconds from
the host opening the hand (its start message made) to this browser reading its own cards, and
to this browser knowing the starter (after everyone's discard: the clicks are in it), and from
this browser having every seat's discard to its knowing the starter (the starter's unlocks, in
seat order, and their checks: no clicks in it); from the second hand on, each hand is dealt
while the one before is played (web/friends/blind_ahead.py): how long after it became the hand
played this browser still waited for its cards (0 when they were read before); the longest run
of the deal's work without the page getting its turn (web.slices, timed in the page); the long
tasks (over 50 ms) a PerformanceObserver saw in the page from the first hand's start to the
last hand's end, and those of them that were mostly the deal's work (each long task is put down
to what ran in it: the page's Python marks its steps of work, repaints, saves and received
messages; the list at the end names them), and the longest gap between two runs of a 10 ms interval timer (the longest
time the page could not answer); and the bytes of the hand's ``blind`` messages the page sent
and received on its data channels (the host sends each friend's message on to every other seat);
and the page's repaints (``Friends.after_input`` after a click, ``after_work`` after each step of a blind
hand's work), how many, their time in all and the longest.
The first hand is printed apart from the median of the others (it is not dealt ahead).
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from blind_pages import RUN_PYTHON, probe, watch  # noqa: E402
from harness import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_friends import host_table, join, step  # noqa: E402

import serve  # noqa: E402

NAMES = ["Hana", "Gus", "Ivy", "Jo"]
PROBE_EVERY = 1.0      # seconds between looks at the pages' Python for the hands' times

# Each page: the long tasks, the longest gap of a 10 ms timer, and the bytes of blind messages
# per hand, sent and received on any data channel.
SPY = """
(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([performance.timeOrigin + e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  window.__gaps = [];
  let last = performance.now();
  setInterval(() => { const now = performance.now(); window.__gaps.push([performance.timeOrigin + now, now - last - 10]);
                      last = now; if (window.__gaps.length > 20000) window.__gaps.splice(0, 10000); }, 10);
  window.__bytes = {};
  const count = (direction, data) => {
    if (typeof data !== "string" || !data.startsWith('{"v":')) return;
    const found = /^\\{"v":\\d+,"type":"blind","hand":(\\d+)/.exec(data);
    const key = found ? found[1] : "other";
    const entry = window.__bytes[key] ??= { sent: 0, received: 0, sentCount: 0, receivedCount: 0 };
    entry[direction] += new TextEncoder().encode(data).length;
    entry[direction + "Count"] += 1;
  };
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) { count("sent", data); return send.call(this, data); };
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("datachannel", (event) => event.channel.addEventListener("message", (m) => count("received", m.data)));
    }
    createDataChannel(...args) {
      const channel = super.createDataChannel(...args);
      channel.addEventListener("message", (m) => count("received", m.data));
      return channel;
    }
  };
})();
"""


# Each page: the time its glue spends repainting (after_input after a click, after_work after each
# step of a blind hand's work: web.friends.glue._blind_loop), from the hand's start on; and what
# ran when (``spans``: start and end in ms since the epoch, and a label), so that each long task
# can be put down to what ran in it: a received message, a repaint, a save, a slice of the deal.
REPAINTS = """
import sys, time
from web import dom as _dom, keeper as _keeper
from web.friends import glue as _glue, guest as _guest, host as _host
_watch = sys.modules["blind_watch"]
_watch.paints, _watch.spans = [], []

def _spanned(label, method, paints=False):
    def timed(self, *args, **kwargs):
        begun, at = time.perf_counter(), time.time() * 1000
        try:
            return method(self, *args, **kwargs)
        finally:
            spent = (time.perf_counter() - begun) * 1000
            _watch.spans.append((at, at + spent, label))
            if paints:
                _watch.paints.append((at, spent))
            if len(_watch.spans) > 50_000:
                del _watch.spans[:25_000]
    return timed

def _spanned_function(label, function):
    timed = _spanned(label, lambda _, *args, **kwargs: function(*args, **kwargs))
    return lambda *args, **kwargs: timed(None, *args, **kwargs)

from web.table import motion as _motion
_dom.render = _spanned_function("render", _dom.render)
_motion.Morph.__call__ = _spanned("morph", _motion.Morph.__call__)
_glue.Friends.flush = _spanned("send", _glue.Friends.flush)

import gc as _gc
_gc_began = [0.0, 0.0]

def _gc_span(phase, info):      # Python's collections of cycles, where they fall
    if phase == "start":
        _gc_began[:] = [time.perf_counter(), time.time() * 1000]
    else:
        spent = (time.perf_counter() - _gc_began[0]) * 1000
        _watch.spans.append((_gc_began[1], _gc_began[1] + spent, f"gc{info['generation']}"))

_gc.callbacks.append(_gc_span)
_glue.Friends.after_input = _spanned("after_input", _glue.Friends.after_input, paints=True)
_glue.Friends.after_work = _spanned("after_work", _glue.Friends.after_work, paints=True)
_dom.App.paint = _spanned("paint", _dom.App.paint)
_keeper.Keeper.save = _spanned("save", _keeper.Keeper.save)
_host.HostTable.receive = _spanned("receive", _host.HostTable.receive)
_guest.GuestController.receive = _spanned("receive", _guest.GuestController.receive)

# The longest run of a blind hand's work without giving the page its turn (web.slices: the glue
# runs each step's Work in slices of BLIND_SLICE seconds), and each step of it as a span.
from web import slices as _slices
_watch.slices = [0.0]
_step_done = _slices.Slices.step_done

def _slice_timed(self, now):
    _watch.slices[0] = max(_watch.slices[0], now - self.started)
    end = time.time() * 1000
    _watch.spans.append((end - (now - self.last) * 1000, end, "work"))
    return _step_done(self, now)

_slices.Slices.step_done = _slice_timed
"""
# The spans, read at the end; each page's light look at the hands' times while it plays (the
# full `probe` walks the page's objects: a long task of its own at x4).
SPANS = "import json, sys\njson.dumps(sys.modules['blind_watch'].spans)"
TIMES = ("import json, sys\n_w = sys.modules['blind_watch']\n"
         "json.dumps({f'{g}/{h}': t for (g, h), t in _w.times.items()})")
PAINTS = "import json, sys\njson.dumps(sys.modules['blind_watch'].paints)"
SLICES = "import sys\nsys.modules['blind_watch'].slices[0] * 1000"


def seat_pages(browser, base: str, players: int, bots: bool):
    """A host page and its friends' pages, seated at a table to 121 (not started)."""
    pages = []
    for _ in range(players - (1 if bots and players > 2 else 0)):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(SPY)
        pages.append(context.new_page())
    link = host_table(pages[0], base, players, name=NAMES[0], target=121, blind=True)
    for seat, page in enumerate(pages[1:], start=1):
        join(page, link, NAMES[seat])
    if len(pages) < players:
        pages[0].get_by_test_id(f"bot-{players - 1}-medium").click()
    return pages


def play_hands(pages, hands: int, timeout: float) -> list[dict]:
    """Play until every page has known the starter of the game's first ``hands`` hands; returns
    each page's last probe."""
    deadline = time.monotonic() + timeout
    wanted = [f"0/{hand}" for hand in range(hands)]
    looked = 0.0
    while time.monotonic() < deadline:
        for page in pages:
            step(page)
        if time.monotonic() - looked > PROBE_EVERY:        # (a look takes the page's thread a few ms)
            looked = time.monotonic()
            seen = [json.loads(page.evaluate(RUN_PYTHON, TIMES)) for page in pages]
            if all("starter" in times.get(key, {}) for times in seen for key in wanted):
                return [probe(page) for page in pages]
        pages[0].wait_for_timeout(20)
    raise RuntimeError(f"{hands} hands not played in {timeout:.0f} s")


def measure(browser, base: str, players: int, rate: int, hands: int, bots: bool, slow: set[int] | None = None) -> dict:
    """The figures of every seat, each page's CPU slowed ``rate`` times (only seats ``slow``'s, if given)."""
    pages = seat_pages(browser, base, players, bots)
    for page in pages:
        watch(page)
        page.evaluate(RUN_PYTHON, REPAINTS)
    rates = [rate if slow is None or number in slow else 1 for number in range(1, len(pages) + 1)]
    traces = []
    for page, page_rate in zip(pages, rates):
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": page_rate})
        traces.append(Trace(page, cdp) if page_rate > 1 else None)
    began = time.time() * 1000
    pages[0].get_by_test_id("start-table").click()
    seen = play_hands(pages, hands, timeout=240 + 120 * rate * hands)
    ended = time.time() * 1000
    cpu = [trace.tasks() if trace is not None else None for trace in traces]
    result = {"seats": [], "alarms": [s.get("alarms") for s in seen]}
    host_times = seen[0]["times"]
    for seat, (page, page_seen) in enumerate(zip(pages, seen)):
        rows = {}
        for key, times in page_seen["times"].items():
            start = host_times.get(key, {}).get("start")
            if start is None or int(key.split("/")[1]) >= hands:
                continue
            rows[key] = {"cards": times.get("cards", float("nan")) - start,
                         "waited": max(0.0, times.get("cards", float("nan")) - times.get("begun", start)),
                         "cut": times.get("starter", float("nan")) - times.get("discards", float("nan")),
                         "starter": times.get("starter", float("nan")) - start}
        tasks = [d for at, d in page.evaluate("window.__longTasks") if began <= at <= ended]
        gaps = [d for at, d in page.evaluate("window.__gaps") if began <= at <= ended]
        sent = page.evaluate("window.__bytes")
        paints = [ms for at, ms in json.loads(page.evaluate(RUN_PYTHON, PAINTS)) if began <= at <= ended]
        spans = json.loads(page.evaluate(RUN_PYTHON, SPANS))
        timed = [(at, duration) for at, duration in page.evaluate("window.__longTasks") if began <= at <= ended]
        causes = [blame(at, duration, spans) for at, duration in timed]
        thread = None
        if cpu[seat] is not None:
            found = [traced(at, duration, cpu[seat]) for at, duration in timed]
            thread = [None if task is None else task[0] for task in found]
            # (a task with none of the page's Python in it: what the trace saw)
            causes = [f"? ({task[1] if task else ''})" if cause == "?" else cause
                      for task, cause in zip(found, causes, strict=True)]
        longest_slice = page.evaluate(RUN_PYTHON, SLICES)
        result["seats"].append({"seat": page_seen.get("seat", seat), "hands": rows,
                                "rate": rates[seat], "long_tasks": tasks,
                                "longest_slice": longest_slice, "causes": causes, "thread": thread,
                                "longest_gap": max(gaps, default=0.0), "bytes": sent, "paints": paints})
    for page in pages:
        page.context.close()
    return result


class Trace:
    """A Chromium trace of a slowed page's main thread (its tasks' thread time: CPU x4 stretches
    it, as a slow phone's would be, but a task waiting for one of this machine's 2 cores, with
    three other pages dealing on them, does not)."""

    CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing"

    def __init__(self, page, cdp) -> None:
        self.page, self.cdp, self.events, self.done = page, cdp, [], False
        cdp.on("Tracing.dataCollected", lambda params: self.events.extend(
            e for e in params["value"] if e.get("ph") == "X" or e.get("name") == "bench-origin"))
        cdp.on("Tracing.tracingComplete", lambda _: setattr(self, "done", True))
        cdp.send("Tracing.start", {"categories": self.CATEGORIES, "transferMode": "ReportEvents"})

    def tasks(self) -> list[tuple[float, float, float, str]]:
        """The main thread's tasks as (start in ms since the epoch, wall ms, thread ms, what ran
        directly in it: the longest events by name, which nest, so a name's ms may hold another's):
        the thread and the clock are those of a mark the page sets now."""
        mark_at = self.page.evaluate("performance.mark('bench-origin'), "
                                     "performance.timeOrigin + performance.getEntriesByName('bench-origin')[0].startTime")
        self.cdp.send("Tracing.end")
        while not self.done:
            self.page.wait_for_timeout(100)
        mark = next(e for e in self.events if e.get("name") == "bench-origin")
        shift = mark_at - mark["ts"] / 1000
        main = [e for e in self.events if (e["pid"], e["tid"]) == (mark["pid"], mark["tid"]) and e.get("ph") == "X"]
        runs = sorted((e for e in main if e["name"] == "RunTask"), key=lambda e: e["ts"])
        starts = [e["ts"] for e in runs]
        inside: list[dict[str, float]] = [{} for _ in runs]
        for e in main:
            n = bisect.bisect_right(starts, e["ts"]) - 1
            if e["name"] != "RunTask" and n >= 0 and e["ts"] < starts[n] + runs[n].get("dur", 0):
                inside[n][e["name"]] = inside[n].get(e["name"], 0.0) + e.get("tdur", e.get("dur", 0)) / 1000
        return [(e["ts"] / 1000 + shift, e.get("dur", 0) / 1000, e.get("tdur", 0) / 1000,
                 ", ".join(f"{name} {ms:.0f}" for name, ms in sorted(parts.items(), key=lambda kv: -kv[1])[:4]))
                for e, parts in zip(runs, inside, strict=True)]


def traced(at: float, duration: float, tasks: list[tuple[float, float, float, str]]) -> tuple[float, str] | None:
    """The thread time and the parts of the traced task that is the long task from ``at`` for
    ``duration`` ms (the one that overlaps it most), None if none does."""
    best, found = 0.0, None
    for start, wall, cpu, parts in tasks:
        overlap = min(start + wall, at + duration) - max(start, at)
        if overlap > best:
            best, found = overlap, (cpu, parts)
    return found


def blame(at: float, duration: float, spans: list) -> str:
    """What ran in the long task from ``at`` (ms since the epoch) for ``duration`` ms: the
    labels of the spans inside it, the longest first, each with its ms ("?" if none)."""
    inside: dict[str, float] = {}
    for start, end, label in spans:
        overlap = min(end, at + duration) - max(start, at)
        if overlap > 0:
            inside[label] = inside.get(label, 0.0) + overlap
    return " + ".join(f"{label} {ms:.0f}" for label, ms in sorted(inside.items(), key=lambda kv: -kv[1])) or "?"


def the_deals(cause: str) -> bool:
    """Whether a long task (its `blame`) was mostly the deal's work: its first label."""
    return cause.startswith("work ")


def summary(players: int, result: dict, hands: int) -> list[str]:
    """A row per seat: its first hand's figures, the median of the later hands', the page's long
    tasks and longest gap, and the median bytes of a hand's blind messages."""
    lines = []
    for number, seat in enumerate(result["seats"]):
        keys = sorted(seat["hands"], key=lambda k: tuple(map(int, k.split("/"))))
        first, rest = seat["hands"][keys[0]], [seat["hands"][k] for k in keys[1:]]
        later = {what: statistics.median(r[what] for r in rest) if rest else float("nan")
                 for what in ("cards", "waited", "cut", "starter")}
        per_hand = [seat["bytes"].get(str(h), {}) for h in range(hands)]
        sent = statistics.median(b.get("sent", 0) for b in per_hand) / 1024
        received = statistics.median(b.get("received", 0) for b in per_hand) / 1024
        tasks = seat["long_tasks"]
        deal = [ms for ms, cause in zip(tasks, seat["causes"]) if the_deals(cause)]
        cpu = [ms or 0.0 for ms, cause in zip(seat["thread"] or [], seat["causes"]) if the_deals(cause)]
        deal_cpu = "-" if seat["thread"] is None else f"{sum(ms > 50 for ms in cpu)} ({max(cpu, default=0):.0f})"
        lines.append(f"| {players} | x{seat['rate']} | {seat['seat'] + 1}{' (host)' if number == 0 else ''} | "
                     f"{first['cards'] / 1000:.1f} / {first['starter'] / 1000:.1f} | "
                     f"{later['cards'] / 1000:.1f} / {later['waited'] / 1000:.2f} / {later['cut'] / 1000:.2f} / "
                     f"{later['starter'] / 1000:.1f} | {seat['longest_slice']:.0f} | "
                     f"{len(tasks)} ({max(tasks, default=0):.0f}) | {len(deal)} ({max(deal, default=0):.0f}) | "
                     f"{deal_cpu} | "
                     f"{seat['longest_gap']:.0f} | "
                     f"{len(seat['paints'])}: {sum(seat['paints']) / 1000:.1f} s ({max(seat['paints'], default=0):.0f}) | "
                     f"{sent:.0f} / {received:.0f} |")
    return lines


def causes(players: int, result: dict) -> list[str]:
    """Each seat's long tasks, by what ran in them (`blame`), the longest first."""
    lines = []
    for seat in result["seats"]:
        thread = seat["thread"] or [None] * len(seat["long_tasks"])
        tasks = sorted(zip(seat["long_tasks"], thread, seat["causes"]), key=lambda task: -task[0])
        deal = [task for task in tasks if the_deals(task[2])]

        def said(task: tuple) -> str:
            ms, cpu, cause = task
            return f"{ms:.0f} ms{'' if cpu is None else f' (thread {cpu:.0f})'}: {cause}"

        listed = "; ".join(map(said, tasks[:8]))
        lines.append(f"  {players} players, seat {seat['seat'] + 1} at x{seat['rate']}: {listed or 'none'}")
        if deal:
            lines.append("    the deal's: " + "; ".join(map(said, deal[:8])))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--rates", default="1,4")
    parser.add_argument("--slow", help="slow only these seats' pages (1 is the host's), e.g. 1 or 2,3")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--bots", action="store_true", help="a bot in the last seat at 3 and 4 players")
    parser.add_argument("--dist", action="store_true", help="serve a built dist (as the browser tests do)")
    parser.add_argument("--json", help="also write every figure to this file")
    args = parser.parse_args()
    root = ROOT
    if args.dist:
        sys.path.insert(0, str(ROOT / "scripts"))
        import tempfile

        import build_dist
        root = Path(tempfile.mkdtemp()) / "dist"
        build_dist.build(root, snapshots=False)
    print("| Players | CPU | Seat | 1st hand: cards / starter s | later hands (median): cards / cards after the "
          "hand became the one played / last discard to starter / starter s | longest slice of the deal's work ms "
          "| long tasks > 50 ms (longest ms) | of those, the deal's work's (longest ms) | the deal's over 50 ms "
          "of thread time, slowed pages (longest ms) | longest gap ms "
          "| repaints: count, time (longest ms) | KiB a hand: sent / received |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    everything = []
    slow = {int(n) for n in args.slow.split(",")} if args.slow else None
    with serve.spawn(root=root) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        for players in map(int, args.players.split(",")):
            for rate in map(int, args.rates.split(",")):
                result = measure(browser, base, players, rate, args.hands, args.bots, slow)
                everything.append({"players": players, "rate": rate, **result})
                for line in summary(players, result, args.hands):
                    print(line)
                sys.stdout.flush()
        browser.close()
    print("\nThe long tasks, by what ran in them (ms of each):")
    for entry in everything:
        for line in causes(entry["players"], entry):
            print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=1))


if __name__ == "__main__":
    main()
