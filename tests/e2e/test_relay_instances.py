"""A table with friends across two relay instances sharing rooms through Redis (serve.py
--redis), in real browsers: the host's page and relay on one instance, the guest's behind a
small load balancer that prefers the other. That instance is killed mid-game and restarted:
the game goes on over the data channel, and the guest's reloaded page rejoins its seat
through whichever instance is up.
"""

import asyncio
import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_friends import back_at_the_table, check_scores, host_table, join, play

import serve

pytestmark = pytest.mark.e2e
shared = pytest.importorskip("relay.shared")
EXPIRY = "2"   # seconds before a killed instance's members are given up for dead


class Balancer:
    """A TCP load balancer on a loopback port, as a deployment puts in front of its
    instances: each new connection goes to the first backend (port) that accepts it."""

    def __init__(self, backends: list[int]):
        self.backends = backends
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self.client, "127.0.0.1", 0), self.loop).result(10)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/"

    async def client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for port in self.backends:
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                continue
        else:
            writer.close()
            return
        await asyncio.gather(self.pipe(reader, up_writer), self.pipe(up_reader, writer))

    @staticmethod
    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            finally:
                writer.close()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@contextlib.contextmanager
def instance(port: int, redis_url: str, log: Path):
    """serve.py (files and relay) on ``port``, its rooms in Redis: yields the process."""
    with log.open("a") as stream:
        child = subprocess.Popen(
            [sys.executable, serve.__file__, "--port", str(port), "--redis", redis_url, "--redis-expiry", EXPIRY],
            stdout=subprocess.PIPE, stderr=stream, text=True)
        try:
            assert child.stdout.readline().startswith(serve.BANNER)
            yield child
        finally:
            if child.poll() is None:
                child.terminate()
            child.wait(timeout=10)
            child.stdout.close()


def relay_joins(log: Path) -> int:
    """How many relay WebSockets an instance's log shows accepted."""
    return log.read_text().count('"GET /relay" 101')


def test_a_game_across_two_relay_instances_survives_one_of_them(people, redis_url, tmp_path):
    port_a, port_b = shared.free_port(), shared.free_port()
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    refused = ("WebSocket connection to",)    # Chromium's own line when a socket is cut
    balancer = Balancer([port_b, port_a])
    try:
        with instance(port_a, redis_url, log_a):
            site_a = f"http://127.0.0.1:{port_a}/"
            with instance(port_b, redis_url, log_b) as doomed:
                host, guest = people(site_a, refused), people(balancer.url, refused)
                link = host_table(host, site_a, 2)
                join(guest, link.replace(site_a, balancer.url), "Gus")   # through B, the host on A
                host.get_by_test_id("start-table").click()
                expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
                assert relay_joins(log_a) == 1 and relay_joins(log_b) == 1
                play([host, guest], moves=3)
                doomed.kill()                       # no goodbye: B's members expire
            play([host, guest], moves=4)            # the data channel carries the game meanwhile
            guest.reload()                          # a reconnecting guest: through A, the one left
            back_at_the_table(host, guest, 1)
            assert relay_joins(log_a) >= 2
            play([host, guest], moves=4)
            with instance(port_b, redis_url, log_b):   # B is back, and preferred again
                joins_b = relay_joins(log_b)
                guest.reload()                      # this time through B, the host still on A
                back_at_the_table(host, guest, 1)
                assert relay_joins(log_b) > joins_b
                play([host, guest])
                check_scores(host, [guest])
    except Exception:
        for name, log in (("A", log_a), ("B", log_b)):   # shown in the report, with each page's console
            print(f"-- instance {name}'s log, last lines --", *log.read_text().splitlines()[-40:], sep="\n")
        raise
    finally:
        balancer.close()
