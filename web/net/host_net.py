"""The host's side of a table's connections (`HostNet`): answers guests' requests with offers,
one data channel per guest, within the bounds of `web.net.offers.OfferBook` and
`web.net.channels.ChannelBook`; the relay path (`web.net.relay_path`) for a guest with no
direct one; and invites by code when there is no relay (`web.net.signal_code`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from pyodide.ffi import JsProxy

from game.errors import ParseError

from . import frames, identity, relay_path, signal_code
from .browser import js_object, trace
from .channels import ChannelBook
from .offers import OfferBook
from .relay_path import MAX_SEALED, SealedLink, b64, unb64
from .relay_socket import Signal
from .rtc import Peer, candidates, gathered, peer_path
from ..tasks import spawn

SEAL_EVERY = 3.0           # seconds a member must wait between two relay path requests


class HostNet:
    """The host's side: answers guests' requests with offers, one data channel per guest.
    Calls ``on_open(conn)``, ``on_message(conn, text)``, ``on_close(conn)``; ``conn`` is a
    fresh id per channel. ``version``: that of the protocol its channels speak, said in
    ``host-here`` (the channel itself checks it)."""

    def __init__(self, room: str, on_open: Callable[[str], object], on_message: Callable[[str, str], object],
                 on_close: Callable[[str], object], on_status: Callable[[str], object],
                 certificate: JsProxy | None = None, key_pair: JsProxy | None = None, key_public: bytes = b"",
                 *, version: int) -> None:
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.room, self.version = room, version
        self.certificate = certificate      # the table's identity; None: one per connection
        self.key_pair, self.key_public = key_pair, key_public    # the relay path's (web.net.relay_path)
        self.peers: dict[str, Peer] = {}    # relay id -> peer
        self.conns: dict[str, Peer | SealedLink] = {}
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
        spawn(self._tick_loop())

    def _joined(self, _peers: list[str]) -> None:
        self.signal.send(None, {"kind": "host-here", "v": self.version})

    def _left(self, relay_id: str) -> None:
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

    def _from(self, sender: str, payload: dict[str, Any]) -> None:
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
                spawn(self._offer(sender))
        elif kind == "answer" and sender in self.peers and isinstance(payload.get("sdp"), str):
            spawn(self._answer(self.peers[sender], payload["sdp"]))
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

    def _seal_asked(self, member: str, hello: dict[str, Any]) -> None:
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

    def seated(self, conns: Iterable[str]) -> None:
        """The table's conns that have a seat now (the others are bounded: `web.net.channels`)."""
        self.channels.seated(set(conns))

    def _close_channels(self, conns: list[str], reason: str) -> None:
        for conn in conns:
            trace(f"host: closing channel {conn}: {reason}")
            self._closed(conn)

    async def paths(self) -> dict[str, tuple[str, float | None]]:
        """``conn -> (path, round trip in ms or None)`` for every open connection; the path is
        ``"direct"``, ``"TURN"`` or ``"relay"``."""
        found: dict[str, tuple[str, float | None]] = {}
        for conn, link in list(self.conns.items()):
            if not link.open:
                continue
            if isinstance(link, SealedLink):
                found[conn] = ("relay", link.rtt_ms)
            else:
                found[conn] = await peer_path(link)
        return found

    def _drop_pending(self, relay_id: str) -> None:
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

    def _new_peer(self, relay_id: str | None = None) -> Peer:
        """A peer with its data channel, known by a fresh conn id."""
        self.count += 1
        conn = f"c{self.count}"
        peer = Peer(self.certificate)
        self.conns[conn] = peer
        channel = peer.pc.createDataChannel("table", js_object({"ordered": True}))

        def opened() -> None:
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

    def fingerprints(self, conn: str) -> tuple[identity.Fingerprints, identity.Fingerprints]:
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
        await gathered(peer.pc)
        return str(peer.pc.localDescription.sdp)

    async def _answer(self, peer: Peer, sdp: str) -> None:
        if peer.pc.signalingState == "have-local-offer":
            await peer.pc.setRemoteDescription(js_object({"type": "answer", "sdp": sdp}))

    async def make_invite(self) -> str:
        """An invite without the relay: a new peer's offer as a code for one friend's link.
        An earlier code invite that no one answered is withdrawn."""
        if self.invite is not None and not self.invite[1].open:
            self._drop_peer(self.invite[1])
        peer = self._new_peer()
        number = secrets.randbelow(10**6)
        self.invite = (number, peer)
        sdp = await self._local_offer(peer)
        trace(f"host: code invite made ({candidates(sdp)} candidates)")
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
            await peer.pc.setRemoteDescription(js_object({"type": "answer", "sdp": sdp}))
        except Exception:
            raise ParseError("that answer code does not fit this invite: make a new invite link") from None
        trace(f"host: answer code taken ({candidates(sdp)} candidates)")

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
        for relay_id, link in list(self.sealed.items()):
            if link is peer:
                del self.sealed[relay_id]
        peer.close()
        self.on_close(conn)

    def send(self, conn: str, text: str) -> None:
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

