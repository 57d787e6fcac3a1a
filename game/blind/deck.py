"""A human seat's own work in the blind deal of one hand: the messages it sends, and its cards.

Every human seat takes part; the host only passes the messages on, in this order:

1. ``shuffle`` (each human seat in turn): the deck so far, each value raised to the seat's
   shuffle key ``e`` and put in a new order, with ``G^e``. The first deck is the 52 card elements.
2. ``lock`` (each human seat in turn): each used position ``j`` raised to ``k_j / e``, with the
   commitments ``Y_j = G^k_j`` and a proof for each position that its value is the one before
   it under those keys (so no seat can put a copy of another position's value there).
   After every seat, position ``j`` holds ``m^(k_1j k_2j ...)``.
3. ``unlock`` (each human seat in turn): the seat removes its lock from positions others hold
   (`deal_unlocks`), later from the starter and the 3-player crib card (`public_unlocks`), with
   a Chaum-Pedersen proof each (`game.blind.proofs`). A seat then finds its own cards
   (`own_cards`); a position every seat unlocked is a public card.
4. ``reveal``: a seat shows a card it holds (to play it, or at the show) with a proof that the
   value at its position is that card's element under its lock.
5. ``keys``: at the end of the hand every human seat publishes its keys for the audit
   (`game.blind.audit`).

The transcript every browser keeps, and `accept` that checks each message against it, are in
`game.blind.transcript`; the package's docstring (`game.blind`) deals a whole hand.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

from game.cards import DECK, Card
from game.errors import IllegalActionError, shown

from .alarms import Alarm, Work
from .group import G, P, Q, card_element, card_for, element_text, g_power, in_group, inverse
from .proofs import prove, prove_lock
from .seating import Keys
from .transcript import Hand, Message

# ---- a seat's own work ----------------------------------------------------------------------

def shuffle(hand: Hand, keys: Keys, rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat``'s shuffle: the deck so far in a new order, each value raised to its key
    (52 exponentiations and one of ``G``'s, and 52 more to check the values it raises are group
    elements)."""
    _check_turn(hand, keys.seat, "shuffle", len(hand.decks))
    deck = list(hand.decks[-1]) if hand.decks else [card_element(card) for card in DECK]
    if hand.decks:
        for value in deck:
            _own_input(value, keys.seat, "shuffle")
            yield
    (rng or secrets.SystemRandom()).shuffle(deck)
    out = []
    for value in deck:
        out.append(element_text(pow(value, keys.shuffle, P)))
        yield
    return {"step": "shuffle", "seat": keys.seat, "commit": element_text(g_power(keys.shuffle)), "deck": out}


def lock(hand: Hand, keys: Keys, rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat``'s lock: each used position raised to ``k_j / e``, with ``G^k_j`` and a proof
    that it is that (`game.blind.proofs.prove_lock`): about 3 exponentiations a position (``G``'s
    cost a fifth of one: `game.blind.group.g_power`), and one more for the first seat, to check
    the shuffled deck's values are in the group."""
    _check_turn(hand, keys.seat, "lock", len(hand.locked))
    if len(hand.decks) < len(hand.setup.humans):
        raise IllegalActionError("the lock comes after every shuffle")
    rng = rng or secrets.SystemRandom()
    values = hand.locked[-1] if hand.locked else hand.decks[-1][:hand.setup.used]
    shuffled = hand.shuffled[hand.setup.humans.index(keys.seat)]
    undo = inverse(keys.shuffle)
    out, commits, proofs = [], [], []
    for j, (value, k) in enumerate(zip(values, keys.locks)):
        if not hand.locked:     # a lock's values were checked by `accept`, a shuffled deck's were not
            _own_input(value, keys.seat, "lock")
            yield               # (an exponentiation: a step of its own)
        after, commit = pow(value, k * undo % Q, P), g_power(k)
        yield
        proof = yield from prove_lock(hand.setup.context(keys.seat, "lock", j), shuffled, commit, value, after,
                                      keys.shuffle, k, rng)
        proofs.append(proof.to_json())
        out.append(element_text(after))
        commits.append(element_text(commit))
        yield
    return {"step": "lock", "seat": keys.seat, "values": out, "commits": commits, "proofs": proofs}


def deal_unlocks(hand: Hand, keys: Keys, rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat``'s unlock of every position another seat holds (2.2 exponentiations a position)."""
    setup = hand.setup
    positions = [j for j in range(setup.used) if setup.keyholder(j) not in (None, keys.seat)]
    return (yield from unlock(hand, keys, positions, rng))


def public_unlocks(hand: Hand, keys: Keys, which: str, rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat``'s unlock of the ``starter`` or the 3-player crib card (``extra``)."""
    position = hand.setup.starter if which == "starter" else hand.setup.extra
    if position is None:
        raise IllegalActionError(f"no {shown(which)} to unlock at this table")
    return (yield from unlock(hand, keys, [position], rng))


def unlock(hand: Hand, keys: Keys, positions: Iterable[int], rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat`` removes its lock from ``positions``, each with a proof."""
    rng = rng or secrets.SystemRandom()
    values, proofs, where = [], [], []
    for j in positions:
        if not hand.values or hand.waiting_for(j) != keys.seat:
            raise IllegalActionError(f"it is not seat {keys.seat + 1}'s turn to unlock position {j}")
        before = hand.values[j]     # in the group: `accept` checked every lock and unlock
        after = pow(before, inverse(keys.locks[j]), P)
        yield       # at most 3 exponentiations a step: about 30 ms in a browser at CPU x4
        proof = prove(hand.setup.context(keys.seat, "unlock", j), G, hand.commit(keys.seat, j), after, before,
                      keys.locks[j], rng)
        where.append(j)
        values.append(element_text(after))
        proofs.append(proof.to_json())
        yield
    return {"step": "unlock", "seat": keys.seat, "positions": where, "values": values, "proofs": proofs}


def own_cards(hand: Hand, keys: Keys) -> Work[tuple[dict[int, Card], tuple[Alarm, ...]]]:
    """The cards at the positions ``keys.seat`` holds, by position, once every other seat has
    unlocked them; an alarm for a value that is not a card, or a card seen twice."""
    setup, cards, alarms = hand.setup, dict[int, Card](), list[Alarm]()
    for j in range(setup.used):
        if setup.keyholder(j) != keys.seat:
            continue
        if hand.waiting_for(j) is not None:
            raise IllegalActionError(f"position {j} is not unlocked for seat {keys.seat + 1} yet")
        card = card_for(pow(hand.values[j], inverse(keys.locks[j]), P))
        yield
        if card is None:
            alarms.append(Alarm(None, "deal", f"position {j} is not a card once unlocked"))
        elif card in cards.values() or card in hand.cards:
            alarms.append(Alarm(None, "deal", f"position {j} is {card}, a card dealt twice"))
        else:
            cards[j] = card
    return cards, tuple(alarms)


def reveal(hand: Hand, keys: Keys, position: int, card: Card, rng: random.Random | None = None) -> Work[Message]:
    """``keys.seat`` shows ``card`` at ``position`` (to play it, or at the show), with a proof (1.2
    exponentiations)."""
    if not hand.dealt or hand.setup.keyholder(position) != keys.seat:
        raise IllegalActionError(f"seat {keys.seat + 1} holds no card at position {shown(position)} to show")
    k = keys.locks[position]
    proof = prove(hand.setup.context(keys.seat, "reveal", position), G, hand.commit(keys.seat, position),
                  card_element(card), hand.values[position], k, rng or secrets.SystemRandom())
    yield
    return {"step": "reveal", "seat": keys.seat, "position": position, "card": str(card), "proof": proof.to_json()}


def keys_message(keys: Keys) -> Message:
    """``keys.seat``'s keys, published once the hand is over (for `game.blind.audit`)."""
    return keys.to_json()


def _own_input(value: int, seat: int, step: str) -> None:
    """A value a seat is about to raise to a secret key must be in the group: else the answer
    would leak the key's residue modulo a small factor of P - 1."""
    if not in_group(value):
        raise IllegalActionError(f"seat {seat + 1} will not {step} a value outside the group")


def _check_turn(hand: Hand, seat: int, step: str, done: int) -> None:
    humans = hand.setup.humans
    if done >= len(humans) or humans[done] != seat:
        raise IllegalActionError(f"it is not seat {seat + 1}'s turn to {step}")
