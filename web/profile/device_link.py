"""Link a device: two browsers swap their profiles over a peer-to-peer channel, found through
the relay by a short code. Pure Python (no browser): the glue in `web.dom` moves the text.

One device shows a code (``K7MQ-2XRT``: 8 letters and digits, no look-alikes, about 39 bits);
the other types it. Both join the relay room the code names, open a WebRTC data channel, and
each sends its whole profile in parts; each side merges what it receives exactly as a profile
file is merged (every game replayed, by game id, so linking twice adds nothing), then says
``got``. The link is done when both sides have their copy. The relay only introduces the two
devices; the profiles never pass through it.

>>> a, b = Transfer('{"v": 2}'), Transfer('{"v": 2, "games": []}')
>>> for text in a.outgoing():
...     b.receive(text)
>>> b.received, b.take_replies() == [ack()]
('{"v": 2}', True)
>>> b.receive('{"v": 1, "type": "part", "index": 9, "count": 1, "data": ""}')
Traceback (most recent call last):
...
game.errors.ParseError: a profile part is out of order
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from game.codec import loads
from game.errors import ParseError

from ..net.signal_code import RELAY_DOWN

VERSION = 1
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"    # no 0/O, 1/I/L: read aloud or typed on a phone
CODE_LENGTH = 8
PART_CHARS = 16_000                              # well under every browser's message size
MAX_PROFILE_CHARS = 4_000_000                    # as for a profile file
MAX_PARTS = MAX_PROFILE_CHARS // PART_CHARS + 1
LINK_MINUTES = 10                                # a code stops working after this
NO_RELAY = ("Linking needs the relay, which cannot be reached from here. Move your profile with "
            "“Save to a file” and “Load from a file” instead.")


def new_code() -> str:
    """A fresh code, formatted for reading: ``XXXX-XXXX``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def read_code(text: str) -> str:
    """A typed code, tidied (case, spaces, dashes); `ParseError` if it cannot be one.

    >>> read_code(" k7mq 2xrt ")
    'K7MQ-2XRT'
    >>> read_code("K7MQ-2XR0")
    Traceback (most recent call last):
    ...
    game.errors.ParseError: a link code is 8 letters and digits, like K7MQ-2XRT (it never has 0, 1, I, L or O)
    """
    raw = "".join(ch for ch in str(text or "").upper() if ch.isalnum())
    if len(raw) != CODE_LENGTH or any(ch not in ALPHABET for ch in raw):
        raise ParseError(f"a link code is {CODE_LENGTH} letters and digits, like K7MQ-2XRT "
                         f"(it never has 0, 1, I, L or O)")
    return f"{raw[:4]}-{raw[4:]}"


def room_for(code: str) -> str:
    """The relay room both devices join for ``code``."""
    return "link-" + code.replace("-", "")


def ack() -> str:
    return json.dumps({"v": VERSION, "type": "got"})


class Transfer:
    """One device's side: its profile going out in parts, the other's coming in.

    ``received`` is the other device's profile text once every part has arrived; ``acked``
    says the other device has all of ours. `receive` raises `ParseError` for anything else."""

    def __init__(self, profile_text: str):
        self.profile_text = profile_text
        self.parts: list[str] = []
        self.count: int | None = None
        self.size = 0
        self.received: str | None = None
        self.acked = False
        self.replies: list[str] = []

    @property
    def done(self) -> bool:
        return self.received is not None and self.acked

    def outgoing(self) -> list[str]:
        """Our profile as messages, in order."""
        text = self.profile_text
        chunks = [text[i:i + PART_CHARS] for i in range(0, len(text), PART_CHARS)] or [""]
        return [json.dumps({"v": VERSION, "type": "part", "index": n, "count": len(chunks), "data": chunk})
                for n, chunk in enumerate(chunks)]

    def take_replies(self) -> list[str]:
        out, self.replies = self.replies, []
        return out

    def receive(self, text) -> None:
        if not isinstance(text, str) or len(text) > PART_CHARS * 2 + 200:
            raise ParseError("a link message is too long")
        data = loads(text, "a link message", max_depth=1)
        if not isinstance(data, dict) or data.get("v") != VERSION:
            raise ParseError("the other device runs another version: reload both pages")
        if data.get("type") == "got" and set(data) == {"v", "type"}:
            self.acked = True
            return
        if data.get("type") != "part" or set(data) != {"v", "type", "index", "count", "data"}:
            raise ParseError("a link message is damaged")
        index, count, chunk = data["index"], data["count"], data["data"]
        if not (isinstance(count, int) and 1 <= count <= MAX_PARTS and isinstance(chunk, str)):
            raise ParseError("a profile part is damaged")
        if self.received is not None or index != len(self.parts) or self.count not in (None, count):
            raise ParseError("a profile part is out of order")
        self.size += len(chunk)
        if self.size > MAX_PROFILE_CHARS:
            raise ParseError("the other device's profile is too big")
        self.count = count
        self.parts.append(chunk)
        if len(self.parts) == count:
            self.received = "".join(self.parts)
            self.replies.append(ack())


@dataclass
class LinkState:
    """What the settings screen shows about a link in progress (or just finished)."""

    code: str
    showing: bool            # this device shows the code; the other types it
    status: str
    finished: bool = False


class Linker:
    """Runs one device link at a time for the settings screen.

    ``host_net`` / ``guest_net`` make the connection (`web.net.transport.HostNet` / `GuestNet` in
    the browser, fakes in tests) from ``(room, on_open, on_message, on_close, on_status)``;
    ``screens`` is the `ProfileScreens` whose profile is sent and merged into; ``repaint()``
    redraws; ``later(seconds, fn)`` runs ``fn`` after a while (the code's expiry, the goodbye).
    """

    def __init__(self, screens, host_net, guest_net, repaint, later):
        self.screens, self.host_net, self.guest_net = screens, host_net, guest_net
        self.repaint, self.later = repaint, later
        self.net = None
        self.transfer: Transfer | None = None
        self.peer = None            # the connection we swap with (the first that opened)
        self.connected = False
        self.merged = False
        self.news = ""              # what the merge brought, in words

    # -- the player's commands --

    def show(self) -> None:
        """Show a new code here and wait for the other device."""
        self._begin(new_code(), True, self.host_net, "Waiting for your other device…")

    def enter(self, text: str) -> None:
        """Connect to the device showing ``text``."""
        try:
            code = read_code(text)
        except ParseError as bad:
            self._state(LinkState("", False, f"{str(bad)[0].upper()}{str(bad)[1:]}.", finished=True))
            return
        self._begin(code, False, self.guest_net, "Looking for the device showing this code…")

    def cancel(self, status: str = "") -> None:
        self._stop()
        self._state(LinkState("", False, status, finished=True) if status else None)

    # -- the connection's events --

    def _begin(self, code: str, showing: bool, make, status: str) -> None:
        self._stop()
        self.transfer = Transfer(self.screens.export())
        self.peer, self.connected, self.merged = None, False, False
        self._state(LinkState(code, showing, status))
        transfer = self.transfer
        self.net = make(room_for(code), self._opened, self._message, self._closed, self._status)
        self.net.start()
        self.later(LINK_MINUTES * 60, lambda: self._expire(transfer))

    def _opened(self, *conn) -> None:
        if self.connected:           # someone else with the same code: they get nothing
            return
        self.connected, self.peer = True, conn
        self._say("Connected: swapping profiles…")
        for text in self.transfer.outgoing():
            self._send(text)

    def _message(self, *args) -> None:
        *conn, text = args
        if not self.connected or tuple(conn) != self.peer:
            return
        try:
            self.transfer.receive(text)
        except ParseError as bad:
            return self.cancel(f"The link failed: {bad}.")
        for reply in self.transfer.take_replies():
            self._send(reply)
        if self.transfer.received is not None and not self.merged:
            self.merged = True
            self.screens.command("import-profile", self.transfer.received)
            news, self.screens.message = self.screens.message, ""
            if not news.startswith("Profile loaded: "):
                return self.cancel(f"The other device's profile could not be used: {news}")
            self.news = news.removeprefix("Profile loaded: ").rstrip(".")
            self._say(f"Received the other device's profile ({self.news}); sending this one…")
        if self.transfer.done:
            net, self.net = self.net, None
            self.later(1.0, net.close)      # let the last message leave before closing
            self._state(LinkState(self.screens.link.code, self.screens.link.showing,
                                  f"Linked: {self.news} here, and the other device has this one's.",
                                  finished=True))

    def _closed(self, *_conn) -> None:
        if self.transfer is not None and not self.transfer.done and self.connected:
            self.cancel("The other device went away before the link was done. Try again.")

    def _status(self, text: str) -> None:
        if text == RELAY_DOWN:
            self.cancel(NO_RELAY)
        elif text == "version":
            self.cancel("The other device runs another version of the game: reload both pages.")
        elif text and not self.connected and self.screens.link and not self.screens.link.showing:
            self._say("Looking for the device showing this code… (check the code if this takes long)")

    def _expire(self, transfer) -> None:
        if transfer is self.transfer and not transfer.done:
            self.cancel(f"The code expired after {LINK_MINUTES} minutes: show a new one.")

    # -- helpers --

    def _send(self, text: str) -> None:
        self.net.send(*self.peer, text)

    def _say(self, status: str) -> None:
        link = self.screens.link
        if link is not None:
            self._state(LinkState(link.code, link.showing, status, link.finished))

    def _state(self, link) -> None:
        self.screens.link = link
        self.repaint()

    def _stop(self) -> None:
        if self.net is not None:
            self.net.close()
        self.net, self.transfer, self.connected = None, None, False
