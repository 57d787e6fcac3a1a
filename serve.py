#!/usr/bin/env python3
"""Serve the Cribbage site from this repository.

    python serve.py [--host 127.0.0.1] [--port 8000] [--root DIR]    (--port 0: a free port)

Only the site's own files are served (`allowed`); anything else, including every path
traversal trick, is a 404. Files go out with explicit MIME types, `Cache-Control: no-cache`
and an ETag, so a reload revalidates instead of downloading Pyodide again.

The file logic (`respond`) knows nothing about sockets, and the transport is a small
asyncio HTTP/1.1 server (one request per connection), so the signalling relay can join
the same event loop. `spawn` runs the server in a child process for tests and benchmarks.
"""

import argparse
import asyncio
import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

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
}
HEAD_TIMEOUT = 10.0  # seconds a client gets to send its request line and headers
MAX_HEADERS = 100


@dataclass(frozen=True)
class Reply:
    """An HTTP response, independent of the transport that sends it."""

    status: HTTPStatus
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


NOT_FOUND = Reply(HTTPStatus.NOT_FOUND, {"Content-Type": "text/plain; charset=utf-8"}, b"Not found\n")


def allowed(rel: PurePosixPath) -> bool:
    """Whether a path relative to the root belongs to the site.

    >>> [allowed(PurePosixPath(p)) for p in ("index.html", "game/cards.py", "game/x.txt", "serve.py")]
    [True, True, False, False]
    """
    if len(rel.parts) == 1:
        return rel.name in ("index.html", "pyscript.toml")
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


def respond(root: Path, method: str, target: str, headers: Mapping[str, str]) -> Reply:
    """Answer one request for a static file; `headers` has lower-case names."""
    if method not in ("GET", "HEAD"):
        return Reply(HTTPStatus.METHOD_NOT_ALLOWED, {"Allow": "GET, HEAD"})
    path = site_path(root, target)
    if path is None:
        return NOT_FOUND
    try:
        stat = path.stat()
        cache = {"Cache-Control": "no-cache", "ETag": f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'}
        if headers.get("if-none-match") == cache["ETag"]:
            return Reply(HTTPStatus.NOT_MODIFIED, cache)
        body = path.read_bytes()
    except OSError:
        return NOT_FOUND
    content_type = MIME_TYPES.get(path.suffix, "application/octet-stream")
    return Reply(HTTPStatus.OK, {"Content-Type": content_type, **cache}, body)


async def read_head(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str]] | None:
    """Read a request line and headers; None if the client sent nothing.

    Raises ValueError when they are malformed or too long.
    """
    line = await reader.readline()
    if not line:
        return None
    method, target, version = line.decode("latin-1").split()
    if not version.startswith("HTTP/1."):
        raise ValueError(version)
    headers = {}
    for _ in range(MAX_HEADERS):
        line = (await reader.readline()).decode("latin-1").strip()
        if not line:
            return method, target, headers
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    raise ValueError("too many headers")


async def answer(root: Path, reader: asyncio.StreamReader) -> tuple[str, str, Reply] | None:
    """Read one request and work out its reply: (method, target, reply).

    None when there is nothing to answer: a socket the browser opened ahead of time and
    left idle or closed, or a client that went away.
    """
    try:
        async with asyncio.timeout(HEAD_TIMEOUT):
            head = await read_head(reader)
    except (TimeoutError, ConnectionError):
        return None
    except ValueError:
        return "-", "-", Reply(HTTPStatus.BAD_REQUEST)
    if head is None:
        return None
    method, target, headers = head
    return method, target, await asyncio.to_thread(respond, root, method, target, headers)


async def handle(root: Path, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Serve one request on a connection, log it in one line, then close the connection."""
    answered = await answer(root, reader)
    if answered is None:
        writer.close()
        return
    method, target, reply = answered
    length = len(reply.body)
    lines = [f"HTTP/1.1 {reply.status.value} {reply.status.phrase}"]
    lines += [f"{name}: {value}" for name, value in reply.headers.items()]
    lines += ["X-Content-Type-Options: nosniff", f"Content-Length: {length}", "Connection: close", "", ""]
    writer.write("\r\n".join(lines).encode("latin-1"))
    if method != "HEAD":
        writer.write(reply.body)
    peer = (writer.get_extra_info("peername") or ("-",))[0]
    with contextlib.suppress(ConnectionError):
        await writer.drain()
        writer.close()
        await writer.wait_closed()
    print(f'{peer} "{method} {target}" {reply.status.value} {length}', file=sys.stderr, flush=True)


async def serve(host: str, port: int, root: Path = ROOT) -> None:
    """Serve until SIGINT or SIGTERM, after printing the banner line with the real port."""
    server = await asyncio.start_server(lambda r, w: handle(root, r, w), host, port, limit=16384)
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
def spawn(root: Path = ROOT, stderr=subprocess.DEVNULL) -> Iterator[str]:
    """Run this server in a child process on a free loopback port; yield its base URL."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--port", "0", "--root", str(root)],
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
    args = parser.parse_args(argv)
    asyncio.run(serve(args.host, args.port, args.root))


if __name__ == "__main__":
    main()
