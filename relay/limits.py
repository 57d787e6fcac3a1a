"""The relay's and the server's limits (`Limits`, each a command-line option of serve.py), the
log that throttles repeated lines (`Log`), and the connections open per address
(`Connections`; `relay.shared.SharedConnections` counts them across instances).
"""

import asyncio  # noqa: F401 (the doctests)
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

LIMIT_HELP = {
    "max_payload": "largest relay message, in characters",
    "max_members": "members per room",
    "max_rate": "messages per second per connection (bursts of twice that)",
    "max_over_rate": "messages over that rate within a second that disconnect a relay member",
    "max_rooms_per_address": "rooms one IP address may be in at once",
    "max_joins_per_minute": "room joins from one IP address a minute (the minute starts at its first join)",
    "max_ice_per_minute": "TURN credential requests per relay member a minute",
    "max_members_per_address": "members of one room from one IP address",
    "max_connections_per_address": "connections (HTTP and WebSocket) one IP address may have open at once",
    "join_timeout": "seconds a relay WebSocket has to join a room before it is closed",
    "write_timeout": "seconds a client may take to read each 64 KiB of a file before it is cut off",
    "max_log_lines": "log lines a minute of one kind (a status, a refusal) from one address; the rest are counted",
}


@dataclass(frozen=True)
class Limits:
    """The server's limits, each a command-line option (`LIMIT_HELP`). A message the relay
    refuses gets an error with the reason."""

    max_payload: int = 16_384
    max_members: int = 8
    max_rate: float = 20.0
    max_over_rate: int = 100
    max_rooms_per_address: int = 20
    max_joins_per_minute: int = 60
    max_ice_per_minute: int = 5
    max_members_per_address: int = 4
    max_connections_per_address: int = 100
    join_timeout: float = 5.0
    write_timeout: float = 30.0
    max_log_lines: int = 100


class Log:
    """Log lines on stderr, at most ``per_minute`` a minute of one kind from one address.
    How many were left out is said when the next line is logged after that minute.
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.per_minute = per_minute
        self.clock = clock
        self.started = clock()
        self.counts: Counter[tuple[str, str]] = Counter()   # (address, kind) -> lines this minute

    def __call__(self, address: str, kind: str, line: str) -> None:
        now = self.clock()
        if now - self.started >= 60:
            self.roll_over(now)
        self.counts[address, kind] += 1
        if self.counts[address, kind] <= self.per_minute:
            print(line, file=sys.stderr, flush=True)

    def roll_over(self, now: float) -> None:
        """Start a new minute, after saying how many lines the last one left out."""
        for (address, kind), count in self.counts.items():
            if count > self.per_minute:
                print(f"log: {count - self.per_minute} more lines of kind {kind} from {address} left out",
                      file=sys.stderr, flush=True)
        self.counts.clear()
        self.started = now


class Connections:
    """How many connections each address has open in this process, at most ``limit`` each.
    A `relay.shared.SharedConnections` counts them across the instances sharing a Redis.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> def run(coroutine):  # a thread of its own: the caller's thread may run an event loop already
    ...     with ThreadPoolExecutor(1) as thread:
    ...         return thread.submit(asyncio.run, coroutine).result()
    >>> connections = Connections(1)
    >>> first = run(connections.acquire("1.2.3.4"))
    >>> run(connections.acquire("1.2.3.4")), run(connections.acquire("5.6.7.8")) is None
    (None, False)
    >>> run(connections.release(first)); connections.open["1.2.3.4"]
    0
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.open: Counter[str] = Counter()   # address -> connections open here

    async def acquire(self, address: str) -> "Ticket | None":
        """One more connection from ``address``: its ticket (for `release`), or None when the
        address has ``limit`` open already."""
        if self.open[address] >= self.limit:
            return None
        self.open[address] += 1
        return Ticket(address)

    async def release(self, ticket: "Ticket") -> None:
        """A connection `acquire` let in has closed."""
        self.open[ticket.address] -= 1
        if self.open[ticket.address] <= 0:
            del self.open[ticket.address]


@dataclass(frozen=True)
class Ticket:
    """A connection counted for its address; ``shared``: the relay instance under whose name
    it was counted in Redis too ("": only in this process)."""

    address: str
    shared: str = ""
