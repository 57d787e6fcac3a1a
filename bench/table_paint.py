"""Main-thread script time per move and frames dropped while a card and the pegs move, for 2 and
4 players, at Chromium's normal speed and under 4x CPU throttling (issue 13's benchmark).

    nice -n 10 .venv/bin/python bench/table_paint.py                 # 2 and 4 players, CPU x1 and x4
    nice -n 10 .venv/bin/python bench/table_paint.py --players 2 --throttle 1 --runs 3

It first prints the markup a repaint sends to the page (measured under CPython, so the
machine's load does not change it): the whole screen, and what `web.table.motion.Morph`
sends once the page holds the card drawings and the board (static parts as stubs).

A "move" here is one of the player's own inputs and the repaint it causes (choosing a crib card
8 times, then playing a card): Chrome's ScriptDuration metric (all JavaScript and WebAssembly on
the main thread, so Python too) before and after. ScriptDuration leaves out the style and
layout work a script forces, so the plays through the game are also timed whole: the click's
task on the main thread, from a Chromium trace, in thread time (what the machine's other load
does not inflate). Frames: requestAnimationFrame timestamps for
the 600 ms after a card is played at the normal pace (300 ms of motion); a gap over 25 ms counts
its missing frames as dropped, and the same 600 ms on the idle table just before says what the
machine itself allows (a loaded machine drops frames with nothing moving). Each phase starts
from the same table (tests/e2e/tables.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import launch, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from tables import SAVE_KEY, play_until, saves  # noqa: E402

import serve  # noqa: E402

FRAMES = """() => new Promise((done) => {
  const stamps = [];
  const start = performance.now();
  const tick = (now) => { stamps.push(now); if (now - start < 600) requestAnimationFrame(tick); else done(stamps); };
  requestAnimationFrame(tick);
})"""


def script_ms(cdp) -> float:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["ScriptDuration"] * 1000


def dropped(stamps) -> int:
    return sum(max(0, round((b - a) / 16.7) - 1) for a, b in zip(stamps, stamps[1:]) if b - a > 25)


def percentile(values, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


CLICK_PLAY = """() => {
  const card = document.querySelector('[data-action=play]:not([disabled])');
  if (card) card.click();
  return Boolean(card);
}"""


def plays_in_a_game(page, cdp, count: int) -> list[float]:
    """Script time of each of the player's next ``count`` plays, the game going on between them
    (discards, the bots' moves, the shows): a play as it is in the middle of a game, the page's
    code warmed up by the moves before it. The first play after a page loads also pays for the
    start's garbage (V8 collects the runtime's start-up objects then): the phase above."""
    found = []

    def timed(page) -> bool:
        page.wait_for_timeout(300)            # the last move's motion over
        before = script_ms(cdp)
        if page.evaluate(CLICK_PLAY):
            page.wait_for_timeout(300)
            found.append(script_ms(cdp) - before)
        return len(found) >= count

    play_until(page, "verdict", timed)
    return found


def input_task_ms(raw: bytes) -> float | None:
    """The main thread's time (thread time, ms) in the task that handled a click, from a trace."""
    events = json.loads(raw)["traceEvents"]
    clicks = [e for e in events if e.get("name") == "EventDispatch" and "tdur" in e
              and e.get("args", {}).get("data", {}).get("type") == "click"]
    if not clicks:
        return None
    click = max(clicks, key=lambda e: e["tdur"])
    tasks = [e for e in events if e.get("ph") == "X" and e["pid"] == click["pid"] and e["tid"] == click["tid"]
             and "tdur" in e and e["ts"] <= click["ts"] and e["ts"] + e["dur"] >= click["ts"] + click["dur"]]
    return max(tasks, key=lambda e: e["dur"])["tdur"] / 1000      # the outermost: the whole task


def traced_plays(browser, page, count: int) -> list[float]:
    """The input task of each of the player's next ``count`` plays (`input_task_ms`)."""
    found = []

    def timed(page) -> bool:
        page.wait_for_timeout(300)
        browser.start_tracing(page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
        clicked = page.evaluate(CLICK_PLAY)
        page.wait_for_timeout(100)
        task = input_task_ms(browser.stop_tracing())
        if clicked and task is not None:
            found.append(task)
        return len(found) >= count

    play_until(page, "verdict", timed)
    return found


def markup(players: int) -> None:
    """Bytes of markup per repaint, whole and with the static parts the page holds as stubs."""
    from web.controller import Controller
    from web.render import render
    from web.session import Session
    try:
        from web.table.motion import elide_statics
    except ImportError:          # (an older tree, for a before-and-after: every repaint whole)
        def elide_statics(html, sent):
            return html
    try:
        from web.table.motion import elide_same
    except ImportError:          # (an older tree: keyed parts as they were go whole)
        def elide_same(html, last):
            return html, {}
    for phase, save in saves(players).items():
        if phase == "over":
            continue
        ctl = Controller(seed_source=lambda: 7)
        ctl.resume(Session.from_json(save))
        sent: set = set()
        first, shown = elide_same(render(ctl), {})
        first = elide_statics(first, sent)
        again = elide_statics(render(ctl), sent)
        same = elide_statics(elide_same(render(ctl), shown)[0], sent)
        print(f"{players} players, {phase}: markup per repaint {len(first)} bytes whole, "
              f"{len(again)} bytes once the page holds the static parts, {len(same)} bytes when "
              "nothing changed", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--throttle", type=int, nargs="*", default=[1, 4])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--plays", type=int, default=12, help="plays measured through the game that follows")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for players in args.players:
        markup(players)
    with serve.spawn() as site, sync_playwright() as playwright:
        browser = launch(playwright)
        tables: dict = {}
        for players, throttle, _ in [(p, t, r) for p in args.players for t in args.throttle for r in range(args.runs)]:
            if players not in tables:
                tables[players] = saves(players)
            table = tables[players]
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            page.goto(site + "?speed=normal")
            wait_ready(page)
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, table["discard"]])
            page.reload()
            wait_ready(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            times = []
            for i in range(8):
                before = script_ms(cdp)
                page.locator('[data-action="select"]').nth(i % 2).click()
                page.wait_for_timeout(300)
                times.append(script_ms(cdp) - before)
            page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, table["play"]])
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            page.reload()
            wait_ready(page)
            page.wait_for_selector('[data-action="play"]')
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            idle = page.evaluate(f"({FRAMES})()")     # the machine's own frame rate, nothing moving
            before = script_ms(cdp)
            frames = page.evaluate(f"(() => {{ const p = ({FRAMES})(); "
                                   f"document.querySelector('[data-action=play]').click(); return p; }})()")
            play = script_ms(cdp) - before
            print(f"{players} players, CPU x{throttle}: choose a card {statistics.median(times):.1f} ms "
                  f"(median of 8, max {max(times):.1f}); play a card {play:.1f} ms with 600 ms of frames; "
                  f"{len(frames)} frames, {dropped(frames)} dropped (idle table: {len(idle)} frames, "
                  f"{dropped(idle)} dropped); load {os.getloadavg()[0]:.1f}", flush=True)
            plays = plays_in_a_game(page, cdp, args.plays)
            print(f"{players} players, CPU x{throttle}: {len(plays)} plays through the game that follows: "
                  f"median {statistics.median(plays):.1f} ms, p90 {percentile(plays, 0.9):.1f} ms, "
                  f"max {max(plays):.1f} ms", flush=True)
            tasks = traced_plays(browser, page, args.plays)
            if tasks:
                print(f"{players} players, CPU x{throttle}: the input task of {len(tasks)} more plays, whole "
                      f"(style and layout it forces included; thread time): median {statistics.median(tasks):.1f} ms, "
                      f"p90 {percentile(tasks, 0.9):.1f} ms, max {max(tasks):.1f} ms", flush=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
