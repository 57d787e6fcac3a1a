"""The transcript of a hand's blind deal that every browser keeps, and `accept`, which checks
each message (`game.blind.deck` makes them) before it goes in.

A message is a dict of strings, numbers and lists (JSON as sent): ``step`` and ``seat``, then

- ``shuffle``: ``commit`` (``G^e``, an element) and ``deck`` (52 elements);
- ``lock``: ``values`` and ``commits`` (one element per used position each), and ``proofs``
  (three commitments and two responses each: `game.blind.proofs.LockProof`);
- ``unlock``: ``positions`` (numbers), ``values`` (elements) and ``proofs`` (two commitments and
  a response each: `game.blind.proofs.Proof`), one each per position;
- ``reveal``: ``position``, ``card`` (``"5H"``) and ``proof``;
- ``keys``: ``shuffle`` (a number) and ``locks`` (one number per used position).

Elements are 512 lowercase hex digits, numbers mod Q 64 (`game.blind.group`). Malformed input
raises `ParseError`; a message from the wrong seat or at the wrong time `IllegalActionError`;
one whose contents are wrong (a proof that does not hold, a value outside the group, a deck
with a value twice) gives an `Alarm` naming the seat and the step, and changes nothing.

>>> from game.blind.alarms import finish
>>> setup = Setup("room", 0, 0, players=2, dealer=0, humans=(0, 1), host=0)
>>> finish(accept(Hand(setup), {"step": "lock", "seat": 0, "values": [], "commits": [], "proofs": []}))
Traceback (most recent call last):
game.errors.IllegalActionError: the lock comes after every shuffle
>>> finish(accept(Hand(setup), {"step": "shuffle", "seat": 0, "deck": "x"}))
Traceback (most recent call last):
game.errors.ParseError: a shuffle message has step, seat, commit, deck
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.cards import Card
from game.errors import IllegalActionError, ParseError, shown

from .alarms import Alarm, Work
from .group import G, card_element, card_for, in_group, read_element
from .proofs import LockProof, Proof, equations, first_failing, lock_equations, verify
from .seating import SIZE, Keys, Setup

Message = dict[str, object]
FIELDS = {"shuffle": ("commit", "deck"), "lock": ("values", "commits", "proofs"),
          "unlock": ("positions", "values", "proofs"), "reveal": ("position", "card", "proof"),
          "keys": ("shuffle", "locks")}


@dataclass(frozen=True)
class Hand:
    """What every browser knows of a hand's blind deal: the accepted ``decks`` of the shuffle and
    their key commitments ``shuffled`` (``G^e``), the ``locked`` values and lock ``commits`` of
    each human seat in turn, the ``values`` at the used positions now (after the locks and the
    unlocks so far), the seats that have publicly ``unlocked`` each position, the ``cards``
    made public, and the ``keys`` revealed at the end."""

    setup: Setup
    decks: tuple[tuple[int, ...], ...] = ()
    shuffled: tuple[int, ...] = ()
    locked: tuple[tuple[int, ...], ...] = ()
    commits: tuple[tuple[int, ...], ...] = ()
    values: tuple[int, ...] = ()
    unlocked: tuple[frozenset[int], ...] = ()
    cards: tuple[Card | None, ...] = ()
    keys: tuple[Keys, ...] = ()

    def commit(self, seat: int, position: int) -> int:
        """``Y = G^k`` of ``seat``'s lock on ``position``."""
        return self.commits[self.setup.humans.index(seat)][position]

    @property
    def dealt(self) -> bool:
        """Whether every seat has unlocked every position that others hold."""
        return bool(self.values) and all(self.waiting_for(j) is None for j in range(self.setup.used)
                                         if self.setup.keyholder(j) is not None)

    def waiting_for(self, position: int) -> int | None:
        """The human seat whose unlock of ``position`` comes next (seat order), or None."""
        holder = self.setup.keyholder(position)
        return next((s for s in self.setup.humans if s != holder and s not in self.unlocked[position]), None)


def accept(hand: Hand, message: object, made_here: bool = False) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    """Check ``message`` against ``hand``: the new hand and no alarm, or the same hand and the
    alarms. Costs, in exponentiations: a shuffle 1; a lock 2 a position to check its value and
    commitment are in the group (3 for the first lock, which checks the shuffled deck's values
    there), then its proofs together (`game.blind.proofs.first_failing`) about 1.2 a position and
    7.5 for the message; an unlock 1 a position, then its proofs together (about 0.8 a position
    and 7.5) or, under 4 positions, one by one (2.7 each); a reveal 2.7; keys none (the audit
    checks them).

    ``made_here``: the message is this browser's own, just made by `game.blind.deck` from its
    keys (never one that came back over the network, nor one replayed after a reload): its
    form and turn are checked, its proofs and group memberships are not (it made them), which
    spares a browser the exponentiations of its own messages."""
    if not isinstance(message, dict) or not isinstance(message.get("step"), str) or message["step"] not in FIELDS:
        raise ParseError(f"a blind deal message has a step, one of {', '.join(FIELDS)}")
    step = str(message["step"])
    if set(message) != {"step", "seat", *FIELDS[step]}:
        raise ParseError(f"a {step} message has step, seat, {', '.join(FIELDS[step])}")
    seat = message["seat"]
    if type(seat) is not int:
        raise ParseError(f"a seat is a whole number, not {shown(seat)}")
    if seat not in hand.setup.humans:
        raise IllegalActionError(f"seat {shown(seat)} holds no keys at this table")
    if step == "shuffle":
        return (yield from _shuffle(hand, seat, message, made_here))
    if step == "lock":
        return (yield from _lock(hand, seat, message, made_here))
    if step == "unlock":
        return (yield from _unlock(hand, seat, message, made_here))
    if step == "reveal":
        return (yield from _reveal(hand, seat, message, made_here))
    return _keys(hand, seat, message), ()


def _elements(value: object, length: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != length:
        raise ParseError(f"{what} is a list of {length}")
    return tuple(read_element(x, what) for x in value)


def _turn(hand: Hand, seat: int, step: str, done: int) -> None:
    humans = hand.setup.humans
    if done >= len(humans) or humans[done] != seat:
        raise IllegalActionError(f"it is not seat {seat + 1}'s turn to {step}")


def _shuffle(hand: Hand, seat: int, message: Message, made_here: bool) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    deck = _elements(message["deck"], SIZE, "a shuffled deck")
    commit = read_element(message["commit"], "a shuffle commitment")
    _turn(hand, seat, "shuffle", len(hand.decks))
    yield
    if not made_here and not in_group(commit):
        return hand, (Alarm(seat, "shuffle", "the key's commitment is not in the group"),)
    if len(set(deck)) != SIZE:
        return hand, (Alarm(seat, "shuffle", "the deck holds a value twice"),)
    return replace(hand, decks=hand.decks + (deck,), shuffled=hand.shuffled + (commit,)), ()


def _lock(hand: Hand, seat: int, message: Message, made_here: bool) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    if len(hand.decks) < len(hand.setup.humans):
        raise IllegalActionError("the lock comes after every shuffle")
    setup = hand.setup
    used = setup.used
    values = _elements(message["values"], used, "a lock's values")
    commits = _elements(message["commits"], used, "a lock's commitments")
    proofs = message["proofs"]
    if not isinstance(proofs, list) or len(proofs) != used:
        raise ParseError(f"a lock has a proof for each of its {used} positions")
    read = [LockProof.from_json(proof) for proof in proofs]
    _turn(hand, seat, "lock", len(hand.locked))
    before = hand.locked[-1] if hand.locked else hand.decks[-1][:used]
    shuffled = hand.shuffled[len(hand.locked)]
    if not made_here:
        checks, outside = [], None
        for j, (value, commit, proof) in enumerate(zip(values, commits, read)):
            if not hand.locked and not in_group(before[j]):     # the last shuffle's values are checked here
                outside = Alarm(setup.humans[-1], "shuffle", f"position {j} of its deck is not in the group")
            yield
            for element in (value, commit):     # (each check an exponentiation: a step each)
                if not (outside or in_group(element)):
                    outside = Alarm(seat, "lock", f"position {j}: a value or a commitment is not in the group")
                yield
            if outside:
                break
            checks.append(lock_equations(setup.context(seat, "lock", j), shuffled, commit, before[j], value, proof))
        failing = yield from first_failing(checks)      # the proofs before the first value outside the group
        if failing is not None:
            return hand, (Alarm(seat, "lock", f"position {failing}: the proof of the lock does not hold"),)
        if outside:
            return hand, (outside,)
    if len(set(values)) != used:
        return hand, (Alarm(seat, "lock", "a value is there twice"),)
    hand = replace(hand, locked=hand.locked + (values,), commits=hand.commits + (commits,))
    if len(hand.locked) == len(setup.humans):
        hand = replace(hand, values=values, unlocked=(frozenset(),) * used, cards=(None,) * used)
    return hand, ()


def _unlock(hand: Hand, seat: int, message: Message, made_here: bool) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    positions = message["positions"]
    if not isinstance(positions, list) or not 0 < len(positions) <= hand.setup.used \
            or any(type(j) is not int or not 0 <= j < hand.setup.used for j in positions) \
            or len(set(positions)) != len(positions):
        raise ParseError("an unlock's positions are distinct positions of the hand")
    after = _elements(message["values"], len(positions), "an unlock's values")
    proofs = message["proofs"]
    if not isinstance(proofs, list) or len(proofs) != len(positions):
        raise ParseError("an unlock has a proof for each position")
    read = [Proof.from_json(proof) for proof in proofs]
    if not hand.values or any(hand.waiting_for(j) != seat for j in positions):
        raise IllegalActionError(f"it is not seat {seat + 1}'s turn to unlock those positions")
    values, unlocked = list(hand.values), list(hand.unlocked)
    checks, outside = [], None
    for j, value, proof in zip(positions, after, read):
        if not made_here:
            if not in_group(value):
                outside = j
                break
            checks.append(equations(hand.setup.context(seat, "unlock", j), G, hand.commit(seat, j), value, values[j],
                                    proof))
            yield       # a step takes at most about 3 exponentiations: about 30 ms in a browser at CPU x4
    failing = yield from first_failing(checks)      # the proofs before the first value outside the group
    if failing is not None or outside is not None:
        j = positions[failing] if failing is not None else outside
        return hand, (Alarm(seat, "unlock", f"position {j}: the proof of the unlock does not hold"),)
    for j, value in zip(positions, after):
        values[j], unlocked[j] = value, unlocked[j] | {seat}
    hand = replace(hand, values=tuple(values), unlocked=tuple(unlocked))
    return _public_cards(hand, positions)


def _public_cards(hand: Hand, positions: list[int]) -> tuple[Hand, tuple[Alarm, ...]]:
    """Positions no one holds that every seat has now unlocked: their cards are public."""
    cards, alarms = list(hand.cards), []
    for j in positions:
        if hand.setup.keyholder(j) is None and hand.waiting_for(j) is None:
            card = card_for(hand.values[j])
            if card is None:
                alarms.append(Alarm(None, "unlock", f"position {j} is not a card once every seat unlocked it"))
            elif card in cards:
                alarms.append(Alarm(None, "unlock", f"position {j} is {card}, a card dealt twice"))
            cards[j] = card
    return replace(hand, cards=tuple(cards)), tuple(alarms)


def _reveal(hand: Hand, seat: int, message: Message, made_here: bool) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    j = message["position"]
    if type(j) is not int or not 0 <= j < hand.setup.used:
        raise ParseError(f"a position is a whole number from 0 to {hand.setup.used - 1}")
    card = Card.parse(message["card"])   # type: ignore[arg-type]   # Card.parse refuses what is not text
    proof = Proof.from_json(message["proof"])
    if not hand.dealt or hand.setup.keyholder(j) != seat:
        raise IllegalActionError(f"seat {seat + 1} holds no card at position {j} to show")
    if hand.cards[j] is not None:
        raise IllegalActionError(f"position {j} is shown already")
    good = made_here or (yield from verify(hand.setup.context(seat, "reveal", j), G, hand.commit(seat, j),
                                           card_element(card), hand.values[j], proof))
    if not good:
        return hand, (Alarm(seat, "reveal", f"position {j}: the proof that it is {card} does not hold"),)
    alarms = (Alarm(None, "reveal", f"{card} is shown a second time"),) if card in hand.cards else ()
    return replace(hand, cards=hand.cards[:j] + (card,) + hand.cards[j + 1:]), alarms


def _keys(hand: Hand, seat: int, message: Message) -> Hand:
    keys = Keys.from_json(message, hand.setup.used)
    if not hand.values or any(held.seat == seat for held in hand.keys):
        raise IllegalActionError(f"seat {seat + 1}'s keys come once, after the deal")
    return replace(hand, keys=hand.keys + (keys,))


def replay(setup: Setup, messages: list[object]) -> Work[tuple[Hand, tuple[Alarm, ...]]]:
    """The transcript the ``messages`` of a hand build, accepted in turn (a browser that reloads
    rebuilds its own this way); it stops at the first message that sets off an alarm."""
    hand = Hand(setup)
    for message in messages:
        hand, alarms = yield from accept(hand, message)
        if alarms:
            return hand, alarms
    return hand, ()
