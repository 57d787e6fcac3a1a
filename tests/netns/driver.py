"""One person's browser inside a home namespace: run as
``ip netns exec HOME .venv/bin/python tests/netns/driver.py CONFIG_JSON`` (see `browser.Remote`).

It launches Debian's Chromium with the project's flags (harness.py) plus what a page on the
rig needs, then reads JSON-line commands on stdin, ``{"op": ..., "args": [...]}``, and answers
each on stdout with ``{"ok": result}`` or ``{"error": text}``. Nothing else is written to the
real stdout (fd 1 is pointed at stderr, so Chromium's chatter cannot break the protocol).

CONFIG_JSON: ``base`` (the site on the rig), ``secure`` (treat that http origin as secure, as
a https site would be; false: WebCrypto and the relay path are unavailable), ``artifacts``.

Chromium's own stderr goes to the driver's log (Playwright's ``pw:browser`` debug channel),
so a renderer that dies says why there. A page whose renderer dies while the site is still
loading, before the table is ready, is opened once more in a new browser (said in the
log): a crash of the browser itself, seen about once in a few hundred loads on a loaded
2-core machine, is not what these tests are about; a second crash fails the test.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import time
import traceback
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import CHROMIUM, CHROMIUM_ARGS, READY, with_query  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from relay_frames import RELAY_RECORDER  # noqa: E402
from test_friends import host_table, step  # noqa: E402

# Page function: play the card (a button), then wait until the host's answer has come back
# (the hand has changed, one card shorter or a new deal, and no move is pending); resolves to the milliseconds taken.
TIMED_CLICK = """
async (button) => {
  const cards = () => document.querySelectorAll('[data-testid="hand"] [data-card]').length;
  const pending = () => (document.querySelector('[data-testid="status"]')?.textContent || "").startsWith("Sending");
  const before = cards();
  const t0 = performance.now();
  button.click();
  await new Promise((resolve, reject) => {
    const done = () => cards() !== before && !pending();
    if (done()) return resolve();
    const observer = new MutationObserver(() => { if (done()) { observer.disconnect(); resolve(); } });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => {
      observer.disconnect();
      const status = document.querySelector('[data-testid="status"]')?.textContent;
      reject(new Error(`no answer from the host in 30 s (cards ${before} -> ${cards()}, status ${status})`));
    }, 30000);
  });
  return performance.now() - t0;
}
"""

# Page function: the state of a page still loading, as one line for a failure's message.
LOADING_STATE = """
() => {
  const files = performance.getEntriesByType("resource")
    .map((entry) => `${entry.name.split("/").pop().split("?")[0]} ${Math.round(entry.responseEnd)}`);
  const loading = document.getElementById("loading")?.textContent;
  return `at ${Math.round(performance.now())} ms, ${document.readyState}, loading line ${JSON.stringify(loading)}, `
    + `html ${JSON.stringify({...document.documentElement.dataset})}, files done: ${files.join(", ")}`;
}
"""


class Driver:
    def __init__(self, config: dict):
        self.base = config["base"]
        self.artifacts = Path(config.get("artifacts") or ROOT / "test-artifacts")
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.base))
        host = urlsplit(self.base).hostname
        args = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")]
        args.append(f"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE {host}")
        if config.get("secure", True):
            args.append(f"--unsafely-treat-insecure-origin-as-secure={origin}")
        self.args = args
        self.playwright = sync_playwright().start()
        self.context = None
        self.page = None
        self.crashed = None      # the page whose renderer crashed, if one did
        self.errors: list[str] = []
        self._launch()

    def _launch(self) -> None:
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=self.args, headless=True)
        # The browser's account of a renderer that died (how, and its exit code), for the log.
        self.targets = self.browser.new_browser_cdp_session()
        self.targets.on("Target.targetCrashed", lambda event: print(
            f"{time.strftime('%H:%M:%S')} renderer ended: {event.get('status')} "
            f"(exit code {event.get('errorCode')})", file=sys.stderr, flush=True))
        self.targets.send("Target.setDiscoverTargets", {"discover": True})

    # -- ops --

    def new_page(self, ice: str | None = None, record_relay: bool = False) -> None:
        """A fresh context and page. ``ice``: the cribbage-ice-servers meta's content for this
        page (index.html is rewritten on its way in); None leaves the page as served."""
        self._page_options = (ice, record_relay)
        if self.context is not None:
            self.context.close()
        self.context = self.browser.new_context(viewport={"width": 1280, "height": 800})
        self.errors = []
        if ice is not None:
            # A regular expression (matched in Playwright's own process): a Python predicate
            # would stop every request of the page for a look from here.
            page_url = re.compile("^" + re.escape(self.base) + r"(index\.html)?(\?[^#]*)?$")
            self.context.route(page_url, lambda route: self._rewrite(route, ice))
        if record_relay:
            self.context.add_init_script(RELAY_RECORDER)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("crash", self._crashed)
        self.page.on("console", self._console)

    def _crashed(self, page) -> None:
        self.crashed = page
        print(f"{time.strftime('%H:%M:%S')} the page's renderer crashed", file=sys.stderr, flush=True)

    def _console(self, message) -> None:
        print(f"{time.strftime('%H:%M:%S')} console {message.type}: {message.text}", file=sys.stderr, flush=True)
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def _rewrite(self, route, ice: str) -> None:
        response = route.fetch()
        body = response.text()
        meta = '<meta name="cribbage-ice-servers" content="default">'
        if meta not in body:
            raise RuntimeError("index.html has no default cribbage-ice-servers meta to replace")
        body = body.replace(meta, f'<meta name="cribbage-ice-servers" content="{html.escape(ice)}">')
        route.fulfill(response=response, body=body)

    def open(self, url: str) -> None:
        """Go to ``url`` and wait until the page is ready; a renderer crash before then gets
        one new browser (see the module's docstring)."""
        for attempt in (1, 2):
            try:
                self.page.goto(url)
                self.page.wait_for_selector(READY, state="attached", timeout=60_000)
                return
            except PlaywrightError as failed:
                if attempt == 2 or self.crashed is not self.page:
                    raise PlaywrightError(f"{failed}\n{self._loading_account()}") from None
                print(f"{time.strftime('%H:%M:%S')} loading {url} crashed the renderer: "
                      "once more in a new browser", file=sys.stderr, flush=True)
                self.browser.close()     # (a second page in the same browser crashed too, once)
                self.context = None
                self._launch()
                self.new_page(*self._page_options)

    def _loading_account(self) -> str:
        """What a page that never got ready was doing (CI shows only the test's output): its
        loading line, the files it finished and when (ms), and the console's errors."""
        try:
            state = self.page.evaluate(LOADING_STATE)
        except PlaywrightError as failed:
            state = f"(the page did not answer: {failed.message.splitlines()[0]})"
        errors = "".join(f"\n  {error}" for error in self.errors[-8:]) or " none"
        return f"the page: {state}\nits errors:{errors}"

    def host(self, players: int, target: int = 61, name: str = "Hana") -> str:
        self.open(self.base + "?speed=instant")
        return host_table(self.page, self.base, players, name=name, target=target, opened=True)

    def join(self, link: str, name: str, timeout: float = 60) -> dict:
        """Open the invite link, sit down, wait until seated; the seconds each part took."""
        t0 = time.monotonic()
        self.open(with_query(link, "speed=instant"))
        self.page.get_by_test_id("name").fill(name)
        t1 = time.monotonic()
        self.page.get_by_test_id("sit-down").click()
        if timeout:
            either = self.page.locator('[data-testid="await-start"], [data-testid="rejected"]').first
            try:
                expect(either).to_be_visible(timeout=timeout * 1000)
            except AssertionError:
                status = self.text("link-status")
                raise AssertionError(f"not seated after {timeout} s; the page says: {status!r}") from None
            if not self.page.get_by_test_id("await-start").count():
                raise AssertionError(f"refused a seat: {self.text('rejected')!r}")
        t2 = time.monotonic()
        return {"open_to_seated": t2 - t0, "sit_to_seated": t2 - t1}

    def step(self, timed: bool = False):
        """One thing this page can do now (test_friends.step); a timed play says how long the
        host took to answer it: [what, ms or None]."""
        if timed and not self.page.get_by_test_id("show").count():
            playable = self.page.locator('[data-action="play"]:not([disabled])')
            if playable.count():
                try:
                    ms = playable.first.evaluate(TIMED_CLICK)
                except Exception as failed:      # repainted under the click
                    if "no answer" in str(failed):
                        raise
                    return ["retry", None]
                return ["play", ms]
        return [step(self.page), None]

    def ice_meta(self) -> str | None:
        """The page's cribbage-ice-servers meta, as the page has it."""
        return self.page.evaluate("document.querySelector('meta[name=\"cribbage-ice-servers\"]')?.content")

    def text(self, testid: str) -> str | None:
        found = self.page.get_by_test_id(testid)
        return found.first.inner_text() if found.count() else None

    def expect_text(self, testid: str, text: str, timeout: float = 20) -> None:
        expect(self.page.get_by_test_id(testid)).to_contain_text(text, timeout=timeout * 1000)

    def expect_visible(self, testid: str, timeout: float = 20) -> None:
        expect(self.page.get_by_test_id(testid)).to_be_visible(timeout=timeout * 1000)

    def fill(self, testid: str, text: str) -> None:
        self.page.get_by_test_id(testid).fill(text)

    def click(self, testid: str) -> None:
        self.page.get_by_test_id(testid).click()

    def evaluate(self, script: str, arg=None):
        return self.page.evaluate(script, arg)

    def storage(self, key: str) -> str | None:
        return self.page.evaluate("(key) => localStorage.getItem(key)", key)

    def page_errors(self) -> list[str]:
        return list(self.errors)

    def screenshot(self, name: str) -> str:
        self.artifacts.mkdir(exist_ok=True)
        path = self.artifacts / f"{name}.png"
        self.page.screenshot(path=path)
        return str(path)

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
        self.browser.close()
        self.playwright.stop()


def main() -> None:
    # Read when Playwright's driver starts; set here, not at import: pytest imports this module
    # (for its doctests), and the setting would reach every browser test in that process.
    os.environ.setdefault("DEBUG", "pw:browser")
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    driver = Driver(json.loads(sys.argv[1]))
    protocol.write(json.dumps({"ok": "ready"}) + "\n")
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        try:
            result = getattr(driver, op)(*command.get("args", []))
            answer = {"ok": result}
        except Exception:
            answer = {"error": traceback.format_exc()}
        protocol.write(json.dumps(answer) + "\n")
        if op == "close":
            break


if __name__ == "__main__":
    main()
