"""The table drawn for a beat before the show (web.table.screen) is the engine's own table
at the moment the play ended: checked against the engine's working table, caught just before
its last reset, over random whole hands at 2, 3 and 4 players, from every seat. So is the
table drawn for a beat when a count ends within the play (a 31, or a go): the engine's table
caught just before that reset, with the card that ended the count on the pile."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import engine
from game.engine import Config, apply, legal_actions, new_game
from game.view import view
from web.table.screen import count_end, pegs_of, play_end


def until_a_reset(players: int, seed: int, monkeypatch, ended, moves: int):
    """Random legal moves until the engine resets its table where ``ended(table)`` says; returns
    the state before that move, the state after, its events, and the engine's table then (before
    the reset), or None after ``moves`` moves."""
    caught = []
    reset = engine._Table.reset

    def catching(table, last):
        if ended(table) and not caught:
            caught.append(table.freeze())
        return reset(table, last)

    monkeypatch.setattr(engine._Table, "reset", catching)
    rng = random.Random(seed)
    state = new_game(Config(players=players, target=121), seed=seed)
    for _ in range(moves):
        seat = next(seat for seat in range(players) if legal_actions(state, seat))
        after, events = apply(state, rng.choice(legal_actions(state, seat)))
        if caught:
            return state, after, events, caught[0]
        state = after
    return None


def hand_to_its_end(players: int, seed: int, monkeypatch):
    """The move that ends a play (the last reset: the show comes next); see `until_a_reset`."""
    found = until_a_reset(players, seed, monkeypatch, lambda table: not any(table.hands), 200)
    assert found is not None, "no play ended"
    return found


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10**9))
def test_the_play_s_end_is_the_engine_s_table_when_the_play_ended(players, seed):
    with pytest.MonkeyPatch.context() as monkeypatch:
        before, after, events, ended = hand_to_its_end(players, seed, monkeypatch)
    for seat in range(players):
        drawn = play_end(view(before, seat), after.state_id, events)
        engine_said = replace(view(ended, seat), state_id=after.state_id, turn=None, legal=())
        assert drawn == engine_said
        assert drawn.pile and drawn.count == sum(card.value for card in drawn.pile)


def count_to_its_end(players: int, seed: int, monkeypatch):
    """The move that ends a count within the play (a reset with cards still in hand), or None."""
    return until_a_reset(players, seed, monkeypatch, lambda table: any(table.hands), 400)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10**9))
def test_a_count_s_end_is_the_engine_s_table_when_the_count_ended(players, seed):
    with pytest.MonkeyPatch.context() as monkeypatch:
        found = count_to_its_end(players, seed, monkeypatch)
    if found is None:        # (a game can run without such a count for a while: rare)
        return
    before, after, events, ended = found
    # (the engine keeps a go that ends a count only in its events: the seats that said go)
    went = tuple(sorted(set(before.said_go) | {event.seat for event in events if event.kind == "go"}))
    for seat in range(players):
        drawn = count_end(view(before, seat), after.state_id, events)
        engine_said = replace(view(ended, seat), state_id=after.state_id, turn=None, legal=(), said_go=went)
        assert drawn == engine_said
        assert drawn.pile and drawn.count == sum(card.value for card in drawn.pile) and after.count < drawn.count


def test_a_move_that_does_not_end_the_play_has_no_play_end():
    state = new_game(Config(players=2), seed=4)
    seat = next(seat for seat in range(2) if legal_actions(state, seat))
    after, events = apply(state, legal_actions(state, seat)[0])
    assert play_end(view(state, 0), after.state_id, events) is None
    assert play_end(None, after.state_id, events) is None


def test_pegs_of_keeps_each_side_s_latest_reason():
    with pytest.MonkeyPatch.context() as monkeypatch:
        _, _, events, _ = hand_to_its_end(2, 11, monkeypatch)
    pegs = pegs_of(events)
    for side, label in pegs.items():
        assert label == [e for e in events if e.kind == "peg" and e.side == side][-1].breakdown.label()


def test_the_host_and_each_guest_see_the_play_s_end_from_their_seats(monkeypatch):
    from test_host import Wire, guest_move
    from web.render import render
    caught = []
    reset = engine._Table.reset

    def catching(table, last):
        if not any(table.hands):
            caught.append(table.freeze())
        return reset(table, last)

    monkeypatch.setattr(engine._Table, "reset", catching)
    wire, rng = Wire(3, seed=4), random.Random(4)
    guests = [wire.join(f"conn-{seat}", name) for seat, name in ((1, "Gus"), (2, "Ivy"))]
    wire.host.command("start-table")
    wire.pump()
    while not caught:
        view_0 = wire.table.session.view(0)
        if view_0.legal:
            wire.host_act(rng.choice(view_0.legal))
        else:
            assert any(guest_move(guest, rng) for guest in guests)
        wire.pump()
    state_id = wire.table.session.state.state_id
    for seat, seen in enumerate([wire.host, *guests]):
        assert seen.seat_screen.show and seen.seat_screen.play_end == replace(view(caught[0], seat), state_id=state_id,
                                                      turn=None, legal=())
        html = render(seen)
        assert "The show is next" in html and 'data-testid="pile"' in html and 'data-testid="show"' not in html
        seen.command("continue")               # (the page does, a beat later)
        assert seen.seat_screen.show and seen.seat_screen.play_end is None and 'data-testid="show"' in render(seen)
