"""The time and fresh seeds for the browser glue: the engine takes both as inputs, never reads
them itself. Pure Python.

>>> stamp = now_iso()
>>> stamp.endswith("Z") and stamp[10] == "T" and len(stamp) == 24
True
>>> 0 <= new_seed() < 2**53
True
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone


def now_iso() -> str:
    """The time now in UTC, ISO 8601 to the millisecond (as JavaScript's toISOString)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_seed() -> int:
    """A fresh seed for a deal: 53 bits, so it survives a trip through JavaScript numbers."""
    return secrets.randbelow(2**53)
