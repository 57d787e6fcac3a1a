"""The coach at a friends table, under CPython over the pure host and guests of `test_host`:
off unless the host allows it; once allowed, each guest's reviews come from its own views
alone and equal the reviews of its seat computed from the whole game; the host's too."""

from __future__ import annotations

import json
import random

import pytest

from game.coach import review_game, walk
from game.engine import new_game
from game.errors import IllegalActionError
from web.friends import protocol
from web.friends.host import HostTable
from web.profile.records import coach_figures

from test_host import Wire, play_to_the_end


def seated(players: int, coach: bool, seed: int = 31) -> Wire:
    wire = Wire(players, seed=seed)
    for seat in range(1, players):
        wire.join(f"conn-{seat}", wire.names[seat - 1])
    if coach:
        wire.host.command("table-coach", "on")
    wire.host.command("start-table")
    wire.pump()
    return wire


def whole_game_hands(wire: Wire, seat: int):
    """The seat's hands as the engine's own walk finds them, from the host's whole game."""
    state = wire.table.session.state
    start = new_game(state.config, state.seed, state.stacked, hand_seeds=state.hand_seeds)
    return walk(start, state.actions, seat)


def test_the_coach_is_off_at_a_friends_table_unless_the_host_allows_it():
    wire = seated(2, coach=False)
    guest = wire.guests["conn-1"]
    assert guest.prefs["coach"] and wire.host.prefs["coach"]     # both players want it
    assert guest.table["coach"] is False
    play_to_the_end(wire, random.Random(2))
    wire.pump()
    for ctl in (guest, wire.host):
        assert not ctl.coach_on() and ctl.hand_review() is None and ctl.game_review() is None
        assert not ctl.coach_waiting()
    assert guest.finished.coach == ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_allowed_coach_reviews_each_guests_own_hands_from_its_views_alone(players):
    wire = seated(players, coach=True, seed=40 + players)
    assert all(guest.table["coach"] for guest in wire.guests.values())
    reviewed = {conn: 0 for conn in wire.guests}
    rng = random.Random(players)
    while wire.table.session.state.phase != "over":      # a few moves at a time, as the page does
        wire.host.hand_review()          # the host's coach follows a fair table's hand seeds
        for conn, guest in wire.guests.items():
            if guest.hand_review() is not None:
                reviewed[conn] += 1
            if guest.coach_waiting():
                list(guest.coach_thinking())
        play_until_next_show(wire, rng)
    wire.pump()
    for conn, guest in wire.guests.items():      # the last hand's review, drawn after the game's end
        while guest.coach_waiting():
            list(guest.coach_thinking())
        if guest.hand_review() is not None:
            reviewed[conn] += 1
    # (the guests' shares make each run's deck: a game at 4 players may end in its second hand)
    assert all(count > 0 for count in reviewed.values()), reviewed
    for guest in wire.guests.values():
        truth = whole_game_hands(wire, guest.seat)
        assert guest.coach.hands == truth
        assert sum(len(hand.plays) for hand in truth) > 0
        expected = review_game(truth)
        assert guest.finished is not None and guest.finished.coach == coach_figures(expected)
        assert guest.game_review()[0] == expected
    host_truth = review_game(whole_game_hands(wire, 0))
    assert wire.host.finished_review() == host_truth


def play_until_next_show(wire: Wire, rng) -> None:
    """Random legal moves until a hand is shown or the game ends."""
    hand = (wire.table.session.state.game_no, wire.table.session.state.hand_no)
    for _ in range(200):
        state = wire.table.session.state
        if state.phase == "over" or (state.game_no, state.hand_no) != hand:
            return
        before = len(state.actions)
        play_to_one_move(wire, rng)
        assert len(wire.table.session.state.actions) > before


def play_to_one_move(wire: Wire, rng) -> None:
    """`play_to_the_end`'s loop, one move at a time."""
    from test_host import guest_move
    wire.pump()
    while wire.host.seat_screen.show:
        wire.host.command("continue")
    view = wire.table.session.view(0)
    if view.legal:
        wire.host_act(rng.choice(view.legal))
        return
    for guest in wire.guests.values():
        if guest_move(guest, rng):
            wire.pump()
            return
    raise AssertionError("nobody could move")


def test_a_guest_who_turned_the_coach_off_gets_no_reviews():
    wire = seated(2, coach=True)
    guest = wire.guests["conn-1"]
    guest.prefs["coach"] = False
    play_to_the_end(wire, random.Random(5))
    wire.pump()
    assert guest.hand_review() is None and guest.finished.coach == ()
    assert wire.host.game_review() is not None


def test_the_host_sets_the_coach_in_the_lobby_the_table_hears_it_and_keeps_it():
    wire = Wire(2)
    guest = wire.join("conn-1", "Gus")
    wire.host.command("table-coach", "on")
    wire.pump()
    assert guest.table["coach"] is True
    assert guest.chat[-1]["system"] and "coach is on" in guest.chat[-1]["text"]
    wire.host.command("table-coach", "off")
    wire.pump()
    assert guest.table["coach"] is False and "coach is off" in guest.chat[-1]["text"]
    wire.host.command("table-coach", "on")
    wire.host.command("start-table")
    wire.pump()
    with pytest.raises(IllegalActionError):
        wire.table.set_coach(False)
    wire.host.command("table-coach", "off")          # refused: said, nothing changes
    assert "lobby" in wire.host.error and wire.table.coach
    saved = HostTable.from_json(wire.table.to_json())
    assert saved.coach is True
    old = json.loads(wire.table.to_json())
    del old["coach"]                                  # a table saved before the setting: off
    assert HostTable.from_json(json.dumps(old)).coach is False


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_a_table_message_whose_coach_is_not_true_or_false_is_refused(value):
    text = json.loads(HostTable("room-0123456789", 2, 61, "Hana").table_message())
    text["coach"] = value
    with pytest.raises(protocol.ProtocolError, match="coach"):
        protocol.parse(json.dumps(text), "host")


def test_hints_stay_for_games_against_the_bots():
    wire = seated(2, coach=True)
    guest = wire.guests["conn-1"]
    wire.host.command("hint")
    assert "against the bots" in wire.host.error
    guest.command("key", "h")          # the coach's key, at a friends table: said, nothing else
    assert "against the bots" in guest.error
