"""Bad input at every door of the engine is refused with `ParseError` or `IllegalActionError`.

Each regression test below was found by differential testing (issue 11).
"""

import json

import pytest

from game.actions import Action
from game.cards import Card
from game.codec import (breakdown_from_json, config_from_json, decode_state, encode_state,
                        event_from_json, event_to_json, view_from_json, view_to_json)
from game.engine import Config, apply, legal_actions, new_game
from game.errors import IllegalActionError, ParseError
from game.view import view


@pytest.mark.parametrize("seat", [-1, 4, 7, 2**70, True, False, 1.0, "1", None])
@pytest.mark.parametrize("door", [legal_actions, view])
def test_a_seat_that_is_not_a_seat_number_is_a_parse_error(door, seat):
    with pytest.raises(ParseError, match="seat"):
        door(new_game(Config(), 3), seat)


@pytest.mark.parametrize("door", [legal_actions, view])
def test_a_seat_the_table_does_not_have_is_an_illegal_action(door):
    with pytest.raises(IllegalActionError, match="no seat 3 at a 2-player table"):
        door(new_game(Config(), 3), 3)


def test_seat_minus_one_gets_no_actions_that_apply_would_give_to_seat_one():
    state = new_game(Config(), 3)
    with pytest.raises(ParseError):
        legal_actions(state, -1)
    with pytest.raises(ParseError):
        apply(state, Action._trusted(-1, "discard", legal_actions(state, 1)[0].cards))


@pytest.mark.parametrize("dealer", [True, 1.0, -1, 2])
def test_the_first_dealer_is_a_seat_at_the_table(dealer):
    with pytest.raises((ParseError, IllegalActionError), match="seat"):
        new_game(Config(), 3, first_dealer=dealer)


@pytest.mark.parametrize("text", ["٣ play 5H", "² play 5H", "３ play 5H",
                                  pytest.param("9" * 5000 + " play 5H", id="5000 digits"),
                                  "-1 play 5H", "+1 play 5H", "1_0 play 5H", "7 play 5H"])
def test_an_action_seat_is_written_in_ascii_digits_only(text):
    with pytest.raises(ParseError):
        Action.parse(text)


@pytest.mark.parametrize("field, value", [("players", "2.0"), ("target", "121.0"),
                                          ("match_wins", "true"), ("players", "1" + "0" * 4000),
                                          ("target", '"121"')])
def test_a_saved_config_holds_whole_numbers_only(field, value):
    config = Config().__dict__
    text = encode_state(new_game(Config(), 3))
    damaged = text.replace(f'"{field}":{config[field]}', f'"{field}":{value}')
    assert damaged != text
    with pytest.raises(ParseError):
        decode_state(damaged)
    with pytest.raises(ParseError):
        config_from_json(dict(config, **{field: json.loads(value)}))


@pytest.mark.parametrize("damage", [
    lambda text: text.replace('"seed":3', '"seed":' + "9" * 5000),
    lambda text: text.replace('"scores":[0,0]', '"scores":[0.0,false]'),
    lambda text: text.replace('"schema":1', '"schema":true'),
    lambda text: text.replace('"actions":[]', '"actions":' + "[" * 50_000 + "]" * 50_000),
])
def test_a_saved_game_with_odd_numbers_or_nesting_is_a_parse_error(damage):
    text = encode_state(new_game(Config(), 3))
    assert damage(text) != text
    with pytest.raises(ParseError):
        decode_state(damage(text))


@pytest.mark.parametrize("rank, suit", [(True, "H"), (5, ""), (5, "CD"), (5, ["H"])])
def test_a_card_is_one_rank_and_one_suit(rank, suit):
    with pytest.raises(ParseError):
        Card(rank, suit)


def view_json(**changes):
    state = new_game(Config(), 3)
    state, _ = apply(state, legal_actions(state, 0)[0])
    state, _ = apply(state, legal_actions(state, 1)[0])
    state, _ = apply(state, legal_actions(state, state.turn)[0])
    return dict(json.loads(json.dumps(view_to_json(view(state, 0)))), **changes)


@pytest.mark.parametrize("changes", [
    {"play": [["play", 1]]}, {"play": [["play", 1, "5H", 5, 0]]}, {"play": [["xyz", 1, None, 0]]},
    {"play": [["reset", 1, None, 0]]}, {"seat": -1}, {"seat": 2}, {"seat": True},
    {"config": {"players": 2.0, "target": 121, "match_wins": 1}}, {"hand": "5H 5H 5H"},
    {"scores": [-1, 0]}, {"scores": [0, 0, 0]}, {"scores": [500, 0]}, {"phase": "xyz"},
    {"count": 40}, {"count": 3}, {"has_discarded": ["yes", True]}, {"starter": ""},
    {"turn": 5}, {"winner": 0}, {"verdicts": ["win", "maybe"]}, {"hand_no": 2**80},
    {"state_id": 1.5}, {"said_go": [7]}, {"legal": [{"seat": 1, "type": "play", "cards": ["5H"]}]},
    {"shows": [{"seat": 0, "crib": 1, "cards": "AH 2H 3H 4H", "breakdown": {"total": 0, "items": []}}]},
    {"cut": "5H " * 40}, {"previous": [30, 0]},
], ids=str)
def test_a_malformed_view_is_a_parse_error(changes):
    view_from_json(view_json())
    with pytest.raises(ParseError):
        view_from_json(view_json(**changes))


def event_json(**changes):
    state = new_game(Config(), 3)
    return dict(event_to_json(apply(state, legal_actions(state, 0)[0])[1][0]), **changes)


@pytest.mark.parametrize("changes", [
    {"seat": -1}, {"seat": 2.0}, {"cards": "5H 5H"}, {"count": 99}, {"verdicts": ["maybe"]},
    {"kind": "peg"}, {"kind": ["go"]}, {"scores": [1.0]}, {"side": 0}, {"seat": None},
], ids=str)
def test_a_malformed_event_is_a_parse_error(changes):
    event_from_json(event_json())
    with pytest.raises(ParseError):
        event_from_json(event_json(**changes))


@pytest.mark.parametrize("data", [
    {"total": 5, "items": []},
    {"total": -2, "items": [{"kind": "go", "cards": "", "points": -2}]},
    {"total": 4, "items": [{"kind": "pair", "cards": "5H 5H", "points": 4}]},
    {"total": 1, "items": [{"kind": "go", "cards": "", "points": True}]},
], ids=str)
def test_a_malformed_score_is_a_parse_error(data):
    with pytest.raises(ParseError):
        breakdown_from_json(data)


@pytest.mark.parametrize("data", [
    {"seat": True, "type": "play", "cards": ["5H"]}, {"seat": 2.0, "type": "play", "cards": ["5H"]},
    {"seat": 0, "type": ["play"], "cards": ["5H"]}, {"seat": 0, "type": "play", "cards": "5H"},
    {"seat": 0, "type": "discard", "cards": ["5H", "5H"]}, {"seat": 0, "type": "play", "cards": [5]},
], ids=str)
def test_a_malformed_action_is_a_parse_error(data):
    with pytest.raises(ParseError):
        Action.from_json(data)
