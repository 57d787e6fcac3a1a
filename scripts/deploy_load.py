#!/usr/bin/env python3
"""Load on the deployment of docs/deploy/ (scripts/deploy_local.py): scripted WebSocket peers,
no browsers, through Caddy (TLS, two relay instances sharing Redis) and straight to one relay.

    .venv/bin/python scripts/deploy_load.py [--rooms 1000 5000] [--dist dist] [--in-flight 64]

For each count of rooms and each way in, it opens that many rooms of two members, each room
from an address of its own in 127.0.0.0/8 (so the relays' per-address limits, left at their
defaults, apply to each room's client as they would to players behind the proxy), and
reports how many rooms a second were joined (both members in, each told of the other), then
the round trip of one message per room there and back (member A to B, B's answer to A) with
every room open: p50 and p95; and the CPU time each part used meanwhile (Caddy, the two relays,
Redis, this load generator), which says where the time went. The load generator shares this machine's cores with Caddy, the
relays and Redis, so on a small machine the figures are a floor. Bounded: 5 minutes per run.
Caddy holds two sockets per member: 5,000 rooms need a hard limit on open files (`ulimit -Hn`)
above 20,000; this raises the soft limit of every process it starts to that hard limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import ssl
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deploy_local  # noqa: E402

RUN_TIMEOUT = 300.0
CPU_PARTS = ("caddy", "relays", "redis", "client")
OPEN_TIMEOUT = 30.0


@dataclass(frozen=True)
class Way:
    """How a client reaches the relay: the WebSocket URL, the address and port it connects to
    (the URL's host is then only the TLS name), and the TLS context (None: plain ws://)."""

    name: str
    url: str
    host: str
    port: int
    tls: ssl.SSLContext | None = None

    async def member(self, room: str, address: str, headers: dict[str, str] | None = None) -> tuple[
            ClientConnection, dict]:
        """A socket from ``address`` that asked to join ``room``: (socket, the relay's answer)."""
        socket = await connect(self.url, ssl=self.tls, host=self.host, port=self.port, local_addr=(address, 0),
                               open_timeout=OPEN_TIMEOUT, additional_headers=headers)
        await socket.send(json.dumps({"type": "join", "room": room}))
        return socket, json.loads(await asyncio.wait_for(socket.recv(), OPEN_TIMEOUT))


def through_caddy(found: deploy_local.Deployment) -> Way:
    return Way("through Caddy", found.relay_url, deploy_local.LOOPBACK, found.https_port, found.tls())


def straight(found: deploy_local.Deployment, index: int = 0) -> Way:
    port = found.relay_ports[index]
    return Way(f"straight to relay-{index + 1}", f"ws://{deploy_local.LOOPBACK}:{port}/relay",
               deploy_local.LOOPBACK, port)


def client_address(n: int) -> str:
    """The loopback address of room ``n``'s client (127.1.0.1 onwards; never 127.0.0.1, Caddy's).

    >>> client_address(0), client_address(251)
    ('127.1.0.1', '127.1.1.2')
    """
    return f"127.1.{n // 250}.{n % 250 + 1}"


@dataclass
class Figures:
    way: str
    rooms: int
    joins_per_second: float
    p50_ms: float
    p95_ms: float
    cpu: dict[str, float] = field(default_factory=dict)

    def row(self) -> str:
        used = " / ".join(f"{self.cpu.get(part, 0.0):.1f}" for part in CPU_PARTS)
        return (f"| {self.rooms:,} rooms, {self.way} | {self.joins_per_second:,.0f} | "
                f"{self.p50_ms:,.0f} / {self.p95_ms:,.0f} | {used} |")


async def open_room(way: Way, n: int, tag: str) -> tuple[ClientConnection, ClientConnection, str]:
    """Room ``n``, its two members joined and the first told of the second: (first, second,
    the second's id)."""
    room = f"load-{tag}-{n:06d}"
    first, said = await way.member(room, client_address(n))
    if said.get("type") != "joined":
        await first.close()
        raise RuntimeError(f"room {n}: {said}")
    second, said = await way.member(room, client_address(n))
    if said.get("type") != "joined":
        await asyncio.gather(first.close(), second.close())
        raise RuntimeError(f"room {n}: {said}")
    told = json.loads(await asyncio.wait_for(first.recv(), OPEN_TIMEOUT))
    assert told == {"type": "peer-joined", "id": said["id"]}, told
    return first, second, said["id"]


async def round_trip(first: ClientConnection, second: ClientConnection, second_id: str) -> float:
    """Seconds for a message from ``first`` to ``second`` and its answer back."""
    started = time.perf_counter()
    await first.send(json.dumps({"type": "send", "to": second_id, "data": "ping"}))
    got = json.loads(await asyncio.wait_for(second.recv(), OPEN_TIMEOUT))
    await second.send(json.dumps({"type": "send", "to": got["from"], "data": "pong"}))
    back = json.loads(await asyncio.wait_for(first.recv(), OPEN_TIMEOUT))
    assert back["data"] == "pong", back
    return time.perf_counter() - started


async def bounded(jobs, in_flight: int) -> list:
    """Run the coroutines ``jobs`` with at most ``in_flight`` at once; their results in order."""
    gate = asyncio.Semaphore(in_flight)

    async def one(job):
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(job) for job in jobs)))


def cpu_now(found: deploy_local.Deployment | None) -> dict[str, float]:
    """CPU seconds used so far by the deployment's servers and by this process (the client)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return {**(found.cpu_seconds() if found else {}), "client": used.ru_utime + used.ru_stime}


async def measure(way: Way, rooms: int, in_flight: int = 64, tag: str = "",
                  found: deploy_local.Deployment | None = None) -> Figures:
    """Open ``rooms`` rooms, time one round trip in each with all open, close them all;
    with ``found``, the CPU each of its servers used meanwhile too."""
    before = cpu_now(found)
    tag = tag or f"{way.name.split()[0]}-{time.monotonic_ns()}"
    opened: list[tuple[ClientConnection, ClientConnection, str]] = []

    async def keep(n: int) -> None:
        opened.append(await open_room(way, n, tag))

    try:
        async with asyncio.timeout(RUN_TIMEOUT):
            started = time.perf_counter()
            await bounded([keep(n) for n in range(rooms)], in_flight)
            joining = time.perf_counter() - started
            trips = await bounded([round_trip(*room) for room in opened], in_flight)
    finally:
        await bounded([socket.close() for room in opened for socket in room[:2]], 256)
    quantiles = statistics.quantiles(trips, n=20)
    after = cpu_now(found)
    return Figures(way.name, rooms, rooms / joining, statistics.median(trips) * 1000, quantiles[18] * 1000,
                   {part: after[part] - before.get(part, 0.0) for part in after})


def raise_open_files(wanted: int) -> None:
    """Let this process and its children (Caddy, the relays) hold ``wanted`` files open."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
        return
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--dist", type=Path, default=deploy_local.ROOT / "dist", help="the built site")
    parser.add_argument("--in-flight", type=int, default=64, help="rooms being opened (or pinged) at once")
    args = parser.parse_args()
    if max(args.rooms) > 60000:
        parser.error("at most 60,000 rooms (one loopback address each)")
    raise_open_files(6 * max(args.rooms) + 1000)   # Caddy holds two sockets per member
    rows = []
    with deploy_local.deployed(args.dist) as found:
        for rooms in args.rooms:
            for way in (through_caddy(found), straight(found)):
                figures = asyncio.run(measure(way, rooms, args.in_flight, found=found))
                print(figures.row(), flush=True)
                rows.append(figures.row())
    print("\n| run | rooms joined/s | round trip p50 / p95 ms | CPU s: Caddy / relays / Redis / client |\n"
          "| --- | --- | --- | --- |", *rows, sep="\n")


if __name__ == "__main__":
    main()
