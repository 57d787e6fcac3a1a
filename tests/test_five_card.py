"""Five-card cribbage (issue #39, part 4): the rules in docs/RULES.md, each played out.

Sources of the worked examples: Hoyle's Games (the five-card game, pp. 249-250), Cassell's
Book of In-door Amusements (the scoring table and the 6-7-8 with an 8 turned up) and the
Encyclopaedia Britannica, 9th edition, vol. 6, p. 576 (the play ends when neither can come in).
"""

import random
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards import DECK, JACK, Card, parse_cards
from game.codec import config_from_json, config_to_json, decode_state, encode_state, view_from_json, view_to_json
from game.engine import OVER, PLAYING, Config, apply, legal_actions, new_game, replay, stack_deck
from game.errors import IllegalActionError, ParseError
from game.scoring import score_hand
from game.view import view
from test_engine_scripted import pegs, run

FIVE = Config(players=2, target=61, variant="five")


def table(dealer, hands, starter):
    """A five-card game whose first hand deals ``hands`` (seat -> cards text)."""
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    deck = stack_deck(FIVE, dealer, dealt, Card.parse(starter))
    return new_game(FIVE, seed=1, stacked=[deck], first_dealer=dealer)


def shows(events):
    return [(e.kind, e.seat, e.breakdown.total) for e in events if e.kind in ("show", "crib")]


# ---- the table ------------------------------------------------------------------------------

def test_five_cards_are_dealt_two_go_to_the_crib_and_three_are_kept():
    state = table(0, {1: "TH TD 9C 2S 3S", 0: "KC QC 5H 4D AD"}, "7S")
    assert [len(hand) for hand in state.hands] == [5, 5]
    assert all(len(action.cards) == 2 for action in legal_actions(state, 1))
    assert len(legal_actions(state, 1)) == 10          # 5 choose 2
    state, _ = run(state, "1 discard 2S 3S", "0 discard 4D AD")
    assert [len(kept) for kept in state.kept] == [3, 3] and len(state.crib) == 4


def test_the_first_pone_pegs_three_for_last_as_the_game_begins():
    """Hoyle: "The non-dealer at the commencement of the game in five-card cribbage scores
    3 points, called taking three for last"."""
    state = new_game(FIVE, seed=3, first_dealer=1)
    assert state.scores == (3, 0) and state.previous == (0, 0)
    for seed in range(20):
        state = new_game(FIVE, seed=seed)
        pone = 1 - state.dealer
        assert state.scores[pone] == 3 and state.scores[state.dealer] == 0
    start = new_game(FIVE, seed=3, first_dealer=1)
    fresh = new_game(Config(players=2, target=61, variant="five", match_wins=2), seed=3, first_dealer=1)
    assert fresh.scores == start.scores


def test_three_for_last_is_an_itemised_peg_after_the_deal():
    # new_game returns no events; a match's next game starts inside an apply, which does.
    state = new_game(Config(players=2, target=61, variant="five", match_wins=2), seed=5)
    rng = random.Random(5)
    while state.game_no == 0:
        seat = state.turn if state.phase == PLAYING else state.discards.index(None)
        state, events = apply(state, rng.choice(legal_actions(state, seat)))
    kinds = [e.kind for e in events]
    start = kinds.index("game_over")
    assert kinds[start + 1:] == ["deal", "peg"]
    peg = events[-1]
    assert peg.seat == 1 - state.dealer and peg.scores[peg.seat] == 3
    assert [(item.kind, item.cards, item.points) for item in peg.breakdown.items] == [("last", (), 3)]
    assert peg.breakdown.label() == "three for last"
    assert peg.describe(["Ann", "Bob"]).endswith("pegs three for last: 3")


def test_a_go_ends_the_play_and_the_cards_left_are_not_played():
    """Hoyle: after the go the last player plays what will come in, "Such cards as remain
    after this, are not to be played"; Britannica: "At the two-handed five-card game, when
    neither can come in the play is at an end"."""
    state = table(0, {1: "TH TD 9C 2S 3S", 0: "KC QC 5H 4D AD"}, "7S")
    state, _ = run(state, "1 discard 2S 3S", "0 discard 4D AD")
    assert state.turn == 1 and state.scores == (0, 3)
    state, events = run(state, "1 play TH", "0 play KC", "1 play TD")
    assert [e.seat for e in events if e.kind == "go"] == [0]
    assert pegs(events)[0] == (1, "go for 1")       # 9C cannot come in at 30 either
    # The show follows at once: 9C, QC and 5H are never played.
    assert shows(events) == [("show", 1, 2), ("show", 0, 4), ("crib", 0, 6)]
    assert state.phase == "discard" and state.dealer == 1 and state.hand_no == 1
    assert state.scores == (4 + 6, 3 + 1 + 2)


def test_thirty_one_ends_the_play():
    state = table(0, {1: "TH 6D 9S 2C 3C", 0: "5C TC AH 8D 8H"}, "KS")
    state, _ = run(state, "1 discard 2C 3C", "0 discard 8D 8H")
    state, events = run(state, "1 play TH", "0 play 5C", "1 play 6D", "0 play TC")
    assert pegs(events)[:2] == [(0, "fifteen for 2"), (0, "thirty-one for 2")]
    assert not [e for e in events if e.kind == "go"]
    assert shows(events)[0] == ("show", 1, 0 + 2)   # TH 6D 9S with KS: 6+9 is fifteen
    assert state.phase == "discard" and state.hand_no == 1


def test_all_six_cards_under_thirty_one_end_with_the_last_card():
    state = table(0, {1: "AH 2H 3H KC KD", 0: "AS 2S 3S QC QD"}, "9D")
    state, _ = run(state, "1 discard KC KD", "0 discard QC QD")
    state, events = run(state, "1 play AH", "0 play AS", "1 play 2H", "0 play 2S", "1 play 3H",
                        "0 play 3S")
    assert pegs(events)[:4] == [(0, "pair for 2"), (0, "pair for 2"), (0, "pair for 2"),
                                (0, "last card for 1")]
    # The pone's A-2-3 of hearts with the 9D: a run of 3, a three-card flush, A+2+3+9 fifteen.
    assert shows(events)[0] == ("show", 1, 3 + 3 + 2)


def test_the_play_is_refused_after_it_ended_and_bad_discards_change_nothing():
    state = table(0, {1: "TH TD 9C 2S 3S", 0: "KC QC 5H 4D AD"}, "7S")
    with pytest.raises(IllegalActionError, match="exactly 2 cards"):
        apply(state, "1 discard 2S")
    state, _ = run(state, "1 discard 2S 3S", "0 discard 4D AD", "1 play TH", "0 play KC", "1 play TD")
    with pytest.raises(IllegalActionError):
        apply(state, "1 play 9C")                    # the play is over: a new hand is dealt


def test_his_heels_and_his_nobs_as_usual():
    state = table(0, {1: "JS 5D 9C 2S 3S", 0: "KC QC 5H 4D AD"}, "JD")
    state, events = run(state, "1 discard 2S 3S", "0 discard 4D AD")
    assert pegs(events) == [(0, "his heels for 2")]
    state = table(0, {1: "JD 5C 9C 2S 3S", 0: "KC QC 5H 4D AD"}, "7D")
    state, _ = run(state, "1 discard 2S 3S", "0 discard 4D AD")
    assert score_hand(state.kept[1], state.starter).points_by_kind()["nobs"] == 1


# ---- the show of three cards ----------------------------------------------------------------

@pytest.mark.parametrize("hand, starter, crib, total, kinds", [
    # Cassell's: 6-7-8 with an 8 turned up counts two sequences of three (and 7-8 twice, a pair).
    ("6H 7D 8C", "8S", False, 3 + 3 + 2 + 4, {"run": 6, "pair": 2, "fifteen": 4}),
    # Hoyle and Cassell's: three of a suit in hand is a flush of 3, one more with the turn-up.
    ("2H 4H 8H", "KC", False, 3, {"flush": 3}),
    ("2H 4H 8H", "KH", False, 4, {"flush": 4}),
    # Hoyle: in the crib "among professed gamesters" only all the cards and the turn-up count.
    ("2H 4H 8H QH", "KC", True, 0, {}),
    ("2H 4H 8H QH", "KH", True, 5, {"flush": 5}),
    ("2H 4H 8H QH", "KC", False, 4, {"flush": 4}),     # the four-card hand is unchanged
    ("5H 5D 5C", "JS", False, 8 + 6, {"fifteen": 8, "pair": 6}),
    ("5H 5D JS", "5S", False, 8 + 6 + 1, {"fifteen": 8, "pair": 6, "nobs": 1}),
    ("AC 3D 9S", "QH", False, 0, {}),
])
def test_a_three_card_show_scores_its_combinations(hand, starter, crib, total, kinds):
    breakdown = score_hand(parse_cards(hand), Card.parse(starter), crib=crib)
    assert breakdown.total == total
    assert breakdown.points_by_kind() == kinds
    assert sum(item.points for item in breakdown.items) == total


def test_a_show_of_the_wrong_size_is_refused():
    with pytest.raises(ParseError, match="four cards"):
        score_hand(parse_cards("2H 4H"), Card.parse("KC"))
    with pytest.raises(ParseError, match="four cards"):
        score_hand(parse_cards("2H 4H 8H"), Card.parse("KC"), crib=True)


def _reference(hand, starter):
    """An independent count of a three-card hand: every subset, every rule, by brute force."""
    cards = list(hand) + [starter]
    points = 0
    for size in range(2, 5):
        for combo in combinations(cards, size):
            if sum(card.value for card in combo) == 15:
                points += 2
    points += 2 * sum(1 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for size in (4, 3):
        runs = [combo for combo in combinations(cards, size)
                if sorted(c.rank for c in combo) == list(range(min(c.rank for c in combo),
                                                              min(c.rank for c in combo) + size))]
        if runs:
            points += size * len(runs)
            break
    if len({card.suit for card in hand}) == 1:
        points += 4 if starter.suit == hand[0].suit else 3
    points += sum(1 for card in hand if card.rank == JACK and card.suit == starter.suit)
    return points


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True))
def test_three_card_shows_match_a_brute_force_count(cards):
    hand, starter = tuple(cards[:3]), cards[3]
    breakdown = score_hand(hand, starter)
    assert breakdown.total == _reference(hand, starter)
    assert sum(item.points for item in breakdown.items) == breakdown.total
    assert all(set(item.cards) <= set(cards) for item in breakdown.items)


# ---- the configuration, saved games and views ---------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    ({"variant": "five"}, "2 players to 61"),
    ({"variant": "five", "target": 61, "players": 3}, "2 players to 61"),
    ({"variant": "seven", "target": 61}, "'standard' or 'five'"),
    ({"variant": 5, "target": 61}, "'standard' or 'five'"),
])
def test_a_bad_variant_is_refused(kwargs, message):
    with pytest.raises(ParseError, match=message):
        Config(**kwargs)


def test_the_config_json_names_the_variant_only_when_it_is_not_standard():
    assert config_to_json(Config()) == {"players": 2, "target": 121, "match_wins": 1}
    assert config_from_json(config_to_json(FIVE)) == FIVE
    assert config_from_json({"players": 2, "target": 121, "match_wins": 1}) == Config()
    assert config_from_json({"players": 2, "target": 121, "match_wins": 1,
                             "variant": "standard"}) == Config()
    with pytest.raises(ParseError):
        config_from_json({"players": 2, "target": 121, "match_wins": 1, "variant": "five"})
    with pytest.raises(ParseError):
        config_from_json({"players": 2, "target": 61, "match_wins": 1, "extra": 1})


def play_out(config, seed):
    rng = random.Random(seed)
    state = new_game(config, seed)
    while state.phase != OVER:
        seat = state.turn if state.phase == PLAYING else state.discards.index(None)
        state, _ = apply(state, rng.choice(legal_actions(state, seat)))
    return state


def test_a_five_card_game_saves_loads_and_its_views_travel():
    state = play_out(FIVE, 8)
    assert decode_state(encode_state(state)) == state
    middle = replay(FIVE, 8, state.actions[:len(state.actions) // 2])
    assert decode_state(encode_state(middle)) == middle
    for seat in (0, 1):
        seen = view(middle, seat)
        assert view_from_json(view_to_json(seen)) == seen


# ---- random games ----------------------------------------------------------------------------

def test_random_five_card_games_keep_the_rules_and_replay():
    for seed in range(150):
        rng = random.Random(seed)
        config = Config(players=2, target=61, variant="five", match_wins=1 + seed % 2)
        state = new_game(config, seed)
        while state.phase != OVER:
            seat = state.turn if state.phase == PLAYING else state.discards.index(None)
            before = state
            state, events = apply(state, rng.choice(legal_actions(state, seat)))
            kinds = [e.kind for e in events]
            if state.phase == PLAYING:
                assert [len(kept) for kept in state.kept] == [3, 3] and len(state.crib) == 4
                assert all(step.kind != "reset" for step in state.play), "one count a hand"
            if "reset" in kinds and "game_over" not in kinds:
                # the reset ends the play: the show and the next deal follow in the same apply
                assert kinds[kinds.index("reset") + 1] == "show" and "deal" in kinds
                assert state.hand_no == before.hand_no + 1
            for event in events:
                if event.kind == "game_over":
                    assert max(event.scores) >= 61 and min(event.scores) < 61
        assert max(state.wins) == config.match_wins
        if seed % 5 == 0:
            assert replay(config, seed, state.actions) == state


# ---- the bots and the coach ------------------------------------------------------------------

def test_every_bot_level_plays_five_card_games_to_the_end():
    from game.bots import make_bot

    for level in ("easy", "medium", "hard"):
        state = new_game(FIVE, seed=11)
        bots = [make_bot(level, 1), make_bot(level, 2)]
        while state.phase != OVER:
            seat = next(s for s in (0, 1) if legal_actions(state, s))
            seen = view(state, seat)
            action = bots[seat].choose(seen)
            assert action in seen.legal
            state, _ = apply(state, action)


def test_the_hard_bot_leaves_out_what_was_fitted_to_six_card_play():
    from game.bots import board, keep

    seen = view(new_game(FIVE, seed=2), 0)
    assert not keep.applies(seen)
    assert not board.near_end(replace(seen, scores=(58, 58)))   # no race tables for five-card play
    assert keep.applies(view(new_game(Config(), seed=2), 0))


def test_hard_beats_easy_at_five_card_cribbage():
    from game.arena import Arena, run as arena_run

    result = arena_run(Arena("hard", "easy", games=20, players=2, seed=1, target=61, variant="five"))
    assert result["wins"]["A"] > result["wins"]["B"]


def test_the_coach_reviews_a_five_card_hand():
    from game.bots import make_bot
    from game.coach.hands import review_game, walk

    state = start = new_game(FIVE, seed=4)
    bots = [make_bot("medium", 1), make_bot("medium", 2)]
    while state.phase != OVER:
        seat = next(s for s in (0, 1) if legal_actions(state, s))
        state, _ = apply(state, bots[seat].choose(view(state, seat)))
    hands = walk(start, state.actions, seat=0)
    first = hands[0]
    assert len(first.discard_view.hand) == 5
    summary = review_game(hands, pegging=True)
    review = summary.reviews[0].discard
    assert len(review.options) == 10 and all(len(option.kept) == 3 for option in review.options)
    assert summary.discard_lost >= 0
