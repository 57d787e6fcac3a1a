"""Chaum-Pedersen proofs: "the same secret exponent takes ``g1`` to ``h1`` and ``g2`` to ``h2``",
made non-interactive with Fiat-Shamir (the challenge is SHA-256 of everything the proof is
about), and bound to one table, game, hand, seat, step and position by its ``context``; and the
lock's proof (`prove_lock`), the same kind of sigma protocol for two secrets at once.

The blind deal uses one statement twice: a seat removing its lock from a value
(``g1, h1 = G, Y`` its commitment, ``g2, h2 = c', c``: the value after and before) and a seat
showing a card (``g1, h1 = G, Y``, ``g2, h2 = m, v``: the card's element and the value held).

A proof carries its commitments (the prover's ``g^nonce``) and its responses; the challenge is
computed again from them. So a browser can check many proofs at once (`first_failing`): each
checking equation raised to a random weight of 128 bits from its own generator, all multiplied
in one multi-exponentiation (docs/blind-deal.md, "Checking proofs in a batch", says why this is
sound).

>>> import random
>>> from game.blind.alarms import finish
>>> from game.blind.group import G, P
>>> k, m = 12345, pow(G, 777, P)
>>> proof = prove("t/0/0/1/play/3", G, pow(G, k, P), m, pow(m, k, P), k, random.Random(1))
>>> finish(verify("t/0/0/1/play/3", G, pow(G, k, P), m, pow(m, k, P), proof))
True
>>> finish(verify("t/0/0/1/play/4", G, pow(G, k, P), m, pow(m, k, P), proof))   # another position
False
>>> Proof.from_json(proof.to_json()) == proof
True

A lock: ``out = in^(k/e)``, with ``E = G^e`` (the shuffle's commitment) and ``Y = G^k``.

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
import secrets
from dataclasses import dataclass

from game.errors import ParseError

from .alarms import Work
from .group import (COFACTOR, G, P, Q, element_text, g_power, inverse, multi_power, power_in_steps,
                    product_of_powers, read_element, read_scalar, scalar_text)

DOMAIN = "cribbage-blind/1/proof"
WEIGHT_BITS = 128
BATCH_FROM = 4
Equation = tuple[int, tuple[tuple[int, int], ...]]
"""``(commitment, ((base, exponent), ...))``: the product of the powers must be the commitment.
The bases are elements of the order-Q subgroup (the caller checks); the commitment may be anything."""


@dataclass(frozen=True)
class Proof:
    """The commitments ``g1^nonce`` (``on_first``) and ``g2^nonce`` (``on_second``), and the
    ``response``, mod Q."""

    on_first: int
    on_second: int
    response: int

    def to_json(self) -> list[str]:
        return [element_text(self.on_first), element_text(self.on_second), scalar_text(self.response)]

    @classmethod
    def from_json(cls, data: object) -> Proof:
        """A proof from ``[commitment, commitment, response]`` (512, 512 and 64 hex digits), else `ParseError`."""
        if not isinstance(data, list) or len(data) != 3:
            raise ParseError("a proof is a list of two elements and a number")
        return cls(read_element(data[0], "a proof's commitment"), read_element(data[1], "a proof's commitment"),
                   read_scalar(data[2], "a proof's response", 0))


def challenge(context: str, elements: tuple[int, ...]) -> int:
    """The Fiat-Shamir challenge: SHA-256 over the domain, the context and the elements, mod Q."""
    text = "\n".join([DOMAIN, context, *map(element_text, elements)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big") % Q


def prove(context: str, g1: int, h1: int, g2: int, h2: int, secret: int, rng: random.Random) -> Proof:
    """A proof that ``h1 = g1^secret`` and ``h2 = g2^secret`` (one exponentiation, and one of
    ``G``'s, a fifth of one, when ``g1`` is ``G``). ``rng`` must be `secrets.SystemRandom`
    outside tests: a nonce used twice gives the secret away."""
    nonce = rng.randrange(1, Q)
    a = g_power(nonce) if g1 == G else pow(g1, nonce, P)
    b = pow(g2, nonce, P)
    e = challenge(context, (g1, h1, g2, h2, a, b))
    return Proof(a, b, (nonce + e * secret) % Q)


def equations(context: str, g1: int, h1: int, g2: int, h2: int, proof: Proof) -> tuple[Equation, ...]:
    """What `prove`'s proof must satisfy: ``g1^response h1^-challenge`` and ``g2^response
    h2^-challenge`` are its two commitments."""
    back = Q - challenge(context, (g1, h1, g2, h2, proof.on_first, proof.on_second))
    return ((proof.on_first, ((g1, proof.response), (h1, back))),
            (proof.on_second, ((g2, proof.response), (h2, back))))


def verify(context: str, g1: int, h1: int, g2: int, h2: int, proof: Proof) -> Work[bool]:
    """Whether ``proof`` shows one exponent takes g1 to h1 and g2 to h2: exactly (two
    `product_of_powers`, the time of about 2.6 exponentiations). All four must be in the
    order-Q subgroup (`game.blind.group.in_group`): the caller checks."""
    return (yield from holds(equations(context, g1, h1, g2, h2, proof)))


@dataclass(frozen=True)
class LockProof:
    """The commitments ``G^r`` (``on_shuffle``), ``G^t`` (``on_lock``) and ``after^r before^-t``
    (``across``), and the two responses (for the shuffle key ``e`` and the lock ``k``), mod Q."""

    on_shuffle: int
    on_lock: int
    across: int
    for_shuffle: int
    for_lock: int

    def to_json(self) -> list[str]:
        return [*map(element_text, (self.on_shuffle, self.on_lock, self.across)),
                scalar_text(self.for_shuffle), scalar_text(self.for_lock)]

    @classmethod
    def from_json(cls, data: object) -> LockProof:
        """A lock's proof from three commitments (512 hex digits each) and two responses (64), else `ParseError`."""
        if not isinstance(data, list) or len(data) != 5:
            raise ParseError("a lock's proof is a list of three elements and two numbers")
        commitments = (read_element(x, "a lock proof's commitment") for x in data[:3])
        return cls(*commitments, *(read_scalar(x, "a lock proof's response", 0) for x in data[3:]))


def prove_lock(context: str, shuffled: int, commit: int, before: int, after: int, e: int, k: int,
               rng: random.Random) -> Work[LockProof]:
    """A proof that the sender knows ``e`` and ``k`` with ``G^e = shuffled``, ``G^k = commit``
    and ``after^e = before^k``: ``after`` is ``before`` with the shuffle key taken off and the
    lock put on, not a value from anywhere else (two of ``G``'s exponentiations and one
    other, the time of about 1.4, in two steps). The nonces, like `prove`'s, must come from
    `secrets.SystemRandom` outside tests."""
    r, t = rng.randrange(1, Q), rng.randrange(1, Q)
    on_shuffle, on_lock = g_power(r), g_power(t)
    yield
    across = pow(before, (k * inverse(e) * r - t) % Q, P)      # after^r before^-t, as after = before^(k/e)
    c = challenge(context, (shuffled, commit, before, after, on_shuffle, on_lock, across))
    return LockProof(on_shuffle, on_lock, across, (r + c * e) % Q, (t + c * k) % Q)


def lock_equations(context: str, shuffled: int, commit: int, before: int, after: int,
                   proof: LockProof) -> tuple[Equation, ...]:
    """What `prove_lock`'s proof must satisfy: ``G^s1 E^-c``, ``G^s2 Y^-c`` and ``after^s1
    before^-s2`` are its three commitments."""
    c = challenge(context, (shuffled, commit, before, after, proof.on_shuffle, proof.on_lock, proof.across))
    return ((proof.on_shuffle, ((G, proof.for_shuffle), (shuffled, Q - c))),
            (proof.on_lock, ((G, proof.for_lock), (commit, Q - c))),
            (proof.across, ((after, proof.for_shuffle), (before, Q - proof.for_lock))))


def verify_lock(context: str, shuffled: int, commit: int, before: int, after: int, proof: LockProof) -> Work[bool]:
    """Whether ``proof`` (`prove_lock`) holds, exactly: three `product_of_powers` (the time of
    about 4 exponentiations), in three steps. All four elements must be in the order-Q
    subgroup: the caller checks."""
    return (yield from holds(lock_equations(context, shuffled, commit, before, after, proof)))


def holds(checks: tuple[Equation, ...]) -> Work[bool]:
    """Whether every equation holds exactly (a `product_of_powers` each, a step each)."""
    for commitment, ((g, a), (h, b)) in checks:
        if product_of_powers(g, a, h, b) != commitment:
            return False
        yield
    return True


def holds_together(checks: list[Equation], rng: random.Random | None = None) -> Work[bool]:
    """Whether all the equations hold, checked at once: each raised to its own random weight
    ``w`` (128 bits from ``rng``, the browser's `secrets.SystemRandom`: never a number the
    prover could know or choose), multiplied together as ``commitment^w * prod(base^(-w x))``,
    and that product raised to the cofactor (P - 1) / Q must be 1. True whenever every
    equation holds; when one does not, True with a chance of at most 2^-128 (docs/blind-deal.md,
    "Checking proofs in a batch"). Each base costs one multi-exponentiation term, its exponents
    added up over the equations (``G`` by `g_power`); each commitment a term of 128 bits; then
    one exponentiation of 1792 bits (about 6)."""
    rng = rng or secrets.SystemRandom()
    exponents: dict[int, int] = {}
    commitments = []
    for commitment, powers in checks:
        weight = rng.randrange(1, 2 ** WEIGHT_BITS)
        commitments.append((commitment, weight))
        for base, exponent in powers:
            exponents[base] = (exponents.get(base, 0) - weight * exponent) % Q
    on_g = g_power(exponents.pop(G, 0))
    yield
    product = on_g * (yield from multi_power([*exponents.items(), *commitments])) % P
    yield
    return (yield from power_in_steps(product, COFACTOR)) == 1


def first_failing(proofs: list[tuple[Equation, ...]], rng: random.Random | None = None) -> Work[int | None]:
    """The index of the first proof (given by its equations) that does not hold, or None when all
    hold. From `BATCH_FROM` proofs on they are checked together (`holds_together`), and only if
    that fails one by one, exactly, in order, so a cheat is named at the proof a check one by
    one names; fewer are checked one by one at once (cheaper than the cofactor's exponentiation).
    Which way a message is checked depends only on how many proofs it holds, so every browser
    gives it the same verdict."""
    if len(proofs) >= BATCH_FROM and (yield from holds_together([check for checks in proofs for check in checks], rng)):
        return None
    for index, checks in enumerate(proofs):
        if not (yield from holds(checks)):
            return index
    return None
