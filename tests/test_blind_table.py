"""Blind-dealt hands and games at a table: a host object (`web.friends.blind_table.BlindTable`)
and guest objects (`web.friends.blind_seat.BlindSeat`) exchanging the real JSON texts, at 2, 3
and 4 players with bots in seats (the host's browser runs them).

What it checks: every browser ends each hand with the same public play and a clean audit; each
friend reads exactly the cards the audited deck deals it; the host's engine, replayed with the
audited decks (`Ledger`), reaches the public play's scores; and, after every message the host
handles until the keys are published, nothing the host object holds (walked in full) nor any
text it received or sent holds a friend's unplayed card, its code, or its group element.
And the attacker's tests: a friend's message out of turn, for another seat, malformed, or
claiming a card it was not dealt.
"""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from game.blind.alarms import Alarm, finish
from game.blind.group import G, P, card_element, element_text
from game.blind.public import OVER
from game.blind.seating import Keys, Setup
from game.cards import Card
from game.engine import Config
from game.errors import IllegalActionError
from web.friends.blind_flow import due, envelope
from web.friends.blind_seat import BlindSeat
from web.friends.blind_table import BlindTable, Ledger

TABLES = {2: (0, 1), 3: (0, 2), 4: (0, 1, 3)}          # the human seats; the host is seat 0


def chooser(rng):
    """Random legal choices: the crib's cards, then a card that fits or a go."""
    def choose(flow, seat, cards):
        public = flow.public
        if public.discarded[seat] is None:
            return tuple(rng.sample(sorted(cards), flow.setup.config.to_crib))
        fits = sorted(j for j, card in cards.items() if public.count + card.value <= 31)
        return (rng.choice(fits),) if fits else ()
    return choose


def walk(thing, seen=None):
    """Every Card, int and str reachable from ``thing`` (objects, dataclasses, containers)."""
    seen = set() if seen is None else seen
    if id(thing) in seen:
        return
    seen.add(id(thing))
    if isinstance(thing, (Card, int, str)):
        yield thing
        if isinstance(thing, Card):
            return
    if isinstance(thing, dict):
        for key, value in thing.items():
            yield from walk(key, seen)
            yield from walk(value, seen)
    elif isinstance(thing, (list, tuple, set, frozenset)):
        for item in thing:
            yield from walk(item, seen)
    elif hasattr(thing, "__dict__") and not isinstance(thing, (random.Random, type)) and not callable(thing):
        yield from walk(vars(thing), seen)
    elif hasattr(thing, "__dataclass_fields__"):
        for name in thing.__dataclass_fields__:
            yield from walk(getattr(thing, name), seen)


def assert_blind(table, guests, clean=None):
    """The host object holds no friend's card that is not public yet. ``clean``: the texts
    found clean before in this hand (the secret cards only get fewer), not read again."""
    clean = set() if clean is None else clean
    public = {card for card in table.flow.hand.cards if card is not None}
    secret = {card for guest in guests.values() for card in guest.mine.values()} - public
    if not secret:
        return
    held = list(walk(table))
    elements = {card_element(card) for card in secret}
    assert not secret & {x for x in held if isinstance(x, Card)}
    assert not elements & {x for x in held if isinstance(x, int)}
    strings = {x for x in held if isinstance(x, str)}
    assert not {str(card) for card in secret} & strings
    assert not {element_text(element) for element in elements} & strings
    texts = table.relayed + table.received + [text for _, text in table.outbox]
    needles = [f'"{card}"' for card in secret] + [element_text(element) for element in elements]
    for text in texts:
        if text not in clean:
            assert not any(needle in text for needle in needles), text[:200]
            clean.add(text)


def play_hand(setup, target, scores, rng, guests_cheat=None, scan=True, reload_at=None, stop_at=None):
    """One hand between the host and its guests, every text through JSON; returns the table and
    the guests. ``reload_at``: once the host has relayed that many messages, the host and every
    guest reload: each is rebuilt from what it saved (its keys as JSON, the relayed texts).
    ``stop_at``: return as soon as that step is due."""
    table = BlindTable.open(setup, target, scores, chooser(rng), chooser(rng), rng=rng)
    guests = {}
    for seat, text in table.outbox:
        guests[seat] = BlindSeat.join(seat, text, rng=rng)
    table.outbox.clear()
    choose, clean, lost = chooser(rng), set(), set()
    while due(table.flow).step not in ("over", stop_at):
        if reload_at is not None and len(table.relayed) >= reload_at:
            table, guests = reload(table, guests, rng)
            reload_at = None
        moved = finish(table.run())
        deliver(table, guests, lost, cheats=guests_cheat is not None)
        for seat, guest in guests.items():
            body = finish(guest.next_body(choose)) if seat not in lost else None
            if body is None:
                continue
            if guests_cheat is not None:
                body = guest.pending = guests_cheat(guest, body)     # a patched page
            moved = finish(table.receive(seat, envelope(setup.hand, 1, seat, body))) or moved
            if scan and not table.flow.hand.keys:
                assert_blind(table, guests, clean)
            deliver(table, guests, lost, cheats=guests_cheat is not None)
            if table.refused:
                return table, guests
        if not moved and lost:
            return table, guests          # the hand waits for the cheat's keys
        assert moved, due(table.flow)
    return table, guests


def deliver(table, guests, lost, cheats):
    """The host's outbox to its guests. A cheating page trusts its own messages, so its view
    may part from the table's: with ``cheats``, a guest that refuses the host's next message
    is ``lost`` (it takes no more)."""
    for seat, guest in guests.items():
        for to, text in table.outbox:
            if to == seat and '"type":"blind"' in text and seat not in lost:
                try:
                    finish(guest.take_text(text, table.setup.hand))
                except IllegalActionError:
                    if not cheats:
                        raise
                    lost.add(seat)
    table.outbox.clear()


def reload(table, guests, rng):
    """The host and every guest rebuilt from their saves: keys as JSON, the hand's relayed texts."""
    def saved(keys):
        return Keys.from_json(json.loads(json.dumps(keys.to_json())), table.setup.used)
    relayed = [str(text) for text in table.relayed]
    host = finish(BlindTable.restore(table.setup.host, relayed, saved(table.own.keys), chooser(rng), chooser(rng), rng))
    back = {seat: finish(BlindSeat.rejoin(seat, relayed[:guest.last + 1], saved(guest.keys), rng))
            for seat, guest in guests.items()}
    for seat, guest in back.items():
        assert guest.flow == guests[seat].flow and guest.mine == guests[seat].mine
    assert host.flow == table.flow and host.own.mine == table.own.mine
    return host, back


def check_hand(table, guests):
    audit = table.flow.audit
    assert audit is not None and audit.deck is not None and table.flow.alarms == ()
    pegs = [event for event in table.flow.events if event.kind == "peg"]
    assert pegs and pegs[-1].scores == table.flow.public.scores
    for seat, guest in guests.items():
        assert guest.flow.public == table.flow.public and guest.flow.alarms == ()
        assert guest.flow.events == table.flow.events
        assert guest.mine == {j: audit.deck[j] for j in guest.flow.setup.positions_of(seat)}
    setup = table.setup
    bots = [s for s in range(setup.players) if s not in setup.humans]
    assert set(table.own.mine) == {j for s in (setup.host, *bots) for j in setup.positions_of(s)}
    return audit.deck


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_hand_at_a_table_keeps_every_friends_cards_from_the_host(players):
    setup = Setup("room", 0, 0, players, 1, TABLES[players], 0)
    table, guests = play_hand(setup, 121, (0,) * Config(players=players).sides, random.Random(players))
    deck = check_hand(table, guests)
    engine = Ledger(Config(players=players), first_dealer=1).add(table.flow.public, deck)
    assert engine.scores == table.flow.public.scores and engine.hand_no == 1
    assert [json.loads(text)["n"] for text in table.relayed] == list(range(len(table.flow.bodies)))


@pytest.mark.parametrize("at", [4, 14])
def test_a_hand_goes_on_after_the_host_and_the_friends_reload(at):
    """At 3 players with a bot (messages: 0 the start, 1-2 the shuffles, 3-4 the locks, 5-6 the
    deal's unlocks, 7-9 the discards, 10-11 the starter's unlocks, then the play): a reload in
    the middle of the deal (after 4 messages: the first lock in), and in the play (after 14)."""
    setup = Setup("room", 0, 0, 3, 2, (0, 1), 0)
    table, guests = play_hand(setup, 121, (0, 0, 0), random.Random(at), reload_at=at)
    check_hand(table, guests)


def test_a_whole_game_to_61_at_two_players():
    rng, config, dealer = random.Random(5), Config(players=2, target=61), 1
    ledger, scores, hand = Ledger(config, first_dealer=dealer), (0, 0), 0
    while True:
        setup = Setup("room", 0, hand, 2, dealer, (0, 1), 0)
        table, guests = play_hand(setup, 61, scores, rng, scan=hand < 2)
        engine = ledger.add(table.flow.public, check_hand(table, guests))
        public = table.flow.public
        assert engine.scores == public.scores or public.phase == OVER and engine.winner is not None
        if public.phase == OVER:
            break
        scores, dealer, hand = public.scores, (dealer + 1) % 2, hand + 1
    assert max(public.scores) >= 61 and 2 <= hand + 1 <= 12


@pytest.mark.parametrize("cheat", ["other seat", "out of turn", "malformed", "not dealt", "bad shuffle", "lying stop"])
def test_a_friends_bad_message_is_refused_or_stops_the_hand_for_everyone(cheat):
    setup = Setup("room", 0, 0, 2, 1, (0, 1), 0)
    played = []

    def tamper(guest, body):
        if cheat == "other seat" and body["step"] == "discard":
            return {**body, "seat": 0}
        if cheat == "out of turn" and body["step"] == "lock":
            return {"step": "keys", "seat": 1, "shuffle": "0" * 64, "locks": []}
        if cheat == "malformed" and body["step"] == "unlock":
            return {**body, "values": body["values"][:-1]}
        if cheat == "not dealt" and body["step"] == "reveal" and not played:
            played.append(body)
            others = sorted(set(Card.parse(c) for c in ("AS", "2S", "3S", "4S")) - set(guest.mine.values()))
            return {**body, "card": str(others[0])}
        if cheat == "bad shuffle" and body["step"] == "shuffle":     # the last shuffler spoils its own first card
            return {**body, "deck": body["deck"][:1] + [element_text(pow(G, 12345, P))] + body["deck"][2:]}
        if cheat == "lying stop" and body["step"] == "discard":
            return {"step": "stop", "seat": 1, "position": 1}
        return body

    table, guests = play_hand(setup, 121, (0, 0), random.Random(3), guests_cheat=tamper)
    if cheat in ("bad shuffle", "lying stop"):         # only the friend could see it: every browser stops
        stop = Alarm(None, "deal", "seat 2 found position 1 is not a card once unlocked")
        blamed = (1, "shuffle") if cheat == "bad shuffle" else (1, "stop")
        assert table.flow.alarms[0] == stop and (table.flow.alarms[1].seat, table.flow.alarms[1].step) == blamed
        assert guests[1].flow.alarms == table.flow.alarms and table.flow.audit is not None
    elif cheat == "not dealt":       # the cheat's page took its own reveal: the table stops, and waits for its keys
        alarm = table.flow.alarms[0]
        assert (alarm.seat, alarm.step) == (1, "reveal") and due(table.flow).step == "keys"
    else:
        assert table.refused == [(1, REFUSED[cheat])] and table.flow.alarms == ()
        assert table.flow.bodies == guests[1].flow.bodies and table.outbox == []   # nothing relayed


REFUSED = {"other seat": "seat 2 cannot discard now: discard is due from seat 2",
           "out of turn": "seat 2 cannot keys now: lock is due from seat 2",
           "malformed": "an unlock's values is a list of 6"}


def test_the_scan_finds_a_friends_card_wherever_the_host_keeps_it():
    """The scan can fail: a host object that kept a friend's card, its code or its element."""
    setup = Setup("room", 0, 0, 2, 1, (0, 1), 0)
    table, guests = play_hand(setup, 121, (0, 0), random.Random(2), guests_cheat=lambda guest, body: (
        {**body, "positions": body["positions"][:1]} if body["step"] == "discard" else body))
    assert table.refused and len(guests[1].mine) == 6
    assert_blind(table, guests)
    card = next(iter(guests[1].mine.values()))
    for leak in (card, [card_element(card)], {"note": str(card)}):
        table.leak = leak
        with pytest.raises(AssertionError):
            assert_blind(table, guests)
        del table.leak
    table.received.append(json.dumps({"x": element_text(card_element(card))}))
    with pytest.raises(AssertionError):
        assert_blind(table, guests)


def test_a_friend_refuses_a_move_the_host_forged_in_its_name():
    setup = Setup("room", 0, 0, 2, 1, (0, 1), 0)
    table, guests = play_hand(setup, 121, (0, 0), random.Random(4), stop_at="discard")
    guest = guests[1]
    before, last = guest.flow, guest.last
    forged = envelope(0, guest.last + 1, 1, {"step": "discard", "seat": 1, "positions": sorted(guest.mine)[:2]})
    with pytest.raises(IllegalActionError, match="as seat 2's, a message this browser did not send"):
        finish(guest.take_text(forged, 0))
    assert guest.flow is before and guest.last == last and guest.mine      # nothing changed


def test_a_hand_is_dealt_again_with_a_bot_for_a_friend_who_does_not_come_back():
    setup = Setup("room", 0, 3, 3, 2, (0, 1), 0)
    table, guests = play_hand(setup, 121, (5, 7, 9), random.Random(6), stop_at="play")
    assert table.flow.public.starter is not None and table.own.mine     # dealt and cut: the play waits
    again = table.without(1, hand=4, rng=random.Random(7))
    assert again.setup.humans == (0,) and again.flow.public.scores == (5, 7, 9) and again.outbox == []
    while due(again.flow).step != "over":
        assert finish(again.run())
    assert again.flow.audit is not None and again.flow.alarms == ()
    assert set(again.own.mine) == {j for seat in range(3) for j in again.setup.positions_of(seat)}
    with pytest.raises(IllegalActionError):
        table.without(0, hand=4)


SCALARS = st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6) | st.sampled_from(["AS", "5H", "0" * 64])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                         max_size=3), max_leaves=8)
BODIES = st.fixed_dictionaries({"step": st.sampled_from(["shuffle", "lock", "unlock", "reveal", "keys", "discard", "go",
                                                         "stop", "start", "x"]),
                                "seat": st.integers(-1, 4) | SCALARS},
                               optional={"positions": VALUES, "position": VALUES, "card": VALUES, "proof": VALUES,
                                         "values": VALUES, "proofs": VALUES, "commits": VALUES, "deck": VALUES,
                                         "commit": VALUES, "shuffle": VALUES, "locks": VALUES, "setup": VALUES})
AT_DISCARD = {}


@settings(max_examples=120, deadline=None)
@given(body=BODIES | VALUES, wrap=st.booleans())
def test_whatever_a_friend_sends_the_host_refuses_it_and_changes_nothing(body, wrap):
    """A dealt hand waiting for the discards: a friend's bodies (or any JSON) never crash the
    host; each is refused with a reason to that friend alone, and changes nothing (but a
    discard of two of its own cards, which the rules allow)."""
    if not AT_DISCARD:
        setup = Setup("room", 0, 0, 2, 1, (0, 1), 0)
        AT_DISCARD["table"] = play_hand(setup, 121, (0, 0), random.Random(8), stop_at="discard")[0]
    table = AT_DISCARD["table"]
    before, relayed = table.flow, len(table.relayed)
    text = envelope(0, 1, 1, body) if wrap else json.dumps(body)
    if finish(table.receive(1, text)):      # a discard of two of its own cards, found by chance: fair
        assert isinstance(body, dict) and body["step"] == "discard" and due(before).step == "discard"
        table.outbox.clear()
        return
    assert table.flow is before and len(table.relayed) == relayed
    assert table.refused[-1][0] == 1 and table.outbox[-1][0] == 1
    table.outbox.clear()
