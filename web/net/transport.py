"""Browser networking for tables with friends: the relay's WebSocket and WebRTC data channels.
One of the few modules allowed to touch the FFI. It moves text only: what the text means is
`web.friends.protocol`'s business, and who may send what is `web.friends.host`'s.

Star topology: the host keeps one RTCPeerConnection and data channel per guest. Signalling
payloads (opaque to the relay) are JSON objects with ``kind``:
``want-offer`` (a guest without a channel asks; carries the protocol version),
``host-here`` (a host that (re)joined tells everyone), ``offer`` / ``answer`` (complete SDP,
candidates included, so no trickle). Once a channel is open the relay is not needed: a game
survives a relay restart.

Anyone with the link can join the relay room, so nothing that arrives through the relay is
trusted: a table's host uses one persistent certificate (`table_certificate`), whose pin the
invite link carries, and a guest takes only offers made with it (`web.net.identity`); the
protocol's version is checked on the channel itself. The host answers want-offers within
the bounds of `web.net.offers.OfferBook`, so a flood cannot exhaust its peer connections.

Without a relay (a plain static host), `HostNet.make_invite` and `CodeGuestNet` do the same
exchange by hand: the offer travels in the invite link and the answer comes back as a code the
host pastes (`web.net.signal_code`). Signal reports ``RELAY_DOWN`` when the relay cannot be reached.
"""

from __future__ import annotations

import asyncio
import json
import secrets

import js
from pyodide.ffi import create_once_callable, create_proxy, to_js

from game.errors import ParseError

from . import identity, signal_code
from .offers import OfferBook
from .signal_code import RELAY_DOWN
from ..friends.protocol import VERSION

GATHER_TIMEOUT = 3.0       # seconds to wait for ICE candidates before sending what we have
RETRY_MAX = 8.0            # longest wait between relay reconnection attempts
ASK_EVERY = 3.0            # a guest without a channel asks for an offer this often
CONNECT_WAIT = 10.0        # ... but not while the channel of its last answer may still open
STALE_AFTER = 6.0          # seconds without a host before the guest says the link may be stale
STALE = ("No one is hosting this table right now: the link may be stale, or the host has closed "
         "the page. Still trying…")


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
    """STUN/TURN servers from <meta name="cribbage-ice-servers" content='[...]'> (none by default)."""
    meta = js.document.querySelector('meta[name="cribbage-ice-servers"]')
    try:
        servers = json.loads(meta.getAttribute("content") or "[]") if meta else []
    except ValueError:
        return []
    return servers if isinstance(servers, list) else []


def _js(value):
    return to_js(value, dict_converter=js.Object.fromEntries)


IDENTITY_DB, IDENTITY_STORE = "cribbage-identity", "certificates"
FRESH_FOR_MS = 7 * 24 * 3600 * 1000     # a certificate this close to expiring is replaced


async def _idb(request):
    """Await one IndexedDB request; its result, or an exception when it fails."""
    done = asyncio.get_event_loop().create_future()

    def succeeded(_event):
        if not done.done():
            done.set_result(request.result)

    def failed(_event):
        if not done.done():
            done.set_exception(RuntimeError(str(request.error)))
    request.onsuccess = create_once_callable(succeeded)
    request.onerror = create_once_callable(failed)
    if hasattr(request, "onupgradeneeded"):
        request.onupgradeneeded = create_once_callable(
            lambda _event: request.result.createObjectStore(IDENTITY_STORE))
    return await done


async def table_certificate(room: str):
    """The DTLS certificate this browser uses for hosting ``room``: kept in IndexedDB, so a
    reload presents the same identity; made (ECDSA P-256) the first time. Without IndexedDB
    (some private windows) it lives as long as the page, and the invite link with it."""
    async def made():
        return await js.RTCPeerConnection.generateCertificate(_js({"name": "ECDSA", "namedCurve": "P-256"}))
    try:
        db = await _idb(js.indexedDB.open(IDENTITY_DB, 1))
        stored = await _idb(db.transaction(IDENTITY_STORE).objectStore(IDENTITY_STORE).get(room))
        if stored is not None and stored.expires > js.Date.now() + FRESH_FOR_MS:
            return stored
        certificate = await made()
        await _idb(db.transaction(IDENTITY_STORE, "readwrite").objectStore(IDENTITY_STORE).put(certificate, room))
        return certificate
    except Exception as failed:   # no IndexedDB here: an identity for this page's life
        js.console.warn(f"the table's identity cannot be kept: {failed}")
        return await made()


async def forget_certificate(room: str) -> None:
    """Drop ``room``'s certificate (the host closed the table)."""
    try:
        db = await _idb(js.indexedDB.open(IDENTITY_DB, 1))
        await _idb(db.transaction(IDENTITY_STORE, "readwrite").objectStore(IDENTITY_STORE).delete(room))
    except Exception as failed:
        js.console.warn(f"the table's identity could not be removed: {failed}")


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

    def _opened(self, _event) -> None:
        self.delay = 0.5
        self.socket.send(json.dumps({"type": "join", "room": self.room}))

    def _message(self, event) -> None:
        try:
            message = json.loads(str(event.data))
        except ValueError:
            return
        kind = message.get("type")
        if kind == "joined":
            self.joined = True
            self.on_status("")
            self.on_joined(message.get("peers", []))
        elif kind == "from":
            try:
                payload = json.loads(message.get("data", ""))
            except ValueError:
                return
            if isinstance(payload, dict):
                self.on_from(message.get("from"), payload)
        elif kind == "peer-left":
            self.on_peer_left(message.get("id"))
        elif kind == "error":
            js.console.warn(f"relay: {message.get('code')}: {message.get('reason')}")
            if message.get("code") in ("room-full", "too-many-rooms", "bad-room"):
                self.on_status(f"The relay refused this table: {message.get('reason')}")

    def _closed(self, _event) -> None:
        was_joined, self.joined = self.joined, False
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


class HostNet:
    """The host's side: answers guests' requests with offers, one data channel per guest.
    Calls ``on_open(conn)``, ``on_message(conn, text)``, ``on_close(conn)``; ``conn`` is a
    fresh id per channel."""

    def __init__(self, room: str, on_open, on_message, on_close, on_status, certificate=None):
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.certificate = certificate      # the table's identity; None: one per connection
        self.peers: dict[str, Peer] = {}    # relay id -> peer
        self.conns: dict[str, Peer] = {}    # conn -> peer
        self.count = 0
        self.book = OfferBook()
        self.invite: tuple[int, Peer] | None = None    # the code invite waiting for its answer
        self.signal = Signal(room, self._joined, self._from, self._left, on_status)

    def start(self) -> None:
        self.signal.open()

    def _joined(self, _peers) -> None:
        self.signal.send(None, {"kind": "host-here", "v": VERSION})

    def _left(self, relay_id) -> None:
        # A guest's open channel outlives its relay connection; an offer still pending does not.
        self.book.forget(relay_id)
        self._drop_pending(relay_id)

    def _from(self, sender, payload: dict) -> None:
        kind = payload.get("kind")
        if kind == "want-offer":
            # Any version gets an offer: the version is checked on the channel, where a guest
            # can trust what the host says (nothing from the relay may change its screen).
            now = asyncio.get_event_loop().time()
            for member in self.book.expire(now):
                self._drop_pending(member)
            verdict = self.book.ask(str(sender), now)
            if verdict in ("new", "replace"):
                asyncio.ensure_future(self._offer(sender))
        elif kind == "answer" and sender in self.peers and isinstance(payload.get("sdp"), str):
            asyncio.ensure_future(self._answer(self.peers[sender], payload["sdp"]))

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
            self.signal.send(relay_id, {"kind": "offer", "sdp": sdp})

    def _new_peer(self, relay_id=None) -> Peer:
        """A peer with its data channel, known by a fresh conn id."""
        self.count += 1
        conn = f"c{self.count}"
        peer = Peer(self.certificate)
        self.conns[conn] = peer
        channel = peer.pc.createDataChannel("table", _js({"ordered": True}))

        def opened():
            if relay_id is not None:
                self.book.connected(str(relay_id))
            self.on_open(conn)
        peer.attach(channel, opened, lambda text: self.on_message(conn, text), lambda: self._closed(conn))
        return peer

    def live_connections(self) -> int:
        """Peer connections this host holds now (open channels, pending offers, a code invite)."""
        return len(self.conns)

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
        return signal_code.pack("offer", number, await self._local_offer(peer))

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

    def _drop_peer(self, peer: Peer) -> None:
        for conn, known in list(self.conns.items()):
            if known is peer:
                del self.conns[conn]
        peer.close()

    def _closed(self, conn: str) -> None:
        peer = self.conns.pop(conn, None)
        if peer is None:
            return
        for relay_id, known in list(self.peers.items()):
            if known is peer:
                del self.peers[relay_id]
                self.book.forget(str(relay_id))
        peer.close()
        self.on_close(conn)

    def send(self, conn, text: str) -> None:
        peer = self.conns.get(conn)
        if peer is not None:
            peer.send(text)

    def close(self) -> None:
        self.signal.close()
        for peer in self.conns.values():
            peer.close()
        self.conns.clear()
        self.peers.clear()


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


class GuestNet(GuestSide):
    """A guest's side: asks the room for an offer until a channel to the host is open. With a
    ``pin`` (a table's invite link) only offers made with the host's certificate are taken;
    without one (linking a device, where the code is the secret) any member's offer is."""

    def __init__(self, room: str, on_open, on_message, on_close, on_status, pin: str | None = None):
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.pin = pin
        self.refusals = 0                   # offers refused for a wrong identity
        self.peer: Peer | None = None
        self.host_id = None
        self.closed = False
        self.since = None
        self.answered_at = 0.0
        self.signal = Signal(room, self._joined, self._from, self._left, self._relay_status)

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
        self.signal.send(None, {"kind": "want-offer", "v": VERSION})

    def _left(self, relay_id) -> None:
        pass

    async def _ask_loop(self) -> None:
        loop = asyncio.get_event_loop()
        self.since = loop.time()
        while not self.closed:
            await asyncio.sleep(ASK_EVERY)
            if self.connected:
                self.since = loop.time()
                continue
            # Asking again while an answered offer is still connecting would make the host
            # replace that connection (and drop what was sent on it): give it time first.
            pending = self.peer is not None and loop.time() - self.answered_at < CONNECT_WAIT
            if self.signal.joined and not pending:
                self.signal.send(None, {"kind": "want-offer", "v": VERSION})
            if self.signal.joined and loop.time() - self.since > STALE_AFTER:
                self.on_status(STALE)

    def _from(self, sender, payload: dict) -> None:
        kind = payload.get("kind")
        if kind == "host-here" and not self.connected:
            self.signal.send(sender, {"kind": "want-offer", "v": VERSION})
        elif kind == "offer" and not self.connected and isinstance(payload.get("sdp"), str):
            if self.pin is not None and not identity.offer_matches(payload["sdp"], self.pin):
                self.refusals += 1
                self.on_status(identity.WRONG_HOST)
                return
            asyncio.ensure_future(self._answer(sender, payload["sdp"]))

    async def _answer(self, sender, sdp: str) -> None:
        if self.peer is not None:
            self.peer.close()
        peer = self.peer = Peer()
        self.host_id = sender
        self.answered_at = asyncio.get_event_loop().time()
        answer = await _answer_offer(peer, sdp, self._opened, self.on_message, lambda: self._closed(peer))
        if self.peer is peer:
            self.signal.send(sender, {"kind": "answer", "sdp": answer})

    def _closed(self, peer: Peer) -> None:
        if peer is not self.peer:
            return
        self.peer = None
        peer.close()
        self.since = asyncio.get_event_loop().time()
        self.on_close()
        if self.signal.joined:
            self.signal.send(None, {"kind": "want-offer", "v": VERSION})

    def close(self) -> None:
        self.closed = True
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
        self.on_answer(signal_code.pack("answer", number, answer))

    def close(self) -> None:
        if self.peer is not None:
            self.peer.close()
