"""Load on the signalling relay: how many rooms and forwarded messages a second it sustains,
with its rooms in memory (one instance) or in Redis (two instances sharing them).

    .venv/bin/python bench/relay_load.py [--rooms 500] [--seconds 10] [--window 4] [--size 200]
                                         [--backend memory|redis|both] [--clients 2]

Starts `serve.py --relay-only` (limits raised so that only capacity is measured) on free
loopback ports: one in-memory instance, or two instances with `--redis` on a throwaway
redis-server (relay.shared.redis_server; `scripts/setup --redis` installs it). Joins ``rooms``
rooms of two members each (with two instances, the two members of a room are on different
instances, so every message crosses Redis), then every member keeps ``window`` messages of
``size`` characters in flight to its partner (each received message is answered with a new
one) for ``seconds``. Each message carries its send time, so the receiver measures the
forwarding latency (with ``window`` in flight: loaded latency, queueing included).

Reports per backend: rooms and members held, joins a second, forwarded messages a second,
p50/p99 latency, memory per connection (the relays' resident memory after joining, less
before; and Redis's own used_memory per member), and CPU (relays, and redis-server: the
share of a core, and the CPU time per forwarded message, which sets the ceiling). The
load generator runs in this machine's other processes, so on 2 cores the numbers are a
floor. Bounded in count (4000 rooms) and time (120 s).
"""

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

import serve  # noqa: E402

LIMITS = ("--max-rate", "1000000", "--max-rooms-per-address", "1000000", "--max-joins-per-minute", "1000000",
          "--max-members", "8", "--max-members-per-address", "8", "--max-connections-per-address", "1000000",
          "--max-log-lines", "5")


def children(name: bytes) -> list[int]:
    """Pids of this process's children whose command line has ``name`` in it (redis-server
    rewrites its own: "redis-server 127.0.0.1:PORT")."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == os.getpid() and any(name in part for part in cmd):
                found.append(int(entry))
    return found


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def run(urls: list[str], first: int, rooms: int, seconds: float, window: int, size: int, barrier) -> dict:
    sockets = [url.replace("http://", "ws://") + "relay" for url in urls]
    pad = "x" * max(0, size - 20)
    pairs = []

    async def member(where: str, room: str):
        socket = await connect(where, max_queue=None)
        await socket.send(json.dumps({"type": "join", "room": room}))
        hello = json.loads(await socket.recv())
        assert hello["type"] == "joined", hello
        return socket, hello["id"]

    async def make_pair(n: int):
        room = f"load-room-{first + n:08d}"
        a, id_a = await member(sockets[0], room)
        b, id_b = await member(sockets[-1], room)
        assert json.loads(await a.recv())["type"] == "peer-joined"
        return (a, id_b), (b, id_a)

    started = time.monotonic()
    for chunk in range(0, rooms, 100):
        pairs += await asyncio.gather(*(make_pair(n) for n in range(chunk, min(rooms, chunk + 100))))
    joined = time.monotonic() - started
    await asyncio.to_thread(barrier.wait)    # all joined: memory is measured now
    await asyncio.to_thread(barrier.wait)    # go
    latencies: list[float] = []
    counts = {"received": 0}
    stop = time.monotonic() + seconds

    def message(partner: str) -> str:
        return json.dumps({"type": "send", "to": partner, "data": f"{time.perf_counter_ns()}:{pad}"})

    async def play(socket, partner):
        for _ in range(window):
            await socket.send(message(partner))
        while time.monotonic() < stop:
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            got = json.loads(text)
            if got["type"] != "from":
                raise RuntimeError(f"the relay said {got}")
            sent = int(got["data"].split(":", 1)[0])
            latencies.append((time.perf_counter_ns() - sent) / 1e6)
            counts["received"] += 1
            await socket.send(message(partner))

    began = time.monotonic()
    await asyncio.gather(*(play(s, p) for pair in pairs for s, p in pair))
    elapsed = time.monotonic() - began
    for pair in pairs:
        for socket, _ in pair:
            await socket.close()
    step = max(1, len(latencies) // 50_000)    # a bounded sample to send back
    return {"join_seconds": joined, "members": 2 * len(pairs), "rooms": len(pairs), "received": counts["received"],
            "elapsed": elapsed, "latencies": latencies[::step]}


def client(job: tuple, barrier, results) -> None:
    try:
        results.put(asyncio.run(run(*job, barrier)))
    except Exception as error:   # say why, and let the others go on
        barrier.abort()
        results.put({"error": repr(error)})


def measure(label: str, urls: list[str], args, redis_url: str | None = None) -> dict:
    """Run the load against relays at ``urls`` (children of this process)."""
    relays = children(b"serve.py")
    redis_pids = children(b"redis-server") if redis_url else []
    redis_memory = (lambda: redis_used_memory(redis_url)) if redis_url else (lambda: 0)
    share = -(-args.rooms // args.clients)
    jobs = [(urls, n * share, min(share, args.rooms - n * share), args.seconds, args.window, args.size)
            for n in range(args.clients) if args.rooms > n * share]
    barrier = multiprocessing.Barrier(len(jobs) + 1)
    results = multiprocessing.Queue()
    rss0, redis0 = sum(map(rss_bytes, relays)), redis_memory()
    procs = [multiprocessing.Process(target=client, args=(job, barrier, results)) for job in jobs]
    for proc in procs:
        proc.start()
    try:
        barrier.wait(timeout=600)
        rss1, redis1 = sum(map(rss_bytes, relays)), redis_memory()
        cpu0 = {pid: cpu_seconds(pid) for pid in relays + redis_pids}
        wall0 = time.monotonic()
        barrier.wait(timeout=60)
    except threading.BrokenBarrierError:   # a client failed: its error is in the results
        raise SystemExit(f"{label}: {[results.get(timeout=60) for _ in procs]}") from None
    parts = [results.get(timeout=args.seconds + 600) for _ in procs]
    for proc in procs:
        proc.join()
    wall = time.monotonic() - wall0
    errors = [part["error"] for part in parts if "error" in part]
    if errors:
        raise SystemExit(f"{label}: {errors}")
    cpu = {pid: cpu_seconds(pid) - before for pid, before in cpu0.items()}
    members = sum(p["members"] for p in parts)
    latencies = sorted(x for p in parts for x in p["latencies"])
    received, elapsed = sum(p["received"] for p in parts), max(p["elapsed"] for p in parts)
    return {
        "label": label,
        "rooms": sum(p["rooms"] for p in parts), "members": members,
        "joins_per_s": members / max(p["join_seconds"] for p in parts),
        "messages_per_s": received / elapsed,
        "p50_ms": latencies[len(latencies) // 2] if latencies else float("nan"),
        "p99_ms": latencies[int(len(latencies) * 0.99)] if latencies else float("nan"),
        "relay_kb_per_conn": (rss1 - rss0) / members / 1024,
        "redis_b_per_member": (redis1 - redis0) / members if redis_url else None,
        "relay_cpu": sum(cpu[pid] for pid in relays) / wall,
        "redis_cpu": sum(cpu[pid] for pid in redis_pids) / wall if redis_url else None,
        # CPU time per forwarded message (all relays together): what bounds the throughput
        # once the machine is the relay's alone, whatever the load generator could manage here
        "relay_us_per_msg": 1e6 * sum(cpu[pid] for pid in relays) / max(1, received),
        "redis_us_per_msg": 1e6 * sum(cpu[pid] for pid in redis_pids) / max(1, received) if redis_url else None,
    }


def redis_used_memory(url: str) -> int:
    import redis   # only for the Redis backend

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("memory")["used_memory"])
    finally:
        client.close()


def table(rows: list[dict], args) -> str:
    def cell(value, fmt):
        return "-" if value is None else format(value, fmt)
    lines = [f"relay load: {args.rooms} rooms of 2, {args.size}-character payloads, {args.window} in flight per member, "
             f"{args.seconds:g} s, {args.clients} client processes",
             "",
             "| relay | rooms held | members held | joins/s | forwarded msgs/s | p50 ms | p99 ms "
             "| relay RSS KB/conn | Redis B/member | relay CPU | redis CPU | relay CPU µs/msg | Redis CPU µs/msg |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        lines.append(
            f"| {row['label']} | {row['rooms']} | {row['members']} | {row['joins_per_s']:,.0f} "
            f"| {row['messages_per_s']:,.0f} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} "
            f"| {row['relay_kb_per_conn']:.1f} | {cell(row['redis_b_per_member'], ',.0f')} "
            f"| {100 * row['relay_cpu']:.0f}% | {cell(row['redis_cpu'] and 100 * row['redis_cpu'], '.0f')}"
            + ("%" if row["redis_cpu"] is not None else "")
            + f" | {row['relay_us_per_msg']:.0f} | {cell(row['redis_us_per_msg'], '.0f')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--window", type=int, default=4)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--clients", type=int, default=2, help="load-generating processes")
    parser.add_argument("--backend", choices=("memory", "redis", "both"), default="both")
    parser.add_argument("--log", type=Path, help="append the relays' logs to this file")
    args = parser.parse_args()
    args.rooms = max(1, min(args.rooms, 4000))          # bounded: 2 sockets a room
    args.seconds = min(args.seconds, 120.0)
    args.size = max(20, args.size)
    rows = []
    if args.backend in ("memory", "both"):
        with open(args.log or os.devnull, "a") as log, serve.spawn(stderr=log, args=("--relay-only", *LIMITS)) as url:
            rows.append(measure("in memory, 1 instance", [url], args))
    if args.backend in ("redis", "both"):
        from relay import shared   # needs the redis package and redis-server

        with contextlib.ExitStack() as stack:
            redis_url = stack.enter_context(shared.redis_server())
            log = stack.enter_context(open(args.log, "a")) if args.log else subprocess.DEVNULL
            # A long expiry: on a starved machine an instance can miss a few seconds' heartbeats,
            # and would be given up for dead (its members told relay-down) mid-measurement.
            shared = ("--relay-only", "--redis", redis_url, "--redis-expiry", "30", *LIMITS)
            urls = [stack.enter_context(serve.spawn(stderr=log, args=shared)) for _ in range(2)]
            rows.append(measure("Redis, 2 instances", urls, args, redis_url))
    print(table(rows, args))


if __name__ == "__main__":
    main()
