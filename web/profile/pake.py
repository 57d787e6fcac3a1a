"""The device link's handshake: each device proves to the other, before a byte of a profile
moves, that it knows the secret half of the code, with CPace (a PAKE) over both ends' DTLS
certificate fingerprints (`Handshake`). Pure Python; `web.profile.device_link` runs it on each
new channel. Its messages, like the rest of the link's, are JSON objects with the link
protocol's version (`VERSION`, `read_message`): the handshake is the first thing on a channel.

The secret half is 4 of 31 characters: 31**4 = 923,521 values (19.8 bits). The proof is CPace
in RFC 3526's 2048-bit group: what a device sends an impostor lets it check the one guess of
the secret it made when it spoke, no other, so nothing can be tried offline; and a failed
check stops the link on that device, which says so. A MAC of the secret sent to the other end
(committed to first or not) would not do: whoever gets one tries all 923,521 secrets in a
second, then poses as either device. The proof also covers both ends' DTLS certificate
fingerprints (each read from the connection's SDPs; DTLS makes each peer hold its
certificate's key), so a relay that connects each device to itself instead of to the other,
passing the handshake along, fails it too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets

from game.codec import loads
from game.errors import ParseError

VERSION = 2                  # of the link's messages; 2: this handshake before the profiles
P = int(  # RFC 3526's 2048-bit MODP group: a safe prime, p = 2q + 1 with q prime
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
EXPONENT_BITS = 256          # twice the group's strength (about 112 bits), as RFC 3526 advises
SHARE = re.compile(r"[0-9a-f]{512}")
PROOF = re.compile(r"[0-9a-f]{64}")


class OtherVersion(ParseError):
    """The other device runs another version of the game."""


def read_message(text: object, allowed: int) -> dict[str, object]:
    """A link message of at most ``allowed`` characters as a dict with our ``v``; `ParseError`
    for anything else (`OtherVersion` for a dict of another version)."""
    if not isinstance(text, str) or len(text) > allowed:
        raise ParseError("a link message is too long")
    data = loads(text, "a link message", max_depth=1)
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise OtherVersion("the other device runs another version: reload both pages")
    return data


def _digest(label: bytes, *parts: bytes) -> bytes:
    """SHA-256 of ``label`` and each part, each part's length first (no two inputs run together)."""
    digest = hashlib.sha256(label)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return digest.digest()


def generator(secret: str, channel: tuple[str, str]) -> int:
    """CPace's generator: the secret and this channel hashed onto the group of prime order q
    (2,304 bits reduced mod p, then squared), so no one knows its logarithm to another's.

    >>> generator("2XRT", ("AA", "BB")) == generator("2XRT", ("AA", "BB")) != generator("2XRX", ("AA", "BB"))
    True
    """
    seed = _digest(b"cribbage device link: generator", secret.encode(), *(f.encode() for f in channel))
    wide = b"".join(hashlib.sha256(seed + bytes([n])).digest() for n in range(9))
    return pow(int.from_bytes(wide, "big") % P, 2, P)


def channel_of(showing: bool, local: list[tuple[str, str]], remote: list[tuple[str, str]]) -> tuple[str, str]:
    """(the showing device's certificate fingerprint, the typing device's), from the
    `web.net.identity.fingerprints` of this connection's local and remote SDP; `ParseError`
    unless each names exactly one SHA-256 certificate.

    >>> channel_of(False, [("sha-256", "AA")], [("sha-256", "BB"), ("sha-256", "BB")])
    ('BB', 'AA')
    >>> channel_of(True, [("sha-256", "AA")], [("sha-256", "BB"), ("sha-1", "CC")])
    Traceback (most recent call last):
    ...
    game.errors.ParseError: the connection does not name one certificate at each end
    """
    def only(found: list[tuple[str, str]]) -> str:
        values = {value for _, value in found}
        if len(values) != 1 or any(algorithm != "sha-256" for algorithm, _ in found):
            raise ParseError("the connection does not name one certificate at each end")
        return values.pop()
    mine, theirs = only(local), only(remote)
    return (mine, theirs) if showing else (theirs, mine)


class Handshake:
    """One device's side of proving, on a new channel, that both ends know the code's secret.

    Each sends a ``share``: the `generator` of the secret and the channel, to a fresh random
    power (it says nothing of the secret: any share is as likely under every secret). Each
    then derives the key from the other's share, to its own power (the same on both ends only
    if both used the same secret and see the same channel), and the typing device sends its
    ``proof``, a MAC under that key; the showing device checks it and only then sends its own.
    An impostor's share holds one guess of the secret, and a proof tells whether that guess
    was right, no other: the showing device, which may hear several connections at once,
    gives none before it has checked the impostor's (wrong: the link ends); the typing
    device, which talks with one at a time, ends the link unless the proof it gets back is
    right (``committed``: this side has sent its proof). ``ok``: the other side's proof
    checked out. `receive` raises `ParseError` for anything but the next step.

    >>> shown = Handshake("2XRT", True, ("AA", "BB"))
    >>> typed = Handshake("2XRT", False, ("AA", "BB"))
    >>> shown.receive(typed.opening()), typed.committed
    ([], False)
    >>> [proof] = typed.receive(shown.opening())
    >>> [answer] = shown.receive(proof)
    >>> typed.receive(answer), shown.ok, typed.ok
    ([], True, True)
    """

    def __init__(self, secret: str, showing: bool, channel: tuple[str, str]):
        self.showing, self.channel = showing, channel
        self.base = generator(secret, channel)
        self.exponent = secrets.randbelow(2**EXPONENT_BITS - 1) + 1
        self.share = pow(self.base, self.exponent, P)
        self.key: bytes | None = None
        self.committed = False
        self.ok = False

    def opening(self) -> str:
        """The first message: our share."""
        return json.dumps({"v": VERSION, "type": "share", "share": f"{self.share:0512x}"})

    def receive(self, text: object) -> list[str]:
        """The other device's next message; what to send back."""
        data = read_message(text, 1000)
        kind = data.get("type")
        if kind == "share" and self.key is None and set(data) == {"v", "type", "share"}:
            self.key = self._key(data["share"])
            if self.showing:
                return []
            self.committed = True
            return [self._proof("typed")]
        if kind == "proof" and self.key is not None and not self.ok and set(data) == {"v", "type", "proof"}:
            mine, theirs = ("shown", "typed") if self.showing else ("typed", "shown")
            claimed = data["proof"]
            if not (isinstance(claimed, str) and PROOF.fullmatch(claimed)
                    and hmac.compare_digest(claimed, self._mac(theirs))):
                raise ParseError("the other device does not know this code")
            self.ok = True
            if not self.showing:
                return []
            self.committed = True
            return [self._proof(mine)]
        raise ParseError("the other device did not follow the link's handshake")

    def _key(self, text: object) -> bytes:
        if not (isinstance(text, str) and SHARE.fullmatch(text)):
            raise ParseError("the other device's share is damaged")
        theirs = int(text, 16)
        if not 1 < theirs < P - 1:          # 0, 1 and -1 would make the key independent of the secret
            raise ParseError("the other device's share is damaged")
        # To twice our power: a share outside the group of order q (times -1) is taken into it.
        shared = pow(theirs, 2 * self.exponent, P)
        shown, typed = (self.share, theirs) if self.showing else (theirs, self.share)
        return _digest(b"cribbage device link: key", *(f.encode() for f in self.channel),
                       *(n.to_bytes(256, "big") for n in (shown, typed, shared)))

    def _mac(self, who: str) -> str:
        assert self.key is not None, "a proof comes after the other's share"
        return hmac.new(self.key, b"cribbage device link: proof from the device that " + who.encode() +
                        b" the code", hashlib.sha256).hexdigest()

    def _proof(self, who: str) -> str:
        return json.dumps({"v": VERSION, "type": "proof", "proof": self._mac(who)})
