"""Count it yourself, with muggins (issue #39, part 1): each rule of docs/RULES.md played out."""

import random

import pytest

from game.actions import Action
from game.bots import make_bot
from game.cards import Card, parse_cards
from game.codec import config_from_json, config_to_json, decode_state, encode_state, view_from_json, view_to_json
from game.engine import OVER, SHOWING, Config, apply, legal_actions, new_game, replay, stack_deck
from game.errors import IllegalActionError, ParseError
from game.view import view
from test_engine_scripted import pegs, run

MUGGINS = Config(muggins=True)


def table(hands, starter, dealer=0, config=MUGGINS):
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    deck = stack_deck(config, dealer, dealt, Card.parse(starter))
    return new_game(config, seed=1, stacked=[deck], first_dealer=dealer)


HANDS = {1: "TD 5C 7H 8H 9S AS", 0: "KH QH 2C 3C 4D 5S"}


def played(*moves):
    state = table(HANDS, "6D")
    return run(state, "0 discard KH QH", "1 discard 7H 8H", *moves)


def test_muggins_is_off_by_default_and_its_json_unchanged():
    assert Config().muggins is False
    assert config_to_json(Config()) == {"players": 2, "target": 121, "match_wins": 1}
    assert config_from_json(config_to_json(MUGGINS)) == MUGGINS
    with pytest.raises(ParseError, match="on or off"):
        Config(muggins=1)
    state, events = run(table(HANDS, "6D", config=Config()), "0 discard KH QH", "1 discard 7H 8H",
                        "1 play TD", "0 play 5S")
    assert pegs(events) == [(0, "fifteen for 2")] and state.claim is None


def test_every_card_laid_waits_for_its_claim_even_a_card_that_makes_nothing():
    state, _ = played("1 play TD")
    assert state.claim.what == "play" and state.claim.seat == 1 and state.turn == 1
    assert [a.points for a in legal_actions(state, 1)] == list(range(13))   # 0 to 12: no hint
    assert legal_actions(state, 0) == ()
    with pytest.raises(IllegalActionError, match="must be claimed first"):
        apply(state, "0 play 5S")
    state, events = run(state, "1 claim 0")
    assert state.claim is None and state.turn == 0 and not pegs(events)


def test_an_exact_claim_pegs_the_itemised_points():
    state, events = played("1 play TD", "1 claim 0", "0 play 5S", "0 claim 2")
    assert pegs(events) == [(0, "fifteen for 2")]
    claim = [e for e in events if e.kind == "claim"][-1]
    assert claim.describe(["Ann", "Bob"]) == "Ann claims 2"
    assert state.scores == (2, 0) and state.turn == 1


def test_an_overclaim_is_refused_and_changes_nothing():
    state, _ = played("1 play TD", "1 claim 0", "0 play 5S")
    with pytest.raises(IllegalActionError, match="3 is more than the cards make: count again"):
        apply(state, "0 claim 3")
    assert apply(state, "0 claim 2")[0].scores == (2, 0)


def test_a_short_claim_pegs_what_was_said_and_a_rival_may_take_the_rest():
    state, events = played("1 play TD", "1 claim 0", "0 play 5S", "0 claim 1")
    assert pegs(events) == [(0, "claimed for 1")]
    assert state.claim.claimed == 1 and state.claim.missed == 1 and state.claim.caller == 1
    assert [str(a) for a in legal_actions(state, 1)] == ["1 muggins", "1 pass"]
    assert legal_actions(state, 0) == ()
    with pytest.raises(IllegalActionError, match="call muggins or pass"):
        apply(state, "1 claim 1")
    with pytest.raises(IllegalActionError, match="muggins may be called first"):
        apply(state, "1 play 5C")
    taken, events = run(state, "1 muggins")
    assert pegs(events)[0] == (1, "muggins for 1") and taken.scores == (1, 1)
    assert events[0].describe(["Ann", "Bob"]) == "Bob: muggins! takes the 1 missed"
    passed, events = run(state, "1 pass")
    assert passed.scores == (1, 0) and not pegs(events) and passed.turn == 1


def test_nothing_to_call_when_nothing_was_missed():
    state, _ = played("1 play TD", "1 claim 0")
    with pytest.raises(IllegalActionError, match="nothing for you to claim or call"):
        apply(state, "0 muggins")
    with pytest.raises(IllegalActionError, match="nothing for you to claim or call"):
        apply(state, "1 claim 0")


def test_the_go_and_the_last_card_are_still_the_table_s():
    state, events = played("1 play TD", "1 claim 0", "0 play 5S", "0 claim 2", "1 play 9S", "1 claim 0",
                           "0 play 4D", "0 claim 0", "1 play AS", "1 claim 0", "0 play 2C")
    state, events = run(state, "0 claim 2")                     # 31: claimed with the card
    assert pegs(events) == [(0, "thirty-one for 2")] and state.turn == 1
    state, events = run(state, "1 play 5C", "1 claim 0", "0 play 3C", "0 claim 0")
    assert pegs(events)[0] == (0, "last card for 1")            # not claimed: the table's


def test_the_show_is_claimed_hand_by_hand_in_counting_order():
    state = table({1: "5H 5D 5C JS 2C 3C", 0: "4S 6S 7D 8D 9H TC"}, "5S")
    state, _ = run(state, "1 discard 2C 3C", "0 discard 9H TC")
    for move in ("1 play 5H", "1 claim 0", "0 play 6S", "0 claim 0", "1 play 5D", "1 claim 0",
                 "0 play 4S", "0 claim 3", "1 play 5C", "1 claim 0", "0 play 7D", "0 claim 0",
                 "1 play JS", "1 claim 0"):
        state, _ = apply(state, move)
    state, events = run(state, "0 play 8D", "0 claim 0")       # last card: then the show
    assert state.phase == SHOWING and state.claim.what == "show" and state.claim.seat == 1
    assert [a.points for a in legal_actions(state, 1)] == list(range(30))
    seen = view(state, 0)
    assert seen.claim.cards == state.kept[1] and seen.claim.breakdown.total == 0   # hidden till claimed
    state, events = run(state, "1 claim 29")
    assert [e.kind for e in events][:3] == ["claim", "show", "peg"]
    assert state.claim.what == "show" and state.claim.seat == 0
    state, _ = apply(state, "0 claim 9")
    assert state.claim.what == "crib" and state.claim.cards == state.crib
    state, events = apply(state, "0 claim 4")
    assert state.phase == "discard" and state.claim is None
    assert [show.breakdown.total for show in state.shows] == [29, 9, 4]


def test_a_claim_or_a_muggins_can_win_and_nothing_follows():
    state, _ = played("1 play TD", "1 claim 0", "0 play 5S")
    from dataclasses import replace
    close = replace(state, scores=(120, 119), previous=(120, 119))
    won, events = apply(close, "0 claim 2")
    assert won.phase == OVER and won.winner == 0 and won.claim is None
    short, _ = apply(replace(state, scores=(100, 120), previous=(100, 120)), "0 claim 0")
    won, events = apply(short, "1 muggins")
    assert won.winner == 1 and events[-1].kind == "game_over"


def test_in_four_players_the_next_rival_may_call():
    config = Config(players=4, muggins=True)
    state = new_game(config, seed=3, first_dealer=0)
    rng = random.Random(3)
    calls = set()
    for _ in range(400):
        if state.phase == OVER:
            break
        seat = next(s for s in range(4) if legal_actions(state, s))
        actions = legal_actions(state, seat)
        if actions[0].kind == "claim":
            action = Action.claim(seat, max(0, state.claim.breakdown.total - 1))
        else:
            action = rng.choice(actions)
        state, _ = apply(state, action)
        if state.claim is not None and state.claim.caller is not None:
            assert state.claim.caller == (state.claim.seat + 1) % 4
            calls.add(state.claim.caller)
    assert calls


def test_claims_travel_as_text_json_saves_and_views():
    for text in ("0 claim 0", "1 claim 29", "2 muggins", "3 pass"):
        action = Action.parse(text)
        assert Action.from_json(action.to_json()) == action and str(action) == text
    for bad in ("0 claim 30", "0 claim -1", "0 claim six", "0 claim 2 3", "0 muggins 5H"):
        with pytest.raises(ParseError):
            Action.parse(bad)
    with pytest.raises(ParseError):
        Action.from_json({"seat": 0, "type": "claim", "cards": []})
    with pytest.raises(ParseError):
        Action.from_json({"seat": 0, "type": "play", "cards": ["5H"], "points": 2})
    state = new_game(MUGGINS, seed=4)
    while state.claim is None or state.claim.caller is None:
        seat = next(s for s in (0, 1) if legal_actions(state, s))
        state, _ = apply(state, legal_actions(state, seat)[0])     # claims 0: short when it scored
    assert decode_state(encode_state(state)) == state
    for seat in (0, 1):
        seen = view(state, seat)
        assert view_from_json(view_to_json(seen)) == seen
    plain = view(new_game(Config(), seed=1), 0)
    assert "claim" not in view_to_json(plain)


def test_random_muggins_games_with_bots_replay():
    for seed in range(6):
        config = Config(players=2 + seed % 3, target=61, muggins=True)
        state = new_game(config, seed)
        bots = [make_bot(("easy", "medium", "hard")[seat % 3], seat) for seat in range(config.players)]
        rng = random.Random(seed)
        while state.phase != OVER:
            seat = next(s for s in range(config.players) if legal_actions(state, s))
            seen = view(state, seat)
            action = bots[seat].choose(seen)
            if action.kind == "claim" and seat == 0 and rng.random() < 0.3:
                action = Action.claim(0, max(0, action.points - 1))     # a player who misses
            assert action in seen.legal
            state, _ = apply(state, action)
        assert replay(config, seed, state.actions) == state


def test_bots_claim_exactly_and_call_muggins_by_level():
    state, _ = played("1 play TD", "1 claim 0", "0 play 5S")
    assert make_bot("easy", 1).choose(view(state, 0)) == Action.claim(0, 2)
    short, _ = apply(state, "0 claim 0")
    answers = {level: {str(make_bot(level, seed).choose(view(short, 1))) for seed in range(40)}
               for level in ("easy", "medium", "hard")}
    assert answers == {"easy": {"1 pass"}, "medium": {"1 pass", "1 muggins"}, "hard": {"1 muggins"}}
