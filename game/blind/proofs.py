"""Chaum-Pedersen proofs: "the same secret exponent takes ``g1`` to ``h1`` and ``g2`` to ``h2``",
made non-interactive with Fiat-Shamir (the challenge is SHA-256 of everything the proof is
about), and bound to one table, game, hand, seat, step and position by its ``context``; and the
lock's proof (`prove_lock`), the same kind of sigma protocol for two secrets at once.

The blind deal uses one statement twice: a seat removing its lock from a value
(``g1, h1 = G, Y`` its commitment, ``g2, h2 = c', c``: the value after and before) and a seat
showing a card (``g1, h1 = G, Y``, ``g2, h2 = m, v``: the card's element and the value held).

>>> import random
>>> from game.blind.group import G, P
>>> k, m = 12345, pow(G, 777, P)
>>> proof = prove("t/0/0/1/play/3", G, pow(G, k, P), m, pow(m, k, P), k, random.Random(1))
>>> verify("t/0/0/1/play/3", G, pow(G, k, P), m, pow(m, k, P), proof)
True
>>> verify("t/0/0/1/play/4", G, pow(G, k, P), m, pow(m, k, P), proof)   # another position
False
>>> Proof.from_json(proof.to_json()) == proof
True

A lock: ``out = in^(k/e)``, with ``E = G^e`` (the shuffle's commitment) and ``Y = G^k``.

>>> from game.blind.alarms import finish
>>> e, k, before = 31337, 4242, pow(G, 99, P)
>>> after = pow(before, k * pow(e, -1, Q) % Q, P)
>>> lock = finish(prove_lock("t/0/0/1/lock/3", pow(G, e, P), pow(G, k, P), before, after, e, k, random.Random(2)))
>>> finish(verify_lock("t/0/0/1/lock/3", pow(G, e, P), pow(G, k, P), before, after, lock))
True
>>> finish(verify_lock("t/0/0/1/lock/3", pow(G, e, P), pow(G, k, P), m, pow(m, k * pow(e, -1, Q) % Q, P), lock))
False
>>> LockProof.from_json(lock.to_json()) == lock
True
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from game.errors import ParseError

from .alarms import Work
from .group import G, P, Q, element_text, product_of_powers, read_scalar, scalar_text

DOMAIN = "cribbage-blind/1/proof"
POWS_TO_PROVE = 2
POWS_TO_VERIFY = 4
POWS_TO_PROVE_LOCK = 4
POWS_TO_VERIFY_LOCK = 6


@dataclass(frozen=True)
class Proof:
    """The ``challenge`` and the ``response``, both mod Q."""

    challenge: int
    response: int

    def to_json(self) -> list[str]:
        return [scalar_text(self.challenge), scalar_text(self.response)]

    @classmethod
    def from_json(cls, data: object) -> Proof:
        """A proof from ``[challenge, response]`` (64 hex digits each), else `ParseError`."""
        if not isinstance(data, list) or len(data) != 2:
            raise ParseError("a proof is a list of two numbers")
        return cls(read_scalar(data[0], "a proof's challenge", 0), read_scalar(data[1], "a proof's response", 0))


def challenge(context: str, elements: tuple[int, ...]) -> int:
    """The Fiat-Shamir challenge: SHA-256 over the domain, the context and the elements, mod Q."""
    text = "\n".join([DOMAIN, context, *map(element_text, elements)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big") % Q


def prove(context: str, g1: int, h1: int, g2: int, h2: int, secret: int, rng: random.Random) -> Proof:
    """A proof that ``h1 = g1^secret`` and ``h2 = g2^secret`` (two exponentiations). ``rng``
    must be `secrets.SystemRandom` outside tests: a nonce used twice gives the secret away."""
    nonce = rng.randrange(1, Q)
    a, b = pow(g1, nonce, P), pow(g2, nonce, P)
    e = challenge(context, (g1, h1, g2, h2, a, b))
    return Proof(e, (nonce + e * secret) % Q)


def verify(context: str, g1: int, h1: int, g2: int, h2: int, proof: Proof) -> bool:
    """Whether ``proof`` shows one exponent takes g1 to h1 and g2 to h2 (four exponentiations, done
    as two `product_of_powers`: the time of about 2.6).
    All four must be in the order-Q subgroup (`game.blind.group.in_group`): the caller checks."""
    back = Q - proof.challenge
    a = product_of_powers(g1, proof.response, h1, back)
    b = product_of_powers(g2, proof.response, h2, back)
    return challenge(context, (g1, h1, g2, h2, a, b)) == proof.challenge


@dataclass(frozen=True)
class LockProof:
    """The ``challenge`` and the two responses (for the shuffle key ``e`` and the lock ``k``), mod Q."""

    challenge: int
    for_shuffle: int
    for_lock: int

    def to_json(self) -> list[str]:
        return [scalar_text(self.challenge), scalar_text(self.for_shuffle), scalar_text(self.for_lock)]

    @classmethod
    def from_json(cls, data: object) -> LockProof:
        """A lock's proof from ``[challenge, response, response]`` (64 hex digits each), else `ParseError`."""
        if not isinstance(data, list) or len(data) != 3:
            raise ParseError("a lock's proof is a list of three numbers")
        return cls(*(read_scalar(x, f"a lock proof's {what}", 0)
                     for x, what in zip(data, ("challenge", "first response", "second response"))))


def prove_lock(context: str, shuffled: int, commit: int, before: int, after: int, e: int, k: int,
               rng: random.Random) -> Work[LockProof]:
    """A proof that the sender knows ``e`` and ``k`` with ``G^e = shuffled``, ``G^k = commit``
    and ``after^e = before^k``: ``after`` is ``before`` with the shuffle key taken off and the
    lock put on, not a value from anywhere else (four exponentiations, in two steps). The
    nonces, like `prove`'s, must come from `secrets.SystemRandom` outside tests."""
    r, t = rng.randrange(1, Q), rng.randrange(1, Q)
    on_g = (pow(G, r, P), pow(G, t, P))
    yield
    commitments = (*on_g, pow(after, r, P) * pow(before, Q - t, P) % P)
    c = challenge(context, (shuffled, commit, before, after, *commitments))
    return LockProof(c, (r + c * e) % Q, (t + c * k) % Q)


def verify_lock(context: str, shuffled: int, commit: int, before: int, after: int, proof: LockProof) -> Work[bool]:
    """Whether ``proof`` (`prove_lock`) holds: six exponentiations (three `product_of_powers`,
    the time of about 4), in two steps. All
    four elements must be in the order-Q subgroup: the caller checks."""
    back = Q - proof.challenge
    a = product_of_powers(G, proof.for_shuffle, shuffled, back)
    b = product_of_powers(G, proof.for_lock, commit, back)
    yield
    c = product_of_powers(after, proof.for_shuffle, before, Q - proof.for_lock)
    return challenge(context, (shuffled, commit, before, after, a, b, c)) == proof.challenge
