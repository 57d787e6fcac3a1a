"""Mutated encodings of real games: the readers raise only `ParseError`; valid ones round-trip."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.actions import Action
from game.codec import (breakdown_from_json, breakdown_to_json, config_from_json, config_to_json,
                        decode_state, encode_state, event_from_json, event_to_json, view_from_json,
                        view_to_json)
from game.engine import OVER, PLAYING, Config, apply, legal_actions, new_game
from game.errors import IllegalActionError, ParseError
from game.view import view

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=False), st.integers(-2**70, 2**70),
    st.sampled_from([-1, 0, 31, 32, 10**400, "", "xyz", "5H 5H", "AS", [], {}, [[[[]]]]]),
    st.text(max_size=6))


@st.composite
def mutations(draw, data):
    """``data`` with one value inside replaced by an odd one, a list cut short or doubled, a
    field dropped, or a value nested deeper."""
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        if draw(st.booleans()):
            return {k: v for k, v in data.items() if k != key}
        return {**data, key: draw(mutations(data[key]))}
    if isinstance(data, list) and data:
        index = draw(st.integers(0, len(data) - 1))
        how = draw(st.sampled_from(["inside", "cut", "double"]))
        if how == "cut":
            return data[:index]
        return data + data if how == "double" else \
            data[:index] + [draw(mutations(data[index]))] + data[index + 1:]
    return draw(ODD_VALUES) if draw(st.integers(0, 3)) else [[[[data]]]]


@st.composite
def games(draw):
    """A state part-way through a random game, and the events that led to it."""
    players, seed = draw(st.sampled_from([2, 3, 4])), draw(st.integers(0, 10**6))
    rng, state, events = random.Random(seed), new_game(Config(players=players), seed), []
    for _ in range(draw(st.integers(0, 150))):
        if state.phase == OVER:
            break
        seat = state.turn if state.phase == PLAYING else state.discards.index(None)
        state, new = apply(state, rng.choice(legal_actions(state, seat)))
        events += new
    return state, events


def encodings(state, events):
    """(reader, writer, JSON) for what the game shows: views, events, scores, actions, config."""
    found = [(config_from_json, config_to_json, config_to_json(state.config))]
    for seat in range(state.config.players):
        seat_view = view(state, seat)
        found.append((view_from_json, view_to_json, view_to_json(seat_view)))
        found += [(Action.from_json, Action.to_json, action.to_json()) for action in seat_view.legal]
    for event in events[-8:]:
        found.append((event_from_json, event_to_json, event_to_json(event)))
        if event.breakdown is not None:
            found.append((breakdown_from_json, breakdown_to_json, breakdown_to_json(event.breakdown)))
    return [(read, write, json.loads(json.dumps(data))) for read, write, data in found]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_every_encoding_round_trips_and_every_mutation_is_a_parse_error(game, data):
    for read, write, encoded in encodings(*game):
        assert write(read(encoded)) == encoded
    read, _, encoded = data.draw(st.sampled_from(encodings(*game)))
    try:
        read(data.draw(mutations(encoded)))
    except ParseError:
        pass


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_a_mutated_saved_game_is_a_parse_error(game, data):
    state, _ = game
    text = encode_state(state)
    assert decode_state(text) == state
    try:
        decode_state(json.dumps(data.draw(mutations(json.loads(text)))))
    except ParseError:
        pass


@settings(max_examples=200)
@given(games(), ODD_VALUES | st.integers(-5, 8))
def test_any_seat_gets_actions_and_a_view_or_a_documented_error(game, seat):
    state, _ = game
    for door in (legal_actions, view):
        try:
            door(state, seat)
        except (ParseError, IllegalActionError):
            pass


@given(st.text(max_size=30) | st.builds("{} {} {}".format, st.text(max_size=4),
                                         st.sampled_from(["play", "discard", "x"]), st.text(max_size=6)))
def test_any_text_is_an_action_or_a_parse_error(text):
    try:
        assert Action.parse(str(Action.parse(text))) == Action.parse(text)
    except ParseError:
        pass
