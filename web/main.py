"""Browser entry point: PyScript runs this file once pyscript.toml's [files] are in place.

The built site (scripts/build_dist.py) ships game/ and web/ as one zip of precompiled
bytecode, which its interpreter wrapper (web/snapshot.mjs) writes to app.zip; it goes first on sys.path, so zipimport loads
every module from it, and the methods of our dataclasses, compiled with it (web.dataclass_methods).
What only tables with friends and linking a device import comes in a zip of its own when first
needed (web.lazy.BUNDLE), at once for a table's link. The repository's own page has no app.zip
and imports the sources.
Then it mounts the table (web.dom), which removes the loading line and sets the ready
marker (`<html data-ready="true">`) that tests and the benchmark wait for, and once the page is
idle imports what a bot game needs but the start does not (web.lazy.AFTER_READY).

Each step runs in a task of its own (PyScript runs this file as a coroutine: each top-level
`await asyncio.sleep(0)` gives the page a turn), so the start form of index.html echoes a tap
or a key between them, as web/snapshot.mjs lets it during the runtime's start.
"""

import asyncio
import importlib
import os
import sys
from collections.abc import Callable

# PyScript's own start (its package, imported just before this file) ends here.
await asyncio.sleep(0)  # noqa: F704, PLE1142 (top-level await: PyScript runs this file as a coroutine)

if os.path.isfile("app.zip"):
    sys.path.insert(0, os.path.abspath("app.zip"))
    from web.dataclass_methods import install_from

    install_from(os.path.abspath("app.zip"))   # our dataclasses' methods, compiled at build time

from pyodide.ffi import create_once_callable  # noqa: E402
from pyscript import document, window  # noqa: E402

from web.lazy import BUNDLE  # noqa: E402


LATER_TRIES = [0]   # fetches of web/app_later.zip made so far


async def fetch_later() -> bytes:
    """web/app_later.zip (web.lazy.LATER's modules), fetched (the service worker keeps it then);
    an OSError if the network or the server fails. A second try asks past the service worker's
    copy (a query it has no copy under; it then keeps the fresh one): the copy it kept may be
    the one just refused, of another build."""
    LATER_TRIES[0] += 1
    again = f"?again={LATER_TRIES[0]}" if LATER_TRIES[0] > 1 else ""
    try:
        response = await window.fetch(f"./web/app_later.zip{again}")
        if not response.ok:
            raise OSError(f"the server answered {response.status}")
        data: bytes = (await response.arrayBuffer()).to_bytes()
        return data
    except OSError:
        raise
    except Exception:   # a JS TypeError: offline, the connection lost
        raise OSError("the network did not answer") from None


if os.path.isfile("app.zip"):   # the built site: the tables with friends are not in it (web.lazy)
    BUNDLE.fetched_by(fetch_later, partner=os.path.abspath("app.zip"))
    if window.URLSearchParams.new(window.location.search).has("table"):
        try:   # a table's link: web/snapshot.mjs fetched the zip with app.zip
            await BUNDLE.ensure()  # noqa: F704, PLE1142
        except OSError:
            pass   # the table's page says why (web.dom.App.online)

window.performance.mark("py:main")   # marks for bench/ready_path.py's timeline
# The start's imports in three slices: the modules each name imports that are not imported yet
# (20-60 ms each on a first visit; none is left to import after a memory snapshot).
for name in ("game.engine", "web.storage", "web.dom"):
    await asyncio.sleep(0)  # noqa: F704, PLE1142
    importlib.import_module(name)
from web.dom import start  # noqa: E402

window.performance.mark("py:imported")
await asyncio.sleep(0)  # noqa: F704, PLE1142
# A tap pressed on index.html's start form must be released there: released on Python's form,
# which replaces it, it would make no click (see released() there).
shell = getattr(window, "cribbageShell", None)
if shell is not None and hasattr(shell, "released"):
    await shell.released()  # noqa: F704, PLE1142
document.getElementById("boot").remove()
start("table")
window.performance.mark("py:mounted")


def warm_up(names: list[str]) -> None:
    """What a bot game needs but the start did not (web.lazy.AFTER_READY), while the player
    looks at the ready table: one module (and what it imports) per idle moment, so that a tap
    on the table waits behind one of them at most, not all three."""
    if not names:
        return
    importlib.import_module(names[0])
    when_idle(lambda: warm_up(names[1:]))


def when_idle(step: Callable[[], None]) -> None:
    """Run `step` in the page's next idle moment (Safari has no requestIdleCallback: a moment later)."""
    idle = getattr(window, "requestIdleCallback", None)
    callback = create_once_callable(lambda _deadline=None: step())
    if idle is not None:
        idle(callback)
    else:
        window.setTimeout(callback, 200)


from web.lazy import AFTER_READY  # noqa: E402

when_idle(lambda: warm_up(list(AFTER_READY)))
