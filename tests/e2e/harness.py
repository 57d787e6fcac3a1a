"""Shared by the browser tests and bench/: Debian's Chromium launched as BROWSER.md says,
the ready marker, page scripts for timing and gating the boot, screenshots, and `Network`,
which watches a browser context for requests that leave our origin or fail.

Never `playwright install`: the browser is /usr/bin/chromium (scripts/setup --browser).
"""

import os
import time
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, Response

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--metrics-recording-only",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
READY = 'html[data-ready="true"]'
BOOT_TIMEOUT_MS = 60_000
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZES = {"desktop": (1280, 800), "phone": (360, 640)}

# Init script: stores in window.__readyAt when the ready marker appears (ms since navigation).
READY_CLOCK = """
new MutationObserver((_, observer) => {
  if (document.documentElement?.dataset.ready === "true") {
    window.__readyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
"""

# Init script: holds back Pyodide's wasm download until the test calls window.__releaseBoot(),
# so a test can look at the page while Python is certainly still loading.
BOOT_GATE = """
{
  const original = window.fetch;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  window.__releaseBoot = release;
  window.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const go = () => original.call(window, input, init);
    return url.endsWith("/pyodide.asm.wasm") ? gate.then(go) : go();
  };
}
"""


LAUNCH = {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


def launch(playwright: Playwright) -> Browser:
    """Start headless Debian Chromium with the project's flags."""
    return playwright.chromium.launch(**LAUNCH)


def wait_ready(page: Page, timeout: float = BOOT_TIMEOUT_MS) -> None:
    """Wait until Python has booted and the table accepts input (html[data-ready="true"])."""
    page.wait_for_selector(READY, state="attached", timeout=timeout)


def screenshot(page: Page, name: str) -> list[Path]:
    """Save test-artifacts/<name>-desktop.png (1280x800) and <name>-phone.png (360x640)."""
    ARTIFACTS.mkdir(exist_ok=True)
    saved = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        saved.append(ARTIFACTS / f"{name}-{size}.png")
        page.screenshot(path=saved[-1])
    return saved


CONSOLE_KEPT = 400     # lines of each page's console kept for a failed test's report
WATCHED: deque["Network"] = deque(maxlen=32)   # the Networks of the current test (tests/e2e/conftest.py)


class Network:
    """What a context's pages asked for, and what went wrong, as it happened; and the last
    `CONSOLE_KEPT` lines of the page's console, every level (the connection trace of
    `web.net.transport` is at the debug level), which a failed test's report shows."""

    def __init__(self, context: BrowserContext, base: str):
        self.origin = urlsplit(base).netloc
        self.urls: list[str] = []
        self.errors: list[str] = []
        self.started = time.monotonic()
        self.console: deque[str] = deque(maxlen=CONSOLE_KEPT)
        WATCHED.append(self)
        context.on("request", lambda request: self.urls.append(request.url))
        context.on("requestfailed", lambda request: self.errors.append(f"failed: {request.url}"))
        context.on("response", self.on_response)
        self.page = context.new_page()
        self.page.on("websocket", lambda socket: self.urls.append(socket.url))
        self.page.on("pageerror", lambda error: self.error(f"page error: {error}"))
        self.page.on("crash", lambda _: self.error("Target crashed: the page's Chromium renderer died"))
        self.page.on("console", self.on_console)

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status}: {response.url}")

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")
        self.note(f"{message.type}: {message.text}")

    def error(self, text: str) -> None:
        self.errors.append(text)
        self.note(text)

    def note(self, line: str) -> None:
        """Keep a console line, with the seconds since this context was made."""
        self.console.append(f"{time.monotonic() - self.started:7.2f}s {line}")

    def console_report(self) -> str:
        """The kept console lines, headed by the site they came from."""
        return f"-- a page of {self.origin} ({len(self.console)} lines kept) --\n" + "\n".join(self.console)

    def outside(self) -> list[str]:
        """Requested URLs that left the origin (data: and blob: URLs stay in the page)."""
        return [url for url in self.urls if not self.same_origin(url)]

    def same_origin(self, url: str) -> bool:
        """Whether a URL is on the site's host and port, or a data: or blob: URL."""
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob") or (parts.scheme in ("http", "ws") and parts.netloc == self.origin)


# The Python modules the page's interpreter has imported (sys.modules), read through PyScript.
# Python run in a page (PyScript's interpreter), as a patched page would run it: the attacker's
# tests patch the page's own modules with it, the blind tables' tests read the page's state.
RUN_PYTHON = """async (code) => {
  const core = globalThis[Symbol.for("@pyscript/core")];
  const { interpreter } = await core.whenDefined("py");
  return interpreter.runPython(code);
}"""


LOADED_MODULES = """async () => {
  const core = globalThis[Symbol.for("@pyscript/core")];
  if (!core || document.documentElement.dataset.ready !== "true") return null;
  const { interpreter } = await core.whenDefined("py");
  return interpreter.runPython("import sys; chr(10).join(sorted(sys.modules))").split("\\n");
}"""
# Where record_imports appends them (set by the recording run: scripts/stdlib_modules.py --record).
RECORD_IMPORTS = "CRIBBAGE_RECORD_IMPORTS"


def record_imports(page: Page) -> None:
    """With $CRIBBAGE_RECORD_IMPORTS set, append the modules the page's Python has imported to
    that file, one a line (nothing if the page never became ready or is gone)."""
    target = os.environ.get(RECORD_IMPORTS)
    if not target or page.is_closed():
        return
    try:
        names = page.evaluate(LOADED_MODULES)
    except Exception:   # navigated away, crashed: whatever it imported, another test sees too
        return
    if names:
        with open(target, "a", encoding="utf-8") as stream:
            stream.write("".join(f"{name}\n" for name in names))


def with_query(link: str, extra: str) -> str:
    """``link`` with ``extra`` (``speed=instant``) added to its query, before any #fragment.

    >>> with_query("http://h/?table=T#h=P", "speed=instant")
    'http://h/?table=T&speed=instant#h=P'
    """
    base, hash_, fragment = link.partition("#")
    return f"{base}{'&' if '?' in base else '?'}{extra}{hash_}{fragment}"


# Init script: keeps every RTCPeerConnection (window.__pcs) and data channel (window.__channels),
# and can break a guest's channel at the moment it sends a message: set window.__drop to
# {type: "action", "chat" or "hello", mode: "lose" (never sent), "deliver" (sent, then the
# channel closes before any answer can come back) or "vanish" (never sent, the channel stays
# open: as if it went on a channel replaced as it was sent)}.
RTC_SPY = """
(() => {
  const Native = window.RTCPeerConnection;
  window.__pcs = [];
  window.__channels = [];
  window.__drop = null;
  window.__dropped = 0;
  class Spied extends Native {
    constructor(...args) {
      super(...args);
      window.__pcs.push(this);
      this.addEventListener("datachannel", (event) => window.__channels.push(event.channel));
    }
    createDataChannel(...args) {
      const channel = super.createDataChannel(...args);
      window.__channels.push(channel);
      return channel;
    }
  }
  window.RTCPeerConnection = Spied;
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    const drop = window.__drop;
    if (drop && typeof data === "string" && data.includes(`"type":"${drop.type}"`)) {
      window.__drop = null;
      window.__dropped += 1;
      if (drop.mode === "deliver") send.call(this, data);
      if (drop.mode !== "vanish") this.close();
      return;
    }
    return send.call(this, data);
  };
})();
"""
LIVE_PCS = "() => window.__pcs.filter((pc) => pc.signalingState !== 'closed').length"


def spied(people, *args):
    """A page from the ``people`` factory (``args`` for it) with `RTC_SPY` in it."""
    page = people(*args)
    page.context.add_init_script(RTC_SPY)
    return page


# axe-core, pinned in package.json (a dev dependency) and put into the page by the tests as an
# inline script: never served by the site, never in dist/, and no request leaves the origin.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# Besides the default rules: the accessible name of a control starts with its visible text.
AXE_OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}
# Every animation and transition that ends has ended (the busy button's pulse never does).
SETTLED = """() => document.getAnimations().every((animation) => animation.playState !== "running"
    || animation.effect?.getComputedTiming().endTime === Infinity)"""


def violations(page: Page) -> list[str]:
    """axe-core's findings on the page as it is painted now, a line each."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    page.wait_for_function(SETTLED)    # the show's items fade in: axe reads colours as painted
    found = page.evaluate("(options) => axe.run(document, options).then(r => r.violations)", AXE_OPTIONS)
    return [f"{v['id']} ({v['impact']}): {v['help']} -- "
            + "; ".join(node["target"][0] + " " + node.get("failureSummary", "").replace("\n", " ")[:160]
                        for node in v["nodes"][:4])
            for v in found]


def check_sizes(page: Page, where: str, problems: list) -> None:
    """Add axe's findings on the page at desktop and phone size (`SIZES`) to ``problems``."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        problems += [f"{where} at {size}: {line}" for line in violations(page)]
