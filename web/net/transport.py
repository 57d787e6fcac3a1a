"""Browser networking for tables with friends: the relay's WebSocket and WebRTC data channels.
One of the few modules allowed to touch the FFI. It moves text only: what the text means is
`web.friends.protocol`'s business, and who may send what is `web.friends.host`'s.

Star topology: the host keeps one RTCPeerConnection and data channel per guest. Signalling
payloads (opaque to the relay) are JSON objects with ``kind``:
``want-offer`` (a guest without a channel asks; carries the version of the protocol the
channel will speak, which its owner gives: `web.friends.protocol.VERSION` for a table),
``host-here`` (a host that (re)joined tells everyone, with the same version), ``offer`` / ``answer`` (complete SDP,
candidates included, so no trickle). Once a channel is open the relay is not needed: a game
survives a relay restart.

Anyone with the link can join the relay room, so nothing that arrives through the relay is
trusted: a table's host uses one persistent certificate (`table_certificate`), whose pin the
invite link carries, and a guest takes only offers made with it (`web.net.identity`); the
protocol's version is checked on the channel itself. The host answers want-offers within
the bounds of `web.net.offers.OfferBook`, and keeps open channels within those of
`web.net.channels.ChannelBook` (one per relay member, few with no one seated), so neither a
flood of requests nor a guest that takes every offer can exhaust its peer connections.

Without a relay (a plain static host), `HostNet.make_invite` and `CodeGuestNet` do the same
exchange by hand: the offer travels in the invite link and the answer comes back as a code the
host pastes (`web.net.signal_code`). Signal reports ``RELAY_DOWN`` when the relay cannot be reached.

Each step of a connection (the relay joined or lost, an offer, an answer, a channel opened or
closed) is traced with ``console.debug`` ("cribbage net: ..."): a self-hoster whose friends
cannot connect sees in DevTools (verbose level) how far they got, and so do the browser tests'
reports when one fails.
"""

from __future__ import annotations

import asyncio
import json
import secrets

import js
from pyodide.ffi import create_proxy, to_js

from game.codec import loads
from game.errors import ParseError

from . import frames, identity, relay_path, signal_code
from .channels import ChannelBook
from .offers import OfferBook
from .relay_path import Pace, SealedLink, b64, unb64
from .signal_code import RELAY_DOWN

GATHER_TIMEOUT = 3.0       # seconds to wait for ICE candidates before sending what we have
RETRY_MAX = 8.0            # longest wait between relay reconnection attempts
JOIN_WAIT = 10.0           # a relay socket not in its room by then is closed and tried again
ASK_EVERY = 3.0            # a guest without a channel asks for an offer this often
CONNECT_WAIT = 10.0        # ... but not while the channel of its last answer may still open
STALE_AFTER = 6.0          # seconds without a host before the guest says the link may be stale
FALLBACK_AFTER = 6.0       # seconds without a direct path before a guest tries the relay path
DIRECT_RETRY = 15.0        # on the relay path, a guest still asks for a direct one this often
MAX_SEALED = 8             # relay paths a host keeps at once (a room holds 8 members)
CONFIRM_WAIT = 5.0         # seconds a guest gives a relay path's first piece to come and open
SEAL_EVERY = 3.0           # seconds a member must wait between two relay path requests
# Well-known public STUN servers, used only once a table with friends (or a device link) opens
# a connection: they learn this browser's public address, nothing else. The page's
# <meta name="cribbage-ice-servers"> replaces them ("[]": none).
DEFAULT_ICE = [{"urls": ["stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478"]}]
relay_turn: list = []      # short-lived TURN servers the relay handed out (serve.py --turn-url)
FALLING_BACK = "No direct connection to the host yet: connecting through the relay instead…"
NO_FALLBACK = ("No direct connection to the host, and this page cannot use the relay instead: it needs a "
               "secure address (https). Ask the host to serve the game over https or to set up a TURN server.")
STALE = ("No one is hosting this table right now: the link may be stale, or the host has closed "
         "the page. Still trying…")
HOST_GONE = ("The host has left the table: they closed the page or lost their connection. Your seat "
             "is kept, and the game goes on when they come back…")


def relay_url() -> str:
    """The relay's address: the page's <meta name="cribbage-relay">, else this origin's /relay."""
    meta = js.document.querySelector('meta[name="cribbage-relay"]')
    configured = (meta.getAttribute("content") or "").strip() if meta else ""
    if configured:
        return configured
    location = js.window.location
    scheme = "wss" if location.protocol == "https:" else "ws"
    return f"{scheme}://{location.host}/relay"


def ice_servers() -> list:
    """STUN/TURN servers: the page's <meta name="cribbage-ice-servers" content='[...]'>, or
    `DEFAULT_ICE` when it is missing or says "default"; then the relay's TURN servers."""
    meta = js.document.querySelector('meta[name="cribbage-ice-servers"]')
    text = (meta.getAttribute("content") or "").strip() if meta else ""
    if text in ("", "default"):
        servers = DEFAULT_ICE
    else:
        try:
            servers = json.loads(text)
        except ValueError:
            js.console.warn("cribbage-ice-servers is not JSON: using no STUN or TURN server")
            servers = []
    return (servers if isinstance(servers, list) else []) + relay_turn


def _turn_servers(reply: dict) -> list:
    """The relay's ``ice`` reply's servers, if they look like RTCIceServer entries."""
    servers = reply.get("iceServers")
    if not isinstance(servers, list):
        return []
    return [s for s in servers if isinstance(s, dict) and isinstance(s.get("urls"), (str, list))
            and isinstance(s.get("username"), str) and isinstance(s.get("credential"), str)][:4]


def trace(text: str) -> None:
    """One step of a connection, for DevTools' verbose level (see the module's docstring)."""
    js.console.debug(f"cribbage net: {text}")


def _candidates(sdp: str) -> int:
    """How many ICE candidates an SDP carries (none: the peers cannot connect), for `trace`.

    >>> _candidates("v=0\\r\\na=candidate:1 1 udp 2113937151 10.0.0.2 5000 typ host\\r\\n")
    1
    """
    return sdp.count("a=candidate:")


def _js(value):
    return to_js(value, dict_converter=js.Object.fromEntries)


def certificate_pin(certificate) -> str:
    """The link-safe pin of a certificate's SHA-256 fingerprint (`web.net.identity`)."""
    for found in certificate.getFingerprints():
        if str(found.algorithm).lower() == identity.ALGORITHM:
            return identity.pin_from_hex(str(found.value))
    raise ValueError("the browser gave no SHA-256 fingerprint")


class Listeners:
    """Event listeners we own: kept alive while attached, destroyed on `clear`."""

    def __init__(self):
        self.items = []

    def on(self, target, name: str, handler) -> None:
        proxy = create_proxy(handler)
        target.addEventListener(name, proxy)
        self.items.append((target, name, proxy))

    def clear(self) -> None:
        for target, name, proxy in self.items:
            target.removeEventListener(name, proxy)
            proxy.destroy()
        self.items.clear()


class Signal:
    """The relay's WebSocket for one room, reconnecting with backoff until closed."""

    def __init__(self, room: str, on_joined, on_from, on_peer_left, on_status):
        self.room, self.url = room, relay_url()
        self.on_joined, self.on_from, self.on_peer_left, self.on_status = on_joined, on_from, on_peer_left, on_status
        self.socket = None
        self.listeners = Listeners()
        self.closed = False
        self.delay = 0.5
        self.joined = False
        self.pace = Pace()             # sealed pieces stay under the relay's rate
        self.on_lost = None            # called when a joined socket closes (relay paths die with it)

    def open(self) -> None:
        self.listeners.clear()
        self.joined = False
        try:
            self.socket = js.WebSocket.new(self.url)
        except Exception:   # a malformed configured address: say so, retry later
            self.on_status("The table's relay address is not valid.")
            return
        self.listeners.on(self.socket, "open", self._opened)
        self.listeners.on(self.socket, "message", self._message)
        self.listeners.on(self.socket, "close", self._closed)
        asyncio.ensure_future(self._watch(self.socket))

    async def _watch(self, socket) -> None:
        """Close ``socket`` if it is not in the room after `JOIN_WAIT` seconds: a connection
        that hangs (a load balancer's dead backend, a relay stuck on its shared rooms) would
        otherwise leave the page waiting, silent, for as long as the browser lets it."""
        await asyncio.sleep(JOIN_WAIT)
        if socket is self.socket and not self.joined and not self.closed:
            trace(f"relay: not in the room after {JOIN_WAIT:.0f} s (socket state {socket.readyState}): trying again")
            socket.close()

    def _opened(self, _event) -> None:
        self.delay = 0.5
        trace("relay: socket open, joining the room")
        self.socket.send(json.dumps({"type": "join", "room": self.room}))

    def _message(self, event) -> None:
        try:
            message = loads(str(event.data), "a relay message", max_depth=4)
        except ParseError:
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "joined":
            self.joined = True
            trace(f"relay: in the room with {len(message.get('peers') or [])} other member(s)")
            self.on_status("")
            if message.get("ice") is True:      # the relay mints TURN credentials: ask for some
                self.socket.send(json.dumps({"type": "ice"}))
            self.on_joined(message.get("peers", []))
        elif kind == "ice":
            relay_turn[:] = _turn_servers(message)
            ttl = message.get("ttl")
            if relay_turn and isinstance(ttl, (int, float)) and ttl >= 60:
                asyncio.ensure_future(self._refresh_ice(ttl / 2))
        elif kind == "from":
            try:
                payload = loads(message.get("data", ""), "a member's message", max_depth=4)
            except ParseError:
                return
            if isinstance(payload, dict):
                self.on_from(message.get("from"), payload)
        elif kind == "peer-left":
            trace(f"relay: member {message.get('id')} left")
            self.on_peer_left(message.get("id"))
        elif kind == "error":
            js.console.warn(f"relay: {message.get('code')}: {message.get('reason')}")
            if message.get("code") in ("room-full", "too-many-rooms", "bad-room"):
                self.on_status(f"The relay refused this table: {message.get('reason')}")

    async def _refresh_ice(self, after: float) -> None:
        await asyncio.sleep(after)
        if self.joined and not self.closed:
            self.socket.send(json.dumps({"type": "ice"}))

    def _closed(self, event) -> None:
        was_joined, self.joined = self.joined, False
        trace(f"relay: socket closed (code {getattr(event, 'code', '?')}, {'was' if was_joined else 'never'} in the room)")
        if was_joined and self.on_lost is not None:
            self.on_lost()
        if self.closed:
            return
        self.on_status("" if was_joined else RELAY_DOWN)   # never got in: no relay there
        asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        await asyncio.sleep(self.delay)
        self.delay = min(self.delay * 2, RETRY_MAX)
        if not self.closed:
            self.open()

    def send(self, to, payload: dict) -> bool:
        if self.socket is None or not self.joined or self.socket.readyState != 1:
            return False
        self.socket.send(json.dumps({"type": "send", "to": to, "data": json.dumps(payload)}))
        return True

    def close(self) -> None:
        self.closed = True
        self.listeners.clear()
        if self.socket is not None:
            self.socket.close()


async def _gathered(pc) -> None:
    """Wait until ICE gathering is complete (or GATHER_TIMEOUT passes)."""
    for _ in range(int(GATHER_TIMEOUT / 0.02)):
        if pc.iceGatheringState == "complete":
            return
        await asyncio.sleep(0.02)


def _config(certificate=None):
    config = _js({"iceServers": ice_servers()})
    if certificate is not None:
        config.certificates = to_js([certificate])
    return config


async def _answer_offer(peer: "Peer", sdp: str, on_open, on_message, on_close) -> str:
    """Take the host's offer on ``peer`` (the data channel arrives with the connection) and
    return our answer, its candidates gathered."""
    def channel_arrived(event):
        peer.attach(event.channel, on_open, on_message, on_close)
    peer.listeners.on(peer.pc, "datachannel", channel_arrived)
    await peer.pc.setRemoteDescription(_js({"type": "offer", "sdp": sdp}))
    answer = await peer.pc.createAnswer()
    await peer.pc.setLocalDescription(answer)
    await _gathered(peer.pc)
    return peer.pc.localDescription.sdp


class Peer:
    """One RTCPeerConnection with its data channel and the listeners we own."""

    def __init__(self, certificate=None):
        self.pc = js.RTCPeerConnection.new(_config(certificate))
        self.channel = None
        self.listeners = Listeners()
        self.open = False
        self.ended = False

    def attach(self, channel, on_open, on_message, on_close) -> None:
        """Attach the channel's handlers now (never later: the open event would be lost)."""
        self.channel = channel

        def opened(_event):
            self.open = True
            on_open()

        def closed(_event):
            self.open = False
            if not self.ended:      # once, whether the channel or the connection said so first
                self.ended = True
                on_close()

        self.listeners.on(channel, "open", opened)
        self.listeners.on(channel, "message", lambda event: on_message(str(event.data)))
        self.listeners.on(channel, "close", closed)

        def state(_event):
            if self.pc.connectionState in ("failed", "closed") and self.channel is not None:
                closed(None)
        self.listeners.on(self.pc, "connectionstatechange", state)

    def send(self, text: str) -> None:
        if self.channel is not None and self.channel.readyState == "open":
            self.channel.send(text)

    def close(self) -> None:
        self.ended = True
        self.listeners.clear()
        if self.channel is not None:
            self.channel.close()
        self.pc.close()
        self.open = False


async def peer_path(peer: Peer) -> tuple[str, float | None]:
    """A direct connection's path from its selected ICE candidate pair: ``"TURN"`` when either
    end is a relay candidate, else ``"direct"``; and its round trip in ms."""
    try:
        stats = await peer.pc.getStats()
        reports = {report.id: report for report in stats.values()}
        for report in reports.values():
            if report.type == "transport" and getattr(report, "selectedCandidatePairId", None):
                pair = reports.get(report.selectedCandidatePairId)
                local = reports.get(pair.localCandidateId)
                remote = reports.get(pair.remoteCandidateId)
                relayed = "relay" in (getattr(local, "candidateType", ""), getattr(remote, "candidateType", ""))
                rtt = getattr(pair, "currentRoundTripTime", None)
                return ("TURN" if relayed else "direct", None if rtt is None else float(rtt) * 1000)
    except Exception as failed:
        js.console.warn(f"no connection stats: {failed}")
    return ("direct", None)


class HostNet:
    """The host's side: answers guests' requests with offers, one data channel per guest.
    Calls ``on_open(conn)``, ``on_message(conn, text)``, ``on_close(conn)``; ``conn`` is a
    fresh id per channel. ``version``: that of the protocol its channels speak, said in
    ``host-here`` (the channel itself checks it)."""

    def __init__(self, room: str, on_open, on_message, on_close, on_status, certificate=None,
                 key_pair=None, key_public: bytes = b"", *, version: int):
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.room, self.version = room, version
        self.certificate = certificate      # the table's identity; None: one per connection
        self.key_pair, self.key_public = key_pair, key_public    # the relay path's (web.net.relay_path)
        self.peers: dict[str, Peer] = {}    # relay id -> peer
        self.conns: dict = {}               # conn -> Peer or SealedLink
        self.sealed: dict[str, SealedLink] = {}   # relay id -> its relay path
        self.sealed_asked: dict[str, float] = {}  # relay id -> when it last asked for one
        self.count = 0
        self.book = OfferBook()
        self.channels = ChannelBook()
        self.invite: tuple[int, Peer] | None = None    # the code invite waiting for its answer
        self.signal = Signal(room, self._joined, self._from, self._left, on_status)
        self.signal.on_lost = self._relay_lost
        self.closed = False

    def start(self) -> None:
        self.signal.open()
        asyncio.ensure_future(self._tick_loop())

    def _joined(self, _peers) -> None:
        self.signal.send(None, {"kind": "host-here", "v": self.version})

    def _left(self, relay_id) -> None:
        # A guest's open channel outlives its relay connection; an offer still pending, or a
        # relay path, does not.
        self.book.forget(relay_id)
        self.channels.left(str(relay_id))
        self._drop_pending(relay_id)
        link = self.sealed.pop(relay_id, None)
        if link is not None:
            link.close()

    def _relay_lost(self) -> None:
        self.channels.relay_lost()
        for link in list(self.sealed.values()):
            link.close()
        self.sealed.clear()

    def _from(self, sender, payload: dict) -> None:
        kind = payload.get("kind")
        if kind == "want-offer":
            # Any version gets an offer: the version is checked on the channel, where a guest
            # can trust what the host says (nothing from the relay may change its screen).
            now = asyncio.get_event_loop().time()
            for member in self.book.expire(now):
                self._drop_pending(member)
            verdict = self.book.ask(str(sender), now)
            trace(f"host: want-offer from {sender}: {verdict}")
            if verdict in ("new", "replace"):
                asyncio.ensure_future(self._offer(sender))
        elif kind == "answer" and sender in self.peers and isinstance(payload.get("sdp"), str):
            asyncio.ensure_future(self._answer(self.peers[sender], payload["sdp"]))
        elif kind == "seal-hello":
            self._seal_asked(sender, payload)
        elif kind in ("sealed", "seal-bye", "seal-pong") and sender in self.sealed:
            link = self.sealed[sender]
            if kind == "sealed":
                link.receive(payload)
            elif kind == "seal-bye":
                del self.sealed[sender]
                link.close()
            elif isinstance(payload.get("t"), (int, float)):
                link.pinged(payload["t"])

    # -- the relay path (web.net.relay_path) --

    def _seal_asked(self, member, hello: dict) -> None:
        """A guest with no direct path asks for the relay path: at most one per member, one
        request per `SEAL_EVERY`, `MAX_SEALED` in all. Each gets a key of its own (a fresh
        nonce), and a first piece at once, by which the guest knows this is the host."""
        now = asyncio.get_event_loop().time()
        if self.key_pair is None or not relay_path.available() or now - self.sealed_asked.get(member, -99) < SEAL_EVERY:
            return
        if hello.get("v") != relay_path.VERSION:
            trace(f"host: seal-hello from {member} refused: handshake version {str(hello.get('v'))[:8]}")
            return
        self.sealed_asked[member] = now
        old = self.sealed.pop(member, None)
        if old is not None:
            old.close()
        if len(self.sealed) >= MAX_SEALED:
            return
        try:
            theirs = unb64(hello.get("pub"))
        except (ValueError, frames.FrameError):
            return
        if len(theirs) != 65:
            return
        nonce = secrets.token_bytes(relay_path.NONCE)
        key = relay_path.shared_key(self.key_pair, theirs, self.key_public, self.room, nonce, guest=False)
        self.count += 1
        conn = f"c{self.count}"
        link = SealedLink(self.signal.send, self.signal.pace, member, key, frames.HOST_TO_GUEST,
                          lambda text: self.on_message(conn, text), lambda: self._closed(conn))
        self.conns[conn] = link
        self.sealed[member] = link
        trace(f"host: relay path {conn} to {member}")
        self.signal.send(member, {"kind": "seal-ready", "v": relay_path.VERSION, "pub": b64(self.key_public),
                                  "nonce": b64(nonce)})
        link.greet()
        self.on_open(conn)

    async def _tick_loop(self) -> None:
        """Every few seconds: measure each relay path's round trip (a direct one reports its
        own in getStats), and close the channels unseated for too long (`web.net.channels`)."""
        while not self.closed:
            await asyncio.sleep(relay_path.PING_EVERY)
            now = asyncio.get_event_loop().time()
            for member in list(self.sealed):
                self.signal.send(member, {"kind": "seal-ping", "t": now})
            self._close_channels(self.channels.expire(now), "no one sat down on it")

    def seated(self, conns) -> None:
        """The table's conns that have a seat now (the others are bounded: `web.net.channels`)."""
        self.channels.seated(set(conns))

    def _close_channels(self, conns: list, reason: str) -> None:
        for conn in conns:
            trace(f"host: closing channel {conn}: {reason}")
            self._closed(conn)

    async def paths(self) -> dict:
        """``conn -> (path, round trip in ms or None)`` for every open connection; the path is
        ``"direct"``, ``"TURN"`` or ``"relay"``."""
        found = {}
        for conn, link in list(self.conns.items()):
            if not link.open:
                continue
            if isinstance(link, SealedLink):
                found[conn] = ("relay", link.rtt_ms)
            else:
                found[conn] = await peer_path(link)
        return found

    def _drop_pending(self, relay_id) -> None:
        peer = self.peers.get(relay_id)
        if peer is not None and not peer.open:
            del self.peers[relay_id]
            self._drop_peer(peer)

    async def _offer(self, relay_id: str) -> None:
        self._drop_pending(relay_id)
        self.peers.pop(relay_id, None)      # an open channel it had stays in conns
        peer = self._new_peer(relay_id)
        self.peers[relay_id] = peer
        sdp = await self._local_offer(peer)
        if self.peers.get(relay_id) is peer:    # not replaced or given up while gathering
            trace(f"host: offer to {relay_id}")
            self.signal.send(relay_id, {"kind": "offer", "sdp": sdp})

    def _new_peer(self, relay_id=None) -> Peer:
        """A peer with its data channel, known by a fresh conn id."""
        self.count += 1
        conn = f"c{self.count}"
        peer = Peer(self.certificate)
        self.conns[conn] = peer
        channel = peer.pc.createDataChannel("table", _js({"ordered": True}))

        def opened():
            trace(f"host: channel {conn} open (relay member {relay_id})")
            if relay_id is not None:
                self.book.connected(str(relay_id))
                now = asyncio.get_event_loop().time()
                self._close_channels(self.channels.opened(conn, str(relay_id), now),
                                     f"its member's older one, or too many unseated (member {relay_id})")
            self.on_open(conn)
        peer.attach(channel, opened, lambda text: self.on_message(conn, text), lambda: self._closed(conn))
        return peer

    def live_connections(self) -> int:
        """Peer connections this host holds now (open channels, pending offers, a code invite)."""
        return len(self.conns)

    def fingerprints(self, conn) -> tuple[list, list]:
        """(local, remote): the certificate fingerprints (`identity.fingerprints`) in the SDPs of
        channel ``conn``, this browser's and the guest's, for a device link to prove its code
        over (web.profile.device_link). [] for an SDP not known yet: Chromium may open the
        channel before the answer's setRemoteDescription has resolved."""
        pc = getattr(self.conns.get(conn), "pc", None)      # a relay path has none
        local = getattr(getattr(pc, "localDescription", None), "sdp", None)    # None or JS null
        remote = getattr(getattr(pc, "remoteDescription", None), "sdp", None)
        return identity.fingerprints(local or ""), identity.fingerprints(remote or "")

    async def _local_offer(self, peer: Peer) -> str:
        offer = await peer.pc.createOffer()
        await peer.pc.setLocalDescription(offer)
        await _gathered(peer.pc)
        return peer.pc.localDescription.sdp

    async def _answer(self, peer: Peer, sdp: str) -> None:
        if peer.pc.signalingState == "have-local-offer":
            await peer.pc.setRemoteDescription(_js({"type": "answer", "sdp": sdp}))

    async def make_invite(self) -> str:
        """An invite without the relay: a new peer's offer as a code for one friend's link.
        An earlier code invite that no one answered is withdrawn."""
        if self.invite is not None and not self.invite[1].open:
            self._drop_peer(self.invite[1])
        peer = self._new_peer()
        number = secrets.randbelow(10**6)
        self.invite = (number, peer)
        sdp = await self._local_offer(peer)
        trace(f"host: code invite made ({_candidates(sdp)} candidates)")
        return signal_code.pack("offer", number, sdp)

    async def accept_answer(self, code: str) -> None:
        """The friend's answer code for the current code invite; `ParseError` says what is wrong."""
        kind, number, sdp = signal_code.unpack(code)
        if kind != "answer":
            raise ParseError("that is an invite code: paste the answer code your friend sent back")
        if self.invite is None or number != self.invite[0]:
            raise ParseError("that answer is for an older invite link: make a new one and send it")
        peer = self.invite[1]
        if peer.pc.signalingState != "have-local-offer":
            raise ParseError("that invite has been answered already: make a new one for the next friend")
        try:
            await peer.pc.setRemoteDescription(_js({"type": "answer", "sdp": sdp}))
        except Exception:
            raise ParseError("that answer code does not fit this invite: make a new invite link") from None
        trace(f"host: answer code taken ({_candidates(sdp)} candidates)")

    def _drop_peer(self, peer: Peer) -> None:
        for conn, known in list(self.conns.items()):
            if known is peer:
                del self.conns[conn]
        peer.close()

    def _closed(self, conn: str) -> None:
        peer = self.conns.pop(conn, None)
        self.channels.closed(conn)
        if peer is None:
            return
        trace(f"host: channel {conn} closed")
        for relay_id, known in list(self.peers.items()):
            if known is peer:
                del self.peers[relay_id]
                self.book.forget(str(relay_id))
        for relay_id, known in list(self.sealed.items()):
            if known is peer:
                del self.sealed[relay_id]
        peer.close()
        self.on_close(conn)

    def send(self, conn, text: str) -> None:
        peer = self.conns.get(conn)
        if peer is not None:
            peer.send(text)

    def close(self) -> None:
        self.closed = True
        self.signal.close()
        for peer in list(self.conns.values()):
            peer.close()
        self.conns.clear()
        self.peers.clear()
        self.sealed.clear()


class GuestSide:
    """What every guest connection has: at most one peer, the host."""

    peer: Peer | None = None

    @property
    def connected(self) -> bool:
        return self.peer is not None and self.peer.open

    def send(self, text: str) -> bool:
        if self.connected:
            self.peer.send(text)
            return True
        return False

    def _opened(self) -> None:
        self.on_status("")
        self.on_open()

    def fingerprints(self) -> tuple[list, list]:
        """(local, remote): as `HostNet.fingerprints`, for the channel to the host."""
        pc = self.peer.pc if self.peer is not None else None
        local = getattr(getattr(pc, "localDescription", None), "sdp", None)
        remote = getattr(getattr(pc, "remoteDescription", None), "sdp", None)
        return identity.fingerprints(local or ""), identity.fingerprints(remote or "")


class GuestNet(GuestSide):
    """A guest's side: asks the room for an offer until a channel to the host is open. With a
    ``pin`` (a table's invite link) only offers made with the host's certificate are taken;
    without one (linking a device, where the code is the secret) any member's offer is.

    With a ``key_pin`` too, a guest that has no direct path after `FALLBACK_AFTER` seconds
    asks the host for the relay path (`web.net.relay_path`), and keeps asking for a direct
    one now and then: the first that opens carries the table, and a direct path replaces
    the relay path as soon as it opens. Every ``seal-ready`` that carries the pinned key is
    tried (any member can copy the host's public key): the relay path is the first whose
    piece opens, and one whose piece has not come within `CONFIRM_WAIT` is given up.

    ``version``: that of the protocol its channel speaks, said in ``want-offer``."""

    def __init__(self, room: str, on_open, on_message, on_close, on_status, pin: str | None = None,
                 key_pin: str | None = None, *, version: int):
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.room, self.pin, self.key_pin, self.version = room, pin, key_pin, version
        self.refusals = 0                   # offers refused for a wrong identity
        self.peer: Peer | None = None
        self.sealed: SealedLink | None = None
        self.sealing = None                 # (key pair, public bytes) of the relay path asked for
        self.sealing_at = -99.0
        self.trials: dict[str, SealedLink] = {}   # relay member -> its answer, until a piece opens
        self.host_id = None
        self.closed = False
        self.since = None
        self.answered_at = 0.0
        self.direct_asked = 0.0
        self.hosts: set = set()             # relay members in the room that spoke as the host
        self.host_left = False              # ... and every one of them has left it since
        self.signal = Signal(room, self._joined, self._from, self._left, self._relay_status)
        self.signal.on_lost = self._relay_lost

    @property
    def direct(self) -> bool:
        return self.peer is not None and self.peer.open

    @property
    def host_seen(self) -> bool:
        """The host is in the relay's room, as far as this guest knows (it said so, or offered)."""
        return bool(self.hosts)

    @property
    def connected(self) -> bool:
        return self.direct or (self.sealed is not None and self.sealed.open)

    def send(self, text: str) -> bool:
        if self.direct:
            self.peer.send(text)
        elif self.sealed is not None and self.sealed.open:
            self.sealed.send(text)
        else:
            return False
        return True

    async def path(self) -> tuple[str, float | None] | None:
        """How this guest reaches the host now: ("direct" / "TURN" / "relay", round trip ms)."""
        if self.direct:
            return await peer_path(self.peer)
        if self.sealed is not None and self.sealed.open:
            return ("relay", self.sealed.rtt_ms)
        return None

    def start(self) -> None:
        self.signal.open()
        asyncio.ensure_future(self._ask_loop())

    def _relay_status(self, text: str) -> None:
        if not self.connected:
            self.on_status(text or "Connecting to the table…")

    def _joined(self, peers) -> None:
        if self.connected:
            return
        if not peers:
            self.on_status(STALE)
        self._ask_direct()

    def _ask_direct(self) -> None:
        self.direct_asked = asyncio.get_event_loop().time()
        trace("guest: want-offer")
        self.signal.send(None, {"kind": "want-offer", "v": self.version})

    def _left(self, relay_id) -> None:
        if self.sealed is not None and relay_id == self.sealed.to:
            self.sealed.close()
        if relay_id in self.trials:
            self.trials[relay_id].close()
        if relay_id in self.hosts:
            self.hosts.discard(relay_id)
            self.host_left = not self.hosts
            self._say_host_gone()

    def _say_host_gone(self) -> None:
        """Cut off, with the host gone from the room: say so (rather than "connecting through the
        relay…", which cannot work without a host), until it comes back."""
        if self.host_left and not self.connected and not self.closed:
            self.on_status(HOST_GONE)

    def _relay_lost(self) -> None:
        self.hosts.clear()         # who is in the room is told again on joining it
        self.host_left = False
        self._end_trials()
        if self.sealed is not None:
            self.sealed.close()

    def _end_trials(self) -> None:
        for link in list(self.trials.values()):
            link.close()

    async def _ask_loop(self) -> None:
        loop = asyncio.get_event_loop()
        self.since = loop.time()
        while not self.closed:
            await asyncio.sleep(ASK_EVERY)
            now = loop.time()
            if self.direct:
                self.since = now
                continue
            if self.connected:      # on the relay path: a direct one is still better
                self.since = now
                if self.signal.joined and now - self.direct_asked > DIRECT_RETRY:
                    self._ask_direct()
                continue
            # Asking again while an answered offer is still connecting would make the host
            # replace that connection (and drop what was sent on it): give it time first.
            pending = self.peer is not None and now - self.answered_at < CONNECT_WAIT
            if self.signal.joined and not pending:
                self._ask_direct()
            late = now - self.since > FALLBACK_AFTER
            if self.signal.joined and self.host_seen and late and now - self.sealing_at > 2 * FALLBACK_AFTER:
                self.sealing_at = now
                asyncio.ensure_future(self._ask_sealed())
            if self.signal.joined and not self.host_seen and now - self.since > STALE_AFTER:
                self.on_status(HOST_GONE if self.host_left else STALE)

    async def _ask_sealed(self) -> None:
        """Ask the host for the relay path, with a fresh key pair."""
        if self.key_pin is None:
            return
        if not relay_path.available():
            self.on_status(NO_FALLBACK)
            return
        self.on_status(FALLING_BACK)
        pair = await relay_path.new_key_pair()
        public = await relay_path.public_bytes(pair)
        self.sealing = (pair, public)
        trace("guest: seal-hello")
        self.signal.send(None, {"kind": "seal-hello", "v": relay_path.VERSION, "pub": b64(public)})

    def _from(self, sender, payload: dict) -> None:
        kind = payload.get("kind")
        if kind in ("host-here", "offer", "seal-ready"):
            self.hosts.add(sender)
            self.host_left = False
        if kind == "host-here":
            # Any member can say so: a relay path ends when its member leaves the room (`_left`;
            # the relay notices a vanished page within a minute), never on another's word.
            if not self.direct:
                self.signal.send(sender, {"kind": "want-offer", "v": self.version})
        elif kind == "offer" and not self.direct and isinstance(payload.get("sdp"), str):
            if self.pin is not None and not identity.offer_matches(payload["sdp"], self.pin):
                trace(f"guest: offer from {sender} refused: not the host's certificate")
                self.refusals += 1
                self.on_status(identity.WRONG_HOST)
                return
            asyncio.ensure_future(self._answer(sender, payload["sdp"]))
        elif kind == "seal-ready" and self.sealing is not None and not self.connected:
            self._sealed_ready(sender, payload)
        elif kind in ("sealed", "seal-bye", "seal-ping"):
            link = self.sealed if self.sealed is not None and sender == self.sealed.to else self.trials.get(sender)
            if link is None:
                return
            if kind == "sealed":
                link.receive(payload)
            elif kind == "seal-bye":
                link.close()
            elif link is self.sealed:
                self.signal.send(sender, {"kind": "seal-pong", "t": payload.get("t")})

    def _sealed_ready(self, sender, ready: dict) -> None:
        """A member answers our seal-hello: with the pinned key, try it (`CONFIRM_WAIT`)."""
        if sender in self.trials or len(self.trials) >= MAX_SEALED or ready.get("v") != relay_path.VERSION:
            return
        try:
            theirs, nonce = unb64(ready.get("pub")), unb64(ready.get("nonce"))
        except (ValueError, frames.FrameError):
            return
        if identity.key_pin(theirs) != self.key_pin:
            self.refusals += 1
            self.on_status(identity.WRONG_KEY)
            return
        if len(nonce) != relay_path.NONCE:
            return
        pair, public = self.sealing
        key = relay_path.shared_key(pair, public, theirs, self.room, nonce, guest=True)
        trace(f"guest: seal-ready from {sender}: waiting for its first piece")
        link = SealedLink(self.signal.send, self.signal.pace, sender, key, frames.GUEST_TO_HOST,
                          self.on_message, lambda: self._sealed_closed(link), self._sealed_confirmed)
        self.trials[sender] = link
        asyncio.ensure_future(self._confirm_within(link, CONFIRM_WAIT))

    async def _confirm_within(self, link: SealedLink, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if not link.confirmed:
            link.fail(f"no piece from {link.to} opened within {seconds:.0f} s")

    def _sealed_confirmed(self, link: SealedLink) -> None:
        """A piece from ``link``'s member opened: it holds the host's key, and carries the table."""
        if self.trials.get(link.to) is link:
            del self.trials[link.to]
        if self.connected or self.closed:
            link.close()
            return
        trace(f"guest: relay path to {link.to} open")
        self.sealing = None
        self._end_trials()
        link.rtt_ms = (asyncio.get_event_loop().time() - self.sealing_at) * 1000 / 2   # until the first ping
        self.sealed = link
        self.host_id = link.to
        self._opened()

    def _sealed_closed(self, link: SealedLink) -> None:
        if self.trials.get(link.to) is link:
            del self.trials[link.to]
            return
        if link is not self.sealed:
            return
        self.sealed = None
        self.since = asyncio.get_event_loop().time()
        if not self.direct:
            self.on_close()
            self._say_host_gone()

    def _direct_opened(self) -> None:
        """A direct channel opened: it replaces the relay path, if that was in use."""
        trace("guest: channel to the host open")
        self._end_trials()
        if self.sealed is not None:
            link, self.sealed = self.sealed, None
            link.close()
        self._opened()

    async def _answer(self, sender, sdp: str) -> None:
        if self.peer is not None:
            self.peer.close()
        peer = self.peer = Peer()
        self.host_id = sender
        self.answered_at = asyncio.get_event_loop().time()
        answer = await _answer_offer(peer, sdp, self._direct_opened, self.on_message, lambda: self._closed(peer))
        if self.peer is peer:
            trace(f"guest: answer to {sender}")
            self.signal.send(sender, {"kind": "answer", "sdp": answer})

    def _closed(self, peer: Peer) -> None:
        if peer is not self.peer:
            return
        trace("guest: channel to the host closed")
        self.peer = None
        peer.close()
        if self.sealed is not None and self.sealed.open:
            return          # only a direct attempt failed; the relay path carries on
        self.since = asyncio.get_event_loop().time()
        self.on_close()
        self._say_host_gone()
        if self.signal.joined:
            self._ask_direct()

    def close(self) -> None:
        self.closed = True
        self._end_trials()
        if self.sealed is not None:
            self.sealed.close()
        self.signal.close()
        if self.peer is not None:
            self.peer.close()


class CodeGuestNet(GuestSide):
    """A guest invited by code (no relay): answers the offer from the link and hands the answer
    code to ``on_answer(code)`` for the friend to send to the host. Without a relay there is no
    reconnecting: a lost channel needs a new invite link."""

    def __init__(self, offer_code: str, on_open, on_message, on_close, on_status, on_answer,
                 pin: str | None = None):
        self.offer_code, self.pin = offer_code, pin
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.on_answer = on_answer
        self.peer: Peer | None = None

    def start(self) -> None:
        asyncio.ensure_future(self._answer())

    async def _answer(self) -> None:
        try:
            kind, number, sdp = signal_code.unpack(self.offer_code)
            if kind != "offer":
                raise ParseError("this link holds an answer code, not an invite: ask for the invite link")
            if self.pin is None or not identity.offer_matches(sdp, self.pin):
                raise ParseError("its connection offer is not from this table's host")
        except ParseError as bad:
            self.on_status(f"This invite link is damaged ({bad}). Ask the host for a new one.")
            return
        self.peer = Peer()
        try:
            answer = await _answer_offer(self.peer, sdp, self._opened, self.on_message, self.on_close)
        except Exception:   # an offer the browser cannot take (cut, or from an odd browser)
            self.on_status("This invite link does not work. Ask the host for a new one.")
            return
        trace(f"code guest: answer code made ({_candidates(answer)} candidates)")
        self.on_answer(signal_code.pack("answer", number, answer))

    def _opened(self) -> None:
        trace("code guest: channel to the host open")
        super()._opened()

    def close(self) -> None:
        if self.peer is not None:
            self.peer.close()
