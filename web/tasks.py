"""Background tasks of the page (a loop that watches the network, a reply that waits on the
browser): started with `spawn`, which keeps a reference to each until it is done, as asyncio
asks (a task nothing refers to may be collected before it finishes).

>>> import asyncio
>>> async def main():
...     task = spawn(asyncio.sleep(0, result="done"))
...     return task in RUNNING, await task
>>> asyncio.run(main())
(True, 'done')
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

RUNNING: set[asyncio.Future[Any]] = set()


def spawn(work: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
    """Run ``work`` in the background, kept alive until it is done."""
    task = asyncio.ensure_future(work)
    RUNNING.add(task)
    task.add_done_callback(RUNNING.discard)
    return task
