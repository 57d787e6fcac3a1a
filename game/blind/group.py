"""The group the blind deal computes in, derived with nothing up its sleeve, and the deck in it.

A Schnorr group: a 2048-bit prime `P`, a 256-bit prime `Q` dividing ``P - 1``, and `G`, a
generator of the order-`Q` subgroup. All three come from SHA-256 of ``cribbage-blind/1/group``
and a counter (`derive`: the first counter that gives a prime), so no one chose them; the
values are written out below and tests/test_blind_group.py derives them again. Each card's
element (`derive_element`) is likewise a hash of its name sent into the subgroup, so no one knows
its discrete logarithm to `G` or to another card's element; the 52 are precomputed in
`game.blind.elements` (`card_element`, `card_for`), so a page never computes them.

Exponentiation besides `pow`: `g_power` (powers of `G` from a fixed table, a fifth of the
time), `multi_power` (a product of many powers in one chain of squarings, a fifth of the time
a base for exponents of 256 bits), `product_of_powers` (two), `power_in_steps` (a long exponent
in steps).

Group elements travel as 512 lowercase hex digits, exponents as 64 (`element_text`,
`read_element`, `scalar_text`, `read_scalar`); anything else is a `ParseError`.

>>> pow(G, Q, P) == 1 != G and (P - 1) % Q == 0
True
>>> len(element_text(G)), read_element(element_text(G), "a test") == G
(512, True)
>>> card_for(card_element(DECK[5]))
Card.parse('2D')
"""

from __future__ import annotations

import hashlib
import re
from functools import cache

from game.cards import DECK, Card
from game.errors import ParseError

from .alarms import Work
from .elements import ELEMENTS

SEED = "cribbage-blind/1/group"
Q = 0xb48517e776dcf28af665eed5e63ac1f8653a74cac17b4d9c96d596fa770f327f
P = int(
    "8191ee9e2dd5c095da1e788889c4ca34ba16972f89937873513577f4b1031e8e7713a9e8db54f95482c4d1b52e19d2d9"
    "ce00693df35abc6f6943502f3953130b97be779e77e6e080ffc745af67f26a0644f58eca3fe8822b0893a7fe0c902704"
    "077bfde62c5d4e7355138e4a71b7951974ddf3a5273d1f34c758cd844d95f1f6de75a1b7c59122ad71574802be1be00b"
    "a2be5c1b76ee6108373a78318385bdc55c723e7c56abfd47694f648d6a891bf8e14c8898c67bd5a85f2a9fd13262833a"
    "c4d281559b900e1f4776994ec4fecaa2ea655399093c4503c97b0d5d5f23595ae53a312fe2e58fe35c2a77d63f683333"
    "2fe2a3e312a4ee636fc46377070a65cf", 16)
G = int(
    "4bfd9705282512ee8bee48b76bff1b322e4b6a83904cdc13a139b4163d74d680b4b681e224d896ed42debe2108258a1f"
    "3aef10e36a70443993bf4fc4efa646e26d00c4ed6008a995ef41cfaf0e72e9b4658fb24c5a904dae774c8f6b49e8144e"
    "a74eea1051835fbba29cdaf74df1d6cd99a6f707d726ee5152616c55fbaf75c8bc97d1be2929abfccc67a22c72dc3b48"
    "b0f007285c823c4d6fc5851605d7bdfceea818e0840e91b24d8d5cf1128f48d6bf330c7a1b4a2ef2cfe2b776c40e9bd7"
    "d8d348cffc965ea0c75bb3ed42cac790a35b1a97b9cb114f152d30df5516de3b9211445cf399fee18fea5f8f87727a7f"
    "9d822e07636aa28572f82ef4aa0240d1", 16)
COFACTOR = (P - 1) // Q
ELEMENT_HEX = 512
SCALAR_HEX = 64
ELEMENT = re.compile(f"[0-9a-f]{{{ELEMENT_HEX}}}")
SCALAR = re.compile(f"[0-9a-f]{{{SCALAR_HEX}}}")
# Miller-Rabin bases: fixed, so the check is the same everywhere. P and Q are hash outputs, not
# numbers built to fool a test, for which 16 bases leave a chance of error far below 2**-100.
BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53)


def expand(label: str, bits: int) -> int:
    """The first ``bits`` bits of SHA-256(``label/0``) || SHA-256(``label/1``) || ...

    >>> expand("x", 8) == hashlib.sha256(b"x/0").digest()[0]
    True
    """
    out, block = b"", 0
    while len(out) * 8 < bits:
        out += hashlib.sha256(f"{label}/{block}".encode()).digest()
        block += 1
    return int.from_bytes(out, "big") >> (len(out) * 8 - bits)


@cache
def small_primes(limit: int = 20000) -> tuple[int, ...]:
    """The odd primes below ``limit`` (a sieve), for trial division.

    >>> small_primes(20)
    (3, 5, 7, 11, 13, 17, 19)
    """
    sieve = bytearray([1]) * limit
    sieve[:2] = b"\0\0"
    for n in range(2, int(limit ** 0.5) + 1):
        if sieve[n]:
            sieve[n * n::n] = bytes(len(range(n * n, limit, n)))
    return tuple(n for n in range(3, limit) if sieve[n])


def is_probable_prime(n: int) -> bool:
    """Trial division, then Miller-Rabin with the fixed `BASES`.

    >>> [n for n in range(90, 110) if is_probable_prime(n)], is_probable_prime(2**127 - 1)
    ([97, 101, 103, 107, 109], True)
    """
    if n < 2 or n % 2 == 0:
        return n == 2
    for p in small_primes():
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for base in BASES:
        x = pow(base, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def derive() -> tuple[int, int, int]:
    """(Q, P, G) from `SEED`: Q is the first ``SEED/q/<n>`` (256 bits, top and bottom bits set)
    that is prime; P the first ``SEED/p/<n>`` (2048 bits, top bit set) rounded down to 1 more
    than a multiple of 2Q that is a 2048-bit prime; G the first ``SEED/g/<n>`` mod P raised to
    (P - 1) / Q that is not 1. About a second under CPython (45 Fermat tests on P's way)."""
    counter = 0
    while not is_probable_prime(q := expand(f"{SEED}/q/{counter}", 256) | (1 << 255) | 1):
        counter += 1
    counter = 0
    while True:
        x = expand(f"{SEED}/p/{counter}", 2048) | (1 << 2047)
        p = x - x % (2 * q) + 1
        if p.bit_length() == 2048 and all(p % s for s in small_primes()) and pow(2, p - 1, p) == 1 \
                and is_probable_prime(p):
            break
        counter += 1
    counter = 0
    while (g := pow(expand(f"{SEED}/g/{counter}", 2048) % p, (p - 1) // q, p)) == 1:
        counter += 1
    return q, p, g


def derive_element(card: Card) -> int:
    """The card's element, derived: SHA-256 of ``cribbage-blind/1/card/<card>`` (2048 bits) mod P,
    raised to the cofactor (an exponent of 1792 bits: about 15 ms under CPython, 80 ms in
    Chromium at CPU x4). scripts/gen_card_elements.py writes them all into
    `game.blind.elements`, so a page never computes them; tests/test_blind_group.py checks each."""
    return pow(expand(f"cribbage-blind/1/card/{card}", 2048) % P, COFACTOR, P)


_BY_CARD = dict(zip(DECK, ELEMENTS))
_BY_ELEMENT = dict(zip(ELEMENTS, DECK))


def card_element(card: Card) -> int:
    """The card's element (`derive_element`, precomputed in `game.blind.elements`)."""
    return _BY_CARD[card]


def card_for(element: int) -> Card | None:
    """The card whose element this is, or None."""
    return _BY_ELEMENT.get(element)


def power_in_steps(base: int, exponent: int) -> Work[int]:
    """``base ** exponent mod P`` with 4-bit windows from the top, yielding after every 256 bits
    of the exponent (the squarings and multiplications of one key's exponentiation): as fast as
    `pow`, in steps, for the long exponents (the cofactor's 1792 bits).

    >>> from game.blind.alarms import finish
    >>> finish(power_in_steps(G, COFACTOR + 5)) == pow(G, COFACTOR + 5, P)
    True
    """
    table = [1, base]
    for _ in range(14):
        table.append(table[-1] * base % P)
    result, bits = 1, exponent.bit_length() + (-exponent.bit_length()) % 4
    for shift in range(bits - 4, -1, -4):
        for _ in range(4):
            result = result * result % P
        result = result * table[(exponent >> shift) & 15] % P
        if shift % 256 == 0:
            yield
    return result


def product_of_powers(g: int, a: int, h: int, b: int) -> int:
    """``g^a * h^b mod P`` for exponents below 2^256, about a third faster than two `pow`: one
    chain of squarings for both, with 2-bit windows of each exponent (Straus's method).

    >>> product_of_powers(G, Q - 5, 3, 2**255 + 7) == pow(G, Q - 5, P) * pow(3, 2**255 + 7, P) % P
    True
    """
    powers_g, powers_h = [1, g, g * g % P], [1, h, h * h % P]
    powers_g.append(powers_g[2] * g % P)
    powers_h.append(powers_h[2] * h % P)
    table = [[x * y % P for y in powers_h] for x in powers_g]
    result, top = 1, max(a.bit_length(), b.bit_length(), 2)
    for shift in range(top - 1 - (top - 1) % 2, -1, -2):
        result = result * result % P
        result = result * result % P
        result = result * table[(a >> shift) & 3][(b >> shift) & 3] % P
    return result


def _comb_table() -> tuple[int, ...]:
    """``G`` to every sum of the powers ``2^(32 i)`` (i < 8) whose bits pick them: 256 elements,
    about 480 multiplications (the time of 1.6 exponentiations), once when the module loads."""
    rows = [G]
    for _ in range(COMB_ROWS - 1):
        row = rows[-1]
        for _ in range(COMB_COLUMNS):
            row = row * row % P
        rows.append(row)
    table = [1]
    for row in rows:
        table += [x * row % P for x in table]
    return tuple(table)


COMB_ROWS, COMB_COLUMNS = 8, 32         # 8 rows of 32 bits cover an exponent mod Q
_COMB = _comb_table()


def g_power(exponent: int) -> int:
    """``G ** exponent mod P`` for an exponent below 2^256, with the fixed table of `_comb_table`
    (Lim and Lee's comb): 32 squarings and 32 multiplications, a fifth of `pow`'s time.

    >>> all(g_power(k) == pow(G, k, P) for k in (0, 1, 2**255 + 12345, Q - 1))
    True
    """
    rows = [(exponent >> (COMB_COLUMNS * i)) & 0xFFFFFFFF for i in range(COMB_ROWS)]
    result = 1
    for bit in range(COMB_COLUMNS - 1, -1, -1):
        result = result * result % P
        index = 0
        for i in range(COMB_ROWS - 1, -1, -1):
            index = index << 1 | (rows[i] >> bit) & 1
        if index:
            result = result * _COMB[index] % P
    return result


MULTIPLIES_PER_STEP = 300   # multi_power's step: about one exponentiation's work (300 multiplications)


def multi_power(pairs: list[tuple[int, int]]) -> Work[int]:
    """The product of ``base ** exponent mod P`` over ``pairs`` (exponents from 0 to 2^256), in
    one chain of squarings for all (Straus's method, 4-bit windows): a 256-bit exponent costs 14
    multiplications for its table and about 60 in the chain, a fifth of a `pow`, and a 128-bit
    one about 44. Yields after about `MULTIPLIES_PER_STEP` multiplications.

    >>> from game.blind.alarms import finish
    >>> pairs = [(G, 5), (pow(G, 7, P), Q - 1), (3, 2**128 - 1), (5, 0)]
    >>> finish(multi_power(pairs)) == pow(G, 5, P) * pow(G, 7 * (Q - 1), P) * pow(3, 2**128 - 1, P) % P
    True
    """
    tables, exponents, done = [], [], 0
    for base, exponent in pairs:
        if exponent:
            table = [1, base]
            for _ in range(14):
                table.append(table[-1] * base % P)
            tables.append(table)
            exponents.append(exponent)
            done += 14
            if done >= MULTIPLIES_PER_STEP:
                done = 0
                yield
    top = max((exponent.bit_length() for exponent in exponents), default=0)
    result = 1
    for shift in range(top - 1 - (top - 1) % 4, -1, -4):
        for _ in range(4):
            result = result * result % P
        for table, exponent in zip(tables, exponents):
            digit = (exponent >> shift) & 15
            if digit:
                result = result * table[digit] % P
        done += 4 + len(tables)
        if done >= MULTIPLIES_PER_STEP:
            done = 0
            yield
    return result


def in_group(x: int) -> bool:
    """Whether ``x`` is in the order-Q subgroup (one exponentiation).

    >>> in_group(G), in_group(P - 1), in_group(1)
    (True, False, True)
    """
    return 0 < x < P and pow(x, Q, P) == 1


def inverse(k: int) -> int:
    """``1/k`` mod Q (Q is prime: Fermat's little theorem).

    >>> inverse(5) * 5 % Q
    1
    """
    return pow(k, Q - 2, Q)


def element_text(x: int) -> str:
    """An element as 512 lowercase hex digits."""
    return format(x, f"0{ELEMENT_HEX}x")


def scalar_text(x: int) -> str:
    """An exponent (mod Q) as 64 lowercase hex digits."""
    return format(x, f"0{SCALAR_HEX}x")


def read_element(value: object, what: str) -> int:
    """An element from its text: 512 lowercase hex digits, from 2 to P - 1, else `ParseError`.
    Membership of the subgroup (`in_group`, one exponentiation) is checked where it matters."""
    if not isinstance(value, str) or not ELEMENT.fullmatch(value):
        raise ParseError(f"{what} is {ELEMENT_HEX} lowercase hex digits")
    x = int(value, 16)
    if not 1 < x < P:
        raise ParseError(f"{what} is not a number from 2 to P - 1")
    return x


def read_scalar(value: object, what: str, low: int = 1) -> int:
    """An exponent from its text: 64 lowercase hex digits, from ``low`` (1, or 0 for a proof's
    numbers) to Q - 1, else `ParseError`.

    >>> read_scalar("00" * 32, "a key")
    Traceback (most recent call last):
    game.errors.ParseError: a key is not a number from 1 to Q - 1
    """
    if not isinstance(value, str) or not SCALAR.fullmatch(value):
        raise ParseError(f"{what} is {SCALAR_HEX} lowercase hex digits")
    x = int(value, 16)
    if not low <= x < Q:
        raise ParseError(f"{what} is not a number from {low} to Q - 1")
    return x
