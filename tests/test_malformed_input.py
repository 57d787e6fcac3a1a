"""Bad input at every door of the engine is refused with `ParseError` or `IllegalActionError`.

Each regression test below was found by differential testing (issue 11).
"""

import json

import pytest

from game.actions import Action
from game.cards import Card
from game.codec import config_from_json, decode_state, encode_state
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
