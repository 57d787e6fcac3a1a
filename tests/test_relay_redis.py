"""Several relay instances sharing rooms through a real Redis (serve.py --redis, relay/shared.py):
a room spread over three instances, limits per address across instances (connections too,
behind a trusted proxy), an instance killed
(its members leave for the others within the expiry, and rejoin elsewhere), Redis going away
and coming back, and malformed input that must not take an instance down.

What one relay must do is tested in test_relay.py against both backends; this file is about
what only several instances can get wrong.
"""

import asyncio
import contextlib
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import serve
from relay.limits import Limits
from test_relay import run, ws_url

shared = pytest.importorskip("relay.shared")

EXPIRY = 1.5   # seconds: an instance that stops beating is given up for dead this soon


@contextlib.contextmanager
def instance(redis_url: str, *args: str, log: Path | None = None):
    """A `serve.py --relay-only --redis` child process: yields (base URL, the process)."""
    stream = log.open("a") if log else subprocess.DEVNULL
    child = subprocess.Popen(
        [sys.executable, serve.__file__, "--port", "0", "--relay-only", "--redis", redis_url,
         "--redis-expiry", str(EXPIRY), "--max-joins-per-minute", "1000", *args],   # every test joins from 127.0.0.1
        stdout=subprocess.PIPE, stderr=stream, text=True)
    try:
        line = child.stdout.readline()
        assert line.startswith(serve.BANNER), f"serve.py did not start: {line!r}"
        yield line[len(serve.BANNER):].strip(), child
    finally:
        if child.poll() is None:
            child.terminate()
            child.wait(timeout=10)
        child.stdout.close()
        if log:
            stream.close()


async def join(base: str, room: str):
    """A socket that joined ``room`` at ``base``: (socket, its joined message)."""
    socket = await connect(ws_url(base))
    await socket.send(json.dumps({"type": "join", "room": room}))
    return socket, json.loads(await socket.recv())


async def next_message(socket, timeout: float = 5.0) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), timeout))


def test_a_room_spread_over_three_instances(redis_url):
    with instance(redis_url) as (a, _), instance(redis_url) as (b, _), instance(redis_url) as (c, _):
        async def main():
            room = "room-three-instances"
            x, hello_x = await join(a, room)
            y, hello_y = await join(b, room)
            z, hello_z = await join(c, room)
            assert hello_x["peers"] == [] and hello_y["peers"] == [hello_x["id"]]
            assert hello_z["peers"] == [hello_x["id"], hello_y["id"]]
            assert await next_message(x) == {"type": "peer-joined", "id": hello_y["id"]}
            assert await next_message(x) == {"type": "peer-joined", "id": hello_z["id"]}
            assert await next_message(y) == {"type": "peer-joined", "id": hello_z["id"]}
            await z.send(json.dumps({"type": "send", "to": None, "data": "offer to all"}))
            for other in (x, y):
                assert await next_message(other) == {"type": "from", "from": hello_z["id"], "data": "offer to all"}
            for n in range(20):   # in order, across instances
                await x.send(json.dumps({"type": "send", "to": hello_y["id"], "data": f"candidate {n}"}))
            assert [(await next_message(y))["data"] for _ in range(20)] == [f"candidate {n}" for n in range(20)]
            await y.close()
            assert await next_message(x) == await next_message(z) == {"type": "peer-left", "id": hello_y["id"]}
            await x.send(json.dumps({"type": "send", "to": hello_y["id"], "data": "late"}))
            assert (await next_message(x))["code"] == "no-peer"
            await x.close()
            await z.close()
            again, hello = await join(b, room)     # the room was forgotten everywhere
            assert hello["peers"] == []
            await again.close()
        run(main())


def test_limits_per_address_count_across_instances(redis_url):
    limits = ("--max-rooms-per-address", "2", "--max-members-per-address", "2", "--max-members", "3")
    with instance(redis_url, *limits) as (a, _), instance(redis_url, *limits) as (b, _):
        async def main():
            first, _ = await join(a, "room-limits-across-1")
            second, _ = await join(b, "room-limits-across-1")
            third, refused = await join(a, "room-limits-across-1")
            assert refused["code"] == "room-full" and "one address" in refused["reason"]
            other, _ = await join(b, "room-limits-across-2")
            fourth, refused = await join(a, "room-limits-across-3")
            assert refused["code"] == "too-many-rooms"
            await other.close()
            await asyncio.sleep(0.2)
            fifth, hello = await join(a, "room-limits-across-3")   # a room of the address's is free again
            assert hello["type"] == "joined"
            for socket in (first, second, third, fourth, fifth):
                await socket.close()
        run(main())


async def through_proxy(base: str, client: str):
    """A relay socket at ``base`` for ``client``, as a proxy at 127.0.0.1 would open it."""
    return await connect(ws_url(base), additional_headers={"X-Forwarded-For": client})


async def refused(base: str, client: str) -> None:
    with pytest.raises(InvalidStatus) as refusal:
        await through_proxy(base, client)
    assert refusal.value.response.status_code == 503


async def accepted_soon(base: str, client: str, within: float):
    """A socket for ``client``, once ``base`` lets it in (its count freed elsewhere)."""
    deadline = time.monotonic() + within
    while True:
        try:
            return await through_proxy(base, client)
        except InvalidStatus as refusal:
            assert refusal.response.status_code == 503
            if time.monotonic() > deadline:
                raise AssertionError(f"{client} still refused after {within} s") from None
            await asyncio.sleep(0.1)


def test_connections_per_address_count_across_instances_until_one_dies(redis_url):
    args = ("--max-connections-per-address", "3", "--trusted-proxy", "127.0.0.1", "--join-timeout", "60")
    with (instance(redis_url, *args) as (a, doomed), instance(redis_url, *args) as (b, _),
          instance(redis_url, *args) as (c, _)):
        async def main():
            client = "203.0.113.71"    # this test's own address, named by the "proxy" 127.0.0.1
            on_a = [await through_proxy(a, client), await through_proxy(a, client)]
            on_b = await through_proxy(b, client)
            await refused(c, client)   # 3 open: 2 on a, 1 on b
            await refused(a, client)
            other = await through_proxy(c, "203.0.113.72")   # another client is not concerned
            await on_b.close()         # a place is free again, on any instance
            on_c = await accepted_soon(c, client, within=5)
            await refused(b, client)
            doomed.send_signal(signal.SIGKILL)   # a's two count until its heartbeat expires
            killed = time.monotonic()
            on_b = await accepted_soon(b, client, within=EXPIRY + 5)
            freed_after = time.monotonic() - killed
            again = await through_proxy(b, client)   # 3 open again: 1 on c, 2 on b
            await refused(c, client)
            for socket in (*on_a, on_b, on_c, other, again):
                with contextlib.suppress(ConnectionClosed):
                    await socket.close()
            return freed_after
        freed_after = run(main())
        assert freed_after < EXPIRY + EXPIRY / 3 + 2.0, f"a's connections counted {freed_after:.1f} s after the kill"


def test_joins_per_address_count_across_instances(redis_url):
    """serve.py --max-joins-per-minute: the joins of one client count on every instance."""
    args = ("--max-joins-per-minute", "3", "--trusted-proxy", "127.0.0.1")
    with instance(redis_url, *args) as (a, _), instance(redis_url, *args) as (b, _):
        async def main():
            client = "203.0.113.81"    # this test's own address, named by the "proxy" 127.0.0.1
            sockets, replies = [], []
            for n, base in enumerate((a, b, a, b)):
                socket = await through_proxy(base, client)
                await socket.send(json.dumps({"type": "join", "room": f"room-joins-across-{n}"}))
                replies.append(await next_message(socket))
                sockets.append(socket)
            other = await through_proxy(b, "203.0.113.82")    # another client is not concerned
            await other.send(json.dumps({"type": "join", "room": "room-joins-across-3"}))
            replies.append(await next_message(other))
            for socket in (*sockets, other):
                await socket.close()
            return replies
        replies = run(main())
    assert [reply["type"] for reply in replies] == ["joined", "joined", "joined", "error", "joined"]
    assert replies[3]["code"] == "too-many-joins"


def test_connections_counted_in_redis_are_uncounted(redis_url):
    async def main():
        prefix = f"test-conn-{time.monotonic_ns()}:"
        limits = Limits(max_connections_per_address=2)
        relays = [shared.RedisRelay(limits, redis_url, prefix=prefix, expiry=EXPIRY) for _ in range(2)]
        for relay in relays:
            await relay.start()
        counts = [shared.SharedConnections(relay) for relay in relays]
        first = await counts[0].acquire("10.1.1.1")
        second = await counts[1].acquire("10.1.1.1")
        assert first.shared == relays[0].instance and second.shared == relays[1].instance
        assert await counts[0].acquire("10.1.1.1") is None and await counts[1].acquire("10.1.1.1") is None
        assert counts[0].open == {}.fromkeys(["10.1.1.1"], 1)   # a refusal leaves nothing counted
        held = await relays[0].control.hgetall(f"{prefix}conn:10.1.1.1")
        await counts[1].release(second)
        back = await counts[0].acquire("10.1.1.1")
        for ticket, count in ((first, counts[0]), (back, counts[0])):
            await count.release(ticket)
        left = [key async for key in relays[0].control.scan_iter(match=f"{prefix}*conn:*")]
        for relay in relays:
            await relay.stop()
        return held, back, left, [relay.instance for relay in relays]
    held, back, left, instances = run(main())
    assert {k.decode(): int(v) for k, v in held.items()} == {instances[0]: 1, instances[1]: 1}
    assert back is not None and left == []     # every count given back, no key left behind


def test_a_killed_instance_s_members_leave_for_the_others_and_rejoin_elsewhere(redis_url):
    with instance(redis_url) as (a, _), instance(redis_url) as (b, doomed):
        async def main():
            room = "room-killed-instance"
            stays, hello = await join(a, room)
            goes, hello_gone = await join(b, room)
            assert await next_message(stays) == {"type": "peer-joined", "id": hello_gone["id"]}
            doomed.send_signal(signal.SIGKILL)    # no goodbye: only the expiry tells
            killed = time.monotonic()
            assert await next_message(stays, EXPIRY + 5) == {"type": "peer-left", "id": hello_gone["id"]}
            gone_after = time.monotonic() - killed
            with pytest.raises(ConnectionClosed):  # its members' sockets died with it
                await asyncio.wait_for(goes.recv(), 5)
            back, hello_back = await join(a, room)   # the browser reconnects, to the instance left
            assert hello_back["peers"] == [hello["id"]]
            assert await next_message(stays) == {"type": "peer-joined", "id": hello_back["id"]}
            await back.send(json.dumps({"type": "send", "to": hello["id"], "data": "hello again"}))
            assert (await next_message(stays))["data"] == "hello again"
            await back.close()
            await stays.close()
            return gone_after
        gone_after = run(main())
        assert gone_after < EXPIRY + EXPIRY / 3 + 2.0, f"peer-left came {gone_after:.1f} s after the kill"


def test_a_stopped_instance_s_members_leave_at_once(redis_url):
    with instance(redis_url) as (a, _), instance(redis_url) as (b, stopping):
        async def main():
            stays, _ = await join(a, "room-stopped-instance")
            goes, hello = await join(b, "room-stopped-instance")
            await next_message(stays)
            stopping.send_signal(signal.SIGTERM)
            started = time.monotonic()
            assert await next_message(stays) == {"type": "peer-left", "id": hello["id"]}
            assert time.monotonic() - started < EXPIRY     # not waiting for the expiry
            await stays.close()
        run(main())


def test_a_redis_outage_is_said_and_survived(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("no Redis to test the shared relay with: redis-server is not installed (scripts/setup --redis)")
    log = tmp_path / "relay.log"
    port = shared.free_port()
    with shared.redis_server(port=port, folder=tmp_path) as url, instance(url, log=log) as (base, child):
        async def outage():
            member, hello = await join(base, "room-outage-0001")
            assert hello["type"] == "joined"
            stop_redis(port)
            told = await next_message(member, 10)     # the member is told, then closed
            assert told["type"] == "error" and told["code"] == "relay-down", told
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(member.recv(), 5)
            assert closed.value.rcvd.code == 1013
            with pytest.raises(InvalidStatus) as refused:   # newcomers: the page says the relay is down
                await connect(ws_url(base))
            assert refused.value.response.status_code == 503
        run(outage())
        time.sleep(1.5)    # a few retries meanwhile, said once
        assert child.poll() is None, "the instance died with Redis"
        with shared.redis_server(port=port, folder=tmp_path):   # back on the same address
            async def back():
                for _ in range(100):
                    with contextlib.suppress(InvalidStatus):
                        member, hello = await join(base, "room-outage-0001")
                        assert hello["type"] == "joined" and hello["peers"] == []
                        await member.close()
                        return
                    await asyncio.sleep(0.1)
                raise AssertionError("the relay did not come back with Redis")
            run(back())
            assert child.poll() is None
            lines = log.read_text().splitlines()   # (before this Redis stops too)
    down = [line for line in lines if "unreachable" in line]
    assert len(down) == 1 and "refused until it is back" in down[0], lines
    assert sum("connected as instance" in line for line in lines) == 2, lines
    assert not any("Traceback" in line for line in lines), lines


def stop_redis(port: int) -> None:
    """Shut the redis-server on ``port`` down (without saving), as an outage would."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"SHUTDOWN NOSAVE\r\n")
        with contextlib.suppress(OSError):
            sock.recv(64)


MALFORMED = [
    "not json", "[]", "{}", '{"type": "join", "room": "x\\ny-zzzzzzzz"}', '{"type": "join", "room": ["a"]}',
    '{"type": "send", "to": "a\\nb", "data": "x"}', '{"type": "send", "to": 5, "data": "x"}',
    '{"type": "send", "to": "", "data": "x"}', '{"type": "send", "to": null, "data": {"a": 1}}',
    '{"type": "send", "to": null, "data": "\\n\\n\\n"}', "x" * 20000, '{"type": "ice"}',
    '{"type": "join", "room": "room-fuzz-00001"}', '{"type": "join", "room": "room-fuzz-00002"}',
]


def test_malformed_input_never_takes_an_instance_down(redis_url):
    with instance(redis_url) as (a, child), instance(redis_url) as (b, _):
        async def main():
            friend, hello = await join(b, "room-fuzz-00001")
            sender, hello_sender = await join(a, "room-fuzz-00001")
            await friend.recv()   # peer-joined
            for message in MALFORMED:
                await sender.send(message)
            replies = [await next_message(sender) for _ in MALFORMED[1:]]   # all but one get an answer
            assert all(reply["type"] in ("error", "ice") for reply in replies), replies
            heard = await next_message(friend)      # the one well-formed send, to everyone
            assert heard == {"type": "from", "from": hello_sender["id"], "data": "\n\n\n"}
            for bad in (b"\xff\xfe", "\ud800".encode("utf-8", "surrogatepass")):   # binary, and not UTF-8
                late, _late = await join(a, "room-fuzz-00001")
                with contextlib.suppress(ConnectionClosed):
                    await late.send(bad)
                    await late.recv()
            late, hello_late = await join(a, "room-fuzz-00003")   # (the room's 4 from this address may not have left yet)
            assert hello_late["type"] == "joined"
            for open_socket in (late, sender, friend):
                await open_socket.close()
        run(main())
        assert child.poll() is None


@pytest.mark.parametrize("args, says", [
    (("--redis", "redis://127.0.0.1:1/0", "--no-relay"), "--redis needs the relay"),
    (("--redis", "127.0.0.1:6379"), "--redis takes a URL"),
    (("--redis", "redis://127.0.0.1:1/0", "--redis-expiry", "0.5"), "--redis-expiry"),
])
def test_bad_redis_options_are_refused(args, says):
    done = subprocess.run([sys.executable, serve.__file__, "--port", "0", *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and says in done.stderr


def test_an_unreachable_redis_at_start_is_said_and_the_relay_refuses(tmp_path):
    log = tmp_path / "relay.log"
    with instance(f"redis://127.0.0.1:{shared.free_port()}/0", log=log) as (base, child):
        async def main():
            with pytest.raises(InvalidStatus) as refused:
                await connect(ws_url(base))
            assert refused.value.response.status_code == 503
        run(main())
        time.sleep(1.5)   # a few retries: still said once
        assert child.poll() is None
    lines = log.read_text().splitlines()
    assert sum("unreachable" in line for line in lines) == 1, lines


def test_a_leave_that_failed_is_done_at_the_next_beat(redis_url):
    from redis.exceptions import ConnectionError as RedisConnectionError

    async def main():
        prefix = f"test-leave-{time.monotonic_ns()}:"
        relays = [shared.RedisRelay(Limits(), redis_url, prefix=prefix, expiry=EXPIRY) for _ in range(2)]
        for relay in relays:
            await relay.start()
        heard, _ = [], []
        stays = relays[0].connect("10.0.0.1", lambda text: heard.append(json.loads(text)))
        goes = relays[1].connect("10.0.0.2", _.append)
        for relay, member in zip(relays, (stays, goes)):
            await relay.handle(member, '{"type": "join", "room": "room-failed-leave"}')
        await relays[1].idle(goes)
        script = relays[1].script

        async def lost(*args, **kwargs):
            raise RedisConnectionError("the answer was lost")
        relays[1].script = lost
        await relays[1].leave(goes)
        relays[1].script = script
        rooms, _addresses = await relays[0].snapshot()
        assert goes.id in rooms["room-failed-leave"]      # still there, for now
        for _ in range(50):
            await asyncio.sleep(0.1)
            if {"type": "peer-left", "id": goes.id} in heard:
                break
        rooms, addresses = await relays[0].snapshot()
        for relay in relays:
            await relay.stop()
        return rooms, addresses, heard, (stays.id, goes.id)
    rooms, addresses, heard, (stays, goes) = run(main())
    assert {"type": "peer-left", "id": goes} in heard
    assert list(rooms["room-failed-leave"]) == [stays] and "10.0.0.2" not in addresses
