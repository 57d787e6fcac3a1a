"""Load on the signalling relay: how many rooms and forwarded messages a second it sustains.

    .venv/bin/python bench/relay_load.py [--rooms 500] [--seconds 10] [--window 4] [--size 200]

Starts `serve.py --relay-only` (limits raised so that only capacity is measured) on a free
loopback port, joins ``rooms`` rooms of two members each, then every member keeps ``window``
messages of ``size`` characters in flight to its partner (each received message is answered
with a new one) for ``seconds``. Reports the join rate, forwarded messages a second, and the
relay process's CPU use (from /proc). The load generator runs in this process, on the same
machine, so on 2 cores the relay gets about one of them. Bounded in count and time.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

import serve  # noqa: E402

LIMITS = ("--max-rate", "1000000", "--max-rooms-per-address", "1000000", "--max-members", "8",
          "--max-connections-per-address", "1000000")


def relay_pid() -> int | None:
    """The pid of our serve.py child (from /proc, no extra packages)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == os.getpid() and any(part.endswith(b"serve.py") for part in cmd):
                return int(entry)
    return None


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(url: str, first: int, rooms: int, seconds: float, window: int, size: int) -> dict:
    ws = url.replace("http://", "ws://") + "relay"
    payload = "x" * size
    started = time.monotonic()
    pairs = []

    async def make_pair(n: int):
        room = f"load-room-{first + n:08d}"
        a = await connect(ws, max_queue=None)
        await a.send(json.dumps({"type": "join", "room": room}))
        id_a = json.loads(await a.recv())["id"]
        b = await connect(ws, max_queue=None)
        await b.send(json.dumps({"type": "join", "room": room}))
        id_b = json.loads(await b.recv())["id"]
        await a.recv()   # peer-joined
        return (a, id_b), (b, id_a)

    for chunk in range(0, rooms, 100):
        pairs += await asyncio.gather(*(make_pair(n) for n in range(chunk, min(rooms, chunk + 100))))
    joined = time.monotonic() - started
    counts = {"received": 0}
    stop = time.monotonic() + seconds

    async def member(socket, partner):
        message = json.dumps({"type": "send", "to": partner, "data": payload})
        for _ in range(window):
            await socket.send(message)
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(socket.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            counts["received"] += 1
            await socket.send(message)

    began = time.monotonic()
    await asyncio.gather(*(member(s, p) for pair in pairs for s, p in pair))
    elapsed = time.monotonic() - began
    for pair in pairs:
        for socket, _ in pair:
            await socket.close()
    return {"join_seconds": joined, "received": counts["received"], "elapsed": elapsed}


def client(*job) -> dict:
    return asyncio.run(run(*job))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--window", type=int, default=4)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--clients", type=int, default=2, help="load-generating processes")
    args = parser.parse_args()
    args.rooms = min(args.rooms, 4000)          # bounded: 2 sockets a room
    args.seconds = min(args.seconds, 120.0)
    with serve.spawn(args=("--relay-only", *LIMITS)) as url:
        pid = relay_pid()
        cpu0, wall0 = (cpu_seconds(pid) if pid else 0.0), time.monotonic()
        share = -(-args.rooms // args.clients)
        jobs = [(url, n * share, min(share, args.rooms - n * share), args.seconds, args.window, args.size)
                for n in range(args.clients) if args.rooms > n * share]
        with multiprocessing.Pool(len(jobs)) as pool:
            parts = pool.starmap(client, jobs)
        cpu = (cpu_seconds(pid) - cpu0) if pid else float("nan")
        wall = time.monotonic() - wall0
    result = {"join_seconds": max(p["join_seconds"] for p in parts), "received": sum(p["received"] for p in parts),
              "elapsed": max(p["elapsed"] for p in parts)}
    rate = result["received"] / result["elapsed"]
    print(f"relay load ({args.clients} client processes): {args.rooms} rooms ({2 * args.rooms} WebSockets), {args.size}-character payloads, "
          f"{args.window} in flight per member, {args.seconds:g} s")
    print(f"  joined {args.rooms} rooms in {result['join_seconds']:.2f} s "
          f"({2 * args.rooms / result['join_seconds']:.0f} joins/s)")
    print(f"  forwarded {result['received']} messages in {result['elapsed']:.1f} s: {rate:,.0f} messages/s")
    print(f"  relay CPU {cpu:.1f} s over {wall:.1f} s wall ({100 * cpu / wall:.0f}% of one core)")


if __name__ == "__main__":
    main()
