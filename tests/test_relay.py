"""The signalling relay in serve.py: rooms, forwarding, limits with clear errors, clean-up,
refused paths, many rooms at once. The relay object is tested directly (with a fake clock),
then the real server in a child process through the `websockets` client.

Every test that can runs against both backends: `memory`, one in-memory `Relay` (the
default), and `redis`, two `RedisRelay` instances sharing a real Redis (relay/shared.py), the
members taking turns between them, so every room spans both. They must behave the same.
"""

import asyncio
import base64
import concurrent.futures
import contextlib
import hashlib
import hmac
import json
import secrets
import subprocess
import sys
import threading
import time
from collections import Counter
import urllib.request
from urllib.error import HTTPError

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import serve
from relay.limits import Connections, Limits
from relay.rooms import Member, Relay, Turn

ROOM = "room-abcdef0123"


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class LoopThread:
    """An event loop in its own thread, for the Redis backend's tasks between a test's calls."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, coro, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class Relays:
    """The relay under test, called the same way whatever the backend: one in-memory `Relay`,
    or two `RedisRelay` instances on one Redis (under a prefix of their own), new members
    alternating between them. After each call, everything Redis published has been delivered."""

    def __init__(self, backend: str, limits: Limits, clock: Clock, turn: Turn | None, redis_url: str | None,
                 loop: LoopThread | None):
        self.loop = loop
        if backend == "memory":
            self.instances = [Relay(limits, clock, turn=turn)]
        else:
            from relay.shared import RedisRelay
            prefix = f"test-{secrets.token_hex(4)}:"
            self.instances = [RedisRelay(limits, redis_url, clock, turn=turn, prefix=prefix) for _ in range(2)]
            for instance in self.instances:
                loop.call(instance.start())
                assert instance.up
        self.home: dict[int, Relay] = {}
        self.turns = 0

    @property
    def shared(self) -> bool:
        return self.loop is not None

    def connect(self, address: str, send) -> Member:
        relay = self.instances[self.turns % len(self.instances)]
        self.turns += 1
        member = relay.connect(address, send)
        self.home[id(member)] = relay
        return member

    def receive(self, member: Member, text: str) -> None:
        relay = self.home[id(member)]
        if not self.shared:
            return relay.receive(member, text)
        before = relay.scripts_run
        self.loop.call(relay.handle(member, text))
        self.loop.call(relay.idle(member))
        if relay.scripts_run != before:   # it may have published something
            self.settle()

    def disconnect(self, member: Member) -> None:
        relay = self.home[id(member)]
        if not self.shared:
            return relay.disconnect(member)
        self.loop.call(relay.leave(member))
        self.settle()

    def settle(self) -> None:
        for instance in self.instances:
            self.loop.call(instance.settle())

    @property
    def rooms(self) -> dict:
        """room -> member id -> something, for every member of every room."""
        if not self.shared:
            return self.instances[0].rooms
        return self.loop.call(self.instances[0].snapshot())[0]

    @property
    def by_address(self) -> dict:
        """address -> room -> members from there."""
        if not self.shared:
            return self.instances[0].by_address
        return self.loop.call(self.instances[0].snapshot())[1]

    @property
    def stats(self) -> Counter:
        return sum((instance.stats for instance in self.instances), Counter())

    def connections(self) -> list:
        """A connection counter per instance (`relay.limits.Connections`, or sharing Redis's counts)."""
        if not self.shared:
            return [Connections(self.instances[0].limits.max_connections_per_address)]
        from relay.shared import SharedConnections
        return [SharedConnections(instance) for instance in self.instances]

    def call(self, coro):
        """Run a coroutine where the backend's tasks run."""
        return self.loop.call(coro) if self.shared else run(coro)

    def close(self) -> None:
        if self.shared:
            for instance in self.instances:
                self.loop.call(instance.stop())


@pytest.fixture(params=["memory", "redis"])
def backend(request):
    """The relay's backend under test: its name, and for Redis the server's URL."""
    return request.param, request.getfixturevalue("redis_url") if request.param == "redis" else None


@pytest.fixture
def relay_with(backend):
    """relay_with(turn=None, **limits) -> (relays, member factory, clock) on the backend."""
    kind, url = backend
    loop = LoopThread() if kind == "redis" else None
    made = []

    def make(turn: Turn | None = None, **limits):
        clock = Clock()
        relays = Relays(kind, Limits(**limits), clock, turn, url, loop)
        made.append(relays)

        def member(address="10.0.0.1"):
            inbox = []
            got = relays.connect(address, lambda text: inbox.append(json.loads(text)))
            return got, inbox

        return relays, member, clock

    yield make
    for relays in made:
        relays.close()
    if loop is not None:
        loop.close()


def join(relay, member, room=ROOM):
    relay.receive(member, json.dumps({"type": "join", "room": room}))


def send(relay, member, data, to=None):
    relay.receive(member, json.dumps({"type": "send", "to": to, "data": data}))


# ---- the relay object ----

def test_join_forward_and_announce(relay_with):
    relay, member, _ = relay_with()
    a, a_in = member()
    b, b_in = member()
    join(relay, a)
    join(relay, b)
    assert a_in == [{"type": "joined", "id": a.id, "peers": [], "ice": False}, {"type": "peer-joined", "id": b.id}]
    assert b_in == [{"type": "joined", "id": b.id, "peers": [a.id], "ice": False}]
    send(relay, b, "offer text", to=a.id)
    assert a_in[-1] == {"type": "from", "from": b.id, "data": "offer text"}
    c, c_in = member()
    join(relay, c)
    send(relay, c, "to all")
    assert a_in[-1]["data"] == b_in[-1]["data"] == "to all" and c_in[-1]["type"] == "joined"
    relay.disconnect(c)
    assert a_in[-1] == b_in[-1] == {"type": "peer-left", "id": c.id}


def test_the_payload_is_opaque(relay_with):
    relay, member, _ = relay_with()
    a, a_in = member()
    b, b_in = member()
    join(relay, a)
    join(relay, b)
    weird = '{"v": 99, "type": "<script>", "seed": 1}\u2603'
    send(relay, a, weird, to=b.id)
    assert b_in[-1]["data"] == weird


def test_empty_rooms_are_forgotten(relay_with):
    relay, member, _ = relay_with()
    people = [member() for _ in range(3)]
    for person, _ in people:
        join(relay, person)
    assert len(relay.rooms[ROOM]) == 3
    for person, _ in people:
        relay.disconnect(person)
    assert relay.rooms == {} and relay.by_address == {}
    again, inbox = member()
    join(relay, again)
    assert inbox[0]["peers"] == []


@pytest.mark.parametrize("text, code", [
    ("not json", "bad-message"),
    ("[1, 2]", "bad-message"),
    ('{"type": "dance"}', "bad-message"),
    ('{"type": "join", "room": "../../etc/passwd"}', "bad-room"),
    ('{"type": "join", "room": "a/b/c/d/e/f"}', "bad-room"),
    ('{"type": "join", "room": "short"}', "bad-room"),
    ('{"type": "join", "room": 12345678}', "bad-room"),
    ('{"type": "join", "room": "x%2e%2e%2fyyyy"}', "bad-room"),
    ('{"type": "send", "to": null, "data": "x"}', "bad-message"),
    ('{"type": "join", "room": "room-abcdef0123", "extra": 1}', "bad-message"),
])
def test_malformed_messages_get_a_clear_error(relay_with, text, code):
    relay, member, _ = relay_with()
    a, inbox = member()
    relay.receive(a, text)
    assert inbox[-1]["type"] == "error" and inbox[-1]["code"] == code and inbox[-1]["reason"]
    assert relay.rooms == {}


def test_payload_size_limit(relay_with):
    relay, member, _ = relay_with(max_payload=1000)
    a, a_in = member()
    b, b_in = member()
    join(relay, a)
    join(relay, b)
    send(relay, a, "x" * 2000)
    assert a_in[-1]["code"] == "too-big" and b_in[-1]["type"] == "peer-joined" or b_in[-1]["type"] == "joined"
    assert all(m["type"] != "from" for m in b_in)


def test_members_per_room(relay_with):
    relay, member, _ = relay_with(max_members=3)
    seated = [member() for _ in range(3)]
    for person, _ in seated:
        join(relay, person)
    extra, inbox = member()
    join(relay, extra)
    assert inbox[-1]["code"] == "room-full" and len(relay.rooms[ROOM]) == 3
    relay.disconnect(seated[0][0])
    join(relay, extra)
    assert inbox[-1]["type"] == "joined"


def test_rate_limit_per_connection(relay_with):
    relay, member, clock = relay_with(max_rate=5)
    a, a_in = member()
    b, b_in = member()
    join(relay, a)
    join(relay, b)
    for n in range(30):
        send(relay, a, str(n))
    delivered = [m for m in b_in if m["type"] == "from"]
    assert len(delivered) == 9                 # a burst of 10 tokens, one spent on joining
    errors = [m for m in a_in if m["type"] == "error"]
    assert [m["code"] for m in errors] == ["rate"]   # told once, not thirty times
    clock.now += 1.0
    send(relay, a, "later")
    assert b_in[-1]["data"] == "later"


def test_oversized_and_malformed_messages_count_against_the_rate(relay_with):
    relay, member, clock = relay_with(max_rate=5, max_payload=100, max_over_rate=50)
    a, a_in = member()
    for _ in range(30):
        relay.receive(a, "not json")
    for _ in range(30):
        relay.receive(a, "x" * 200)
    codes = [m["code"] for m in a_in]
    assert codes == ["bad-message"] * 10 + ["rate"]   # the burst, then one notice
    assert not a.closing
    clock.now += 1.0
    for _ in range(2000):
        relay.receive(a, "x" * 200)
    assert [m["code"] for m in a_in[11:]] == ["too-big"] * 5 + ["rate"]
    assert a.closing.startswith("flood")              # over the rate 51 times in that second
    assert relay.stats["closed-flood"] == 1


def test_a_member_over_the_rate_now_and_then_stays(relay_with):
    relay, member, clock = relay_with(max_rate=5, max_over_rate=10)
    a, _ = member()
    for _ in range(20):
        for _ in range(15):
            send(relay, a, "x")
        clock.now += 1.0
    assert not a.closing


def test_rooms_per_address(relay_with):
    relay, member, _ = relay_with(max_rooms_per_address=2)
    for n in range(2):
        join(relay, member()[0], f"room-{n:08d}")
    third, inbox = member()
    join(relay, third, "room-00000002")
    assert inbox[-1]["code"] == "too-many-rooms"
    join(relay, member()[0], "room-00000001")   # another member in a room it is in already
    other, other_in = member("10.9.9.9")
    join(relay, other, "room-00000002")         # another address
    assert other_in[-1]["type"] == "joined"


def test_joins_per_address_a_minute(relay_with):
    """A stranger cannot try room names fast (a device link's room is half its code): every
    join from an address counts, refused ones too, and past the limit the relay says so."""
    relay, member, clock = relay_with(max_joins_per_minute=3, max_members=1)
    first, _ = member()
    join(relay, first, "room-join-1")
    full, full_in = member()
    join(relay, full, "room-join-1")                 # refused (room-full), and counted
    assert full_in[-1]["code"] == "room-full"
    join(relay, member()[0], "room-join-2")
    over, inbox = member()
    join(relay, over, "room-join-3")
    assert inbox == [{"type": "error", "code": "too-many-joins",
                      "reason": "one address may join at most 3 rooms a minute: try again in a minute"}]
    assert "room-join-3" not in relay.rooms and relay.stats["refused-too-many-joins"] == 1
    elsewhere, elsewhere_in = member("10.0.0.2")     # another address is not concerned
    join(relay, elsewhere, "room-join-3")
    assert elsewhere_in[-1]["type"] == "joined"
    if relay.shared:                                  # Redis counts the minute itself
        instance = relay.instances[0]
        left = relay.call(instance.control.pttl(f"{instance.prefix}joins:10.0.0.1"))
        assert 0 < left <= 60_000
    else:
        clock.now += 60                               # a new minute
        join(relay, over, "room-join-4")
        assert inbox[-1]["type"] == "joined"


def test_members_of_a_room_per_address(relay_with):
    relay, member, _ = relay_with(max_members=8)
    assert Limits().max_members_per_address == 4 < Limits().max_members
    for _ in range(4):
        join(relay, member("10.0.0.1")[0])
    fifth, inbox = member("10.0.0.1")
    join(relay, fifth)
    assert inbox[-1]["code"] == "room-full" and "one address" in inbox[-1]["reason"]
    join(relay, fifth, "room-elsewhere-1")          # other rooms are still open to it
    assert inbox[-1]["type"] == "joined"
    friends = [member(f"10.0.1.{n}") for n in range(4)]
    for friend, _ in friends:
        join(relay, friend)
    assert all(got[0]["type"] == "joined" for _, got in friends) and len(relay.rooms[ROOM]) == 8


def test_connections_per_address(relay_with):
    relays, _, _ = relay_with(max_connections_per_address=2)
    here, there = (relays.connections() * 2)[:2]   # two instances, or the one twice

    def acquire(counter, address="10.0.0.1"):
        ticket = relays.call(counter.acquire(address))
        return ticket and (counter, ticket)
    held = [acquire(here), acquire(there)]
    assert all(held) and acquire(here) is None and acquire(there) is None
    other = acquire(there, "10.0.0.2")       # another address is not concerned
    counter, ticket = held.pop(0)
    relays.call(counter.release(ticket))
    held.append(acquire(there))              # a place is free again, wherever it was
    assert held[-1] and acquire(here) is None
    for counter, ticket in (*held, other):
        relays.call(counter.release(ticket))
    assert all(acquire(counter) for counter in (here, there))


def test_targeting_unknown_or_self_is_refused(relay_with):
    relay, member, _ = relay_with()
    a, a_in = member()
    join(relay, a)
    send(relay, a, "x", to="nobody")
    assert a_in[-1]["code"] == "no-peer"
    send(relay, a, "x", to=a.id)
    assert a_in[-1]["code"] == "no-peer"


# ---- TURN credentials ----

TURN_URLS = ("turn:turn.example:3478?transport=udp", "turns:turn.example:5349?transport=tcp")


def rest_credential(secret: bytes, username: str) -> str:
    """The TURN REST scheme's password, as coturn checks it: base64(HMAC-SHA1(secret, username))."""
    return base64.b64encode(hmac.new(secret, username.encode(), hashlib.sha1).digest()).decode()


def test_turn_rest_known_vector():
    assert rest_credential(b"secret", "1060:ab12") == "S39SAHZjidl0kO+dUkFHPcPyq2M="
    turn = Turn(("turn:turn.example:3478",), b"secret", 60, clock=lambda: 1000.9)
    assert turn.server("ab12") == {"urls": ["turn:turn.example:3478"], "username": "1060:ab12",
                                   "credential": "S39SAHZjidl0kO+dUkFHPcPyq2M="}


def test_members_get_turn_credentials(relay_with):
    turn = Turn(TURN_URLS, b"s3cret", 600, clock=lambda: 1_700_000_000.25)
    relay, member, _ = relay_with(turn=turn)
    a, inbox = member()
    join(relay, a)
    assert inbox[-1]["ice"] is True
    relay.receive(a, '{"type": "ice"}')
    answer = inbox[-1]
    assert answer["type"] == "ice" and answer["ttl"] == 600
    (server,) = answer["iceServers"]
    assert server["urls"] == list(TURN_URLS)
    expiry, label = server["username"].split(":")
    assert int(expiry) == 1_700_000_000 + 600 and label == a.id
    assert server["credential"] == rest_credential(b"s3cret", server["username"])


def test_only_members_get_ice_servers(relay_with):
    relay, member, _ = relay_with(turn=Turn(TURN_URLS, b"s3cret"))
    a, inbox = member()
    relay.receive(a, '{"type": "ice"}')
    assert inbox == [{"type": "error", "code": "not-joined", "reason": inbox[0]["reason"]}]


def test_without_turn_the_list_is_empty(relay_with):
    relay, member, _ = relay_with()
    a, inbox = member()
    join(relay, a)
    relay.receive(a, '{"type": "ice"}')
    assert inbox[-1] == {"type": "ice", "iceServers": [], "ttl": 0}


def test_ice_requests_are_limited(relay_with):
    relay, member, clock = relay_with(max_ice_per_minute=3)
    a, inbox = member()
    join(relay, a)
    for _ in range(5):
        relay.receive(a, '{"type": "ice"}')
    assert [m.get("code", m["type"]) for m in inbox[1:]] == ["ice"] * 3 + ["rate"] * 2
    clock.now += 61
    relay.receive(a, '{"type": "ice"}')
    assert inbox[-1]["type"] == "ice"


def test_turn_over_the_wire(tmp_path):
    secret_file = tmp_path / "turn-secret"
    secret_file.write_text("over the wire\n")
    args = ("--relay-only", "--turn-url", TURN_URLS[0], "--turn-url", TURN_URLS[1],
            "--turn-secret-file", str(secret_file), "--turn-ttl", "120")
    with serve.spawn(args=args) as url:
        async def main():
            early = await connect(ws_url(url))
            await early.send('{"type": "ice"}')
            assert json.loads(await early.recv())["code"] == "not-joined"
            await early.close()
            a, hello = await joined(url)
            assert hello["ice"] is True
            await a.send('{"type": "ice"}')
            answer = json.loads(await a.recv())
            await a.close()
            return answer
        asked = time.time()
        answer = run(main())
    (server,) = answer["iceServers"]
    assert answer["ttl"] == 120 and server["urls"] == list(TURN_URLS)
    assert abs(int(server["username"].split(":")[0]) - (asked + 120)) <= 2
    assert server["credential"] == rest_credential(b"over the wire", server["username"])


@pytest.mark.parametrize("args", [("--turn-url", "turn:t.example"), ("--turn-secret", "x"),
                                  ("--turn-url", "http://t.example", "--turn-secret", "x"),
                                  ("--turn-url", "turn:t.example", "--turn-secret", "x", "--no-relay")])
def test_incomplete_turn_options_are_refused(args):
    done = subprocess.run([sys.executable, serve.__file__, "--port", "0", *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "turn" in done.stderr.lower()


# ---- the real server ----

class Servers:
    """Relay servers sharing rooms (one for the in-memory backend): `pick` takes turns."""

    def __init__(self, urls: list[str]):
        self.urls = urls
        self.turns = 0

    def pick(self) -> str:
        self.turns += 1
        return self.urls[(self.turns - 1) % len(self.urls)]


@pytest.fixture(scope="module", params=["memory", "redis"])
def server(request):
    """One server with the in-memory relay, or two sharing their rooms through Redis; every
    room of the tests below spans both of them."""
    args = ("--max-payload", "4000", "--max-members", "4", "--max-rate", "50", "--max-rooms-per-address", "1000",
            "--max-connections-per-address", "1000", "--max-joins-per-minute", "1000")
    if request.param == "memory":
        with serve.spawn(args=args) as url:
            yield Servers([url])
        return
    redis = ("--redis", request.getfixturevalue("redis_url"))
    with serve.spawn(args=args + redis) as first, serve.spawn(args=args + redis) as second:
        yield Servers([first, second])


def ws_url(base, path="/relay"):
    base = base.pick() if isinstance(base, Servers) else base
    return base.replace("http://", "ws://").rstrip("/") + path


async def joined(base, room=ROOM):
    socket = await connect(ws_url(base))
    await socket.send(json.dumps({"type": "join", "room": room}))
    hello = json.loads(await socket.recv())
    assert hello["type"] == "joined", hello
    return socket, hello


def run(coro):
    """Run a coroutine on its own loop in a thread (the browser tests' Playwright keeps a loop
    running in the main thread of the same pytest process)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 60)).result()


def test_two_members_talk_through_the_server(server):
    async def main():
        a, hello_a = await joined(server)
        b, hello_b = await joined(server)
        assert json.loads(await a.recv()) == {"type": "peer-joined", "id": hello_b["id"]}
        await b.send(json.dumps({"type": "send", "to": hello_a["id"], "data": "offer"}))
        assert json.loads(await a.recv()) == {"type": "from", "from": hello_b["id"], "data": "offer"}
        await b.close()
        assert json.loads(await a.recv()) == {"type": "peer-left", "id": hello_b["id"]}
        await a.close()
        c, hello_c = await joined(server)      # the room was forgotten: no one is there
        assert hello_c["peers"] == []
        await c.close()
    run(main())


def test_limits_over_the_wire(server):
    async def main():
        a, _ = await joined(server, "room-limits-1")
        await a.send(json.dumps({"type": "send", "to": None, "data": "x" * 5000}))
        assert json.loads(await a.recv())["code"] == "too-big"
        others = [await joined(server, "room-limits-1") for _ in range(3)]
        late = await connect(ws_url(server))
        await late.send(json.dumps({"type": "join", "room": "room-limits-1"}))
        assert json.loads(await late.recv())["code"] == "room-full"
        await late.close()
        late, _ = await joined(server, "room-limits-2")
        listener, _ = await joined(server, "room-limits-2")
        for _ in range(150):
            await late.send(json.dumps({"type": "send", "to": None, "data": "spam"}))
        await asyncio.sleep(0.3)
        replies = []
        with contextlib.suppress(TimeoutError):
            while True:
                replies.append(json.loads(await asyncio.wait_for(late.recv(), 0.3)))
        assert [reply["code"] for reply in replies if reply["type"] == "error"] == ["rate"]
        heard = 0
        with contextlib.suppress(TimeoutError):   # a second of silence: all forwarded has arrived
            while True:
                heard += json.loads(await asyncio.wait_for(listener.recv(), 1.0))["type"] == "from"
        assert 95 <= heard <= 115      # a burst of 100, plus what 50 a second refills meanwhile
        await listener.close()
        for socket, _ in others:
            await socket.close()
        await a.close()
        await late.close()
    run(main())


def test_binary_frames_close_the_connection(server):
    async def main():
        a, _ = await joined(server, "room-binary-1")
        await a.send(b"\x00\x01")
        with pytest.raises(ConnectionClosed) as closed:
            await a.recv()
        assert closed.value.rcvd.code == 1003
    run(main())


@pytest.mark.parametrize("path", ["/relay/../index.html", "/web/../relay", "/relay2", "/", "/index.html",
                                  "/%2e%2e/relay", "/relay/room-abcdef0123"])
def test_websockets_elsewhere_are_refused(server, path):
    async def main():
        with pytest.raises(InvalidStatus) as refused:
            await connect(ws_url(server.urls[0], path))
        assert refused.value.response.status_code == 404
    run(main())


def test_the_site_is_still_served_and_still_guarded(server):
    with urllib.request.urlopen(server.urls[0] + "index.html") as response:
        assert response.status == 200
    with pytest.raises(HTTPError) as refused:
        urllib.request.urlopen(server.urls[0] + "relay")
    assert refused.value.code == 404


def test_many_concurrent_rooms(server):
    rooms = 120

    async def pair(n):
        room = f"room-many-{n:06d}"
        a, _ = await joined(server, room)
        b, hello_b = await joined(server, room)
        await a.recv()   # peer-joined
        for k in range(5):
            await a.send(json.dumps({"type": "send", "to": hello_b["id"], "data": f"{n}:{k}"}))
        got = [json.loads(await b.recv())["data"] for _ in range(5)]
        await a.close()
        await b.close()
        return got == [f"{n}:{k}" for k in range(5)]

    async def main():
        return await asyncio.gather(*(pair(n) for n in range(rooms)))
    assert all(run(main()))


def test_relay_only_serves_no_files(tmp_path):
    (tmp_path / "index.html").write_text("<title>secret site</title>")
    with serve.spawn(root=tmp_path, args=("--relay-only",)) as url:
        with pytest.raises(HTTPError):
            urllib.request.urlopen(url + "index.html")
        with urllib.request.urlopen(url) as response:
            assert b"relay" in response.read()

        async def main():
            a, hello = await joined(url)
            assert hello["peers"] == []
            await a.close()
        run(main())


def test_no_relay_serves_files_and_refuses_the_relay(tmp_path):
    """--no-relay: a plain static host, as the serverless invite's browser test uses."""
    (tmp_path / "index.html").write_text("<p>hi</p>")
    with serve.spawn(root=tmp_path, args=("--no-relay",)) as url:
        with urllib.request.urlopen(url) as response:
            assert response.read() == b"<p>hi</p>"

        async def main():
            with pytest.raises(InvalidStatus) as refused:
                await connect(ws_url(url))
            assert refused.value.response.status_code == 404
        run(main())
