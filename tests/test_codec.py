"""JSON round trips, and refusing damaged or hostile input without changing anything."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.codec import (decode_state, encode_state, event_from_json, event_to_json, view_from_json,
                        view_to_json)
from game.engine import PLAYING, Config, apply, legal_actions, new_game
from game.errors import ParseError
from game.view import view


def random_prefix(players, seed, steps):
    rng = random.Random(seed)
    state = new_game(Config(players=players), seed)
    events = []
    for _ in range(steps):
        if state.phase == "over":
            break
        seat = state.turn if state.phase == PLAYING else state.discards.index(None)
        state, new = apply(state, rng.choice(legal_actions(state, seat)))
        events += new
    return state, events


@settings(max_examples=40)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10**6), st.integers(0, 200))
def test_states_views_and_events_round_trip(players, seed, steps):
    state, events = random_prefix(players, seed, steps)
    assert decode_state(encode_state(state)) == state
    for seat in range(players):
        seat_view = view(state, seat)
        assert view_from_json(json.loads(json.dumps(view_to_json(seat_view)))) == seat_view
    for event in events:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def saved_game():
    state, _ = random_prefix(2, 9, 60)
    return state, json.loads(encode_state(state))


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(schema=99), "format 99"),
    (lambda d: d["actions"].__setitem__(5, "0 play 5Z"), "not a card"),
    (lambda d: d["actions"].insert(3, d["actions"][2]), "damaged"),
    (lambda d: d.update(scores=[120, 0]), "scores do not match"),
    (lambda d: d.update(seed="x"), "seed"),
    (lambda d: d.pop("actions"), "exactly the fields"),
    (lambda d: d["config"].update(players=7), "2, 3 or 4 players"),
])
def test_damaged_saves_are_refused_with_a_clear_message(damage, message):
    _, data = saved_game()
    damage(data)
    with pytest.raises(ParseError, match=message):
        decode_state(json.dumps(data))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"schema": 1}', "x" * 3_000_000,
                                  "[" * 100000 + "]" * 100000])
def test_garbage_is_refused(text):
    with pytest.raises(ParseError):
        decode_state(text)


def test_a_truncated_save_is_refused():
    state, _ = saved_game()
    text = encode_state(state)
    for cut in (1, len(text) // 2, len(text) - 1):
        with pytest.raises(ParseError):
            decode_state(text[:cut])


@settings(max_examples=300)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20))
def test_random_json_never_crashes_the_readers(data):
    for reader in (view_from_json, event_from_json):
        try:
            reader(data)
        except ParseError:
            pass
