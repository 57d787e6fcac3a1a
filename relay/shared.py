"""The relay's rooms in Redis, shared by several serve.py instances (`serve.py --redis URL`).

Behind a load balancer, the members of one room may be connected to different instances.
Each instance keeps only its own sockets; what they share lives in one Redis:

    PREFIX room:ROOM     hash  member id -> "INSTANCE ADDRESS"     who is in a room
    PREFIX addr:ADDRESS  hash  room -> members from that address  the per-address limits
    PREFIX inst:INSTANCE hash  "ROOM ID" -> address                an instance's members
    PREFIX joins:ADDRESS       joins from that address this minute (expires)  --max-joins-per-minute
    PREFIX conn:ADDRESS  hash  instance -> connections open there  --max-connections-per-address
    PREFIX iconn:INSTANCE hash address -> connections open         an instance's connections
    PREFIX alive:INSTANCE      set with an expiry, renewed every third of it: the heartbeat
    PREFIX instances     set   every instance not yet cleared away
    channel PREFIX to:INSTANCE  "ROOM\\nTO\\nEXCEPT\\nTEXT": TEXT for that instance's members
                                of ROOM (TO one id, or all of them but EXCEPT)

Every change is one Lua script, so the limits hold across instances exactly as in one
process (`Relay`), and every message a script publishes reaches each instance in the order
Redis ran them: a member hears `joined` before anything else, and `peer-joined` before the
newcomer's first message. The rooms' hashes get the same expiry (times four) as a safety
net, renewed with the heartbeat. Connections per address are counted under each instance's
name (`SharedConnections`), so that a dead instance's count stops counting as soon as its
heartbeat has expired.

An instance that dies stops renewing its heartbeat; once that expires, every other instance's
next beat (`REAP`) removes its members from their rooms and tells the rest `peer-left`. The
browsers of its members find their WebSocket closed and reconnect (through the load balancer,
to another instance) and rejoin. If this instance loses Redis, it says so once in its log,
closes its members' sockets (1013, "relay-down"), refuses new ones (503: the page says the
relay is down) and tries again with backoff; it comes back as a new instance, so whatever it
held before is cleared away like a dead instance's.

`redis_server` runs a throwaway redis-server for the tests and bench/relay_load.py.
"""

import asyncio
import contextlib
import json
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, RedisError

from .limits import Connections, Limits, Log, Ticket
from .rooms import Member, Relay, Turn, too_many_joins

PREFIX = "cribbage:"
EXPIRY = 6.0         # seconds an instance's heartbeat lasts unless renewed
RETRY_MAX = 5.0      # longest wait between two attempts to reach Redis
CONNECTIONS = 16     # batches of members' scripts an instance has in flight at most

# Shared by every script: ARGV[1] is the key prefix.
COMMON = r"""
local P = ARGV[1]
-- TEXT to the members of ROOM (but EXCEPT), published once to each instance holding some.
local function tell_room(room, except, text)
  local seen = {}
  for _, where in ipairs(redis.call("HVALS", P .. "room:" .. room)) do
    local inst = string.match(where, "^(%S+)")
    if not seen[inst] then
      seen[inst] = true
      redis.call("PUBLISH", P .. "to:" .. inst, room .. "\n\n" .. except .. "\n" .. text)
    end
  end
end
-- Take member ID out of ROOM (and its address's count), and tell those left.
local function remove(room, id)
  local rk = P .. "room:" .. room
  local where = redis.call("HGET", rk, id)
  if not where then return 0 end
  local inst, addr = string.match(where, "^(%S+) (.*)$")
  redis.call("HDEL", rk, id)
  redis.call("HDEL", P .. "inst:" .. inst, room .. " " .. id)
  local ak = P .. "addr:" .. addr
  if redis.call("HINCRBY", ak, room, -1) <= 0 then redis.call("HDEL", ak, room) end
  tell_room(room, "", '{"type": "peer-left", "id": "' .. id .. '"}')
  return 1
end
"""

# ARGV: prefix, room, id, instance, address, max members, max per address, max rooms per
# address, key expiry (ms), ice ("true"/"false"), max joins a minute per address. Returns
# {status}: ok, down (this instance was given up for dead), taken (the id), too-many-joins,
# room-full, address-full, too-many-rooms. Every join counts, refused ones too (`Relay.count_join`).
JOIN = r"""
local room, id, inst, addr = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local max_members, per_address, max_rooms = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local keep, ice, max_joins = tonumber(ARGV[9]), ARGV[10], tonumber(ARGV[11])
if redis.call("EXISTS", P .. "alive:" .. inst) == 0 then return {"down"} end
local rk, ak, ik = P .. "room:" .. room, P .. "addr:" .. addr, P .. "inst:" .. inst
if redis.call("HEXISTS", rk, id) == 1 then return {"taken"} end
local jk = P .. "joins:" .. addr
local joins = redis.call("INCR", jk)
if joins == 1 then redis.call("PEXPIRE", jk, 60000) end   -- the minute starts at the first join
if joins > max_joins then return {"too-many-joins"} end
if redis.call("HLEN", rk) >= max_members then return {"room-full"} end
local mine = tonumber(redis.call("HGET", ak, room) or "0")
if mine >= per_address then return {"address-full"} end
if mine == 0 and redis.call("HLEN", ak) >= max_rooms then return {"too-many-rooms"} end
local peers = redis.call("HKEYS", rk)
for i, peer in ipairs(peers) do peers[i] = '"' .. peer .. '"' end
redis.call("PUBLISH", P .. "to:" .. inst, room .. "\n" .. id .. "\n\n" .. '{"type": "joined", "id": "' .. id ..
  '", "peers": [' .. table.concat(peers, ", ") .. '], "ice": ' .. ice .. '}')
tell_room(room, id, '{"type": "peer-joined", "id": "' .. id .. '"}')
redis.call("HSET", rk, id, inst .. " " .. addr)
redis.call("HINCRBY", ak, room, 1)
redis.call("HSET", ik, room .. " " .. id, addr)
for _, key in ipairs({rk, ak, ik}) do redis.call("PEXPIRE", key, keep) end
return {"ok"}
"""

# ARGV: prefix, room, from, "" (everyone else) or "=" .. to, text.
# Returns 1 sent, 0 no such peer, -1 the sender is no longer in the room.
FORWARD = r"""
local room, from, to, text = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local rk = P .. "room:" .. room
if redis.call("HEXISTS", rk, from) == 0 then return -1 end
if to == "" then
  tell_room(room, from, text)
  return 1
end
to = string.sub(to, 2)
local where = redis.call("HGET", rk, to)
if not where or to == from then return 0 end
redis.call("PUBLISH", P .. "to:" .. string.match(where, "^(%S+)"), room .. "\n" .. to .. "\n\n" .. text)
return 1
"""

# ARGV: prefix, room, id.
LEAVE = r"""
return remove(ARGV[2], ARGV[3])
"""

# ARGV: prefix, instance, heartbeat (ms), key expiry (ms). Returns 0 when the heartbeat had
# expired already (the others may have cleared this instance away), else 1.
BEAT = r"""
local inst, ttl, keep = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
if redis.call("PEXPIRE", P .. "alive:" .. inst, ttl) == 0 then return 0 end
local ck = P .. "iconn:" .. inst
redis.call("PEXPIRE", ck, keep)
for _, addr in ipairs(redis.call("HKEYS", ck)) do redis.call("PEXPIRE", P .. "conn:" .. addr, keep) end
local ik = P .. "inst:" .. inst
redis.call("PEXPIRE", ik, keep)
local done, held = {}, redis.call("HGETALL", ik)
for i = 1, #held, 2 do
  local room = string.match(held[i], "^(%S+)")
  for _, key in ipairs({P .. "room:" .. room, P .. "addr:" .. held[i + 1]}) do
    if not done[key] then
      done[key] = true
      redis.call("PEXPIRE", key, keep)
    end
  end
end
return 1
"""

# ARGV: prefix. Clears away every instance whose heartbeat expired; returns the members removed.
REAP = r"""
local removed = 0
for _, inst in ipairs(redis.call("SMEMBERS", P .. "instances")) do
  if redis.call("EXISTS", P .. "alive:" .. inst) == 0 then
    for _, field in ipairs(redis.call("HKEYS", P .. "inst:" .. inst)) do
      local room, id = string.match(field, "^(%S+) (%S+)$")
      removed = removed + remove(room, id)
    end
    redis.call("DEL", P .. "inst:" .. inst)
    for _, addr in ipairs(redis.call("HKEYS", P .. "iconn:" .. inst)) do
      redis.call("HDEL", P .. "conn:" .. addr, inst)
    end
    redis.call("DEL", P .. "iconn:" .. inst)
    redis.call("SREM", P .. "instances", inst)
  end
end
return removed
"""

# ARGV: prefix, address, instance, limit, key expiry (ms). Counts one more connection from
# ADDRESS at INSTANCE unless the live instances have LIMIT open already. Returns 1 counted,
# 0 refused, -1 this instance was given up for dead (nothing counted).
CONNECT = r"""
local addr, inst, limit, keep = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
if redis.call("EXISTS", P .. "alive:" .. inst) == 0 then return -1 end
local ck = P .. "conn:" .. addr
local open, counts = 0, redis.call("HGETALL", ck)
for i = 1, #counts, 2 do
  if counts[i] ~= inst and redis.call("EXISTS", P .. "alive:" .. counts[i]) == 0 then
    redis.call("HDEL", ck, counts[i])    -- a dead instance's connections died with it
  else
    open = open + tonumber(counts[i + 1])
  end
end
if open >= limit then return 0 end
local ik = P .. "iconn:" .. inst
redis.call("HINCRBY", ck, inst, 1)
redis.call("HINCRBY", ik, addr, 1)
redis.call("PEXPIRE", ck, keep)
redis.call("PEXPIRE", ik, keep)
return 1
"""

# ARGV: prefix, address, instance. One connection CONNECT counted has closed.
DISCONNECT = r"""
local addr, inst = ARGV[2], ARGV[3]
for _, pair in ipairs({{P .. "conn:" .. addr, inst}, {P .. "iconn:" .. inst, addr}}) do
  if redis.call("HINCRBY", pair[1], pair[2], -1) <= 0 then redis.call("HDEL", pair[1], pair[2]) end
end
return 1
"""

SCRIPTS = {"join": JOIN, "forward": FORWARD, "leave": LEAVE, "beat": BEAT, "reap": REAP,
           "connect": CONNECT, "disconnect": DISCONNECT}
REFUSALS = {   # a refused join: (error code, reason), from the limits
    "too-many-joins": ("too-many-joins", too_many_joins),
    "room-full": ("room-full", lambda limits: f"a room holds at most {limits.max_members} members"),
    "address-full": ("room-full", lambda limits: f"at most {limits.max_members_per_address} members "
                                                 "of a room may come from one address"),
    "too-many-rooms": ("too-many-rooms",
                       lambda limits: f"one address may be in at most {limits.max_rooms_per_address} rooms"),
}


Arg = str | int   # a script's argument, as Redis takes it


def as_text(reply: bytes | str) -> str:
    """A key or value Redis sent (bytes, unless a client decodes them), as text."""
    return reply.decode() if isinstance(reply, bytes) else reply


class Lost(Exception):
    """This instance's place in Redis is gone: Redis was unreachable for longer than the
    heartbeat, or lost its data. The instance starts again as a new one."""


def shown(url: str) -> str:
    """A Redis URL without its password, for the log.

    >>> shown("redis://:hunter2@cache.example:6379/0"), shown("redis://127.0.0.1:6379/1")
    ('redis://:***@cache.example:6379/0', 'redis://127.0.0.1:6379/1')
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = (parts.hostname or "") + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


class RedisRelay(Relay):
    """A `Relay` whose rooms live in Redis (see the module's docstring). Messages are checked
    here exactly as in memory (`Relay.parse`, the rate, TURN credentials); joins, forwards
    and leaves are scripts run in Redis; what Redis publishes for this instance goes to its
    own members' sockets. The server calls `handle` and `leave`, not `receive`."""

    def __init__(self, limits: Limits, url: str, clock: Callable[[], float] = time.monotonic,
                 log: Log | None = None, turn: Turn | None = None, expiry: float = EXPIRY,
                 prefix: str = PREFIX):
        super().__init__(limits, clock, log, turn)
        self.url, self.expiry, self.prefix = url, expiry, prefix
        # Members' scripts go out batched (`script`), at most CONNECTIONS batches at once;
        # the heartbeat, the reaper and the channel have connections of their own, so that a
        # busy instance is never given up for dead. Nothing is retried: a failure is an outage
        # (`run`), never a silent reconnect that could lose messages.
        def client(connections: int) -> aioredis.Redis:
            return aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
                url, max_connections=connections, timeout=expiry, retry=Retry(NoBackoff(), 0),
                socket_connect_timeout=2, socket_timeout=max(2.0, expiry / 2), health_check_interval=0))
        self.redis, self.control = client(CONNECTIONS), client(3)
        self.sources = {name: COMMON + body for name, body in SCRIPTS.items()}
        self.shas: dict[str, str] = {}       # loaded into Redis by `register`
        self.batch: list[tuple[str, tuple[Arg, ...], asyncio.Future[Any]]] = []
        self.flushes: set[asyncio.Task[None]] = set()
        self.trouble: Exception | None = None   # a batch's error that means starting again
        self.instance = ""
        self.up = False                  # registered in Redis and listening: members are welcome
        self.task: asyncio.Task[None] | None = None
        self.waiters: dict[str, asyncio.Future[None]] = {}   # `settle` tokens on their way back
        self.scripts_run = 0
        self.unleft: set[tuple[str, str]] = set()   # (room, id) whose leave failed: tried again each beat
        self.unreleased: list[str] = []   # addresses of connections whose uncounting failed: likewise
        self.queues: dict[Member, deque[str]] = {}          # messages counted, waiting for their turn
        self.workers: dict[Member, asyncio.Task[None]] = {}  # one task per member with a queue
        # self.rooms (from Relay) holds only this instance's members: room -> id -> Member.

    # ---- the server's side ----

    @property
    def available(self) -> bool:
        return self.up

    def receive(self, member: Member, text: str) -> None:
        raise TypeError("a RedisRelay is driven with `await handle(...)`")

    async def handle(self, member: Member, text: str) -> None:
        """Count a message against the member's rate now, as it arrives (as in memory), and
        queue it: the member's worker takes its messages in order, each awaiting Redis,
        while the server goes on reading the socket."""
        if not self.spend(member):
            return self.over_rate(member)
        queue = self.queues.setdefault(member, deque())
        if len(queue) >= self.limits.max_rate * 4:   # Redis is this far behind: as good as down
            return self.turn_away(member, Lost("Redis is too slow"))
        queue.append(text)
        if member not in self.workers:
            self.workers[member] = asyncio.create_task(self.work(member, queue))

    def unjoined(self, member: Member) -> bool:
        return member.room is None and member not in self.workers   # a queued message may be its join

    async def work(self, member: Member, queue: deque[str]) -> None:
        try:
            while queue:
                await self.take(member, queue.popleft())
        finally:
            del self.workers[member], self.queues[member]

    async def idle(self, member: Member) -> None:
        """Wait until the member's queued messages have been handled."""
        if (worker := self.workers.get(member)) is not None:
            await asyncio.shield(worker)

    async def take(self, member: Member, text: str) -> None:
        """Handle one message from the member's queue (its rate was counted on arrival)."""
        parsed = self.parse(member, text, charged=True)
        if parsed is None:
            return
        kind, args = parsed
        if kind == "ice":
            return self.ice(member)
        try:
            if not self.up:
                raise Lost("not connected to Redis")
            if kind == "join":
                await self.join_shared(member, *args)
            else:
                await self.forward_shared(member, *args)
        except (RedisError, OSError, Lost) as error:
            self.log(member.address, "relay-down", f"relay: {member.address} turned away ({kind}): "
                     f"{error or type(error).__name__}")
            self.turn_away(member, error)

    async def leave(self, member: Member) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.expiry):
                await self.idle(member)       # what it sent before closing goes first
        room = self.forget(member)
        if room is None or not self.up:
            return   # without Redis, its entry goes when this instance's old self is cleared away
        try:
            await self.script("leave", room, member.id)
        except (RedisError, OSError):
            self.unleft.add((room, member.id))

    def turn_away(self, member: Member, error: Exception) -> None:
        """Tell a member the relay is down, and close its socket (it reconnects)."""
        self.stats["relay-down"] += 1
        self.reply(member, {"type": "error", "code": "relay-down", "reason": "the relay lost its shared rooms; "
                            "reconnect in a moment"})
        if member.hang_up is not None:
            member.hang_up("relay-down")

    # ---- rooms in Redis ----

    async def script(self, name: str, *args: Arg) -> Any:
        """Run a member's script: the scripts asked for while the event loop goes round go
        to Redis together, as one pipeline (one write, one read), each answered in turn. Its
        reply is as Redis gives it (a list of bytes, an int: see each script)."""
        self.scripts_run += 1
        future = asyncio.get_running_loop().create_future()
        self.batch.append((name, args, future))
        if len(self.batch) == 1:
            asyncio.get_running_loop().call_soon(self.send_batch)
        return await future

    def send_batch(self) -> None:
        batch, self.batch = self.batch, []
        task = asyncio.create_task(self.flush(batch))
        self.flushes.add(task)
        task.add_done_callback(self.flushes.discard)

    async def flush(self, batch: list[tuple[str, tuple[Arg, ...], asyncio.Future[Any]]]) -> None:
        try:
            pipe = self.redis.pipeline(transaction=False)
            for name, args, _ in batch:
                pipe.evalsha(self.shas[name], 0, self.prefix, *args)
            results = await pipe.execute(raise_on_error=False)
        except Exception as error:   # RedisError, OSError, KeyError (no scripts: not registered yet)
            results = [error] * len(batch)
        for (_, _, future), result in zip(batch, results):
            if isinstance(result, NoScriptError):    # Redis forgot them (SCRIPT FLUSH): start again
                self.trouble = result
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result if isinstance(result, (RedisError, OSError)) else Lost(repr(result)))
            else:
                future.set_result(result)

    async def control_script(self, name: str, *args: Arg) -> Any:
        """Run the heartbeat's or the reaper's script, on the connections kept for them."""
        return await self.control.evalsha(self.shas[name], 0, self.prefix, *args)

    async def join_shared(self, member: Member, room: str) -> None:
        status = "taken"
        while status == "taken":
            local = self.rooms.setdefault(room, {})
            member.id = secrets.token_hex(6)
            if member.id in local:
                continue
            member.room = room
            local[member.id] = member    # before the script: its `joined` may arrive at once
            try:
                (reply,) = await self.script(
                    "join", room, member.id, self.instance, member.address, self.limits.max_members,
                    self.limits.max_members_per_address, self.limits.max_rooms_per_address,
                    int(4000 * self.expiry), "true" if self.turn else "false", self.limits.max_joins_per_minute)
            except (RedisError, OSError):
                self.forget(member)
                self.unleft.add((room, member.id))   # it may have joined before the answer was lost
                raise
            status = reply.decode()
            if status != "ok":
                self.forget(member)
        if status == "ok":
            self.stats["joins"] += 1
            return
        if status == "down":
            raise Lost("this instance was given up for dead")
        code, reason = REFUSALS[status]
        self.refuse(member, code, reason(self.limits))

    async def forward_shared(self, member: Member, to: str | None, data: str) -> None:
        assert member.room is not None, "parse lets only a room's members send"
        text = json.dumps({"type": "from", "from": member.id, "data": data})
        sent = await self.script("forward", member.room, member.id, "" if to is None else "=" + to, text)
        if sent < 0:
            raise Lost("this member was cleared away")
        if sent == 0:
            return self.refuse(member, "no-peer", "no such member in this room")
        self.stats["forwarded"] += 1

    def forget(self, member: Member) -> str | None:
        """Take a member out of this instance's rooms; its room (None if it was in none)."""
        room, member.room = member.room, None
        if room is None:
            return None
        local = self.rooms.get(room, {})
        if local.get(member.id) is member:
            del local[member.id]
        if not local:
            self.rooms.pop(room, None)
        return room

    def deliver(self, data: bytes) -> None:
        """One message Redis published for this instance: to one member, or to all of a room's
        here but one. An empty room is `settle`'s token coming back."""
        try:
            room, to, skip, text = data.decode().split("\n", 3)
        except ValueError:   # (UnicodeDecodeError too) not one of ours: someone else published it
            return
        if not room:
            waiter = self.waiters.pop(text, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)
            return
        members = self.rooms.get(room)
        if not members:
            return
        if to:
            if (member := members.get(to)) is not None:
                member.send(text)
            return
        for member in list(members.values()):
            if member.id != skip:
                member.send(text)

    async def settle(self) -> None:
        """Wait until everything Redis published for this instance before now has been
        delivered (a token sent through this instance's channel comes back)."""
        token = secrets.token_hex(8)
        # Our own reference: the token may come back (and leave `waiters`) before publish returns.
        back = self.waiters[token] = asyncio.get_running_loop().create_future()
        await self.control.publish(self.channel, "\n\n\n" + token)
        await back

    @property
    def channel(self) -> str:
        return f"{self.prefix}to:{self.instance}"

    # ---- staying connected ----

    async def start(self) -> None:
        """Connect (waiting a few seconds at most, so that a working relay is ready when the
        server's banner says so), then keep connected in the background."""
        first = asyncio.Event()
        self.task = asyncio.create_task(self.run(first))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await first.wait()

    async def stop(self) -> None:
        """Leave Redis: this instance's members leave their rooms at once (for the others)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.instance:
            with contextlib.suppress(RedisError, OSError, KeyError):
                await self.control.delete(f"{self.prefix}alive:{self.instance}")
                await self.control_script("reap")
        for client in (self.redis, self.control):
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()

    async def run(self, first: asyncio.Event) -> None:
        """Connect, listen and beat; on any failure say so once, close this instance's
        members, and try again (after 0.5 s, doubling up to RETRY_MAX or the expiry)."""
        delay, failing = 0.5, False
        while True:
            pubsub = self.control.pubsub()
            try:
                await self.register(pubsub)
                self.up, failing, delay = True, False, 0.5
                self.log("-", "redis", f"relay: Redis at {shown(self.url)}: connected as instance {self.instance}")
                first.set()
                await self.listen(pubsub)
            except Exception as error:   # RedisError, OSError, Lost; anything else is logged the same way
                if not failing:
                    self.log("-", "redis", f"relay: Redis at {shown(self.url)} unreachable ({error or type(error).__name__}): "
                             f"relay connections are refused until it is back; retrying")
                failing = True
            finally:
                self.up = False
                first.set()
                self.drop_members()
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()
            await asyncio.sleep(delay)
            delay = min(2 * delay, RETRY_MAX, self.expiry)

    async def register(self, pubsub: PubSub) -> None:
        """Join Redis as a new instance: listen on its channel (confirmed), start its heartbeat,
        and clear away the instance it was before, if any, and any other dead one."""
        before, self.instance = self.instance, secrets.token_hex(8)
        self.unleft.clear()   # the members (and connections) of the instance before, cleared away below
        self.unreleased.clear()
        self.trouble = None
        for client in (self.redis, self.control):   # no connection from before the outage
            await client.connection_pool.disconnect()
        for name, source in self.sources.items():
            self.shas[name] = await self.control.script_load(source)
        await pubsub.subscribe(self.channel)
        async with asyncio.timeout(5):
            while (message := await pubsub.get_message(timeout=1.0)) is None or message["type"] != "subscribe":
                pass
        await self.control.set(f"{self.prefix}alive:{self.instance}", 1, px=int(1000 * self.expiry))
        await self.control.sadd(f"{self.prefix}instances", self.instance)
        if before:
            await self.control.delete(f"{self.prefix}alive:{before}")
        await self.control_script("reap")

    async def listen(self, pubsub: PubSub) -> None:
        """Deliver what Redis publishes for this instance, and beat, until either fails."""
        beat = asyncio.create_task(self.beat())
        delivered = 0
        try:
            while True:
                delivered += 1
                if delivered % 64 == 0:   # a buffered message is read without waiting: let the rest run
                    await asyncio.sleep(0)
                if beat.done():
                    beat.result()    # its error, if any, ends the connection
                if self.trouble is not None:
                    raise Lost(f"Redis lost this relay's scripts ({self.trouble})")
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is not None and message["type"] == "message":
                    self.deliver(message["data"])
        finally:
            beat.cancel()

    async def beat(self) -> None:
        """Renew the heartbeat every third of its life, and clear away dead instances."""
        while True:
            await asyncio.sleep(self.expiry / 3)
            if not await self.control_script("beat", self.instance, int(1000 * self.expiry), int(4000 * self.expiry)):
                raise Lost("this instance's heartbeat had expired: its members were given up for dead")
            await self.control_script("reap")
            await self.leave_again()

    async def leave_again(self) -> None:
        """Take out of their rooms the members whose leave failed (a script that timed out),
        and uncount the connections whose `SharedConnections.release` failed."""
        for room, member_id in list(self.unleft):
            if member_id not in self.rooms.get(room, {}):
                await self.control_script("leave", room, member_id)
            self.unleft.discard((room, member_id))
        while self.unreleased:
            await self.control_script("disconnect", self.unreleased[-1], self.instance)
            self.unreleased.pop()

    def drop_members(self) -> None:
        """Close every member's socket: its place in Redis is no longer kept."""
        members = [member for local in self.rooms.values() for member in local.values()]
        for member in members:
            self.forget(member)
            self.turn_away(member, Lost())

    # ---- for tests ----

    async def snapshot(self) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, int]]]:
        """(rooms: room -> id -> instance, addresses: address -> room -> members), as Redis
        holds them now, under this relay's prefix."""
        rooms: dict[str, dict[str, str]] = {}
        addresses: dict[str, dict[str, int]] = {}
        async for key in self.control.scan_iter(match=self.prefix + "*"):
            name = as_text(key)[len(self.prefix):]
            kind, _, rest = name.partition(":")
            if kind == "room":
                held = await self.control.hgetall(key)
                rooms[rest] = {as_text(k): as_text(v).split(" ")[0] for k, v in held.items()}
            elif kind == "addr":
                held = await self.control.hgetall(key)
                addresses[rest] = {as_text(k): int(v) for k, v in held.items()}
        return rooms, addresses


class SharedConnections(Connections):
    """Connections per address counted across every instance sharing the Redis of ``relay``
    (`CONNECT`): an address at its limit on some instances is refused by all. This
    instance's own count is checked first, so a flood from one address costs Redis nothing.
    While Redis is unreachable (or before this instance registered), each instance counts
    only its own; a connection counted before an outage is uncounted here only, since its
    shared count went with the instance's old self."""

    def __init__(self, relay: RedisRelay):
        super().__init__(relay.limits.max_connections_per_address)
        self.relay = relay

    async def acquire(self, address: str) -> Ticket | None:
        ticket = await super().acquire(address)
        relay = self.relay
        if ticket is None or not relay.up:
            return ticket
        instance = relay.instance
        try:
            counted = await relay.script("connect", address, instance, self.limit, int(4000 * relay.expiry))
        except (RedisError, OSError, Lost):
            return ticket
        if counted == 0:
            await super().release(ticket)
            return None
        return Ticket(address, instance) if counted == 1 else ticket

    async def release(self, ticket: Ticket) -> None:
        await super().release(ticket)
        relay = self.relay
        if not ticket.shared or ticket.shared != relay.instance or not relay.up:
            return
        try:
            await relay.script("disconnect", ticket.address, ticket.shared)
        except (RedisError, OSError, Lost):
            relay.unreleased.append(ticket.address)   # for the next beat


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def redis_server(port: int = 0, folder: Path | None = None) -> Iterator[str]:
    """Run a throwaway redis-server on a loopback port (0: a free one), its files in a
    temporary folder; yield its URL (database 0). RuntimeError when redis-server is missing."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (Debian: apt-get install redis-server)")
    with contextlib.ExitStack() as stack:
        folder = folder or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="redis-")))
        port = port or free_port()
        child = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
             "--appendonly", "no", "--protected-mode", "yes", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
                if child.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {port} (exit code {child.poll()})")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            child.terminate()
            child.wait(timeout=10)
