"""The public namespace's servers: coturn (STUN and TURN on 203.0.113.1:3478, UDP and TCP,
TURN REST credentials checked with a shared secret) and serve.py (the site and the relay,
handing out those credentials with ``--turn-url`` / ``--turn-secret-file``).
"""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .rig import SERVER

ROOT = Path(__file__).resolve().parents[2]
TURN_PORT = 3478
STUN_URL = f"stun:{SERVER}:{TURN_PORT}"
TURN_URLS = (f"turn:{SERVER}:{TURN_PORT}?transport=udp", f"turn:{SERVER}:{TURN_PORT}?transport=tcp")
BANNER = "Cribbage is being served at "


def stop(child: subprocess.Popen) -> None:
    """End a child we started (and wait for it)."""
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)


def _wait_tcp(ns: str, port: int, timeout: float = 10) -> None:
    probe = (f"import socket,time\nfor _ in range({int(timeout * 10)}):\n"
             f"  try: socket.create_connection(('{SERVER}', {port}), 0.5).close(); break\n"
             f"  except OSError: time.sleep(0.1)\nelse: raise SystemExit(1)\n")
    if subprocess.run(["ip", "netns", "exec", ns, sys.executable, "-c", probe]).returncode:
        raise RuntimeError(f"nothing listens on {SERVER}:{port}")


@contextmanager
def coturn(ns: str, workdir: Path, secret: str) -> Iterator[subprocess.Popen]:
    """coturn in namespace ``ns``: STUN + TURN (UDP and TCP) with TURN REST credentials."""
    workdir.mkdir(parents=True, exist_ok=True)
    log = (workdir / "turnserver.log").open("w")
    child = subprocess.Popen(
        ["ip", "netns", "exec", ns, "turnserver", "-n", "--listening-ip", SERVER, "--relay-ip", SERVER,
         "--listening-port", str(TURN_PORT), "--min-port", "49152", "--max-port", "49999",
         "--realm", "cribbage.test", "--use-auth-secret", f"--static-auth-secret={secret}",
         "--fingerprint", "--no-cli", "--no-tls", "--no-dtls", "--no-multicast-peers",
         "--userdb", str(workdir / "turndb"), "--pidfile", str(workdir / "turnserver.pid"),
         "--log-file", "stdout", "--simple-log", "--verbose"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_tcp(ns, TURN_PORT)
        yield child
    finally:
        stop(child)
        log.close()


@contextmanager
def site(ns: str, workdir: Path, root: Path = ROOT, turn_secret: str | None = None) -> Iterator[str]:
    """serve.py in namespace ``ns`` on a free port of 203.0.113.1, serving ``root``; yields its
    base URL. With a ``turn_secret`` it hands out credentials for the rig's coturn."""
    workdir.mkdir(parents=True, exist_ok=True)
    args = ["--host", SERVER, "--port", "0", "--root", str(root)]
    if turn_secret is not None:
        secret_file = workdir / "turn-secret"
        secret_file.write_text(turn_secret)
        args += [arg for url in TURN_URLS for arg in ("--turn-url", url)]
        args += ["--turn-secret-file", str(secret_file)]
    log = (workdir / "serve.log").open("w")
    child = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, str(ROOT / "serve.py"), *args],
                             stdout=subprocess.PIPE, stderr=log, text=True, cwd=ROOT)
    try:
        line = child.stdout.readline()
        if not line.startswith(BANNER):
            raise RuntimeError(f"serve.py did not start (exit {child.poll()}): {line!r}")
        yield line[len(BANNER):].strip()
    finally:
        stop(child)
        child.stdout.close()
        log.close()


def new_secret() -> str:
    return secrets.token_hex(16)
