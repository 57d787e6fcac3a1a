"""Action-to-remote-render latency between two browser contexts at a table with friends.

    .venv/bin/python bench/latency.py [--samples 150] [--target 121]

Starts its own serve.py on a free port, opens a host and a guest in two contexts of one
headless Chromium (WebRTC data channel over loopback), and plays. For every move (a confirmed
discard or a played card) it takes the wall-clock time (performance.timeOrigin + now) just
before the click in the acting page, and the time the other page's DOM first shows the new
state (a MutationObserver on `.tabletop[data-state]`). Both directions are measured: host to
guest (the host's engine applies the move, then sends the guest its view) and guest to host
(the guest sends the action, the host applies it and repaints). Prints median and p95 in ms.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import launch, wait_ready  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import serve  # noqa: E402

OBSERVER = """
window.__seen = {};
new MutationObserver(() => {
  const top = document.querySelector('.tabletop');
  if (top && !(top.dataset.state in window.__seen)) {
    window.__seen[top.dataset.state] = performance.timeOrigin + performance.now();
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""
TIMED_CLICK = """selector => {
  const button = document.querySelector(selector);
  if (!button || button.disabled) return null;
  const top = document.querySelector('.tabletop');
  const before = top ? Number(top.dataset.state) : null;
  const t0 = performance.timeOrigin + performance.now();
  button.click();   // the Python handler runs inside this call
  return [t0, before];
}"""


def seen(page: Page, state: str, timeout: float = 10.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at = page.evaluate(f"window.__seen[{state!r}]")
        if at is not None:
            return at
        page.wait_for_timeout(2)
    raise TimeoutError(f"state {state} never reached the other page")


def timed(actor: Page, other: Page, selector: str):
    got = actor.evaluate(TIMED_CLICK, selector)
    if not got or got[1] is None:
        return None
    t0, before = got
    return seen(other, str(before + 1)) - t0   # one action: the state id goes up by one


def move(actor: Page, other: Page):
    """One move by ``actor`` if it has one; returns the latency in ms, or None."""
    if actor.get_by_test_id("show").count():
        actor.get_by_test_id("continue").click()
        return None
    selectable = actor.locator('[data-action="select"]:not([disabled])')
    if selectable.count():
        need = 2 if selectable.count() == 6 else 1
        for index in range(need):
            selectable.nth(index).click()
        return timed(actor, other, '[data-testid="confirm-discard"]')
    if actor.locator('[data-action="play"]:not([disabled])').count():
        return timed(actor, other, '[data-action="play"]:not([disabled])')
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--target", type=int, default=121, choices=(61, 121))
    args = parser.parse_args()
    with serve.spawn() as base, sync_playwright() as playwright:
        browser = launch(playwright)
        host, guest = (browser.new_context().new_page() for _ in range(2))
        for page in (host, guest):
            page.add_init_script(OBSERVER)
        host.goto(base + "?speed=instant")
        wait_ready(host)
        host.get_by_test_id("name").fill("Host")
        host.locator(f'label.choice:has(input[name="target"][value="{args.target}"])').click()
        host.get_by_test_id("create-table").click()
        link = host.get_by_test_id("invite-link").input_value()
        guest.goto(link + "&speed=instant")
        wait_ready(guest)
        guest.get_by_test_id("name").fill("Guest")
        guest.get_by_test_id("sit-down").click()
        host.wait_for_selector('[data-testid="seat-1"].online')
        host.get_by_test_id("start-table").click()
        guest.wait_for_selector('[data-testid="hand"]')
        samples = {"host -> guest": [], "guest -> host": []}
        deadline = time.monotonic() + 600
        while sum(map(len, samples.values())) < args.samples and time.monotonic() < deadline:
            if host.get_by_test_id("verdict").count() and guest.get_by_test_id("verdict").count():
                host.get_by_test_id("new-game").click()
                guest.wait_for_selector('[data-testid="score-0"]:text-is("0")')
                continue
            for actor, other, key in ((host, guest, "host -> guest"), (guest, host, "guest -> host")):
                got = move(actor, other)
                if got is not None:
                    samples[key].append(got)
        browser.close()
    everything = [x for values in samples.values() for x in values]
    print("action-to-remote-render latency, ms (two contexts, one headless Chromium, loopback)")
    for key, values in [*samples.items(), ("all", everything)]:
        if len(values) >= 2:
            p95 = statistics.quantiles(values, n=20)[-1]
            print(f"  {key:14} n={len(values):4}  median {statistics.median(values):6.1f}  "
                  f"p95 {p95:6.1f}  max {max(values):6.1f}")


if __name__ == "__main__":
    main()
