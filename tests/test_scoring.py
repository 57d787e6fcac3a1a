"""Show and play scoring: data-driven tables, the rules' examples, and properties."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.cards import DECK, Card, parse_cards
from game.scoring import Breakdown, ScoreItem, score_hand, score_play

CASES = json.loads((Path(__file__).parent / "data" / "scoring_cases.json").read_text())


@pytest.mark.parametrize("case", CASES["show_cases"], ids=lambda c: f"{c['hand']}|{c['starter']}")
def test_show_cases_from_public_suites(case):
    breakdown = score_hand(parse_cards(case["hand"]), Card.parse(case["starter"]), case["crib"])
    assert breakdown.total == case["total"]
    assert sum(item.points for item in breakdown.items) == case["total"]


@pytest.mark.parametrize("case", CASES["play_cases"], ids=lambda c: c["pile"])
def test_play_cases_from_public_suites(case):
    assert score_play(parse_cards(case["pile"])).total == case["points"]


# hand, starter, crib, expected points by kind
SHOW_TABLE = [
    ("5H 5D 5C JS", "5S", False, {"fifteen": 16, "pair": 12, "nobs": 1}),           # the 29 hand
    ("5H 5D 5C 5S", "JS", False, {"fifteen": 16, "pair": 12}),                      # 28
    ("3H 3D 4C 4S", "5H", False, {"fifteen": 4, "pair": 4, "run": 12}),             # double double run
    ("4H 4D 5C 6S", "6H", False, {"fifteen": 8, "pair": 4, "run": 12}),             # 24
    ("7H 7D 8C 9S", "8H", False, {"fifteen": 8, "pair": 4, "run": 12}),             # 24
    ("3H 4H 5H 6H", "KS", False, {"fifteen": 4, "run": 4, "flush": 4}),             # run of 4 + flush
    ("3H 4H 5H 6H", "7H", False, {"fifteen": 4, "run": 5, "flush": 5}),             # 5-card flush
    ("3H 4H 5H 6H", "KS", True, {"fifteen": 4, "run": 4}),                          # crib: no 4 flush
    ("3H 4H 5H 6H", "7H", True, {"fifteen": 4, "run": 5, "flush": 5}),              # crib flush
    ("2H 4H 6H 8H", "KC", False, {"flush": 4}),
    ("AH 2C 3D JS", "4S", False, {"fifteen": 4, "run": 4, "nobs": 1}),              # nobs
    ("AH 2C 3D JS", "4H", False, {"fifteen": 4, "run": 4}),                         # no nobs
    ("AH 2C 3D JH", "JS", False, {"fifteen": 4, "pair": 2, "run": 3}),              # starter jack
    ("AH 2C 3D 4S", "5S", False, {"fifteen": 2, "run": 5}),                         # run of 5
    ("2H 4C 6D 8S", "QC", False, {}),                                               # nineteen
    ("TH JH QH KH", "5H", False, {"fifteen": 8, "run": 4, "flush": 5, "nobs": 1}),
    ("6C 6D 6H 6S", "3C", False, {"fifteen": 12, "pair": 12}),
    ("5C 5D TH TS", "KH", False, {"fifteen": 12, "pair": 4}),
]


@pytest.mark.parametrize("hand, starter, crib, by_kind", SHOW_TABLE)
def test_show_table(hand, starter, crib, by_kind):
    breakdown = score_hand(parse_cards(hand), Card.parse(starter), crib)
    assert breakdown.points_by_kind() == by_kind
    assert breakdown.total == sum(by_kind.values())


def test_items_are_in_counting_order_with_their_cards():
    breakdown = score_hand(parse_cards("3H 3D 4C 5S"), Card.parse("KD"))
    kinds = [item.kind for item in breakdown.items]
    assert kinds == sorted(kinds, key=["fifteen", "pair", "run", "flush", "nobs"].index)
    runs = [item for item in breakdown.items if item.kind == "run"]
    assert len(runs) == 2 and all(item.points == 3 for item in runs)   # a double run: two items
    assert {str(c) for run in runs for c in run.cards} == {"3H", "3D", "4C", "5S"}
    assert all(sum(c.value for c in item.cards) == 15
               for item in breakdown.items if item.kind == "fifteen")


@pytest.mark.parametrize("hand, starter, spoken", [
    ("4H 5D 6C 9S", "KD", "fifteen two, fifteen four, fifteen six, and a run of three is nine"),
    ("7H 8D 7C KS", "2D", "fifteen two, fifteen four, and a pair is six"),
    ("5H 5D 9C 9S", "AD", "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, "
                          "and a pair is twelve"),
    ("3H 3D 4C 5S", "KD", "fifteen two, fifteen four, a pair is six, a run of three is nine, "
                          "and another run of three is twelve"),
    ("2H 4C 6D 8S", "QC", "nineteen: no points"),
    ("2H 4H 6H 8H", "JC", "a flush is four"),
    ("AH 2C 3D JS", "4S", "fifteen two, fifteen four, a run of four is eight, "
                          "and one for his nobs is nine"),
])
def test_spoken_count(hand, starter, spoken):
    assert score_hand(parse_cards(hand), Card.parse(starter)).spoken() == spoken


@pytest.mark.parametrize("pile, points, label", [
    ("7H 8D", 2, "fifteen for 2"),
    ("KH 9C 6H 6D", 4, "thirty-one for 2, pair for 2"),               # 31 with a pair: 2 + 2
    ("5H 5D 5C", 8, "fifteen for 2, pair royal for 6"),
    ("3H 3D 3C 3S", 12, "double pair royal for 12"),
    ("4H 6D 5C", 5, "fifteen for 2, run of 3 for 3"),
    ("2H 4D 3C 5S", 4, "run of 4 for 4"),
    ("2H 4D 3C 3S", 2, "pair for 2"),                                  # the run is broken
    ("3H 3D 4C 5S", 5, "fifteen for 2, run of 3 for 3"),               # only the last cards run
    ("6H 4D 4C 5S", 0, "no points"),                                   # a pair between breaks the run
    ("AH 2D 3C 4S 5S", 7, "fifteen for 2, run of 5 for 5"),
    ("KH QD", 0, "no points"),
])
def test_play_table(pile, points, label):
    breakdown = score_play(parse_cards(pile))
    assert (breakdown.total, breakdown.label()) == (points, label)


def test_breakdowns_are_immutable_values():
    a = Breakdown([ScoreItem("go", (), 1)])
    assert a == Breakdown([ScoreItem("go", (), 1)]) and hash(a) == hash(Breakdown(a.items))
    with pytest.raises(AttributeError):
        a.total = 5
    lazy = score_hand(parse_cards("5H 5D 5C JS"), Card.parse("5S"))
    assert lazy == Breakdown(lazy.items) and not Breakdown()


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations("CDHS")


@given(five_cards, st.booleans())
def test_total_is_the_sum_of_items(cards, crib):
    breakdown = score_hand(cards[:4], cards[4], crib)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    assert 0 <= breakdown.total <= 29 and breakdown.total not in (19, 25, 26, 27)


@given(five_cards, suit_maps, st.booleans())
def test_relabelling_suits_changes_nothing(cards, permutation, crib):
    relabel = dict(zip("CDHS", permutation))
    moved = [Card(card.rank, relabel[card.suit]) for card in cards]
    assert score_hand(moved[:4], moved[4], crib).total == score_hand(cards[:4], cards[4], crib).total


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True))
def test_play_points_add_up(pile):
    if sum(card.value for card in pile) <= 31:
        breakdown = score_play(pile)
        assert breakdown.total == sum(item.points for item in breakdown.items)
        assert all(item.cards[-1] == pile[-1] for item in breakdown.items)
