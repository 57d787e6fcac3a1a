"""Browser glue for the table: mount the app, route input to the controller, pace the bots,
save the game. One of the few modules allowed to touch the browser FFI (``js``, ``pyodide``).

All behaviour lives in `web.controller` and all markup in `web.render`; this module only
moves events in and HTML out.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from html import escape

import js
from pyodide.ffi import create_proxy

from game.errors import ParseError

from .controller import Controller
from .render import render
from .session import Session

SAVE_KEY = "cribbage.table.v1"
PREFS_KEY = "cribbage.prefs.v1"
BOT_DELAY = {"normal": 0.7, "fast": 0.25, "instant": 0.0}   # seconds between bot moves
AUTO_CONTINUE_AFTER = 3.0


def new_seed() -> int:
    return secrets.randbelow(2**53)


class App:
    """The mounted table: one controller, one root element, the listeners we own."""

    def __init__(self, root):
        self.root = root
        self.document = js.document
        self.speed = self._speed_from_url()
        self.ctl = Controller(seed_source=new_seed, prefs=self._load_json(PREFS_KEY) or {})
        self.notice = ""
        self._proxies = []
        self._bots_running = False

    # -- set-up and teardown --

    def mount(self) -> None:
        self._listen(self.root, "click", self.on_click)
        self._listen(self.root, "submit", self.on_submit)
        self._listen(self.document, "keydown", self.on_key)
        self._resume_saved()
        self.paint()
        self.kick_bots()

    def unmount(self) -> None:
        for target, name, proxy in self._proxies:
            target.removeEventListener(name, proxy)
            proxy.destroy()
        self._proxies.clear()

    def _listen(self, target, name, handler) -> None:
        proxy = create_proxy(handler)   # without a kept proxy the listener silently never fires
        target.addEventListener(name, proxy)
        self._proxies.append((target, name, proxy))

    # -- input --

    def on_click(self, event) -> None:
        target = event.target.closest("[data-action]")
        if not target or target.tagName == "FORM" or target.disabled:   # JS null is falsy
            return
        # A missing attribute is JS null (falsy); a missing dataset key would raise instead.
        self.ctl.command(target.getAttribute("data-action"), target.getAttribute("data-arg") or None)
        self.after_input()

    def on_submit(self, event) -> None:
        event.preventDefault()
        form = js.Object.fromEntries(js.FormData.new(event.target)).to_py()
        self.ctl.command("start", dict(form))
        self.after_input()

    def on_key(self, event) -> None:
        if event.target.tagName in ("INPUT", "SELECT", "TEXTAREA") or event.ctrlKey or event.metaKey:
            return
        if event.key == "Enter" and event.target.tagName == "BUTTON":
            return   # the button's own click handles it
        if event.key.isdigit() or event.key == "Enter":
            self.ctl.command("key", event.key)
            self.after_input()

    def after_input(self) -> None:
        self.save()
        self.paint()
        self.kick_bots()

    # -- output --

    def paint(self) -> None:
        """Replace the app's HTML, keeping keyboard focus on the same control where it survives."""
        active = self.document.activeElement
        key = None
        if active and active.getAttribute("data-action"):
            key = (active.getAttribute("data-action"), active.getAttribute("data-arg") or None)
        self.root.innerHTML = render(self.ctl) + self._notice_html()
        focus = None
        if key:
            selector = f'[data-action="{key[0]}"]' + (f'[data-arg="{key[1]}"]' if key[1] else "")
            focus = self.root.querySelector(selector)
        focus = focus or self.root.querySelector("[autofocus]")
        if focus and not focus.disabled:
            focus.focus()

    def _notice_html(self) -> str:
        if not self.notice:
            return ""
        return f'<p class="notice" role="alert">{escape(self.notice)}</p>'

    # -- the bots' pace --

    def kick_bots(self) -> None:
        if not self._bots_running:
            asyncio.ensure_future(self._run_bots())

    async def _run_bots(self) -> None:
        self._bots_running = True
        try:
            while True:
                if self.ctl.bot_waiting():
                    await asyncio.sleep(BOT_DELAY[self.speed])
                    if not self.ctl.bot_waiting():
                        continue
                    self.ctl.bot_step()
                elif self.ctl.show and self.ctl.prefs.get("auto_continue"):
                    shown = self.ctl.show
                    await asyncio.sleep(AUTO_CONTINUE_AFTER if self.speed != "instant" else 0)
                    if self.ctl.show is not shown:
                        continue
                    self.ctl.command("continue")
                else:
                    return
                self.save()
                self.paint()
        finally:
            self._bots_running = False

    # -- storage --

    def save(self) -> None:
        storage = js.window.localStorage
        storage.setItem(PREFS_KEY, json.dumps(self.ctl.prefs))
        if self.ctl.session is not None:
            storage.setItem(SAVE_KEY, self.ctl.session.to_json())

    def _resume_saved(self) -> None:
        text = js.window.localStorage.getItem(SAVE_KEY)
        if not text:
            return
        try:
            session = Session.from_json(text)
        except ParseError as damaged:
            js.window.localStorage.removeItem(SAVE_KEY)
            self.notice = f"Your saved game could not be restored: {damaged}"
            return
        self.ctl.resume(session)
        if session.state.phase == "over":
            self.ctl.screen = "start"

    def _load_json(self, key: str):
        try:
            value = json.loads(js.window.localStorage.getItem(key) or "null")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def _speed_from_url(self) -> str:
        params = js.URLSearchParams.new(js.window.location.search)
        speed = params.get("speed")
        return speed if speed in BOT_DELAY else "normal"


def start(root_id: str = "table") -> App:
    """Mount the table on the element ``root_id`` and mark the page ready for input."""
    root = js.document.getElementById(root_id)
    app = App(root)
    app.mount()
    js.document.documentElement.dataset.ready = "true"
    return app
