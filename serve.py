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
is handed to the signalling relay (the `relay` package: `relay.websocket` runs the
`websockets` library's Sans-I/O protocol on the same connection, so site and relay share
one port). `spawn` runs the server in a child process for tests and benchmarks. The rooms
live in this process (`relay.rooms.Relay`) or, with ``--redis``, in Redis, shared by every
instance using it (`relay.shared.RedisRelay`); the server drives either through the same
awaitable `Relay.handle` and `Relay.leave`. Connections per address are counted by
`relay.limits.Connections` (with ``--redis`` across instances: `relay.shared.SharedConnections`),
for the address that `relay.addresses.client_address` finds: the peer's, or behind a
``--trusted-proxy`` the one that proxy forwards.
"""

import argparse
import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO
from urllib.parse import unquote, urlsplit

from relay.addresses import Network, client_address, ip, network, within
from relay.limits import LIMIT_HELP, Connections, Limits, Log, Ticket
from relay.rooms import Relay, Turn
from relay.websocket import RELAY_PATH, relay_connection

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
    return Reply(HTTPStatus.OK, {"Content-Type": content_type, **encoding, **cache},
                 file=None if method == "HEAD" else stream, size=stat.st_size)


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
    headers: dict[str, str] = {}
    for _ in range(MAX_HEADERS):
        line = await reader.readline()
        raw.append(line)
        text = line.decode("latin-1").strip()
        if not text:
            return method, target, headers, b"".join(raw)
        name, _, value = text.partition(":")
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
        assert server.relay is not None, "only a server with a relay answers with a relay's head (`answer`)"
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
    file = reply.file
    left = reply.length if file else 0   # a HEAD's reply has no file (`respond`)
    while file and left > 0:
        chunk = await asyncio.to_thread(file.read, min(CHUNK_BYTES, left))
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
    address, live in that Redis, shared with every other instance using it (`relay.shared`);
    else in this process's memory. ``trusted``: the networks of proxies whose
    X-Forwarded-For names the client (`client_address`)."""
    limits = limits or Limits()
    log = Log(limits.max_log_lines)
    relay: Relay | None = None
    connections = Connections(limits.max_connections_per_address)
    if relay_on and redis:
        from relay import shared   # only here: the redis package is needed only with --redis

        relay = shared.RedisRelay(limits, redis, log=log, turn=turn, expiry=redis_expiry)
        connections = shared.SharedConnections(relay)
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


@contextlib.contextmanager
def spawn(root: Path = ROOT, stderr: int | IO[str] | None = subprocess.DEVNULL, port: int = 0,
          args: tuple[str, ...] = ()) -> Iterator[str]:
    """Run this server in a child process on a loopback port (0: a free one); yield its base URL.
    ``args`` are extra command-line arguments (relay limits, ``--relay-only``, ``--no-relay``)."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--port", str(port), "--root", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    assert child.stdout is not None   # stdout=PIPE
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
    raise_open_files()
    asyncio.run(serve(args.host, args.port, None if args.relay_only else args.root, limits, not args.no_relay, turn,
                      args.redis, args.redis_expiry, tuple(args.trusted_proxy)))


def raise_open_files() -> int | None:
    """Let this process hold as many open files as it may (its hard limit), as Go programs such
    as Caddy do by themselves: every connection is one, and the soft limit a service or a
    container usually starts with (1024) stopped the relay at about a thousand members, its
    accept() failing with "Too many open files" (and logging a traceback each time) while the
    hard limit allowed far more. Returns the soft limit now, None where there is none (Windows).

    >>> limit = raise_open_files()
    >>> limit is None or limit >= 1024
    True
    """
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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
