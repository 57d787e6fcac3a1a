"""Link a device: two browsers swap their profiles over a peer-to-peer channel, found through
the relay by a short code. Pure Python (no browser): the glue in `web.dom` moves the text.

One device shows a code (``K7MQ-2XRT``: 8 letters and digits, no look-alikes); the other types
it. Its first half names the relay room both devices join (`room_for`); its second half is a
secret that never leaves either device (`secret_of`). They open a WebRTC data channel, and
before a byte of a profile moves each proves to the other that it knows the secret
(`Handshake`); then each sends its whole profile in parts and merges what it receives exactly
as a profile file is merged (every game replayed, by game id, so linking twice adds nothing),
then says ``got``. The link is done when both sides have their copy. The relay only introduces
the two devices; the profiles never pass through it.

Who can take a profile, or slip in a forged one? The relay sees the room, so its operator (or
anyone it shows the room) may join it and connect first, to either device. The secret half
is 4 of 31 characters: 31**4 = 923,521 values (19.8 bits). The proof is a PAKE
(`web.profile.pake`): an impostor gets one guess of the secret per device, nothing to try
offline, and a failed check stops the link on that device, which says so. One guess per
device, two per code shown: a chance of 2 in 923,521 (2.2e-6), and each miss is seen. The
proof covers both ends' DTLS certificates too, so a relay that connects each device to itself,
passing the handshake along, fails it. The room half (19.8 bits too) keeps links apart; a stranger who does not see room names tries at most 60 a minute from one
address (the relay's ``--max-joins-per-minute``), and finding one only buys it a guess.

>>> a, b = Transfer('{"v": 2}'), Transfer('{"v": 2, "games": []}')
>>> for text in a.outgoing():
...     b.receive(text)
>>> b.received, b.take_replies() == [ack()]
('{"v": 2}', True)
>>> b.receive('{"v": 2, "type": "part", "index": 9, "count": 1, "data": ""}')
Traceback (most recent call last):
...
game.errors.ParseError: a profile part is out of order
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.errors import ParseError

from ..net.signal_code import REFUSED, RELAY_DOWN
from .pake import VERSION, Handshake, OtherVersion, channel_of, read_message

if TYPE_CHECKING:
    from .screens import ProfileScreens

Conn = tuple[str, ...]   # a channel as its net names it: (conn id,) at the showing end, () at the typing end
# `web.net.transport.HostNet` or `GuestNet` (or a test's fake): see `Linker`. Their send and
# fingerprints take a channel's id, or none: Linker calls them with ``*conn``.
Net = Any

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"    # no 0/O, 1/I/L: read aloud or typed on a phone
CODE_LENGTH = 8
ROOM_CHARS = 4                                   # the code's first half names the room, the rest is the secret
PART_CHARS = 16_000                              # well under every browser's message size
MAX_PROFILE_CHARS = 4_000_000                    # as for a profile file
MAX_PARTS = MAX_PROFILE_CHARS // PART_CHARS + 1
LINK_MINUTES = 10                                # a code stops working after this
PROOF_SECONDS = 20                               # the typing device waits this long for the other's proof
DESCRIBED_WAIT = 0.05                            # seconds between looks at a new channel's SDPs...
DESCRIBED_TRIES = 100                            # ...until they are there (5 s)
NO_RELAY = ("Linking needs the relay, which cannot be reached from here. Move your profile with "
            "“Save to a file” and “Load from a file” instead.")
REFUSED_SHOWN = ("Someone else tried to use this code (or it was mistyped on your other device), so this "
                 "device stopped the link and sent nothing. Show a new code to try again.")
REFUSED_TYPED = ("The device this code led to could not prove it shows the same code: a typo, or someone "
                 "else trying to use it. This device stopped the link and sent nothing. Check the code, "
                 "or show a new one on your other device.")


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
    """The relay room both devices join for ``code``: named by its first half only.

    >>> room_for("K7MQ-2XRT"), room_for("K7MQ-AB34")
    ('link-K7MQ', 'link-K7MQ')
    """
    return "link-" + code.replace("-", "")[:ROOM_CHARS]


def secret_of(code: str) -> str:
    """The half of ``code`` that never leaves the device: what the `Handshake` proves.

    >>> secret_of("K7MQ-2XRT")
    '2XRT'
    """
    return code.replace("-", "")[ROOM_CHARS:]


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

    def receive(self, text: object) -> None:
        data = read_message(text, PART_CHARS * 2 + 200)
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
    the browser, fakes in tests) from ``(room, on_open, on_message, on_close, on_status,
    version=VERSION)``, the version of this link's protocol; it
    also tells a channel's certificate fingerprints, ``fingerprints(*conn) -> (local, remote)``.
    ``screens`` is the `ProfileScreens` whose profile is sent and merged into; ``repaint()``
    redraws; ``later(seconds, fn)`` runs ``fn`` after a while (the code's expiry, the goodbye).

    Every channel that opens gets a `Handshake` once both its SDPs are known (what arrives
    before then waits); the first whose proof checks out is the peer the profiles are swapped
    with, and any handshake that fails stops the link on this device.
    """

    def __init__(self, screens: ProfileScreens, host_net: Callable[..., Net], guest_net: Callable[..., Net],
                 repaint: Callable[[], object], later: Callable[[float, Callable[[], object]], object]) -> None:
        self.screens, self.host_net, self.guest_net = screens, host_net, guest_net
        self.repaint, self.later = repaint, later
        self.net: Net | None = None
        self.code, self.showing = "", False
        self.transfer: Transfer | None = None
        self.checks: dict[Conn, Handshake] = {}   # channels still proving they know the code
        self.early: dict[Conn, list[str]] = {}    # channels whose SDPs are not known yet: what they sent
        self.peer: Conn | None = None   # the channel we swap with (the first that proved it)
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

    def _begin(self, code: str, showing: bool, make: Callable[..., Net], status: str) -> None:
        self._stop()
        self.code, self.showing = code, showing
        self.transfer = Transfer(self.screens.export())
        self.peer, self.connected, self.merged = None, False, False
        self._state(LinkState(code, showing, status))
        transfer = self.transfer
        made: list[Net] = []

        def current(handler: Callable[..., object]) -> Callable[..., object]:
            """``handler``, for this connection's events only: the last link's lingers a second
            for its goodbye, and a guest's channels all have the same (empty) id."""
            return lambda *args: self.net is made[0] and handler(*args)
        self.net = make(room_for(code), current(self._opened), current(self._message), current(self._closed),
                        current(self._status), version=VERSION)
        made.append(self.net)
        self.net.start()
        self.later(LINK_MINUTES * 60, lambda: self._expire(transfer))

    def _opened(self, *conn: str) -> None:
        if self.connected or self.transfer is None:     # linked already: anyone else gets nothing
            return
        self.early[conn] = []
        self._check(conn, self.transfer, DESCRIBED_TRIES)

    def _check(self, conn: Conn, transfer: Transfer, tries: int) -> None:
        """Start the handshake on channel ``conn`` once the browser knows both its SDPs."""
        if transfer is not self.transfer or self.connected or conn not in self.early or self.net is None:
            return
        local, remote = self.net.fingerprints(*conn)
        if not (local and remote) and tries > 0:
            self.later(DESCRIBED_WAIT, lambda: self._check(conn, transfer, tries - 1))
            return
        try:
            channel = channel_of(self.showing, local, remote)
        except ParseError:
            return self._refuse()
        check = self.checks[conn] = Handshake(secret_of(self.code), self.showing, channel)
        self._say("Connected: checking that the other device has the same code…")
        self.net.send(*conn, check.opening())
        for text in self.early.pop(conn):
            self._message(*conn, text)

    def _message(self, *args: str) -> None:
        *ids, text = args
        conn = tuple(ids)
        if self.connected:
            if conn == self.peer:
                self._take(text)
            return
        if conn in self.early:          # its share, before this side could start: kept for then
            if self.early[conn]:
                return self._refuse()
            self.early[conn].append(text)
            return
        check = self.checks.get(conn)
        if check is None:
            return
        try:
            replies = check.receive(text)
        except OtherVersion:
            return self.cancel("The other device runs another version of the game: reload both pages.")
        except ParseError:
            return self._refuse()
        assert self.net is not None, "a channel's messages come while its net runs"
        for reply in replies:
            self.net.send(*conn, reply)
        if check.ok:
            self.checks.clear()
            self.early.clear()
            self.connected, self.peer = True, conn
            self._say("Connected: swapping profiles…")
            assert self.transfer is not None, "a handshake belongs to a transfer"
            for part in self.transfer.outgoing():
                self._send(part)
        elif check.committed:       # our proof is out: the other's must follow soon
            def overdue() -> None:
                if self.checks.get(conn) is check:
                    self._refuse()
            self.later(PROOF_SECONDS, overdue)

    def _take(self, text: str) -> None:
        """A message from the peer that proved it knows the code: the profile's parts, ``got``."""
        transfer = self.transfer
        assert transfer is not None, "a peer belongs to a transfer"
        try:
            transfer.receive(text)
        except ParseError as bad:
            return self.cancel(f"The link failed: {bad}.")
        for reply in transfer.take_replies():
            self._send(reply)
        if transfer.received is not None and not self.merged:
            self.merged = True
            self.screens.command("import-profile", transfer.received)
            news, self.screens.message = self.screens.message, ""
            if not news.startswith("Profile loaded: "):
                return self.cancel(f"The other device's profile could not be used: {news}")
            self.news = news.removeprefix("Profile loaded: ").rstrip(".")
            self._say(f"Received the other device's profile ({self.news}); sending this one…")
        if transfer.done:
            net, self.net = self.net, None
            if net is not None:
                self.later(1.0, net.close)      # let the last message leave before closing
            self._state(LinkState(self.code, self.showing,
                                  f"Linked: {self.news} here, and the other device has this one's.",
                                  finished=True))

    def _closed(self, *ids: str) -> None:
        conn = tuple(ids)
        if self.transfer is None or self.transfer.done:
            return
        if self.connected and conn == self.peer:
            self.cancel("The other device went away before the link was done. Try again.")
        elif not self.connected:
            self.early.pop(conn, None)
            check = self.checks.pop(conn, None)
            if check is not None and check.committed:     # it had our proof and did not answer
                self._refuse()

    def _status(self, text: str) -> None:
        if text == RELAY_DOWN:
            self.cancel(NO_RELAY)
        elif text == "version":
            self.cancel("The other device runs another version of the game: reload both pages.")
        elif text.startswith(REFUSED) and not self.connected:     # it tries again meanwhile
            self._say(f"The relay turned this device away for now: {text.removeprefix(REFUSED)}")
        elif text and not self.connected and self.screens.link and not self.screens.link.showing:
            self._say("Looking for the device showing this code… (check the code if this takes long)")

    def _expire(self, transfer: Transfer) -> None:
        if transfer is self.transfer and not transfer.done:
            self.cancel(f"The code expired after {LINK_MINUTES} minutes: show a new one.")

    # -- helpers --

    def _refuse(self) -> None:
        """A channel failed the handshake: stop the link here, and say so."""
        self.cancel(REFUSED_SHOWN if self.showing else REFUSED_TYPED)

    def _send(self, text: str) -> None:
        assert self.net is not None and self.peer is not None, "sent only to the peer, while linked"
        self.net.send(*self.peer, text)

    def _say(self, status: str) -> None:
        link = self.screens.link
        if link is not None:
            self._state(LinkState(link.code, link.showing, status, link.finished))

    def _state(self, link: LinkState | None) -> None:
        self.screens.link = link
        self.repaint()

    def _stop(self) -> None:
        if self.net is not None:
            self.net.close()
        self.net, self.transfer, self.connected = None, None, False
        self.checks.clear()
        self.early.clear()
