"""The rooms of the signalling relay in this process's memory (`Relay`: no sockets, tested
directly), its members (`Member`) and the TURN credentials it hands out (`Turn`).

Members of a room exchange opaque text payloads (WebRTC offers, answers and candidates, as
the browser builds them). The relay never reads them, never stores them, and forgets a
room when its last member leaves. Every message, both ways, is one JSON object:

  client -> relay   {"type": "join", "room": ROOM}           first and once
                    {"type": "send", "to": ID | null, "data": TEXT}   null: every other member
                    {"type": "ice"}                          ask for TURN credentials (`Turn`)
  relay -> client   {"type": "joined", "id": ID, "peers": [ID, ...], "ice": BOOL}
                    {"type": "ice", "iceServers": [{"urls": [URL, ...], "username": U,
                     "credential": C}], "ttl": SECONDS}      [] and 0 without TURN
                    {"type": "peer-joined", "id": ID}   {"type": "peer-left", "id": ID}
                    {"type": "from", "from": ID, "data": TEXT}
                    {"type": "error", "code": CODE, "reason": TEXT}

"ice": true in `joined` says TURN is configured, so asking is worth it. A refused message
changes nothing and gets an error reply; the connection stays open except for `bad-frame`
(binary data), `slow` (a client that does not read), `flood` (far over the rate), a
socket that has not joined a room in time, and `relay-down` (a relay sharing its rooms
through Redis lost Redis: close 1013; the client reconnects, and meanwhile is answered 503).
Joins from one address are counted (`too-many-joins` past `Limits.max_joins_per_minute`), so
that a stranger cannot try room names fast: a device link's room is half its code.
"""

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .limits import Limits, Log

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def too_many_joins(limits: Limits) -> str:
    """Why a join over max_joins_per_minute is refused."""
    return f"one address may join at most {limits.max_joins_per_minute} rooms a minute: try again in a minute"


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

    def server(self, label: str) -> dict[str, object]:
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
        self.by_address: dict[str, Counter[str]] = {}   # address -> room -> members from there
        self.joins: dict[str, list[float]] = {}     # address -> [its minute's start, joins in it]
        self.joins_swept = clock()
        self.stats: Counter[str] = Counter()

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

    def parse(self, member: Member, text: str, charged: bool = False) -> tuple[str, tuple[Any, ...]] | None:
        """What a message asks for, checked against everything but the rooms: ("join",
        (room,)), ("forward", (to, data)) or ("ice", ()); None when it was refused (with an
        error reply) or was over the rate (``charged``: it was counted already). The arguments
        are those of the method named by the kind, which `receive` calls."""
        if not charged and not self.spend(member):
            self.over_rate(member)
            return None
        if len(text) > self.limits.max_payload:
            self.refuse(member, "too-big", f"messages are at most {self.limits.max_payload} characters")
            return None
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            self.refuse(member, "bad-message", "not JSON")
            return None
        if not isinstance(message, dict):
            self.refuse(member, "bad-message", "a message is a JSON object")
            return None
        kind = message.get("type")
        if kind == "join" and set(message) == {"type", "room"}:
            room = message["room"]
            if member.room is not None:
                self.refuse(member, "bad-message", "already in a room")
                return None
            if not isinstance(room, str) or not ROOM_ID.fullmatch(room):
                self.refuse(member, "bad-room", "a room id is 8 to 64 letters, digits, - or _")
                return None
            return "join", (room,)
        if kind == "send" and set(message) == {"type", "to", "data"}:
            to, data = message["to"], message["data"]
            if member.room is None:
                self.refuse(member, "bad-message", "join a room first")
                return None
            if not isinstance(data, str) or not (to is None or isinstance(to, str)):
                self.refuse(member, "bad-message", "send {to: id or null, data: text}")
                return None
            return "forward", (to, data)
        if kind == "ice" and set(message) == {"type"}:
            return "ice", ()
        self.refuse(member, "bad-message", "expected join {room}, send {to, data} or ice")
        return None

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

    def count_join(self, address: str) -> bool:
        """Count a join from ``address``; False when it is over max_joins_per_minute in the
        minute that began with its first join counted (a window per address, as in Redis).
        Every join asked for counts, refused ones too: each one tells whether a room exists.

        >>> relay = Relay(Limits(max_joins_per_minute=2), clock=lambda: 0.0)
        >>> [relay.count_join("1.2.3.4") for _ in range(3)], relay.count_join("5.6.7.8")
        ([True, True, False], True)
        """
        now = self.clock()
        if now - self.joins_swept >= 60:     # forget the minutes that are over
            self.joins = {address: window for address, window in self.joins.items() if now - window[0] < 60}
            self.joins_swept = now
        window = self.joins.get(address)
        if window is None or now - window[0] >= 60:
            window = self.joins[address] = [now, 0]
        window[1] += 1
        return window[1] <= self.limits.max_joins_per_minute

    def join(self, member: Member, room: str) -> None:
        if not self.count_join(member.address):
            return self.refuse(member, "too-many-joins", too_many_joins(self.limits))
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
        assert member.room is not None, "parse lets only a room's members send"
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

    def tell_others(self, member: Member, message: dict[str, object]) -> None:
        assert member.room is not None, "only a room's members tell the others"
        for other in list(self.rooms[member.room].values()):
            if other is not member:
                self.reply(other, message)

    def reply(self, member: Member, message: dict[str, object]) -> None:
        member.send(json.dumps(message))

    def refuse(self, member: Member, code: str, reason: str) -> None:
        self.stats["refused-" + code] += 1
        self.log(member.address, code, f"relay: {member.address} refused ({code}): {reason}")
        self.reply(member, {"type": "error", "code": code, "reason": reason})
