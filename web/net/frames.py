"""The relay fallback's frames: a table's messages, batched, cut to fit the relay, and put
back together in order. Pure Python; the encryption itself is `web.net.relay_path`'s.

When no WebRTC path connects a guest to the host (UDP blocked and no TURN, say), their
messages travel through the relay instead, sealed with AES-GCM under a key only the two of
them can derive. The relay caps each message (16 KiB) and each member's rate, so what one
side sends at once is one batch: the texts as a JSON list, in UTF-8, cut into pieces of at
most `PIECE` bytes. Every piece is numbered (``n``, from 1, one more each time, per
direction) and says whether its batch goes on (``more``); the direction, the number and
``more`` are the cipher's associated data, so the relay can neither reorder, replay, reflect,
join nor cut a piece.

>>> pieces = cut(batch(["hello", "world"]), size=8)
>>> [more for _, more in pieces]
[True, True, False]
>>> joiner = Joiner()
>>> [joiner.add(n, piece, more) for n, (piece, more) in enumerate(pieces, start=1)][-1]
['hello', 'world']
"""

from __future__ import annotations

import json

from game.codec import loads
from game.errors import ParseError

PIECE = 8_192              # bytes of plaintext a piece carries: base64 and JSON keep it under 16 KiB
MAX_BATCH = 1_048_576      # a batch larger than this is refused (a full sync is about 260 KB at most)
MAX_TEXTS = 500
HOST_TO_GUEST, GUEST_TO_HOST = "h2g", "g2h"


class FrameError(ValueError):
    """A piece out of order, a batch too large or not a list of texts: the link is dropped."""


def batch(texts: list[str]) -> bytes:
    """Texts as one batch's bytes."""
    return json.dumps(texts, separators=(",", ":")).encode("utf-8")


def unbatch(data: bytes) -> list[str]:
    """A batch's texts; `FrameError` unless it is a list of at most `MAX_TEXTS` texts.

    >>> unbatch(b'["a"]')
    ['a']
    >>> unbatch(b'{"a": 1}')
    Traceback (most recent call last):
    ...
    web.net.frames.FrameError: a batch is a list of texts
    """
    try:
        texts = loads(data, "a batch", max_depth=1)
    except ParseError as bad:
        raise FrameError(str(bad)) from None
    if not isinstance(texts, list) or len(texts) > MAX_TEXTS or not all(isinstance(t, str) for t in texts):
        raise FrameError("a batch is a list of texts")
    return texts


def cut(data: bytes, size: int = PIECE) -> list[tuple[bytes, bool]]:
    """``data`` in pieces of at most ``size`` bytes, each with whether more follow."""
    pieces = [data[start:start + size] for start in range(0, max(len(data), 1), size)]
    return [(piece, index < len(pieces) - 1) for index, piece in enumerate(pieces)]


def associated(direction: str, n: int, more: bool) -> bytes:
    """The associated data that binds a piece to its direction, its number and whether its
    batch goes on: every field of a piece but the ciphertext and its IV (which the cipher
    checks itself).

    >>> associated(HOST_TO_GUEST, 7, more=True), associated(HOST_TO_GUEST, 7, more=False)
    (b'cribbage/h2g/7/more', b'cribbage/h2g/7/last')
    """
    return f"cribbage/{direction}/{n}/{'more' if more else 'last'}".encode("ascii")


class Joiner:
    """Takes one direction's pieces, in order, and returns each whole batch's texts."""

    def __init__(self) -> None:
        self.expected = 1
        self.parts: list[bytes] = []
        self.size = 0

    def check(self, n: object, more: object) -> tuple[int, bool]:
        """Refuse a piece whose number is not the next one, or whose ``more`` is not a
        boolean (before any decryption work); else (n, more).

        >>> Joiner().check(1, "yes")
        Traceback (most recent call last):
        ...
        web.net.frames.FrameError: a piece's "more" is true or false
        """
        if not isinstance(n, int) or isinstance(n, bool) or n != self.expected:
            raise FrameError(f"piece {str(n)[:12]} where {self.expected} was due")
        if not isinstance(more, bool):
            raise FrameError('a piece\'s "more" is true or false')
        return n, more

    def add(self, n: int, piece: bytes, more: bool) -> list[str] | None:
        """One decrypted piece; the batch's texts once ``more`` is False, else None."""
        self.check(n, more)
        self.expected += 1
        self.size += len(piece)
        if self.size > MAX_BATCH:
            raise FrameError(f"a batch is at most {MAX_BATCH} bytes")
        self.parts.append(piece)
        if more:
            return None
        data, self.parts, self.size = b"".join(self.parts), [], 0
        return unbatch(data)
