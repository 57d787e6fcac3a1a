"""What the deployment of docs/deploy/ needs of serve.py and of the files themselves, without
running it (tests/e2e/test_deploy.py runs it): a relay holds more connections than the soft
limit on open files it was started with, and scripts/deploy_local.py still finds in
compose.yaml, the Containerfile and turnserver.conf what it substitutes.
"""

import asyncio
import concurrent.futures
import doctest
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

import serve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import deploy_load  # noqa: E402
import deploy_local  # noqa: E402

SOFT_LIMIT = 64


def small_soft_limit() -> None:
    """In the child before it runs serve.py: a soft limit of 64 open files (the hard one kept)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT_LIMIT, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_a_relay_started_with_a_low_soft_limit_holds_more_connections():
    """A container or service starts with a soft limit (1024) far below its hard one: the relay
    raises it, instead of stalling at that many members with accept() failing."""
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 4 * SOFT_LIMIT:
        pytest.skip("the hard limit on open files is too low to raise the soft one past it")
    args = [sys.executable, serve.__file__, "--relay-only", "--port", "0", "--max-connections-per-address", "1000"]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             preexec_fn=small_soft_limit)
    try:
        line = child.stdout.readline()
        assert line.startswith(serve.BANNER), line
        url = line[len(serve.BANNER):].strip().replace("http://", "ws://") + "relay"

        async def main():
            sockets = []
            try:
                for _ in range(2 * SOFT_LIMIT):
                    sockets.append(await connect(url, open_timeout=5))
                await asyncio.gather(*(socket.ping() for socket in sockets))
            finally:
                await asyncio.gather(*(socket.close() for socket in sockets))
        # In a thread of its own: the browser tests' Playwright keeps an event loop running in
        # this one for the whole session.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, main()).result(timeout=120)
    finally:
        child.terminate()
        child.wait(timeout=10)
        child.stdout.close()


def test_the_deployment_s_files_still_say_what_deploy_local_substitutes():
    relay = deploy_local.compose_list("command", "x-relay")
    assert "--redis=redis://redis:6379/0" in relay and "--trusted-proxy=172.30.0.2" in relay
    assert any(option.startswith("--turn-secret-file=/run/secrets/turn-secret") for option in relay)
    caddyfile = (deploy_local.DEPLOY / "Caddyfile").read_text()
    assert "{$RELAYS:relay-1:8765 relay-2:8765}" in caddyfile and "{$SITE_ROOT:/srv}" in caddyfile
    config = deploy_local.turn_config("s3cret", 1, 2, (3, 4), Path("/c.crt"), Path("/c.key"), Path("/tmp"))
    assert "static-auth-secret=s3cret" in config and "cert=/c.crt" in config and "listening-ip=127.0.0.1" in config
    for module in (deploy_local, deploy_load):
        assert doctest.testmod(module).failed == 0
