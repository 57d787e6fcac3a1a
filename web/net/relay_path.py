"""The relay fallback in the browser: a guest and the host talk through the relay's WebSocket,
sealed end to end with WebCrypto, when no WebRTC path connects them. One of the few modules
allowed to touch the FFI; the framing is `web.net.frames`'s, the pins `web.net.identity`'s.

The key: the guest makes a fresh ECDH key pair (P-256) and sends its public half
(``seal-hello``); the host answers with the public half of its table's own pair, whose SHA-256
the invite link pins (``k``), so an impostor's answer is refused, and a fresh random ``nonce``
(``seal-ready``). Each side derives the same AES-GCM key with HKDF-SHA-256 from the ECDH
secret, the room, both public keys and the host's nonce. The host's key pair lasts as long as
the table, so without the nonce a recorded session (a guest's seal-hello and pieces) replayed
to the host would open again under the same key; with it, every relay path has a key of its
own. The relay forwards base64 ciphertext it cannot read or forge: every field of a piece is
bound to it (`frames.associated`).

The host's public key is public (any member gets it by asking), so a member may answer a guest's
seal-hello with it, and a nonce of its own, without holding the private half. A link therefore
counts as open only once a piece from the other side has opened under its key
(``confirmed``): the host sends one at once (`SealedLink.greet`), and a guest tries every
answer that carries the pinned key until one confirms.

Both sides say the handshake's version (``v``, `VERSION`); a request of another version is
not answered (the page is older or newer than the host's: the direct path's hello says which).

A `SealedLink` looks like a `web.net.rtc.Peer` to its owner (``open``, ``send``,
``close``), so the host's table and the guest's screen cannot tell which path carries them.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import js
from pyodide.ffi import JsProxy, to_js

from . import frames
from .browser import js_object
from ..tasks import spawn

VERSION = 2            # of the seal-hello / seal-ready handshake: 2 added the host's nonce
ECDH = {"name": "ECDH", "namedCurve": "P-256"}
INFO = b"cribbage sealed v2"
NONCE = 16             # bytes of the host's fresh random value in each relay path's key
INBOX = 256            # pieces waiting to be opened; more is a flood, and the link is dropped
PING_EVERY = 5.0       # seconds between round-trip measurements on an open link
MAX_SEALED = 8         # relay paths a host keeps, and answers a guest tries, at once (a room holds 8 members)


def _bytes(data: bytes) -> JsProxy:
    array: JsProxy = to_js(data)            # a Uint8Array
    return array


def _py(buffer: JsProxy) -> bytes:
    return bytes(js.Uint8Array.new(buffer).to_bytes())


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: object) -> bytes:
    if not isinstance(text, str) or len(text) > 4 * frames.PIECE:
        raise frames.FrameError("a piece is base64 text")
    return base64.b64decode(text, validate=True)


def available() -> bool:
    """WebCrypto exists only in a secure context (https, or this machine)."""
    return bool(getattr(js.window, "isSecureContext", False)) and getattr(js.crypto, "subtle", None) is not None


async def new_key_pair() -> JsProxy:
    pair: JsProxy = await js.crypto.subtle.generateKey(js_object(ECDH), False, js_object(["deriveBits"]))
    return pair


async def public_bytes(pair: JsProxy) -> bytes:
    return _py(await js.crypto.subtle.exportKey("raw", pair.publicKey))


async def shared_key(pair: JsProxy, guest_public: bytes, host_public: bytes, room: str, nonce: bytes,
                     guest: bool) -> JsProxy:
    """The AES-GCM key both sides derive from ``pair`` (the guest's if ``guest``, else the
    host's) and the other side's public key: HKDF-SHA-256 over the ECDH secret, salted with
    the room, its info the public keys (the guest's, then the host's) and the host's ``nonce``."""
    subtle = js.crypto.subtle
    theirs = host_public if guest else guest_public
    other = await subtle.importKey("raw", _bytes(theirs), js_object(ECDH), False, js_object([]))
    bits = await subtle.deriveBits(js_object({"name": "ECDH", "public": other}), pair.privateKey, 256)
    base = await subtle.importKey("raw", bits, "HKDF", False, js_object(["deriveKey"]))
    params = js_object({"name": "HKDF", "hash": "SHA-256", "salt": _bytes(room.encode("utf-8")),
                  "info": _bytes(INFO + guest_public + host_public + nonce)})
    key: JsProxy = await subtle.deriveKey(params, base, js_object({"name": "AES-GCM", "length": 256}), False,
                                          js_object(["encrypt", "decrypt"]))
    return key


class Pace:
    """Paces one relay socket's sealed pieces under the relay's per-member rate."""

    def __init__(self, rate: float = 12.0, burst: float = 24.0) -> None:
        self.rate, self.burst, self.tokens = rate, burst, burst
        self.at: float | None = None

    async def wait(self) -> None:
        loop = asyncio.get_event_loop()
        while True:
            now = loop.time()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate) if self.at else self.tokens
            self.at = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep((1 - self.tokens) / self.rate)


class SealedLink:
    """One guest's messages with the host through the relay. ``send(to, payload)`` is the
    relay socket's; ``key`` is awaited (pieces that come while it is derived wait in the
    inbox); ``outward`` is the direction this side sends in. ``on_confirm(link)`` is called
    once, when the first piece from ``to`` opens (before its texts are handed on): only then
    is the other side known to hold the key."""

    def __init__(self, send: Callable[[str, dict[str, object]], bool], pace: Pace, to: str,
                 key: Awaitable[JsProxy], outward: str, on_message: Callable[[str], object],
                 on_close: Callable[[], object], on_confirm: Callable[[SealedLink], object] | None = None) -> None:
        self.relay_send, self.pace, self.to = send, pace, to
        self.key = asyncio.ensure_future(key)
        self.outward = outward
        self.inward = frames.GUEST_TO_HOST if outward == frames.HOST_TO_GUEST else frames.HOST_TO_GUEST
        self.on_message, self.on_close, self.on_confirm = on_message, on_close, on_confirm
        self.sent = 0
        self.joiner = frames.Joiner()
        self.buffer: list[str] = []
        self.owed = False               # a piece is due even with no text (`greet`)
        self.pumping = False
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=INBOX)
        self.open, self.ended, self.confirmed = True, False, False
        self.rtt_ms: float | None = None
        self.reader = asyncio.ensure_future(self._read())

    # -- sending --

    def send(self, text: str) -> None:
        if not self.open:
            return
        self.buffer.append(text)
        self._start_pump()

    def greet(self) -> None:
        """Send a piece now, texts or not, so the other side can confirm the key."""
        self.owed = True
        self._start_pump()

    def _start_pump(self) -> None:
        if not self.pumping:
            self.pumping = True
            spawn(self._pump())

    async def _pump(self) -> None:
        try:
            key = await self.key
            while (self.buffer or self.owed) and self.open:
                await asyncio.sleep(0)              # whatever else is sent now joins this batch
                texts, self.buffer, self.owed = self.buffer, [], False
                for piece, more in frames.cut(frames.batch(texts)):
                    await self.pace.wait()
                    self.sent += 1
                    iv = secrets.token_bytes(12)
                    sealed = _py(await js.crypto.subtle.encrypt(
                        js_object({"name": "AES-GCM", "iv": _bytes(iv),
                             "additionalData": _bytes(frames.associated(self.outward, self.sent, more))}),
                        key, _bytes(piece)))
                    if not self.open or not self.relay_send(self.to, {"kind": "sealed", "n": self.sent, "more": more,
                                                                      "iv": b64(iv), "data": b64(sealed)}):
                        return self.fail("the relay did not take a piece")
        except Exception as failed:
            self.fail(f"sealing failed: {failed}")
        finally:
            self.pumping = False

    # -- receiving --

    def receive(self, payload: dict[str, Any]) -> None:
        """A ``sealed`` payload from ``to``; opened in order by `_read`."""
        if not self.open:
            return
        try:
            self.inbox.put_nowait(payload)
        except asyncio.QueueFull:
            self.fail("too many pieces at once")

    async def _read(self) -> None:
        try:
            key = await self.key
        except Exception as failed:     # not a point on the curve
            return self.fail(f"no key: {failed}")
        while self.open:
            payload = await self.inbox.get()
            try:
                n, more = self.joiner.check(payload.get("n"), payload.get("more"))
                iv, data = unb64(payload.get("iv")), unb64(payload.get("data"))
                plain = _py(await js.crypto.subtle.decrypt(
                    js_object({"name": "AES-GCM", "iv": _bytes(iv),
                         "additionalData": _bytes(frames.associated(self.inward, n, more))}),
                    key, _bytes(data)))
                texts = self.joiner.add(n, plain, more)
            except Exception as refused:      # forged, replayed, reordered or damaged: drop the link
                return self.fail(f"a piece did not open: {refused}")
            if not self.confirmed:
                self.confirmed = True
                if self.on_confirm is not None:
                    self.on_confirm(self)
            for text in texts or ():
                if self.open:
                    self.on_message(text)

    # -- the round trip, and the end --

    def pinged(self, sent_at: float) -> None:
        self.rtt_ms = (asyncio.get_event_loop().time() - sent_at) * 1000

    def fail(self, reason: str) -> None:
        if self.open:
            js.console.warn(f"relay path closed: {reason}")
            self.close()

    def close(self) -> None:
        if self.ended:
            return
        self.open, self.ended = False, True
        self.reader.cancel()
        self.relay_send(self.to, {"kind": "seal-bye"})
        self.on_close()
