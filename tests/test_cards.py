"""Card notation: parsing, printing and refusing nonsense."""

import pytest

from game.actions import Action
from game.cards import DECK, Card, format_cards, parse_cards
from game.errors import ParseError


def test_deck_has_52_distinct_cards_in_order():
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert str(DECK[0]) == "AC" and str(DECK[-1]) == "KS"


@pytest.mark.parametrize("card", DECK)
def test_every_card_round_trips_through_str_and_repr(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text, expected", [
    ("5H", "5H"), ("td", "TD"), ("10D", "TD"), ("10♠", "TS"), ("q♥", "QH"), ("A♣", "AC"),
    (" kS ", "KS"), ("J♢", "JD"),
])
def test_parse_accepts_the_documented_spellings(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1H", "11S", "5X", "HH", "5", "10", "5HH", "ZZ", None, 5])
def test_parse_refuses_with_a_readable_message(text):
    with pytest.raises(ParseError) as error:
        Card.parse(text)
    assert "card" in str(error.value)


def test_card_values_and_order():
    assert [Card.parse(t).value for t in "AS 5S TS JS QS KS".split()] == [1, 5, 10, 10, 10, 10]
    assert Card.parse("KC") > Card.parse("QS") > Card.parse("AS")
    with pytest.raises(ParseError):
        Card(14, "S")


def test_list_helpers_round_trip():
    cards = parse_cards("5H 10d  JS")
    assert format_cards(cards) == "5H TD JS"
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", ["0 discard 5D 5H", "3 play KS", "1 discard AC"])
def test_actions_round_trip(text):
    action = Action.parse(text)
    assert str(action) == text
    assert Action.from_json(action.to_json()) == action
    assert eval(repr(action)) == action


@pytest.mark.parametrize("bad", [
    "", "play 5H", "0 pass 5H", "0 play 5H 6H", "0 discard", "9 play 5H", "0 discard 5H 5H",
    "0 discard 5H 6H 7H", "x play 5H",
])
def test_malformed_actions_are_parse_errors(bad):
    with pytest.raises(ParseError):
        Action.parse(bad)


@pytest.mark.parametrize("bad", [
    None, [], {"seat": 0}, {"seat": "0", "type": "play", "cards": ["5H"]},
    {"seat": True, "type": "play", "cards": ["5H"]}, {"seat": 0, "type": "play", "cards": "5H"},
    {"seat": 0, "type": "play", "cards": ["5H"], "extra": 1},
    {"seat": 0, "type": "play", "cards": ["5H"] * 50},
])
def test_malformed_action_json_is_a_parse_error(bad):
    with pytest.raises(ParseError):
        Action.from_json(bad)
