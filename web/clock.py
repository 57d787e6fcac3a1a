"""The time and fresh seeds for the browser glue: the engine takes both as inputs, never reads
them itself. Pure Python, on modules the runtime has imported before ours (time, random), so
the start pays for no datetime, secrets or hmac.

>>> stamp = now_iso()
>>> stamp.endswith("Z") and stamp[10] == "T" and len(stamp) == 24
True
>>> now_iso(1_700_000_000.25)
'2023-11-14T22:13:20.250Z'
>>> 0 <= new_seed() < 2**53
True
"""

from __future__ import annotations

import random
import time

# The operating system's randomness (the browser's crypto.getRandomValues under Pyodide), as the
# secrets module draws it: a seed must not be guessable from earlier ones.
_SYSTEM_RANDOM = random.SystemRandom()


def now_iso(seconds: float | None = None) -> str:
    """The time now (or `seconds` since the epoch) in UTC, ISO 8601 to the millisecond, as
    JavaScript's toISOString writes it."""
    millis = time.time_ns() // 1_000_000 if seconds is None else round(seconds * 1000)
    whole, millis = divmod(millis, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{millis:03d}Z"


def new_seed() -> int:
    """A fresh seed for a deal: 53 bits, so it survives a trip through JavaScript numbers."""
    return _SYSTEM_RANDOM.randrange(2**53)
