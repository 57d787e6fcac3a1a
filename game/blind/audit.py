"""The end-of-hand audit: with every human seat's keys published, every browser checks every
step of the blind deal, recovers the whole deck, and replays the hand's public moves in the real
engine. What it finds wrong is a list of `Alarm` naming the seat and the step.

- ``keys``: each key must be the one its seat committed to (``G^e``, ``G^k_j``);
- ``shuffle``: the final deck must be the 52 card elements raised to the product of the shuffle
  keys; if it is not, each seat's deck is checked against the one before it, to name who
  replaced, copied or dropped a card;
- ``lock``: each seat's value at each position must be the one before it raised to ``k_j / e``
  (its proof was checked when it came; the keys check it again without the proof);
- the unlocks and reveals were proved when they came (`game.blind.transcript.accept`);
- the shuffle has no proof: the audit is where a copied, replaced or dropped card is found;
- ``go`` and ``play`` (`check_moves`): each seat that claimed a go must have held no card that
  fitted, and the engine, dealt the recovered deck, must accept every play.

Cost: one of ``G``'s exponentiations per key (1 + positions per seat; a fifth of one each:
`game.blind.group.g_power`), 52 for the deck, one per position
and seat for the locks (more only when a shuffle is wrong).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from game.actions import Action
from game.cards import DECK, Card
from game.engine import apply, new_game
from game.errors import IllegalActionError

from .alarms import Alarm, Work
from .group import P, Q, card_element, g_power, inverse
from .public import CUTTING, Public
from .transcript import Hand


@dataclass(frozen=True)
class Audit:
    """The recovered ``deck`` (52 cards, the engine's ``deck[j]`` at position ``j``; None when
    the shuffle could not be checked) and the ``alarms`` (empty: every step checked out)."""

    deck: tuple[Card, ...] | None
    alarms: tuple[Alarm, ...]


def audit(hand: Hand) -> Work[Audit]:
    """Check every step of ``hand`` once every human seat has published its keys."""
    setup = hand.setup
    published = {keys.seat: keys for keys in hand.keys}
    missing = [Alarm(seat, "keys", "its keys were not published") for seat in setup.humans if seat not in published]
    if missing or len(hand.locked) < len(setup.humans):
        return Audit(None, tuple(missing) or (Alarm(None, "keys", "the deal never finished"),))
    keys = [published[seat] for seat in setup.humans]
    alarms = []
    for i, seat in enumerate(setup.humans):
        if g_power(keys[i].shuffle) != hand.shuffled[i]:
            alarms.append(Alarm(seat, "keys", "its shuffle key is not the one it committed to"))
        yield
        for j, k in enumerate(keys[i].locks):
            if g_power(k) != hand.commits[i][j]:
                alarms.append(Alarm(seat, "keys", f"its lock key for position {j} is not the one it committed to"))
            yield
    if alarms:
        return Audit(None, tuple(alarms))
    deck = yield from _deck(hand, [k.shuffle for k in keys])
    if deck is None:
        return Audit(None, tuple((yield from _shuffle_alarms(hand, [k.shuffle for k in keys]))))
    values = hand.decks[-1][:setup.used]
    for i, seat in enumerate(setup.humans):
        undo = inverse(keys[i].shuffle)
        for j, (value, k) in enumerate(zip(values, keys[i].locks)):
            if pow(value, k * undo % Q, P) != hand.locked[i][j]:
                alarms.append(Alarm(seat, "lock", f"position {j} is not the value before it under its keys"))
            yield
        values = hand.locked[i]
    return Audit(deck, tuple(alarms))


def _deck(hand: Hand, shuffles: list[int]) -> Work[tuple[Card, ...] | None]:
    """The cards of the final shuffled deck, or None when it is not the 52 cards."""
    total = 1
    for e in shuffles:
        total = total * e % Q
    final = {}
    for card in DECK:
        final[pow(card_element(card), total, P)] = card
        yield
    deck = tuple(final.get(value) for value in hand.decks[-1])
    return None if None in deck or len(set(deck)) != len(DECK) else deck   # type: ignore[return-value]


def _shuffle_alarms(hand: Hand, shuffles: list[int]) -> Work[list[Alarm]]:
    """Which seat's shuffle is not the deck before it under its key."""
    alarms, before = [], [card_element(card) for card in DECK]
    for i, seat in enumerate(hand.setup.humans):
        raised = set()
        for value in before:
            raised.add(pow(value, shuffles[i], P))
            yield
        if raised != set(hand.decks[i]):
            alarms.append(Alarm(seat, "shuffle", "its deck is not the deck before it under its key: "
                                                 "a card was replaced, copied or dropped"))
        before = list(hand.decks[i])
    return alarms


def check_moves(public: Public, deck: Sequence[Card]) -> tuple[Alarm, ...]:
    """Replay ``public``'s moves with the cards of ``deck``: a go claimed by a seat that held a
    card that fitted is an alarm, and so is a play the engine (dealt ``deck``, with the
    scores before the hand) refuses. Only the first such move is named: the hand cannot be
    followed past it."""
    engine = new_game(public.config, 0, stacked=[deck], first_dealer=public.dealer)
    engine = replace(engine, scores=public.before, previous=public.before)
    table = Public.start(public.config, public.dealer, public.before)
    for kind, seat, positions in public.moves:
        if kind == "go":
            fits = [deck[j] for j in table.held[seat] if table.count + deck[j].value <= 31]
            if fits:
                return (Alarm(seat, "go", f"claimed a go at {table.count} holding {fits[0]}, which fitted"),)
            table, _ = table.go(seat)
            continue
        cards = [deck[j] for j in positions]
        action = Action.discard(seat, cards) if kind == "discard" else Action.play(seat, cards[0])
        try:
            engine, _ = apply(engine, action)
        except IllegalActionError as refused:
            return (Alarm(seat, kind, f"the engine refuses {action}: {refused}"),)
        table, _ = table.discard(seat, positions) if kind == "discard" else table.play(seat, positions[0], cards[0])
        if table.phase == CUTTING:
            table, _ = table.cut(deck[table.starter_position])
    return ()
