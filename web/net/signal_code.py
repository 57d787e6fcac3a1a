"""Connection codes: a WebRTC offer or answer as short text a person can paste, for tables
without a relay. Pure Python (no browser), so it is tested under CPython.

The host puts its offer in the invite link (``#offer=CODE``); the friend's page answers with an
answer code that the friend sends back (by chat app, mail...) and the host pastes. A code is
the SDP (complete, candidates included: no trickle), deflated with a dictionary of the text every
SDP repeats, in base64url, behind a two-letter tag: ``O1`` offer, ``A1`` answer (1: this format).
The invite number ties an answer to its offer, so a host with two invites out never mixes them.

>>> sdp = ("v=0\\r\\no=- 1 2 IN IP4 127.0.0.1\\r\\ns=-\\r\\nt=0 0\\r\\n"
...        "a=fingerprint:sha-256 " + ":".join(["AB"] * 32) + "\\r\\n")
>>> code = pack("answer", 3, sdp)
>>> code[:2], unpack(code) == ("answer", 3, sdp)
('A1', True)
>>> unpack("A1" + code[2:-4])
Traceback (most recent call last):
...
game.errors.ParseError: this code is damaged or incomplete: copy all of it
"""

from __future__ import annotations

import base64
import re
import zlib

from game.errors import ParseError

TAGS = {"offer": "O1", "answer": "A1"}
RELAY_DOWN = "relay-down"  # the status word web.net.relay_socket gives for a relay that cannot be reached
REFUSED = "The relay refused this table: "   # ... and how its status for a refused join begins, the reason after
MAX_CODE = 4_000          # characters: a real code is a few hundred
MAX_SDP = 16_000          # bytes of SDP once inflated (bounded: no zip bombs)
# Text that every Chromium, Firefox and Safari data-channel SDP repeats: deflate refers back
# to it instead of spelling it out. Changing it changes every code: bump the tags' version.
DICTIONARY = (
    b"a=max-message-size:262144\r\na=sctp-port:5000\r\na=mid:0\r\na=setup:actpass\r\na=setup:active\r\n"
    b"a=ice-options:trickle\r\na=ice-pwd:a=ice-ufrag:typ srflx raddr 0.0.0.0 rport 0 typ relay "
    b"typ host tcptype passive generation 0 network-cost 999\r\na=candidate:1 udp 2113937151 "
    b"a=end-of-candidates\r\nc=IN IP4 0.0.0.0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n"
    b"a=msid-semantic: WMS\r\na=extmap-allow-mixed\r\na=group:BUNDLE 0\r\nt=0 0\r\ns=-\r\n"
    b"v=0\r\no=- 2 IN IP4 127.0.0.1\r\na=fingerprint:sha-256 "
)
FINGERPRINT = re.compile(r"a=fingerprint:sha-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})")
PACKED_PRINT = re.compile(r"a=fingerprint:sha-256 ~([A-Za-z0-9_-]{43})")


def pack(kind: str, invite: int, sdp: str) -> str:
    """The code for an ``offer`` or ``answer`` of invite number ``invite``."""
    if kind not in TAGS:
        raise ValueError(f"a code is an offer or an answer, not {kind!r}")
    # 32 bytes as 95 characters of hex and colons deflate badly: write them in base64 instead.
    text = FINGERPRINT.sub(lambda m: "a=fingerprint:sha-256 ~" + _b64(bytes.fromhex(m[1].replace(":", ""))),
                           sdp)
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=DICTIONARY)
    raw = deflater.compress(f"{invite}\n{text}".encode()) + deflater.flush()
    return TAGS[kind] + _b64(raw)


def unpack(code: str) -> tuple[str, int, str]:
    """``(kind, invite, sdp)`` from a code; anything else raises `ParseError`."""
    code = "".join(str(code or "").split())          # pasted codes pick up spaces and line breaks
    kind = next((k for k, tag in TAGS.items() if code.startswith(tag)), None)
    if kind is None:
        raise ParseError("this is not a connection code from this game")
    if len(code) > MAX_CODE:
        raise ParseError("this code is too long to be a connection code")
    try:
        packed = base64.urlsafe_b64decode(code[2:] + "=" * (-len(code[2:]) % 4))
        inflater = zlib.decompressobj(-15, zdict=DICTIONARY)
        raw = inflater.decompress(packed, MAX_SDP)
        if not inflater.eof or inflater.unconsumed_tail:
            raise ValueError("incomplete")
        number, _, text = raw.decode().partition("\n")
        invite = int(number)
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise ParseError("this code is damaged or incomplete: copy all of it") from None
    sdp = PACKED_PRINT.sub(lambda m: "a=fingerprint:sha-256 " + _hex(_unb64(m[1])), text)
    if not sdp.startswith("v=0") or "a=fingerprint:" not in sdp:
        raise ParseError("this code is damaged or incomplete: copy all of it")
    return kind, invite, sdp


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hex(data: bytes) -> str:
    return ":".join(f"{byte:02X}" for byte in data)
