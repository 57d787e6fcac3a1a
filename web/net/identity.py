"""The host's identity, pinned in the invite link: a guest talks only to the real host.

The host's browser keeps one DTLS certificate per table (`web.net.keystore` makes it and
stores it in IndexedDB, so a reload keeps it). Its SHA-256 fingerprint travels in the invite
link's ``#fragment``, which browsers never send to any server. An offer names the
certificate its sender will use in ``a=fingerprint`` lines, and the browser's DTLS handshake
fails unless the peer really holds that certificate's key; so a guest that takes only offers
whose fingerprint is the pinned one can reach no one but the host. Pure Python.

>>> sdp = "v=0\\r\\na=fingerprint:sha-256 " + ":".join(["AB"] * 32) + "\\r\\n"
>>> pin = pin_from_hex(":".join(["AB"] * 32))
>>> pin, offer_matches(sdp, pin)
('q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s', True)
>>> offer_matches(sdp.replace("AB", "CD"), pin), offer_matches("v=0\\r\\n", pin)
(False, False)
"""

from __future__ import annotations

import base64
import re

ALGORITHM = "sha-256"
DIGEST_BYTES = 32
PIN = re.compile(r"[A-Za-z0-9_-]{43}")
FINGERPRINT_LINE = re.compile(r"^a=fingerprint:(\S+) ([0-9A-Fa-f:]+)\s*$", re.MULTILINE)
WRONG_HOST = ("Refused a connection that did not come from this table's host: its key does not match "
              "your invite link. Someone else may be trying to pose as the host.")
WRONG_KEY = ("Refused a connection through the relay that did not come from this table's host: its key "
             "does not match your invite link.")
NO_PIN = ("This invite link is incomplete: the part after “#” (the host's key) is missing. "
          "Ask the host to send the link again, whole.")
Fingerprints = list[tuple[str, str]]    # an SDP's (algorithm, fingerprint) pairs (`fingerprints`)


def pin_from_hex(fingerprint: str) -> str:
    """A SHA-256 fingerprint as browsers write it (``AB:CD:…``) as a 43-character link-safe
    pin; `ValueError` when it is not one.

    >>> pin_from_hex("00:" * 31 + "FF")
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP8'
    >>> pin_from_hex("AB:CD")
    Traceback (most recent call last):
    ...
    ValueError: a SHA-256 fingerprint is 32 bytes
    """
    try:
        digest = bytes.fromhex(fingerprint.replace(":", ""))
    except ValueError:
        raise ValueError("a fingerprint is hexadecimal bytes") from None
    if len(digest) != DIGEST_BYTES:
        raise ValueError("a SHA-256 fingerprint is 32 bytes")
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def clean_pin(text: object) -> str | None:
    """``text`` if it is a well-formed pin, else None (a cut or altered link).

    >>> clean_pin("q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s") is not None, clean_pin("q6ur"), clean_pin(None)
    (True, None, None)
    """
    return text if isinstance(text, str) and PIN.fullmatch(text) else None


def fingerprints(sdp: str) -> Fingerprints:
    """Every ``(algorithm, hex)`` an SDP's ``a=fingerprint`` lines name, session or media level."""
    return [(alg.lower(), value.upper()) for alg, value in FINGERPRINT_LINE.findall(sdp.replace("\r\n", "\n"))]


def offer_matches(sdp: str, pin: str) -> bool:
    """Whether an offer's certificate is the pinned one: at least one fingerprint, and every
    one of them SHA-256 and equal to the pin (a second, other certificate would let its
    holder finish the handshake instead)."""
    found = fingerprints(sdp)
    if not found:
        return False
    for algorithm, value in found:
        if algorithm != ALGORITHM:
            return False
        try:
            if pin_from_hex(value) != pin:
                return False
        except ValueError:
            return False
    return True


def key_pin(public_key: bytes) -> str:
    """The pin of the host's key for the relay fallback (`web.net.relay_path`): SHA-256 of its
    raw public key, link-safe. Only the real host holds the private half, so a guest that finds
    the pin of the key it is sent in its invite link talks, through the relay too, to no one else.

    >>> key_pin(b"\\x04" + bytes(64))
    'We8aWgDzWxpyLaVspwtSpyHzOZhjTU-kJZMB8XD3tr0'
    """
    import hashlib   # here, not at the top: the start (which reads the link's pin) goes without

    return base64.urlsafe_b64encode(hashlib.sha256(public_key).digest()).decode("ascii").rstrip("=")


def fragment_params(fragment: str) -> dict[str, str]:
    """The ``key=value`` pairs of a link's ``#fragment`` (``h``: the host's pin, ``offer``: an
    invite by code); unknown keys are kept, repeated keys keep the first value.

    >>> fragment_params("#h=abc&offer=XYZ")
    {'h': 'abc', 'offer': 'XYZ'}
    >>> fragment_params(""), fragment_params("#offer=A=B")
    ({}, {'offer': 'A=B'})
    """
    params: dict[str, str] = {}
    for part in fragment.removeprefix("#").split("&"):
        key, sep, value = part.partition("=")
        if sep and key and key not in params:
            params[key] = value
    return params
