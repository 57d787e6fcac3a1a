"""The relay's WebSocket for one room (`Signal`): joins it, forwards members' payloads both ways,
fetches the relay's TURN credentials for `web.net.rtc`, and reconnects with backoff until
closed. One of the few modules allowed to touch the FFI. It reports ``RELAY_DOWN`` when the
relay cannot be reached, and the relay's reason, after ``REFUSED`` (`web.net.signal_code`),
when it refuses the join (a full room; too many joins from this address this minute...).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import JsProxy

from game.codec import loads
from game.errors import ParseError

from .browser import Listeners, trace
from .relay_path import Pace
from .rtc import relay_turn
from .signal_code import REFUSED, RELAY_DOWN
from ..tasks import spawn

RETRY_MAX = 8.0            # longest wait between relay reconnection attempts
JOIN_WAIT = 10.0           # a relay socket not in its room by then is closed and tried again
# The relay's refusals of a join (relay.rooms), said to the page in words: the relay is up.
JOIN_REFUSALS = ("room-full", "too-many-rooms", "bad-room", "too-many-joins")


def relay_url() -> str:
    """The relay's address: the page's <meta name="cribbage-relay">, else this origin's /relay."""
    meta = js.document.querySelector('meta[name="cribbage-relay"]')
    configured = str(meta.getAttribute("content") or "").strip() if meta else ""
    if configured:
        return configured
    location = js.window.location
    scheme = "wss" if location.protocol == "https:" else "ws"
    return f"{scheme}://{location.host}/relay"


def turn_servers(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The relay's ``ice`` reply's servers, if they look like RTCIceServer entries."""
    servers = reply.get("iceServers")
    if not isinstance(servers, list):
        return []
    return [s for s in servers if isinstance(s, dict) and isinstance(s.get("urls"), (str, list))
            and isinstance(s.get("username"), str) and isinstance(s.get("credential"), str)][:4]


class Signal:
    """The relay's WebSocket for one room, reconnecting with backoff until closed. It calls
    ``on_joined(peers)`` with the ids of the room's other members, ``on_from(member, payload)``
    for a member's JSON object, ``on_peer_left(member)`` and ``on_status(text)`` ("": all is
    well). The relay is not trusted: a member id that is not a string is ignored."""

    def __init__(self, room: str, on_joined: Callable[[list[str]], object],
                 on_from: Callable[[str, dict[str, Any]], object], on_peer_left: Callable[[str], object],
                 on_status: Callable[[str], object]) -> None:
        self.room, self.url = room, relay_url()
        self.on_joined, self.on_from, self.on_peer_left, self.on_status = on_joined, on_from, on_peer_left, on_status
        self.socket: JsProxy | None = None
        self.listeners = Listeners()
        self.closed = False
        self.delay = 0.5
        self.joined = False
        self.refused = ""              # the relay's refusal of this socket's join, in words
        self.pace = Pace()             # sealed pieces stay under the relay's rate
        self.on_lost: Callable[[], object] | None = None   # when a joined socket closes (relay paths die with it)

    def open(self) -> None:
        self.listeners.clear()
        self.joined, self.refused = False, ""
        try:
            self.socket = socket = js.WebSocket.new(self.url)
        except Exception:   # a malformed configured address: say so, retry later
            self.on_status("The table's relay address is not valid.")
            return
        self.listeners.on(socket, "open", self._opened)
        self.listeners.on(socket, "message", self._message)
        self.listeners.on(socket, "close", self._closed)
        spawn(self._watch(socket))

    async def _watch(self, socket: JsProxy) -> None:
        """Close ``socket`` if it is not in the room after `JOIN_WAIT` seconds: a connection
        that hangs (a load balancer's dead backend, a relay stuck on its shared rooms) would
        otherwise leave the page waiting, silent, for as long as the browser lets it."""
        await asyncio.sleep(JOIN_WAIT)
        if socket is self.socket and not self.joined and not self.closed:
            trace(f"relay: not in the room after {JOIN_WAIT:.0f} s (socket state {socket.readyState}): trying again")
            socket.close()

    def _send(self, message: dict[str, object]) -> None:
        if self.socket is not None:
            self.socket.send(json.dumps(message))

    def _opened(self, _event: JsProxy) -> None:
        trace("relay: socket open, joining the room")
        self._send({"type": "join", "room": self.room})

    def _message(self, event: JsProxy) -> None:
        try:
            message = loads(str(event.data), "a relay message", max_depth=4)
        except ParseError:
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "joined":
            self.joined, self.delay = True, 0.5    # in: the next outage starts its backoff afresh
            trace(f"relay: in the room with {len(message.get('peers') or [])} other member(s)")
            self.on_status("")
            if message.get("ice") is True:      # the relay mints TURN credentials: ask for some
                self._send({"type": "ice"})
            peers = message.get("peers")
            self.on_joined([peer for peer in peers if isinstance(peer, str)] if isinstance(peers, list) else [])
        elif kind == "ice":
            relay_turn[:] = turn_servers(message)
            ttl = message.get("ttl")
            if relay_turn and isinstance(ttl, (int, float)) and ttl >= 60:
                spawn(self._refresh_ice(ttl / 2))
        elif kind == "from":
            try:
                payload = loads(message.get("data", ""), "a member's message", max_depth=4)
            except ParseError:
                return
            sender = message.get("from")
            if isinstance(payload, dict) and isinstance(sender, str):
                self.on_from(sender, payload)
        elif kind == "peer-left" and isinstance(message.get("id"), str):
            trace(f"relay: member {message['id']} left")
            self.on_peer_left(message["id"])
        elif kind == "error":
            js.console.warn(f"relay: {message.get('code')}: {message.get('reason')}")
            if message.get("code") in JOIN_REFUSALS and not self.joined:
                self.refused = f"{REFUSED}{message.get('reason')}"
                self.on_status(self.refused)

    async def _refresh_ice(self, after: float) -> None:
        await asyncio.sleep(after)
        if self.joined and not self.closed:
            self._send({"type": "ice"})

    def _closed(self, event: JsProxy) -> None:
        was_joined, self.joined = self.joined, False
        trace(f"relay: socket closed (code {getattr(event, 'code', '?')}, {'was' if was_joined else 'never'} in the room)")
        if was_joined and self.on_lost is not None:
            self.on_lost()
        if self.closed:
            return
        self.on_status("" if was_joined else self.refused or RELAY_DOWN)   # never got in: refused, or no relay
        spawn(self._reconnect())

    async def _reconnect(self) -> None:
        await asyncio.sleep(self.delay)
        self.delay = min(self.delay * 2, RETRY_MAX)
        if not self.closed:
            self.open()

    def send(self, to: str | None, payload: dict[str, object]) -> bool:
        """Send ``payload`` to member ``to`` (None: every other member); False when not in the room."""
        if self.socket is None or not self.joined or self.socket.readyState != 1:
            return False
        self._send({"type": "send", "to": to, "data": json.dumps(payload)})
        return True

    def close(self) -> None:
        self.closed = True
        self.listeners.clear()
        if self.socket is not None:
            self.socket.close()

