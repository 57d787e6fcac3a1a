"""A whole blind-dealt hand with every seat in one process: the order of the messages that the
friends' table will carry between browsers, for tests and the benchmark. Every message goes
through JSON and through `accept`; one transcript stands for every browser's copy (they are equal:
every browser receives every message).

Seats choose at random (``rng``) among what the rules allow; a seat claims a go when none of
its cards fits. ``tamper(hand, message)`` may change any message before it is sent (how the
tests play a cheating seat), and ``claims_go`` lists seats that claim a go whenever they can.
An alarm stops the hand; every seat then publishes its keys and the audit runs, to name the
seat behind an alarm that could not name one.

>>> import random
>>> setup = Setup("room", 0, 0, players=3, dealer=0, humans=(0, 2), host=0)
>>> run = play_hand(setup, random.Random(1), deal_only=True)
>>> run.alarms, len(run.own[2]), len(run.own[0]), run.public.phase     # the host holds the bot's cards
((), 5, 10, 'play')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from game.cards import Card

from .alarms import Alarm, Work, finish
from .audit import Audit, audit, check_moves
from .deck import deal_unlocks, keys_message, lock, own_cards, public_unlocks, reveal, shuffle
from .public import CUTTING, PLAYING, SHOWING, Public
from .seating import Keys, Setup, new_keys
from .transcript import Hand, Message, accept

Tamper = Callable[[Hand, Message], Message]


@dataclass
class Run:
    """What a hand left: every ``sent`` message (JSON text, in order) with the transcript
    after it (``snapshots``), the final ``hand`` and ``public`` state, the cards each human seat
    found (``own``, by position), the ``audit``, and every ``alarm`` raised (the hand stops at
    the first)."""

    setup: Setup
    keys: dict[int, Keys]
    hand: Hand
    public: Public
    sent: list[str] = field(default_factory=list)
    snapshots: list[Hand] = field(default_factory=list)
    own: dict[int, dict[int, Card]] = field(default_factory=dict)
    audit: Audit | None = None
    alarms: tuple[Alarm, ...] = ()


class _Stop(Exception):
    """An alarm went off: the hand stops."""


def play_hand(setup: Setup, rng: random.Random, keys: dict[int, Keys] | None = None,
              scores: tuple[int, ...] | None = None, tamper: Tamper | None = None,
              claims_go: Collection[int] = (), deal_only: bool = False) -> Run:
    """Deal, play and audit one hand at ``setup``'s table (see the module's docstring); only
    deal it and cut the starter with ``deal_only``."""
    config = setup.config
    keys = keys or {seat: new_keys(setup, seat, rng) for seat in setup.humans}
    run = Run(setup, keys, Hand(setup), Public.start(config, setup.dealer, scores or (0,) * config.sides))
    try:
        _deal(run, rng, tamper)
        if deal_only:
            return run
        _play(run, rng, tamper, claims_go)
        for seat in setup.humans:
            _send(run, keys_message(keys[seat]), tamper)
        run.audit = finish(audit(run.hand))
        run.alarms = run.audit.alarms
        if run.audit.deck is not None:
            run.alarms += check_moves(run.public, run.audit.deck)
    except _Stop:
        if len(run.hand.locked) == len(setup.humans) and not run.hand.keys:
            _abandon(run, tamper)
    return run


def _abandon(run: Run, tamper: Tamper | None) -> None:
    """After an alarm the hand stops, and every seat publishes its keys at once: the audit
    names the seat behind an alarm that could not name one (a value that is not a card)."""
    alarms = run.alarms
    try:
        for seat in run.setup.humans:
            _send(run, keys_message(run.keys[seat]), tamper)
    except _Stop:
        return
    run.audit = finish(audit(run.hand))
    run.alarms = alarms + run.audit.alarms


def _send(run: Run, message: Message, tamper: Tamper | None) -> None:
    if tamper is not None:
        message = tamper(run.hand, message)
    text = json.dumps(message, separators=(",", ":"))
    run.sent.append(text)
    run.hand, alarms = finish(accept(run.hand, json.loads(text)))
    run.snapshots.append(run.hand)
    _check(run, alarms)


def _check(run: Run, alarms: tuple[Alarm, ...]) -> None:
    if alarms:
        run.alarms += alarms
        raise _Stop


def _each(run: Run, rng: random.Random, tamper: Tamper | None,
          step: Callable[[Hand, Keys, random.Random], Work[Message]]) -> None:
    for seat in run.setup.humans:
        _send(run, finish(step(run.hand, run.keys[seat], rng)), tamper)


def _deal(run: Run, rng: random.Random, tamper: Tamper | None) -> None:
    _each(run, rng, tamper, shuffle)
    _each(run, rng, tamper, lock)
    _each(run, rng, tamper, deal_unlocks)
    for seat in run.setup.humans:
        run.own[seat], alarms = finish(own_cards(run.hand, run.keys[seat]))
        _check(run, alarms)
    config = run.setup.config
    for seat in range(config.players):
        chosen = tuple(rng.sample(run.public.held[seat], config.to_crib))
        run.public, _ = run.public.discard(seat, chosen)
    assert run.public.phase == CUTTING
    _each(run, rng, tamper, lambda hand, keys, r: public_unlocks(hand, keys, "starter", r))
    starter = run.hand.cards[run.setup.starter]
    assert starter is not None
    run.public, _ = run.public.cut(starter)


def _play(run: Run, rng: random.Random, tamper: Tamper | None, claims_go: Collection[int]) -> None:
    setup = run.setup
    while run.public.phase == PLAYING:
        table = run.public
        seat = table.turn
        assert seat is not None
        mine = run.own[_holder(setup, table.held[seat][0])]
        fits = [j for j in table.held[seat] if table.count + mine[j].value <= 31]
        if not fits or (seat in claims_go and table.count > 21):
            run.public, _ = table.go(seat)
            continue
        j = rng.choice(fits)
        _send(run, finish(reveal(run.hand, run.keys[_holder(setup, j)], j, mine[j], rng)), tamper)
        run.public, _ = table.play(seat, j, mine[j])
    if run.public.phase != SHOWING:
        return
    for discarded in run.public.discarded:
        for j in discarded or ():
            owner = _holder(setup, j)
            _send(run, finish(reveal(run.hand, run.keys[owner], j, run.own[owner][j], rng)), tamper)
    if setup.extra is not None:
        _each(run, rng, tamper, lambda hand, keys, r: public_unlocks(hand, keys, "extra", r))
    crib = {j: card for j, card in enumerate(run.hand.cards) if card is not None and j in
            {*[j for chosen in run.public.discarded for j in chosen or ()], setup.extra}}
    run.public, _ = run.public.show(crib)


def _holder(setup: Setup, position: int) -> int:
    seat = setup.keyholder(position)
    assert seat is not None, "a dealt position has a keyholder"
    return seat
