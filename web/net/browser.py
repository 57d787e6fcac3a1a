"""What web.net's browser modules share: `trace`, each step of a connection for DevTools;
`js_object`, a dict as a plain JavaScript object; `Listeners`, the event listeners a
connection owns; and `spawn`, a background task kept alive until it is done.

Each step of a connection (the relay joined or lost, an offer, an answer, a channel opened or
closed) is traced with ``console.debug`` ("cribbage net: ..."): a self-hoster whose friends
cannot connect sees in DevTools (verbose level) how far they got, and so do the browser tests'
reports when one fails.
"""

from __future__ import annotations

import asyncio

import js
from pyodide.ffi import create_proxy, to_js

RUNNING: set = set()       # the tasks `spawn` started, until each is done


def trace(text: str) -> None:
    """One step of a connection, for DevTools' verbose level (see the module's docstring)."""
    js.console.debug(f"cribbage net: {text}")


def js_object(value):
    """``value`` as JavaScript, a dict as a plain object (not a Map, whose keys a Web API
    would not see)."""
    return to_js(value, dict_converter=js.Object.fromEntries)


def spawn(work):
    """Run the coroutine ``work`` in the background, kept referred to until it is done: the
    event loop holds only a weak reference to a task, which could otherwise vanish unfinished."""
    task = asyncio.ensure_future(work)
    RUNNING.add(task)
    task.add_done_callback(RUNNING.discard)
    return task


class Listeners:
    """Event listeners we own: kept alive while attached, destroyed on `clear`."""

    def __init__(self):
        self.items = []

    def on(self, target, name: str, handler) -> None:
        proxy = create_proxy(handler)
        target.addEventListener(name, proxy)
        self.items.append((target, name, proxy))

    def clear(self) -> None:
        for target, name, proxy in self.items:
            target.removeEventListener(name, proxy)
            proxy.destroy()
        self.items.clear()

