"""What web.net's browser modules share: `trace`, each step of a connection for DevTools;
`js_object`, a dict as a plain JavaScript object; and `Listeners`, the event listeners a
connection owns.

Each step of a connection (the relay joined or lost, an offer, an answer, a channel opened or
closed) is traced with ``console.debug`` ("cribbage net: ..."): a self-hoster whose friends
cannot connect sees in DevTools (verbose level) how far they got, and so do the browser tests'
reports when one fails.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import js
from pyodide.ffi import JsDoubleProxy, JsProxy, create_proxy, to_js

Handler = Callable[[JsProxy], object]     # an event listener: the event in, its result ignored


def trace(text: str) -> None:
    """One step of a connection, for DevTools' verbose level (see the module's docstring)."""
    js.console.debug(f"cribbage net: {text}")


def js_object(value: Mapping[str, object] | Sequence[object]) -> JsProxy:
    """``value`` as JavaScript, a dict as a plain object (not a Map, whose keys a Web API
    would not see)."""
    converted: JsProxy = to_js(value, dict_converter=js.Object.fromEntries)
    return converted


class Listeners:
    """Event listeners we own: kept alive while attached, destroyed on `clear`."""

    def __init__(self) -> None:
        self.items: list[tuple[JsProxy, str, JsDoubleProxy[Handler]]] = []

    def on(self, target: JsProxy, name: str, handler: Handler) -> None:
        proxy = create_proxy(handler)
        target.addEventListener(name, proxy)
        self.items.append((target, name, proxy))

    def clear(self) -> None:
        for target, name, proxy in self.items:
            target.removeEventListener(name, proxy)
            proxy.destroy()
        self.items.clear()

