"""The next hand dealt one hand ahead (web/friends/blind_ahead.py, docs/blind-deal.md): with
`BlindWire` (tests/test_blind_wired.py), the host and its guests exchanging the protocol's
texts (whole games, every hand after the first dealt ahead and the last one dropped: in
tests/test_blind_wired.py's whole games, at no extra time). A guest and the host reload with two hands open; a friend
dealt out drops the hand ahead, dealt afresh for the new seating; a host that begins a hand at
scores other than the ones the hand before ended at is refused.
"""

import json

import pytest

from game.blind.alarms import finish
from game.blind.seating import Setup
from game.errors import IllegalActionError
from web.friends.blind_flow import advance, begin_body, due, envelope
from web.friends.blind_seat import BlindSeat
from web.friends.blind_table import BlindTable
from web.friends.guest import GuestController
from web.friends.host import HostTable
from web.friends.host_controller import HostController

from test_blind_wired import ROOM, BlindWire, assert_blind, hand_bodies


def first(flow, seat, cards):
    return tuple(sorted(cards))[:2]


def test_a_guest_reloads_with_two_hands_open_and_both_go_on():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: gus.blind_next is not None and gus.blind_next.mine
              and due(gus.blind_seat.flow).step == "play")
    now, ahead = gus.blind_seat.flow.setup.hand, gus.blind_next.flow.setup.hand
    cards = dict(gus.blind_next.mine)
    saved, token = gus.blind_save(), gus.token
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    gus = GuestController(ROOM, name="Gus", token=token, blind_saved=json.loads(json.dumps(saved)))
    wire.join("c1", "Gus", gus, choose=False)
    assert gus.blind_seat.flow.setup.hand == now and gus.blind_next.flow.setup.hand == ahead
    assert gus.blind_next.mine == cards
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand not in (now, ahead))
    assert [h["hand"] for h in wire.table.blind_hands][:2] == [now, ahead]
    assert all(h["alarms"] == [] for h in wire.table.blind_hands) and gus.blind_alarms == []


def test_the_host_reloads_with_two_hands_open_and_both_go_on():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: wire.table.blind_next is not None and due(wire.table.blind_next.flow).step == "begin"
              and due(wire.table.blind_hand.flow).step == "play")
    now, ahead = wire.table.blind_hand.flow, wire.table.blind_next.flow
    saved = wire.table.to_json()
    assert_blind(wire)
    table = HostTable.from_json(saved, token_source=lambda: next(wire.tokens), texts=wire.table.saved_texts().get)
    table.ticker = lambda: wire.now
    wire.table, wire.host = table, HostController(table, seed_source=lambda: 5)
    finish(table.blind_work())                       # both hands rebuilt, every message checked again
    assert table.blind_hand.flow.bodies == now.bodies and table.blind_next.flow.bodies == ahead.bodies
    wire.join("c1", "Gus", gus, choose=False)
    wire.pump(until=lambda: table.blind_hand.setup.hand not in (now.setup.hand, ahead.setup.hand))
    assert [h["hand"] for h in table.blind_hands][:2] == [0, 1]
    assert all(h["alarms"] == [] for h in table.blind_hands) and gus.blind_alarms == []


def test_a_friend_dealt_out_drops_the_hand_ahead_and_the_next_is_dealt_afresh():
    wire = BlindWire(2, wait=5.0)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(choose=False, until=lambda: wire.table.blind_next is not None
              and due(wire.table.blind_next.flow).step == "begin")
    assert due(wire.table.blind_hand.flow).step == "discard"
    dropped = wire.table.blind_next.setup.hand
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand != 0, rounds=100)
    again = wire.table.blind_hand
    assert again.setup.humans == (0,) and again.setup.hand == dropped + 1
    ahead = wire.table.blind_next          # (a hand ahead for the new seating, or none yet)
    assert ahead is None or ahead.setup.humans == (0,) and ahead.setup.hand > again.setup.hand
    wire.join("c1", "Gus", gus, choose=False)
    wire.host.command("give-back", "1")
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand not in (again.setup.hand, dropped))
    hand = wire.table.blind_hand
    assert hand.setup.humans == (0, 1) and hand.setup.hand > again.setup.hand
    assert all(body["step"] in ("start", "shuffle", "lock", "unlock") for body in hand_bodies(wire, dropped))
    assert gus.blind_alarms == []


def test_a_friend_refuses_a_hand_begun_at_scores_the_hand_before_did_not_end_at():
    setup = Setup("room", 0, 1, 2, 0, (0, 1), 0)
    table = BlindTable.open(setup, 121, None, first, first)
    seat = BlindSeat.join(1, table.relayed[0])
    seat.before = (5, 7)
    body = begin_body(setup, (9, 7))
    with pytest.raises(IllegalActionError, match="the hand before ended at"):
        finish(seat.take(0, body))
    assert seat.flow.ahead
    finish(seat.take_text(envelope(1, 1, 0, begin_body(setup, (5, 7))), 1))
    assert not seat.flow.ahead and seat.flow.public.before == (5, 7)


def test_only_the_host_begins_a_hand_dealt_ahead_and_only_once():
    setup = Setup("room", 0, 1, 2, 0, (0, 1), 0)
    table = BlindTable.open(setup, 121, None, first, first)
    with pytest.raises(IllegalActionError, match="only the host"):     # a friend's begin, at the host
        finish(advance(table.flow, {"step": "begin", "seat": 1, "scores": [0, 0]}, sender=1))
    finish(table.begin((3, 4)))
    with pytest.raises(IllegalActionError, match="not dealt ahead"):
        finish(table.begin((3, 4)))
    assert table.flow.public.before == (3, 4)


def test_a_host_that_forges_a_guest_s_message_of_the_hand_ahead_after_its_reload_is_caught():
    """After a reload a guest takes its own messages back unchecked; one of the hand dealt ahead
    that the host changed (here Gus's shuffle, two of its values swapped) it never sent: refused
    by its hash, before any proof is looked at."""
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: gus.blind_next is not None and gus.blind_next.mine
              and due(gus.blind_seat.flow).step == "play")
    saved, token = gus.blind_save(), gus.token
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    relayed = wire.table.blind_next.relayed
    n = next(i for i, text in enumerate(relayed)
             if json.loads(text)["from"] == 1 and json.loads(text)["body"].get("step") == "shuffle")
    message = json.loads(relayed[n])
    deck = message["body"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    relayed[n] = envelope(message["hand"], message["n"], 1, message["body"])
    gus = GuestController(ROOM, name="Gus", token=token, blind_saved=json.loads(json.dumps(saved)))
    wire.join("c1", "Gus", gus, choose=False)
    assert any("did not send" in alarm for alarm in gus.blind_alarms), gus.blind_alarms


def test_a_guest_reloads_in_a_hand_that_was_dealt_ahead_with_the_next_one_open():
    """The current hand's start says it was dealt ahead (no scores): rejoining it must not lose
    the saved keys of the hand ahead of it, whose messages come back next (the browser test
    found it: the guest refused its own shuffle of the hand ahead)."""
    wire = BlindWire(3, bots=((2, "medium"),))
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: gus.blind_seat is not None and gus.blind_seat.flow.setup.hand == 1
              and gus.blind_next is not None and gus.blind_next.mine and due(gus.blind_seat.flow).step == "play")
    now, ahead = gus.blind_seat.flow.setup.hand, gus.blind_next.flow.setup.hand
    held, cards = dict(gus.blind_seat.cards_of(1)), dict(gus.blind_next.mine)
    saved, token = gus.blind_save(), gus.token
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    gus = GuestController(ROOM, name="Gus", token=token, blind_saved=json.loads(json.dumps(saved)))
    wire.join("c1", "Gus", gus, choose=False)
    assert gus.blind_alarms == []
    assert gus.blind_seat.flow.setup.hand == now and gus.blind_next.flow.setup.hand == ahead
    assert gus.blind_seat.cards_of(1) == held and gus.blind_next.mine == cards
    assert set(held.values()) <= set(gus.seat_screen.view.hand)
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand not in (now, ahead))
    assert gus.blind_alarms == [] and all(h["alarms"] == [] for h in wire.table.blind_hands)
