"""serve.py under a hostile client: slow readers, too many connections, unjoined relay
sockets, floods of oversized messages. Every test runs the real server in a child process
on a loopback port, with few sockets and short timeouts.
"""

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import serve
from relay.limits import Limits, Log
from test_relay import run, ws_url

VENDOR = serve.ROOT / "web" / "vendor"


def serve_children() -> set[int]:
    """Pids of this process's serve.py children, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and any(part.endswith(b"serve.py") for part in command):
            found.add(int(entry.name))
    return found


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (VmRSS in /proc/PID/status)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1)) / 1024


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname, parts.port


def slow_reader(site: tuple[str, int], target: str) -> socket.socket:
    """A socket that asks for ``target`` and then never reads (a small receive buffer, so the
    kernel holds little of the reply for it)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(site)
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def largest_vendor_file() -> tuple[Path, str]:
    """(site root, request target) of the largest file under web/vendor. The root is where
    that file really lives (web/vendor may be a link into another checkout)."""
    if not VENDOR.is_dir():
        pytest.skip("web/vendor is not there (scripts/setup makes it)")
    root = VENDOR.resolve().parents[1]
    files = [p for p in (root / "web" / "vendor").rglob("*") if p.is_file()]
    biggest = max(files, key=lambda p: p.stat().st_size)
    return root, "/" + biggest.relative_to(root).as_posix()


def test_slow_readers_do_not_exhaust_memory():
    root, target = largest_vendor_file()
    before = serve_children()
    with serve.spawn(root=root) as url:
        (pid,) = serve_children() - before
        site = address(url)
        readers = [slow_reader(site, "/index.html") for _ in range(2)]   # warm up
        time.sleep(0.5)
        baseline = rss_mb(pid)
        readers += [slow_reader(site, target) for _ in range(40)]
        peak = baseline
        for _ in range(20):
            time.sleep(0.15)
            peak = max(peak, rss_mb(pid))
        with socket.create_connection(site, timeout=10) as sock:   # still serving others
            sock.sendall(b"HEAD /index.html HTTP/1.1\r\n\r\n")
            assert sock.recv(64).startswith(b"HTTP/1.1 200 ")
        for sock in readers:
            sock.close()
    assert peak - baseline < 50, f"RSS grew {peak - baseline:.0f} MB for 40 slow readers"


def test_a_large_file_arrives_whole(tmp_path):
    body = bytes(range(256)) * 20_000 + b"end"   # many chunks, and a short last one
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "big.wasm").write_bytes(body)
    with serve.spawn(root=tmp_path) as url, urllib.request.urlopen(url + "web/big.wasm") as response:
        assert response.headers["Content-Length"] == str(len(body))
        assert response.read() == body


def test_a_reader_that_stalls_is_cut_off(tmp_path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "big.js").write_bytes(b"x" * (4 << 20))
    with serve.spawn(root=tmp_path, args=("--write-timeout", "1")) as url:
        with slow_reader(address(url), "/web/big.js") as sock:
            time.sleep(3)
            received = 0
            while data := recv(sock):
                received += len(data)
    assert received < 4 << 20


def recv(sock: socket.socket) -> bytes:
    """Some bytes; b"" at the end, or when the server reset the connection."""
    try:
        return sock.recv(1 << 16)
    except ConnectionResetError:
        return b""


def test_connections_per_address(tmp_path):
    (tmp_path / "index.html").write_text("hi")
    with serve.spawn(root=tmp_path, args=("--max-connections-per-address", "5")) as url:
        site = address(url)
        idle = [socket.create_connection(site, timeout=10) for _ in range(5)]
        time.sleep(0.3)
        with socket.create_connection(site, timeout=10) as extra:
            assert extra.recv(64).startswith(b"HTTP/1.1 503 ")

        async def relay_refused():
            with pytest.raises(InvalidStatus) as refused:
                await connect(ws_url(url))
            assert refused.value.response.status_code == 503
        run(relay_refused())
        idle.pop().close()
        time.sleep(0.3)
        with urllib.request.urlopen(url) as response:   # a place is free again
            assert response.read() == b"hi"
        for sock in idle:
            sock.close()


def test_relay_sockets_that_do_not_join_are_closed():
    with serve.spawn(args=("--relay-only", "--join-timeout", "1")) as url:
        async def main():
            idle = await connect(ws_url(url))
            started = time.monotonic()
            with pytest.raises(ConnectionClosed) as closed:
                await idle.recv()
            assert closed.value.rcvd.code == 1008 and 0.8 < time.monotonic() - started < 3
            member = await connect(ws_url(url))
            await member.send(json.dumps({"type": "join", "room": "room-joined-1"}))
            assert json.loads(await member.recv())["type"] == "joined"
            await asyncio.sleep(1.5)
            await asyncio.wait_for(await member.ping(), 5)   # a member stays
            await member.close()
        run(main())


def test_a_flood_of_oversized_messages_is_limited_and_cut_off(tmp_path):
    log = tmp_path / "serve.log"
    with log.open("w") as stream, serve.spawn(stderr=stream, args=("--relay-only", "--max-payload", "1000")) as url:
        async def main():
            flooder = await connect(ws_url(url))
            await flooder.send(json.dumps({"type": "join", "room": "room-flood-1"}))
            assert json.loads(await flooder.recv())["type"] == "joined"
            started = time.monotonic()
            with contextlib.suppress(ConnectionClosed):   # closed at some point of the flood
                for _ in range(2000):
                    await flooder.send("x" * 2000)
            replies = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    replies.append(json.loads(await flooder.recv()))
            return replies, closed.value.rcvd, time.monotonic() - started
        replies, close, took = run(main())
    codes = [reply["code"] for reply in replies]
    assert close.code == 1008 and close.reason.startswith("flood")
    # The bucket: a burst of twice the rate, then the rate (on a loaded machine the flood takes a while).
    rate = Limits().max_rate
    assert codes.count("too-big") <= 2 * rate + rate * took and codes.count("rate") == 1
    # One log line per refusal the bucket let through (bounded above), and only a few others:
    # 2,000 messages never make 2,000 lines. A loaded machine floods more slowly, so the bucket
    # refills and lets more refusals through; the bound on those scales with the time taken.
    lines = log.read_text().splitlines()
    refused = [line for line in lines if "too-big" in line]
    assert len(refused) == codes.count("too-big")
    assert len(lines) - len(refused) < 10


def test_a_flood_of_requests_is_not_each_logged(tmp_path):
    log = tmp_path / "serve.log"
    with log.open("w") as stream, serve.spawn(root=tmp_path, stderr=stream, args=("--max-log-lines", "5")) as url:
        for _ in range(30):
            with socket.create_connection(address(url), timeout=10) as sock:
                sock.sendall(b"GET /missing HTTP/1.1\r\n\r\n")
                assert sock.recv(64).startswith(b"HTTP/1.1 404 ")
    assert len(log.read_text().splitlines()) == 5


def test_repeated_log_lines_are_throttled(capsys):
    now = [0.0]
    log = Log(3, clock=lambda: now[0])
    for n in range(10):
        log("10.0.0.1", "404", f"404 number {n}")
        log("10.0.0.2", "404", f"other address {n}")
    log("10.0.0.1", "too-big", "another kind")
    now[0] = 61.0
    log("10.0.0.1", "404", "next minute")
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "404 number 0", "other address 0", "404 number 1", "other address 1", "404 number 2", "other address 2",
        "another kind",
        "log: 7 more lines of kind 404 from 10.0.0.1 left out",
        "log: 7 more lines of kind 404 from 10.0.0.2 left out",
        "next minute",
    ]


async def for_client(url: str, *forwarded: str):
    """A relay socket whose request carries these X-Forwarded-For lines (none: no header)."""
    return await connect(ws_url(url), additional_headers=[("X-Forwarded-For", line) for line in forwarded])


async def join_room(socket, room: str) -> dict:
    await socket.send(json.dumps({"type": "join", "room": room}))
    return json.loads(await socket.recv())


async def refused_for(url: str, *forwarded: str) -> None:
    with pytest.raises(InvalidStatus) as refusal:
        await for_client(url, *forwarded)
    assert refusal.value.response.status_code == 503


PROXY_LIMITS = ("--relay-only", "--max-connections-per-address", "2", "--max-members-per-address", "1",
                "--join-timeout", "60")


@pytest.mark.parametrize("trusted", [(), ("--trusted-proxy", "192.0.2.0/24", "--trusted-proxy", "10.0.0.0/8")])
def test_x_forwarded_for_from_an_untrusted_peer_is_ignored(trusted):
    with serve.spawn(args=PROXY_LIMITS + trusted) as url:
        async def main():
            first = await for_client(url, "203.0.113.1")
            assert (await join_room(first, "room-spoofed-1"))["type"] == "joined"
            second = await for_client(url, "203.0.113.2")   # the same address, whatever it claims
            refusal = await join_room(second, "room-spoofed-1")
            assert refusal["code"] == "room-full" and "one address" in refusal["reason"]
            await refused_for(url, "203.0.113.3")
            await refused_for(url, "10.0.0.1, 192.0.2.1")     # even naming the trusted proxies
            for socket in (first, second):
                await socket.close()
        run(main())


def test_behind_a_trusted_proxy_the_limits_apply_to_the_client(tmp_path):
    log = tmp_path / "serve.log"
    args = PROXY_LIMITS + ("--trusted-proxy", "127.0.0.1/32")
    with log.open("w") as stream, serve.spawn(stderr=stream, args=args) as url:
        async def main():
            first = await for_client(url, "203.0.113.5")
            assert (await join_room(first, "room-proxied-1"))["type"] == "joined"
            second = await for_client(url, "203.0.113.5")
            assert (await join_room(second, "room-proxied-1"))["code"] == "room-full"
            await refused_for(url, "203.0.113.5")   # that client has its 2 connections open
            others = [await for_client(url, "198.51.100.7"),   # other clients are not
                      await for_client(url, "203.0.113.5, 198.51.100.8"),   # the left entry: the client's own claim
                      await for_client(url, "203.0.113.5", "198.51.100.9, 127.0.0.1")]   # over two lines
            for n, other in enumerate(others):
                assert (await join_room(other, "room-proxied-1"))["type"] == "joined", n
            bare = await for_client(url)   # no header: the proxy's own address
            assert (await join_room(bare, "room-proxied-1"))["type"] == "joined"
            await first.close()
            await asyncio.sleep(0.3)
            again = await for_client(url, "203.0.113.5")   # a place is free again
            for socket in (second, *others, bare, again):
                await socket.close()
        run(main())
    lines = log.read_text().splitlines()
    assert any(line.startswith("203.0.113.5 refused: 2 connections open") for line in lines), lines
    assert any(line.startswith('198.51.100.9 "GET /relay" 101') for line in lines), lines
    assert not any("203.0.113.5" in line and "198.51.100.8" in line for line in lines), lines


def test_a_bad_trusted_proxy_is_refused():
    done = subprocess.run([sys.executable, serve.__file__, "--trusted-proxy", "10.0.0/8x"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "not an address or a network" in done.stderr
