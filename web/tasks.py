"""Background tasks of the page (a relay socket's watch, an offer being made, a loop that
watches the network, a reply that waits on the browser): `spawn` keeps each referred to until
it is done. The event loop holds only a weak
reference to a task waiting on something, so a task nothing else refers to may be collected
before it finishes, and its work silently lost:

>>> import asyncio, gc, weakref
>>> from concurrent.futures import ThreadPoolExecutor
>>> async def main():
...     async def wait():     # waits on a future only it refers to, as a task waiting on the browser does
...         await asyncio.get_running_loop().create_future()
...     task = weakref.ref(spawn(wait()))
...     await asyncio.sleep(0)
...     gc.collect()
...     return task() in RUNNING
>>> with ThreadPoolExecutor(1) as thread:   # a thread of its own: the caller's may run a loop already
...     thread.submit(asyncio.run, main()).result()
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
RUNNING: set[asyncio.Task[Any]] = set()     # the tasks `spawn` started, until each is done


def spawn(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """Run the coroutine ``work`` in the background, kept referred to until it is done."""
    task = asyncio.ensure_future(work)
    RUNNING.add(task)
    task.add_done_callback(RUNNING.discard)
    return task
