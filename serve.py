#!/usr/bin/env python3
"""Serve the Cribbage site from this repository, and the signalling relay for tables with friends.

    python serve.py [--host 127.0.0.1] [--port 8000] [--root DIR]    (--port 0: a free port)
    python serve.py --relay-only [--host 0.0.0.0] [--port 8000]       (just the relay)
    python serve.py --relay-only --redis redis://HOST:PORT/DB         (rooms shared by instances)
    python serve.py --relay-only --trusted-proxy 172.30.0.2           (clients named by that proxy)

Only the site's own files are served (`allowed`); anything else, including every path
traversal trick, is a 404. Files go out with explicit MIME types, `Cache-Control: no-cache`
and an ETag, so a reload revalidates instead of downloading Pyodide again; PyScript's
content-hashed chunks (web/vendor/pyscript/core-C9KDLldu.js) never change under their name
and are cached for a year (`immutable`). When a precompressed sibling of the file exists
(`x.wasm.br`, `x.wasm.gz`, written by scripts/vendor.py and scripts/build_dist.py) and the
client's Accept-Encoding allows it, the sibling is sent instead (brotli first), with
`Content-Encoding`, `Vary: Accept-Encoding` and its own ETag; nothing is compressed here.
`--root dist` serves a site built by scripts/build_dist.py: its service worker (sw.js) and
web app manifest sit at the root.

The file logic (`respond`) knows nothing about sockets, and the transport is a small
asyncio HTTP/1.1 server (one request per connection). A WebSocket upgrade of ``/relay``
is handed to the relay (`relay.py`'s job lives here too, see `Relay`): the `websockets`
library's Sans-I/O protocol runs on the same connection, so site and relay share one port.
`spawn` runs the server in a child process for tests and benchmarks. With ``--redis`` the
relay's rooms live in Redis, shared by every instance using it (`relay_redis.RedisRelay`, a
`Relay` whose rooms are scripts in Redis); the server drives either through the same
awaitable `Relay.handle` and `Relay.leave`. Connections per address are counted by
`Connections` (in Redis too: `relay_redis.SharedConnections`), for the address that
`client_address` finds: the peer's, or behind a ``--trusted-proxy`` the one it forwards.
"""

import argparse
import asyncio
import base64
import contextlib
import hashlib
import hmac
import ipaddress
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path, PurePosixPath
from typing import BinaryIO
from urllib.parse import unquote, urlsplit

from websockets.frames import CloseCode, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

ROOT = Path(__file__).resolve().parent
BANNER = "Cribbage is being served at "
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "application/toml; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}
# Precompressed siblings, in order of preference: (Accept-Encoding token, file suffix).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
NO_CACHE = "no-cache"
IMMUTABLE = "public, max-age=31536000, immutable"
# A bundler's content hash ends the name of PyScript's chunks: core-C9KDLldu.js, toml-Blg7Izee.js.
HASHED_CHUNK = re.compile(r"[a-z][a-z-]*-(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{8}\.js")
ROOT_FILES = ("index.html", "pyscript.toml", "sw.js", "manifest.webmanifest")
HEAD_TIMEOUT = 10.0  # seconds a client gets to send its request line and headers
MAX_HEADERS = 100
CHUNK_BYTES = 1 << 16  # a file goes out this much at a time, never read whole


@dataclass(frozen=True)
class Reply:
    """An HTTP response, independent of the transport that sends it. A file's reply carries
    its size and, for a GET, the open file: the first `size` bytes of it are the body, sent a
    chunk at a time by whoever sends the reply, who also closes it."""

    status: HTTPStatus
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    file: BinaryIO | None = None
    size: int | None = None

    @property
    def length(self) -> int:
        """The Content-Length."""
        return len(self.body) if self.size is None else self.size


NOT_FOUND = Reply(HTTPStatus.NOT_FOUND, {"Content-Type": "text/plain; charset=utf-8"}, b"Not found\n")
BUSY = Reply(HTTPStatus.SERVICE_UNAVAILABLE, {"Content-Type": "text/plain; charset=utf-8", "Retry-After": "5"},
             b"Too many connections from your address\n")


def allowed(rel: PurePosixPath) -> bool:
    """Whether a path relative to the root belongs to the site.

    sw.js and manifest.webmanifest exist only in a built dist/ (scripts/build_dist.py).

    >>> [allowed(PurePosixPath(p)) for p in ("index.html", "game/cards.py", "game/x.txt", "serve.py")]
    [True, True, False, False]
    """
    if len(rel.parts) == 1:
        return rel.name in ROOT_FILES
    top = rel.parts[0]
    return (
        top == "web" or (top == "game" and rel.suffix == ".py") or (top == "bench" and rel.suffix in (".html", ".toml"))
    )


def site_path(root: Path, target: str) -> Path | None:
    """The file a request target names, or None when it is not part of the site.

    Decodes the path once, refuses empty, dot and dot-dot segments, backslashes and NUL,
    then checks the real path (symlinks resolved) is still an allowed file under root.
    """
    path = urlsplit(target).path
    if not path.startswith("/"):
        return None
    try:
        text = unquote(path if path != "/" else "/index.html", errors="strict")
    except UnicodeDecodeError:
        return None
    parts = text.split("/")[1:]
    if any(not part or part.startswith(".") or "\\" in part or "\0" in part for part in parts):
        return None
    rel = PurePosixPath(*parts)
    if not allowed(rel):
        return None
    base = root.resolve()
    try:
        real = (base / rel).resolve(strict=True)
    except OSError:
        return None
    if not real.is_relative_to(base) or not real.is_file():
        return None
    return real if allowed(PurePosixPath(real.relative_to(base).as_posix())) else None


def accepts(header: str | None, coding: str) -> bool:
    """Whether an Accept-Encoding header allows a content coding: named with a q-value above
    0, or left to a `*` that is. No header allows none (the plain file, identity, is sent).

    >>> [accepts("gzip, deflate, br, zstd", c) for c in ("br", "gzip")], accepts(None, "gzip")
    ([True, True], False)
    >>> [accepts("gzip;q=0.5, br;q=0", c) for c in ("br", "gzip")], accepts("*;q=0.1, gzip;q=0", "br")
    ([False, True], True)
    """
    qualities = {}
    for item in (header or "").split(","):
        name, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name:
            qualities[name.lower()] = quality
    return qualities.get(coding, qualities.get("*", 0.0)) > 0


def variant(path: Path, accept_encoding: str | None) -> tuple[Path, str | None, bool]:
    """Which file answers for `path`: (file, its Content-Encoding or None, whether any
    precompressed sibling exists, so that the reply varies with Accept-Encoding).

    A sibling older than the file itself is stale, and a symlinked one might lead out of
    the site: neither is ever used.
    """
    source_mtime = path.stat().st_mtime_ns
    varies = False
    for token, suffix in ENCODINGS:
        sibling = path.with_name(path.name + suffix)
        try:
            stat = sibling.stat()
        except OSError:
            continue
        if sibling.is_symlink() or not sibling.is_file() or stat.st_mtime_ns < source_mtime:
            continue
        varies = True
        if accepts(accept_encoding, token):
            return sibling, token, True
    return path, None, varies


def cache_control(rel: PurePosixPath) -> str:
    """A year, immutable, for PyScript's content-hashed chunks; revalidation for the rest.

    >>> cache_control(PurePosixPath("web/vendor/pyscript/core-C9KDLldu.js")) == IMMUTABLE
    True
    >>> [cache_control(PurePosixPath(p)) for p in ("web/vendor/pyscript/core.js", "web/vendor/pyodide/pyodide.mjs")]
    ['no-cache', 'no-cache']
    """
    versioned = rel.parts[:3] == ("web", "vendor", "pyscript") and len(rel.parts) == 4
    return IMMUTABLE if versioned and HASHED_CHUNK.fullmatch(rel.name) else NO_CACHE


def etag_matches(header: str | None, etag: str) -> bool:
    """Whether If-None-Match names `etag` (weak comparison, lists and * allowed)."""
    if not header:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in tags or etag in tags


def respond(root: Path, method: str, target: str, headers: Mapping[str, str]) -> Reply:
    """Answer one request for a static file; `headers` has lower-case names.

    The file is opened first and described from the open file, so that its ETag, length and
    body agree even if it is replaced meanwhile; a GET's reply keeps it open (see `Reply`).
    """
    if method not in ("GET", "HEAD"):
        return Reply(HTTPStatus.METHOD_NOT_ALLOWED, {"Allow": "GET, HEAD"})
    path = site_path(root, target)
    if path is None:
        return NOT_FOUND
    rel = PurePosixPath(path.relative_to(root.resolve()).as_posix())
    try:
        sent, coding, varies = variant(path, headers.get("accept-encoding"))
        stream = sent.open("rb")
    except OSError:
        return NOT_FOUND
    stat = os.fstat(stream.fileno())
    tag = f"{stat.st_mtime_ns:x}-{stat.st_size:x}" + (f"-{coding}" if coding else "")
    cache = {"Cache-Control": cache_control(rel), "ETag": f'"{tag}"'}
    if varies:
        cache["Vary"] = "Accept-Encoding"
    if rel == PurePosixPath("sw.js"):
        cache["Service-Worker-Allowed"] = "/"
    if etag_matches(headers.get("if-none-match"), cache["ETag"]):
        stream.close()
        return Reply(HTTPStatus.NOT_MODIFIED, cache)
    content_type = MIME_TYPES.get(path.suffix, "application/octet-stream")
    encoding = {"Content-Encoding": coding} if coding else {}
    if method == "HEAD":
        stream.close()
        stream = None
    return Reply(HTTPStatus.OK, {"Content-Type": content_type, **encoding, **cache}, file=stream, size=stat.st_size)


async def read_head(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
    """Read a request line and headers: (method, target, headers, the raw bytes read);
    None if the client sent nothing.

    Raises ValueError when they are malformed or too long.
    """
    line = await reader.readline()
    if not line:
        return None
    raw = [line]
    method, target, version = line.decode("latin-1").split()
    if not version.startswith("HTTP/1."):
        raise ValueError(version)
    headers = {}
    for _ in range(MAX_HEADERS):
        line = await reader.readline()
        raw.append(line)
        line = line.decode("latin-1").strip()
        if not line:
            return method, target, headers, b"".join(raw)
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name in headers and name == "x-forwarded-for":   # one list, over several lines
            value = headers[name] + ", " + value
        headers[name] = value
    raise ValueError("too many headers")


async def answer(root: Path | None, reader: asyncio.StreamReader,
                 relay_on: bool = True) -> tuple[str, str, dict[str, str], Reply | bytes] | None:
    """Read one request and work out its reply: (method, target, headers, reply), where the
    reply is the raw request head (bytes) when it asks for the relay's WebSocket.

    None when there is nothing to answer: a socket the browser opened ahead of time and
    left idle or closed, or a client that went away. ``root`` None serves no files.
    """
    try:
        async with asyncio.timeout(HEAD_TIMEOUT):
            head = await read_head(reader)
    except (TimeoutError, ConnectionError):
        return None
    except ValueError:
        return "-", "-", {}, Reply(HTTPStatus.BAD_REQUEST)
    if head is None:
        return None
    method, target, headers, raw = head
    if "websocket" in headers.get("upgrade", "").lower():
        if relay_on and method == "GET" and urlsplit(target).path == RELAY_PATH:
            return method, target, headers, raw
        return method, target, headers, NOT_FOUND
    if root is None:
        return method, target, headers, relay_only_reply(method, target)
    return method, target, headers, await asyncio.to_thread(respond, root, method, target, headers)


def relay_only_reply(method: str, target: str) -> Reply:
    """What a relay-only server says to plain HTTP: a line at /, 404 elsewhere."""
    if method not in ("GET", "HEAD"):
        return Reply(HTTPStatus.METHOD_NOT_ALLOWED, {"Allow": "GET, HEAD"})
    if urlsplit(target).path != "/":
        return NOT_FOUND
    return Reply(HTTPStatus.OK, {"Content-Type": "text/plain; charset=utf-8"},
                 b"Cribbage signalling relay: connect a WebSocket to /relay\n")


class Log:
    """Log lines on stderr, at most ``per_minute`` a minute of one kind from one address.
    How many were left out is said when the next line is logged after that minute.
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.per_minute = per_minute
        self.clock = clock
        self.started = clock()
        self.counts: Counter = Counter()   # (address, kind) -> lines this minute

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
    A `relay_redis.SharedConnections` counts them across the instances sharing a Redis.

    >>> connections = Connections(1)
    >>> first = asyncio.run(connections.acquire("1.2.3.4"))
    >>> asyncio.run(connections.acquire("1.2.3.4")), asyncio.run(connections.acquire("5.6.7.8")) is None
    (None, False)
    >>> asyncio.run(connections.release(first)); connections.open["1.2.3.4"]
    0
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.open: Counter = Counter()   # address -> connections open here

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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as a socket or an X-Forwarded-For entry gives it (a port or brackets
    around an IPv6 address allowed, an IPv4 address mapped into IPv6 unmapped); None if it
    is not one.

    >>> [str(ip(t)) for t in ("203.0.113.9", "203.0.113.9:4711", "[2001:db8::1]:443", "::ffff:10.0.0.1", "x")]
    ['203.0.113.9', '203.0.113.9', '2001:db8::1', '10.0.0.1', 'None']
    """
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address


def within(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None, networks: tuple[Network, ...]) -> bool:
    """Whether an address (None: not one) lies in one of the networks."""
    return address is not None and any(address in net for net in networks)


def client_address(peer: str, forwarded: str | None, trusted: tuple[Network, ...]) -> str:
    """The address a request comes from: the peer's, unless the peer is a trusted proxy
    (``trusted``, `--trusted-proxy`); then the right-most X-Forwarded-For entry that is not a
    trusted proxy's. Each proxy appends the address it got the request from, so what lies
    left of that entry was written by the client itself and proves nothing; a header from
    anyone else is ignored. A malformed entry stops the walk at the last hop vouched for.

    >>> nets = (ipaddress.ip_network("10.0.0.0/8"),)
    >>> client_address("10.0.0.2", "203.0.113.9", nets)
    '203.0.113.9'
    >>> client_address("10.0.0.2", "1.1.1.1, 203.0.113.9, 10.0.0.7", nets)   # 1.1.1.1: the client's claim
    '203.0.113.9'
    >>> client_address("198.51.100.4", "203.0.113.9", nets)   # not from a trusted proxy: ignored
    '198.51.100.4'
    >>> client_address("10.0.0.2", None, nets), client_address("10.0.0.2", "203.0.113.9, junk", nets)
    ('10.0.0.2', '10.0.0.2')
    """
    hop = ip(peer)
    if not within(hop, trusted):
        return peer
    for entry in reversed((forwarded or "").split(",")):
        address = ip(entry)
        if address is None:
            break
        hop = address
        if not within(hop, trusted):
            break
    return str(hop)


@dataclass(eq=False)
class Server:
    """What every connection shares: the site's root (None: no files), the relay (None: no
    relay), the limits, the log, the connections open per address, and the networks of the
    proxies trusted to say whom a connection is for (X-Forwarded-For)."""

    root: Path | None
    relay: "Relay | None"
    limits: "Limits"
    log: Log
    connections: Connections
    trusted: tuple[Network, ...] = ()

    def proxied(self, peer: str) -> bool:
        """Whether ``peer`` is a trusted proxy: its connections carry other clients'."""
        return within(ip(peer), self.trusted)


async def handle(server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Take one connection, unless its address has too many open already: then it gets a 503
    at once, without a word read from it. A trusted proxy's connection is counted for the
    client it names, once its request head has been read (`serve_connection`)."""
    peer = (writer.get_extra_info("peername") or ("-",))[0]
    if server.proxied(peer):
        return await serve_connection(server, reader, writer, peer)
    ticket = await server.connections.acquire(peer)
    if ticket is None:
        return refuse_busy(server, writer, peer)
    try:
        await serve_connection(server, reader, writer, peer, ticket)
    finally:
        await server.connections.release(ticket)


def refuse_busy(server: Server, writer: asyncio.StreamWriter, address: str) -> None:
    """Answer 503 to a connection from an address that has too many open, and close it."""
    server.log(address, "busy", f"{address} refused: {server.connections.limit} connections open")
    writer.write(reply_head(BUSY) + BUSY.body)
    writer.close()


async def serve_connection(server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                           peer: str, ticket: Ticket | None = None) -> None:
    """Serve one request on a connection, log it in one line, then close the connection;
    or hand a relay upgrade to the relay for the connection's lifetime. Without a
    ``ticket``, the connection comes from a trusted proxy: it is counted here, for the
    client that X-Forwarded-For names."""
    answered = await answer(server.root, reader, server.relay is not None)
    if answered is None:
        writer.close()
        return
    method, target, headers, reply = answered
    if ticket is not None:
        return await send_answer(server, writer, reader, peer, method, target, reply)
    client = client_address(peer, headers.get("x-forwarded-for"), server.trusted)
    ticket = await server.connections.acquire(client)
    if ticket is None:
        if isinstance(reply, Reply) and reply.file:
            reply.file.close()
        return refuse_busy(server, writer, client)
    try:
        await send_answer(server, writer, reader, client, method, target, reply)
    finally:
        await server.connections.release(ticket)


async def send_answer(server: Server, writer: asyncio.StreamWriter, reader: asyncio.StreamReader, address: str,
                      method: str, target: str, reply: "Reply | bytes") -> None:
    """Send a request's reply and log it, or run the relay's WebSocket (``reply``: the
    request's head) for a client at ``address``."""
    if isinstance(reply, bytes):
        await relay_connection(server.relay, reply, reader, writer, address)
        return
    outcome = ""
    try:
        await send_reply(writer, method, reply, server.limits.write_timeout)
        async with asyncio.timeout(server.limits.write_timeout):
            writer.close()
            await writer.wait_closed()
    except (OSError, TimeoutError) as error:   # ConnectionError is an OSError
        writer.transport.abort()
        outcome = " (cut short: " + ("not reading)" if isinstance(error, TimeoutError) else "connection lost)")
    finally:
        if reply.file:
            reply.file.close()
    server.log(address, str(reply.status.value),
               f'{address} "{method} {target}" {reply.status.value} {reply.length}{outcome}')


def reply_head(reply: Reply) -> bytes:
    """A reply's status line and headers."""
    lines = [f"HTTP/1.1 {reply.status.value} {reply.status.phrase}"]
    lines += [f"{name}: {value}" for name, value in reply.headers.items()]
    lines += ["X-Content-Type-Options: nosniff", f"Content-Length: {reply.length}", "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


async def send_reply(writer: asyncio.StreamWriter, method: str, reply: Reply, timeout: float) -> None:
    """Write a reply: its head, then (but for HEAD) its body, a file a chunk at a time.

    At most a chunk or so waits in memory for a client: each one must be taken within
    ``timeout`` seconds, or TimeoutError.
    """
    writer.write(reply_head(reply))
    if method != "HEAD":
        writer.write(reply.body)
    left = reply.length if reply.file else 0   # a HEAD's reply has no file (`respond`)
    while left > 0:
        chunk = await asyncio.to_thread(reply.file.read, min(CHUNK_BYTES, left))
        if not chunk:   # the file shrank since it was opened: the client sees a short body
            break
        left -= len(chunk)
        writer.write(chunk)
        async with asyncio.timeout(timeout):
            await writer.drain()
    async with asyncio.timeout(timeout):
        await writer.drain()


async def serve(host: str, port: int, root: Path | None = ROOT, limits: "Limits | None" = None,
                relay_on: bool = True, turn: "Turn | None" = None, redis: str | None = None,
                redis_expiry: float = 6.0, trusted: tuple[Network, ...] = ()) -> None:
    """Serve until SIGINT or SIGTERM, after printing the banner line with the real port.
    ``root`` None runs only the relay; ``relay_on`` False serves only files, as a plain static
    host does (friends then connect with invites by code). ``turn``: the relay hands out
    credentials for these TURN servers. ``redis``: the rooms, and the connections open per
    address, live in that Redis, shared with every other instance using it (`relay_redis`);
    else in this process's memory. ``trusted``: the networks of proxies whose
    X-Forwarded-For names the client (`client_address`)."""
    limits = limits or Limits()
    log = Log(limits.max_log_lines)
    relay = None
    connections = Connections(limits.max_connections_per_address)
    if relay_on and redis:
        sys.modules.setdefault("serve", sys.modules[__name__])   # run as a script: relay_redis imports this
        import relay_redis   # only here: the redis package is needed only with --redis

        relay = relay_redis.RedisRelay(limits, redis, log=log, turn=turn, expiry=redis_expiry)
        connections = relay_redis.SharedConnections(relay)
    elif relay_on:
        relay = Relay(limits, log=log, turn=turn)
    if relay is not None:
        await relay.start()
    try:
        await serve_until_stopped(Server(root, relay, limits, log, connections, trusted), host, port)
    finally:
        if relay is not None:
            await relay.stop()


async def serve_until_stopped(shared: Server, host: str, port: int) -> None:
    """Listen, print the banner, and serve until SIGINT or SIGTERM."""
    server = await asyncio.start_server(lambda r, w: handle(shared, r, w), host, port, limit=16384)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    bound = server.sockets[0].getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"{BANNER}http://{shown}:{bound}/", flush=True)
    async with server:
        await stop.wait()


# ---- the signalling relay ------------------------------------------------------------------
#
# Members of a room exchange opaque text payloads (WebRTC offers, answers and candidates, as
# the browser builds them). The relay never reads them, never stores them, and forgets a
# room when its last member leaves. Every message, both ways, is one JSON object:
#
#   client -> relay   {"type": "join", "room": ROOM}           first and once
#                     {"type": "send", "to": ID | null, "data": TEXT}   null: every other member
#                     {"type": "ice"}                          ask for TURN credentials (`Turn`)
#   relay -> client   {"type": "joined", "id": ID, "peers": [ID, ...], "ice": BOOL}
#                     {"type": "ice", "iceServers": [{"urls": [URL, ...], "username": U,
#                      "credential": C}], "ttl": SECONDS}      [] and 0 without TURN
#                     {"type": "peer-joined", "id": ID}   {"type": "peer-left", "id": ID}
#                     {"type": "from", "from": ID, "data": TEXT}
#                     {"type": "error", "code": CODE, "reason": TEXT}
#
# "ice": true in `joined` says TURN is configured, so asking is worth it. A refused message
# changes nothing and gets an error reply; the connection stays open except for `bad-frame`
# (binary data), `slow` (a client that does not read), `flood` (far over the rate), a
# socket that has not joined a room in time, and `relay-down` (a relay sharing its rooms
# through Redis lost Redis: close 1013; the client reconnects, and meanwhile is answered 503).

RELAY_PATH = "/relay"
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
LIMIT_HELP = {
    "max_payload": "largest relay message, in characters",
    "max_members": "members per room",
    "max_rate": "messages per second per connection (bursts of twice that)",
    "max_over_rate": "messages over that rate within a second that disconnect a relay member",
    "max_rooms_per_address": "rooms one IP address may be in at once",
    "max_ice_per_minute": "TURN credential requests per relay member a minute",
    "max_members_per_address": "members of one room from one IP address",
    "max_connections_per_address": "connections (HTTP and WebSocket) one IP address may have open at once",
    "join_timeout": "seconds a relay WebSocket has to join a room before it is closed",
    "write_timeout": "seconds a client may take to read each 64 KiB of a file before it is cut off",
    "max_log_lines": "log lines a minute of one kind (a status, a refusal) from one address; the rest are counted",
}
PING_EVERY = 25.0            # seconds of silence before the relay pings a client
CLOSE_WAIT = 2.0             # seconds a client has to close its side after the relay closed
SLOW_CLIENT_BYTES = 1 << 20  # a client this far behind in reading is disconnected


@dataclass(frozen=True)
class Limits:
    """The server's limits, each a command-line option (`LIMIT_HELP`). A message the relay
    refuses gets an error with the reason."""

    max_payload: int = 16_384
    max_members: int = 8
    max_rate: float = 20.0
    max_over_rate: int = 100
    max_rooms_per_address: int = 20
    max_ice_per_minute: int = 5
    max_members_per_address: int = 4
    max_connections_per_address: int = 100
    join_timeout: float = 5.0
    write_timeout: float = 30.0
    max_log_lines: int = 100


@dataclass(eq=False)
class Member:
    """One relay connection: its address, its room once joined, its message budget."""

    address: str
    send: Callable[[str], None]
    id: str = ""
    room: str | None = None
    tokens: float = 0.0
    refilled: float = 0.0
    throttled: float = float("-inf")   # when it was last told it is over the rate
    dropped: int = 0                   # messages over the rate since then
    asked_ice: list[float] = field(default_factory=list)   # when it asked for TURN credentials
    closing: str = ""                  # why the relay closes this connection ("": it stays)
    hang_up: Callable[[str], None] | None = None   # closes the connection now (1013), telling why


@dataclass(frozen=True)
class Turn:
    """TURN servers that share a secret with the relay (coturn's `use-auth-secret`), for which
    it makes short-lived credentials by the TURN REST scheme."""

    urls: tuple[str, ...]
    secret: bytes
    ttl: int = 3600
    clock: Callable[[], float] = time.time

    def server(self, label: str) -> dict:
        """One RTCIceServer valid for ttl seconds from now: the username is
        "<unix expiry>:<label>", the credential base64(HMAC-SHA1(secret, username)).

        >>> Turn(("turn:turn.example:3478",), b"secret", 60, clock=lambda: 1000.9).server("ab12")
        {'urls': ['turn:turn.example:3478'], 'username': '1060:ab12', 'credential': 'S39SAHZjidl0kO+dUkFHPcPyq2M='}
        """
        username = f"{int(self.clock()) + self.ttl}:{label}"
        digest = hmac.new(self.secret, username.encode(), hashlib.sha1).digest()
        return {"urls": list(self.urls), "username": username, "credential": base64.b64encode(digest).decode()}


class Relay:
    """Rooms of members forwarding opaque payloads; no sockets here, so it is tested directly.

    >>> relay, got = Relay(Limits()), []
    >>> a, b = relay.connect("1.2.3.4", got.append), relay.connect("1.2.3.4", got.append)
    >>> relay.receive(a, '{"type": "join", "room": "room-0001"}')
    >>> relay.receive(b, '{"type": "join", "room": "room-0001"}')
    >>> relay.receive(b, '{"type": "send", "to": null, "data": "hi"}')
    >>> json.loads(got[-1])["data"], len(relay.rooms["room-0001"])
    ('hi', 2)
    >>> relay.disconnect(a); relay.disconnect(b); relay.rooms
    {}
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic, log: Log | None = None,
                 turn: Turn | None = None):
        self.limits = limits
        self.clock = clock
        self.log = log or Log(limits.max_log_lines, clock)
        self.turn = turn
        self.rooms: dict[str, dict[str, Member]] = {}
        self.by_address: dict[str, Counter] = {}   # address -> room -> members from there
        self.stats = Counter()

    def connect(self, address: str, send: Callable[[str], None],
                hang_up: Callable[[str], None] | None = None) -> Member:
        now = self.clock()
        return Member(address, send, tokens=2 * self.limits.max_rate, refilled=now, hang_up=hang_up)

    def receive(self, member: Member, text: str) -> None:
        """Handle one message from ``member``; refusals are error replies. Every message counts
        against the member's rate, too big or malformed ones included."""
        parsed = self.parse(member, text)
        if parsed is not None:
            kind, args = parsed
            getattr(self, kind)(member, *args)

    async def handle(self, member: Member, text: str) -> None:
        """`receive`, as the server's connections call it (a shared backend awaits Redis)."""
        self.receive(member, text)

    async def leave(self, member: Member) -> None:
        """`disconnect`, as the server's connections call it."""
        self.disconnect(member)

    async def start(self) -> None:
        """Get ready before the server listens (nothing to do in memory)."""

    async def stop(self) -> None:
        """Let go of everything once the server has stopped (nothing to do in memory)."""

    def unjoined(self, member: Member) -> bool:
        """Whether a member has neither joined a room nor asked to (the join timeout's test)."""
        return member.room is None

    @property
    def available(self) -> bool:
        """Whether the relay can take members now (a shared backend cannot while Redis is down)."""
        return True

    def parse(self, member: Member, text: str, charged: bool = False) -> tuple[str, tuple] | None:
        """What a message asks for, checked against everything but the rooms: ("join",
        (room,)), ("forward", (to, data)) or ("ice", ()); None when it was refused (with an
        error reply) or was over the rate (``charged``: it was counted already)."""
        if not charged and not self.spend(member):
            return self.over_rate(member)
        if len(text) > self.limits.max_payload:
            return self.refuse(member, "too-big", f"messages are at most {self.limits.max_payload} characters")
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            return self.refuse(member, "bad-message", "not JSON")
        if not isinstance(message, dict):
            return self.refuse(member, "bad-message", "a message is a JSON object")
        kind = message.get("type")
        if kind == "join" and set(message) == {"type", "room"}:
            room = message["room"]
            if member.room is not None:
                return self.refuse(member, "bad-message", "already in a room")
            if not isinstance(room, str) or not ROOM_ID.fullmatch(room):
                return self.refuse(member, "bad-room", "a room id is 8 to 64 letters, digits, - or _")
            return "join", (room,)
        if kind == "send" and set(message) == {"type", "to", "data"}:
            to, data = message["to"], message["data"]
            if member.room is None:
                return self.refuse(member, "bad-message", "join a room first")
            if not isinstance(data, str) or not (to is None or isinstance(to, str)):
                return self.refuse(member, "bad-message", "send {to: id or null, data: text}")
            return "forward", (to, data)
        if kind == "ice" and set(message) == {"type"}:
            return "ice", ()
        return self.refuse(member, "bad-message", "expected join {room}, send {to, data} or ice")

    def spend(self, member: Member) -> bool:
        """Token bucket: max_rate a second, bursts of twice that."""
        now = self.clock()
        rate = self.limits.max_rate
        member.tokens = min(2 * rate, member.tokens + (now - member.refilled) * rate)
        member.refilled = now
        if member.tokens < 1:
            return False
        member.tokens -= 1
        return True

    def over_rate(self, member: Member) -> None:
        """Drop a message over the member's rate, and say so at most once a second. More than
        max_over_rate dropped in the second after saying so is a flood: the member is to be
        disconnected (`Member.closing`)."""
        self.stats["dropped-rate"] += 1
        now = self.clock()
        if now - member.throttled >= 1.0:
            member.throttled, member.dropped = now, 0
            self.refuse(member, "rate", f"at most {self.limits.max_rate:g} messages a second")
        member.dropped += 1
        if member.dropped > self.limits.max_over_rate and not member.closing:
            member.closing = "flood: too many messages over the rate"
            self.stats["closed-flood"] += 1
            self.log(member.address, "flood", f"relay: {member.address} disconnected ({member.closing})")

    def join(self, member: Member, room: str) -> None:
        members = self.rooms.get(room, {})
        if len(members) >= self.limits.max_members:
            return self.refuse(member, "room-full", f"a room holds at most {self.limits.max_members} members")
        mine = self.by_address.get(member.address, Counter())
        if mine[room] >= self.limits.max_members_per_address:   # friends elsewhere keep their seats
            return self.refuse(member, "room-full", f"at most {self.limits.max_members_per_address} members "
                               "of a room may come from one address")
        if room not in mine and len(mine) >= self.limits.max_rooms_per_address:
            return self.refuse(member, "too-many-rooms",
                               f"one address may be in at most {self.limits.max_rooms_per_address} rooms")
        member.id = secrets.token_hex(6)
        while member.id in members:
            member.id = secrets.token_hex(6)
        member.room = room
        self.rooms[room] = members
        self.by_address[member.address] = mine
        mine[room] += 1
        peers = list(members)
        members[member.id] = member
        self.stats["joins"] += 1
        self.reply(member, {"type": "joined", "id": member.id, "peers": peers, "ice": self.turn is not None})
        self.tell_others(member, {"type": "peer-joined", "id": member.id})

    def forward(self, member: Member, to: str | None, data: str) -> None:
        text = json.dumps({"type": "from", "from": member.id, "data": data})
        members = self.rooms[member.room]
        if to is None:
            for other in list(members.values()):
                if other is not member:
                    other.send(text)
        elif to in members and to != member.id:
            members[to].send(text)
        else:
            return self.refuse(member, "no-peer", "no such member in this room")
        self.stats["forwarded"] += 1

    def ice(self, member: Member) -> None:
        """Answer a member's request for ICE servers: TURN credentials (none without TURN),
        at most max_ice_per_minute times a minute, and only to a member of a room."""
        if member.room is None:
            return self.refuse(member, "not-joined", "join a room before asking for ICE servers")
        now = self.clock()
        member.asked_ice = [when for when in member.asked_ice if now - when < 60]
        if len(member.asked_ice) >= self.limits.max_ice_per_minute:
            return self.refuse(member, "rate", f"at most {self.limits.max_ice_per_minute} ICE requests a minute")
        member.asked_ice.append(now)
        servers = [self.turn.server(member.id)] if self.turn else []
        self.reply(member, {"type": "ice", "iceServers": servers, "ttl": self.turn.ttl if self.turn else 0})

    def disconnect(self, member: Member) -> None:
        room = member.room
        if room is None:
            return
        member.room = None
        members = self.rooms.get(room, {})
        members.pop(member.id, None)
        if not members:
            self.rooms.pop(room, None)   # an empty room is forgotten at once
        mine = self.by_address.get(member.address)
        if mine is not None:
            mine[room] -= 1
            if mine[room] <= 0:
                del mine[room]
            if not mine:
                del self.by_address[member.address]
        for other in list(members.values()):
            self.reply(other, {"type": "peer-left", "id": member.id})

    def tell_others(self, member: Member, message: dict) -> None:
        for other in list(self.rooms[member.room].values()):
            if other is not member:
                self.reply(other, message)

    def reply(self, member: Member, message: dict) -> None:
        member.send(json.dumps(message))

    def refuse(self, member: Member, code: str, reason: str) -> None:
        self.stats["refused-" + code] += 1
        self.log(member.address, code, f"relay: {member.address} refused ({code}): {reason}")
        self.reply(member, {"type": "error", "code": code, "reason": reason})


async def relay_connection(relay: Relay, head: bytes, reader: asyncio.StreamReader,
                           writer: asyncio.StreamWriter, address: str) -> None:
    """Run one relay WebSocket on an HTTP connection whose request ``head`` was read already.

    The `websockets` Sans-I/O protocol does the handshake and the framing; this loop moves
    bytes between it and the socket, and messages between it and the `Relay`.
    """
    protocol = ServerProtocol(max_size=4 * relay.limits.max_payload)
    transport = writer.transport

    def flush() -> None:
        for data in protocol.data_to_send():
            if data:
                writer.write(data)
            elif writer.can_write_eof():
                writer.write_eof()

    def send(text: str) -> None:
        if protocol.state is not State.OPEN:
            return
        if transport.get_write_buffer_size() > SLOW_CLIENT_BYTES:
            protocol.fail(CloseCode.POLICY_VIOLATION, "slow: not reading")
        else:
            protocol.send_text(text.encode())
        flush()

    def hang_up(reason: str) -> None:
        if protocol.state is State.OPEN:
            protocol.fail(CloseCode.TRY_AGAIN_LATER, reason)
            flush()

    protocol.receive_data(head)
    events = protocol.events_received()
    request = events[0] if events and isinstance(events[0], Request) else None
    if request is None:
        response = protocol.reject(HTTPStatus.BAD_REQUEST, "Bad request\n")
    elif not relay.available:   # a shared relay whose Redis is down: the page says the relay is down
        response = protocol.reject(HTTPStatus.SERVICE_UNAVAILABLE, "The relay is down; try again later\n")
    else:
        response = protocol.accept(request)
    protocol.send_response(response)
    flush()
    relay.log(address, "relay", f'{address} "GET {RELAY_PATH}" {response.status_code} -')
    if response.status_code != 101:
        writer.close()
        return
    member = relay.connect(address, send, hang_up)
    loop = asyncio.get_running_loop()
    join_by = loop.time() + relay.limits.join_timeout
    parts: list[bytes] = []
    pinged = False
    try:
        while protocol.state is State.OPEN or protocol.state is State.CLOSING:
            unjoined = relay.unjoined(member)
            if unjoined and loop.time() >= join_by:
                protocol.fail(CloseCode.POLICY_VIOLATION, "join a room first")
                break
            try:
                async with asyncio.timeout(min(PING_EVERY, join_by - loop.time()) if unjoined else PING_EVERY):
                    data = await reader.read(65536)
            except TimeoutError:
                if unjoined:     # the check above closes it, or waits out the rest
                    continue
                if pinged:       # silent through a whole ping: gone
                    break
                protocol.send_ping(b"relay")
                flush()
                pinged = True
                continue
            pinged = False
            if not data:
                protocol.receive_eof()
                flush()
                break
            protocol.receive_data(data)
            for event in protocol.events_received():
                if event.opcode is Opcode.TEXT or (event.opcode is Opcode.CONT and parts):
                    parts.append(event.data)
                    if sum(map(len, parts)) > 4 * relay.limits.max_payload:
                        protocol.fail(CloseCode.MESSAGE_TOO_BIG, "message too big")
                        break
                    if event.fin:
                        text, parts = b"".join(parts), []
                        try:
                            await relay.handle(member, text.decode())
                        except UnicodeDecodeError:
                            protocol.fail(CloseCode.INVALID_DATA, "not UTF-8")
                        if member.closing:
                            protocol.fail(CloseCode.POLICY_VIOLATION, member.closing)
                            break
                elif event.opcode in (Opcode.BINARY, Opcode.CONT):
                    protocol.fail(CloseCode.UNSUPPORTED_DATA, "bad-frame: text messages only")
            flush()
            if protocol.close_expected():
                break
    except (ConnectionError, OSError):
        pass
    finally:
        await relay.leave(member)
        with contextlib.suppress(ConnectionError, OSError):
            flush()
            if protocol.close_expected():
                await discard_until_eof(reader)
            writer.close()
            await writer.wait_closed()


async def discard_until_eof(reader: asyncio.StreamReader) -> None:
    """After the relay closed a WebSocket, drop what the client still sends until it closes
    its side (at most CLOSE_WAIT seconds): closing a socket with unread data resets it, and
    the client would lose the close frame that says why."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(CLOSE_WAIT):
            while await reader.read(65536):
                pass


@contextlib.contextmanager
def spawn(root: Path = ROOT, stderr=subprocess.DEVNULL, port: int = 0, args: tuple[str, ...] = ()) -> Iterator[str]:
    """Run this server in a child process on a loopback port (0: a free one); yield its base URL.
    ``args`` are extra command-line arguments (relay limits, ``--relay-only``, ``--no-relay``)."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--root", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    try:
        line = child.stdout.readline()
        if not line.startswith(BANNER):
            raise RuntimeError(f"serve.py did not start (exit code {child.poll()}): {line!r}")
        yield line[len(BANNER) :].strip()
    finally:
        child.terminate()
        child.wait(timeout=10)
        child.stdout.close()


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(description="Serve the Cribbage site.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind; 0 picks a free one (default 8000)")
    parser.add_argument("--root", type=Path, default=ROOT, help="site directory (default: this repository)")
    parser.add_argument("--relay-only", action="store_true", help="serve only the signalling relay, no files")
    parser.add_argument("--no-relay", action="store_true",
                        help="serve only the files, like a plain static host (friends invite by code)")
    defaults = Limits()
    for name, help_text in LIMIT_HELP.items():
        parser.add_argument("--" + name.replace("_", "-"), type=type(getattr(defaults, name)),
                            default=getattr(defaults, name), help=f"{help_text} (default %(default)s)")
    parser.add_argument("--turn-url", action="append", default=[], metavar="URL",
                        help="a TURN server sharing --turn-secret, e.g. turn:turn.example:3478?transport=udp "
                             "or turns:turn.example:5349 (repeatable)")
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument("--turn-secret", help="coturn's static-auth-secret (visible in ps: prefer --turn-secret-file)")
    secret.add_argument("--turn-secret-file", type=Path, help="a file holding coturn's static-auth-secret")
    parser.add_argument("--turn-ttl", type=int, default=3600,
                        help="seconds the TURN credentials handed out stay valid (default %(default)s)")
    parser.add_argument("--redis", metavar="URL",
                        help="share the relay's rooms with other instances through this Redis, "
                             "e.g. redis://127.0.0.1:6379/0 (default: rooms in this process's memory)")
    parser.add_argument("--redis-expiry", type=float, default=6.0, metavar="SECONDS",
                        help="seconds after which the members of an instance that stopped answering "
                             "are given up for dead by the others (default %(default)s)")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="CIDR", type=network,
                        help="a proxy's address or network (e.g. 172.30.0.0/24; repeatable) whose "
                             "X-Forwarded-For header says which client a connection is for, so that the "
                             "per-address limits apply to the client; anyone else's header is ignored")
    args = parser.parse_args(argv)
    limits = Limits(**{name: getattr(args, name) for name in LIMIT_HELP})
    if args.relay_only and args.no_relay:
        parser.error("--relay-only and --no-relay leave nothing to serve")
    turn = turn_from(args, parser)
    if turn and args.no_relay:
        parser.error("--turn-url needs the relay: its members get the credentials")
    if args.redis and args.no_relay:
        parser.error("--redis needs the relay: it holds the relay's rooms")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        parser.error("--redis takes a URL: redis://HOST:PORT/DB, rediss://... (TLS) or unix:///PATH")
    if args.redis_expiry < 1:
        parser.error("--redis-expiry must be at least 1 second")
    asyncio.run(serve(args.host, args.port, None if args.relay_only else args.root, limits, not args.no_relay, turn,
                      args.redis, args.redis_expiry, tuple(args.trusted_proxy)))


def network(text: str) -> Network:
    """A --trusted-proxy: an address (one host) or a network in CIDR notation.

    >>> network("10.0.0.5"), network("172.30.0.0/24"), network("fd00::/8")
    (IPv4Network('10.0.0.5/32'), IPv4Network('172.30.0.0/24'), IPv6Network('fd00::/8'))
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an address or a network (CIDR): {text!r}") from None


def turn_from(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Turn | None:
    """The TURN servers the command line names, with their secret; None when it names none."""
    try:
        secret = args.turn_secret_file.read_text().strip() if args.turn_secret_file else args.turn_secret
    except OSError as error:
        parser.error(f"--turn-secret-file: {error}")
    if not args.turn_url and not secret:
        return None
    if not args.turn_url or not secret:
        parser.error("TURN needs both --turn-url and a secret (--turn-secret or --turn-secret-file)")
    if bad := [url for url in args.turn_url if not url.startswith(("turn:", "turns:"))]:
        parser.error(f"--turn-url must start with turn: or turns: ({', '.join(bad)})")
    if args.turn_ttl <= 0:
        parser.error("--turn-ttl must be positive")
    return Turn(tuple(args.turn_url), secret.encode(), args.turn_ttl)


if __name__ == "__main__":
    main()
