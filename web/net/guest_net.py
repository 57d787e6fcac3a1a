"""A guest's side of a table's connection: `GuestNet` asks the relay's room for the host's
offer (and falls back to the relay path, `web.net.relay_path`, when no direct path opens);
`CodeGuestNet` answers an offer that came in the invite link, without a relay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pyodide.ffi import JsProxy

from game.errors import ParseError

from . import frames, identity, relay_path, signal_code
from .browser import trace
from .relay_path import MAX_SEALED, SealedLink, b64, unb64
from .relay_socket import Signal
from .rtc import Peer, answer_offer, candidates, peer_path
from ..tasks import spawn

ASK_EVERY = 3.0            # a guest without a channel asks for an offer this often
CONNECT_WAIT = 10.0        # ... but not while the channel of its last answer may still open
STALE_AFTER = 6.0          # seconds without a host before the guest says the link may be stale
FALLBACK_AFTER = 6.0       # seconds without a direct path before a guest tries the relay path
DIRECT_RETRY = 15.0        # on the relay path, a guest still asks for a direct one this often
CONFIRM_WAIT = 5.0         # seconds a guest gives a relay path's first piece to come and open
FALLING_BACK = "No direct connection to the host yet: connecting through the relay instead…"
NO_FALLBACK = ("No direct connection to the host, and this page cannot use the relay instead: it needs a "
               "secure address (https). Ask the host to serve the game over https or to set up a TURN server.")
STALE = ("No one is hosting this table right now: the link may be stale, or the host has closed "
         "the page. Still trying…")
HOST_GONE = ("The host has left the table: they closed the page or lost their connection. Your seat "
             "is kept, and the game goes on when they come back…")


class GuestSide:
    """What every guest connection has: at most one peer, the host; and its owner's
    ``on_open()``, ``on_message(text)``, ``on_close()`` and ``on_status(text)``."""

    peer: Peer | None = None
    on_open: Callable[[], object]
    on_message: Callable[[str], object]
    on_close: Callable[[], object]
    on_status: Callable[[str], object]

    @property
    def connected(self) -> bool:
        return self.peer is not None and self.peer.open

    def send(self, text: str) -> bool:
        if self.peer is not None and self.peer.open:
            self.peer.send(text)
            return True
        return False

    def _opened(self) -> None:
        self.on_status("")
        self.on_open()

    def fingerprints(self) -> tuple[identity.Fingerprints, identity.Fingerprints]:
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

    def __init__(self, room: str, on_open: Callable[[], object], on_message: Callable[[str], object],
                 on_close: Callable[[], object], on_status: Callable[[str], object], pin: str | None = None,
                 key_pin: str | None = None, *, version: int) -> None:
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.room, self.pin, self.key_pin, self.version = room, pin, key_pin, version
        self.refusals = 0                   # offers refused for a wrong identity
        self.peer: Peer | None = None
        self.sealed: SealedLink | None = None
        self.sealing: tuple[JsProxy, bytes] | None = None   # (key pair, public bytes) of the relay path asked for
        self.sealing_at = -99.0
        self.trials: dict[str, SealedLink] = {}   # relay member -> its answer, until a piece opens
        self.host_id: str | None = None
        self.closed = False
        self.since = 0.0                    # when it last had a path to the host (or started looking)
        self.answered_at = 0.0
        self.direct_asked = 0.0
        self.hosts: set[str] = set()        # relay members in the room that spoke as the host
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
        if self.peer is not None and self.peer.open:
            self.peer.send(text)
        elif self.sealed is not None and self.sealed.open:
            self.sealed.send(text)
        else:
            return False
        return True

    async def path(self) -> tuple[str, float | None] | None:
        """How this guest reaches the host now: ("direct" / "TURN" / "relay", round trip ms)."""
        if self.peer is not None and self.peer.open:
            return await peer_path(self.peer)
        if self.sealed is not None and self.sealed.open:
            return ("relay", self.sealed.rtt_ms)
        return None

    def start(self) -> None:
        self.signal.open()
        spawn(self._ask_loop())

    def _relay_status(self, text: str) -> None:
        if not self.connected:
            self.on_status(text or "Connecting to the table…")

    def _joined(self, peers: list[str]) -> None:
        if self.connected:
            return
        if not peers:
            self.on_status(STALE)
        self._ask_direct()

    def _ask_direct(self) -> None:
        self.direct_asked = asyncio.get_event_loop().time()
        trace("guest: want-offer")
        self.signal.send(None, {"kind": "want-offer", "v": self.version})

    def _left(self, relay_id: str) -> None:
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
                spawn(self._ask_sealed())
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

    def _from(self, sender: str, payload: dict[str, Any]) -> None:
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
            spawn(self._answer(sender, payload["sdp"]))
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

    def _sealed_ready(self, sender: str, ready: dict[str, Any]) -> None:
        """A member answers our seal-hello: with the pinned key, try it (`CONFIRM_WAIT`)."""
        if self.sealing is None or sender in self.trials or len(self.trials) >= MAX_SEALED or ready.get("v") != relay_path.VERSION:
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
        spawn(self._confirm_within(link, CONFIRM_WAIT))

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

    async def _answer(self, sender: str, sdp: str) -> None:
        if self.peer is not None:
            self.peer.close()
        peer = self.peer = Peer()
        self.host_id = sender
        self.answered_at = asyncio.get_event_loop().time()
        answer = await answer_offer(peer, sdp, self._direct_opened, self.on_message, lambda: self._closed(peer))
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

    def __init__(self, offer_code: str, on_open: Callable[[], object], on_message: Callable[[str], object],
                 on_close: Callable[[], object], on_status: Callable[[str], object],
                 on_answer: Callable[[str], object], pin: str | None = None) -> None:
        self.offer_code, self.pin = offer_code, pin
        self.on_open, self.on_message, self.on_close, self.on_status = on_open, on_message, on_close, on_status
        self.on_answer = on_answer
        self.peer: Peer | None = None

    def start(self) -> None:
        spawn(self._answer())

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
            answer = await answer_offer(self.peer, sdp, self._opened, self.on_message, self.on_close)
        except Exception:   # an offer the browser cannot take (cut, or from an odd browser)
            self.on_status("This invite link does not work. Ask the host for a new one.")
            return
        trace(f"code guest: answer code made ({candidates(answer)} candidates)")
        self.on_answer(signal_code.pack("answer", number, answer))

    def _opened(self) -> None:
        trace("code guest: channel to the host open")
        super()._opened()

    def close(self) -> None:
        if self.peer is not None:
            self.peer.close()

