"""game.blind.public follows a hand from public information exactly as game.engine plays it.

The property: over random games (2, 3 and 4 players, random scores before the hand so that some
games end in the middle of a hand), a `Public` tracker fed only what is public (the positions
each seat discards, the starter, each card played and from where, a go *claimed* by the seat on
turn whenever none of its cards fits, the crib at the show) emits the very
events the engine emits: discards, starter and heels, plays, goes, resets, every peg with its
breakdown and the scores, the show and crib, and the end of the game.
"""

import copy
import json
import random
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings, strategies as st

from game.blind.public import CUTTING, PLAYING, SHOWING, Public
from game.cards import Card
from game.engine import Config, apply, legal_actions, new_game
from game.errors import IllegalActionError, ParseError

JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=8)
JSON_TEXT = JSON.map(json.dumps)
KINDS = {"discard", "starter", "play", "go", "reset", "peg", "show", "crib", "game_over"}


def one_hand(players, seed, scores, states=None):
    """The engine's events for one hand played at random, and the tracker's for the same hand
    (and every state the tracker went through, in ``states`` if given)."""
    config, rng = Config(players=players), random.Random(seed)
    state = new_game(config, seed)
    state = replace(state, scores=tuple(scores[:config.sides]), previous=tuple(scores[:config.sides]))
    table = Public.start(config, state.dealer, state.scores)
    where = {card: table.dealt[seat][k] for seat in range(players) for k, card in enumerate(state.hands[seat])}
    deck = {position: card for card, position in where.items()}
    engine_events, tracked = [], []
    while True:
        seat = next(s for s in range(players) if legal_actions(state, s))
        action = rng.choice(legal_actions(state, seat))
        if action.kind == "play":
            assert table.turn == seat
            table, events = table.play(seat, where[action.card], action.card)
        else:
            table, events = table.discard(seat, tuple(where[card] for card in action.cards))
        tracked += events
        if states is not None:
            states.append(table)
        if table.phase == CUTTING:
            starter = state.undealt[0]
            table, events = table.cut(starter)
            tracked += events
        while table.phase == PLAYING and not any(table.count + deck[j].value <= 31 for j in table.held[table.turn]):
            table, events = table.go(table.turn)         # an honest seat claims go when no card fits
            tracked += events
        if table.phase == SHOWING:
            table, events = table.show({j: deck.get(j, state.crib[0]) for chosen in table.discarded
                                        for j in chosen} | ({table.extra: state.crib[0]} if table.extra else {}))
            tracked += events
        if states is not None:
            states.append(table)
        state, events = apply(state, action)
        for event in events:
            if event.kind == "deal":
                return engine_events, tracked, table
            if event.kind in KINDS:
                engine_events.append(event)
            if event.kind == "game_over":
                return engine_events, tracked, table


@settings(max_examples=300)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40),
       scores=st.lists(st.integers(0, 120), min_size=3, max_size=3))
def test_the_tracker_pegs_and_shows_as_the_engine_does(players, seed, scores):
    engine_events, tracked, table = one_hand(players, seed, scores)
    assert tracked == engine_events
    assert table.phase in ("done", "over")


def test_the_hands_compared_include_goes_heels_and_games_ended_mid_hand():
    """The property is not vacuous: these fixed hands (compared like the random ones) go through
    every kind of event, including a game won in the middle of a hand."""
    hands = [one_hand(players, seed, scores) for players in (2, 3, 4) for seed in range(20)
             for scores in ([0, 0, 0], [115, 118, 117])]
    for engine_events, tracked, _ in hands:
        assert tracked == engine_events
    kinds = {event.kind for engine_events, _, _ in hands for event in engine_events}
    items = {item.kind for events, _, _ in hands for event in events if event.kind == "peg"
             for item in event.breakdown.items}
    assert kinds == KINDS and {"heels", "go", "last card"} <= items
    assert {table.phase for _, _, table in hands} == {"done", "over"}


def test_a_go_claim_is_refused_when_every_card_fits_or_off_turn():
    table = Public.start(Config(players=2), dealer=0, scores=(0, 0))
    table, _ = table.discard(0, table.held[0][:2])
    table, _ = table.discard(1, table.held[1][:2])
    table, _ = table.cut(Card.parse("5C"))
    assert table.phase == PLAYING and table.turn == 1
    with pytest.raises(IllegalActionError, match="every card fits"):
        table.go(1)
    with pytest.raises(IllegalActionError, match="not your turn"):
        table.play(0, table.held[0][0], Card.parse("KC"))
    table, _ = table.play(1, table.held[1][0], Card.parse("KC"))
    table, _ = table.play(0, table.held[0][0], Card.parse("KD"))
    table, _ = table.play(1, table.held[1][0], Card.parse("9D"))
    table, events = table.go(0)                       # at 29: a go is possible, and a claim is taken
    assert [e.kind for e in events] == ["go"] and table.turn == 1
    with pytest.raises(IllegalActionError, match="past 31"):
        table.play(1, table.held[1][0], Card.parse("3D"))
    assert ("go", 0, ()) in table.moves


@cache
def saved_states():
    """Every state of a few hands (2, 3 and 4 players, one ending the game mid-hand), as saved."""
    states = []
    for players, seed, scores in ((2, 1, [0, 0, 0]), (3, 2, [0, 0, 0]), (4, 3, [0, 0, 0]), (2, 4, [118, 119, 0])):
        one_hand(players, seed, scores, states)
    return states


def test_a_saved_hand_is_rebuilt_exactly_from_its_json_text():
    states = saved_states()
    assert {table.phase for table in states} >= {"discard", "play", "done", "over"}
    for table in states:
        assert Public.from_json(json.dumps(table.to_json())) == table
    assert Public.from_json(json.dumps(states[-1].to_json(), sort_keys=True)) == states[-1]


def test_a_saved_hand_in_the_middle_of_the_show_before_the_crib_is_shown():
    table = next(t for t in saved_states() if t.phase == SHOWING)
    assert Public.from_json(table.to_json()) == table


@settings(max_examples=150)
@given(text=st.text(max_size=40) | JSON_TEXT)
def test_random_text_is_refused(text):
    with pytest.raises(ParseError):
        Public.from_json(text)


@settings(max_examples=150)
@given(data=st.data())
def test_a_saved_hand_with_one_thing_changed_is_refused_or_means_exactly_what_it_says(data):
    states = saved_states()
    saved = copy.deepcopy(data.draw(st.sampled_from(states)).to_json())
    key = data.draw(st.sampled_from(sorted(saved)))
    value = saved[key]
    if key == "moves" and value and data.draw(st.booleans()):
        move = data.draw(st.sampled_from(value))
        move[data.draw(st.integers(0, 2))] = data.draw(JSON)
    elif key == "cards" and value and data.draw(st.booleans()):
        value[data.draw(st.sampled_from(sorted(value)))] = data.draw(JSON | st.sampled_from(["5H", "AS", "5h", "10D"]))
    else:
        saved[key] = data.draw(JSON)
    try:
        table = Public.from_json(json.dumps(saved))
    except ParseError:
        return
    assert table.to_json() == saved


def test_a_saved_hand_whose_cards_its_moves_do_not_show_is_refused():
    table = next(t for t in saved_states() if t.phase == "done")
    saved = table.to_json()
    extra = {**saved, "cards": {**saved["cards"], "51": "AS"}}
    with pytest.raises(ParseError, match="not the ones its moves show"):
        Public.from_json(extra)
    played = next(j for j in saved["cards"] if int(j) in table.dealt[0])
    with pytest.raises(ParseError):
        Public.from_json({**saved, "cards": {j: c for j, c in saved["cards"].items() if j != played}})
