"""Bots: legal moves at every table size, reproducible decisions, no peeking, textbook play."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from game.bots import BOT_LEVELS, choose, make_bot
from game.bots import crib_table, pegging
from game.bots.common import peg_points
from game.cards import Card, parse_cards
from game.engine import Config, apply, new_game, stack_deck
from game.scoring import score_play
from game.view import view

BOTS_DIR = Path(__file__).resolve().parent.parent / "game" / "bots"


def play_out(config, seed, levels, max_actions=2000, hands=None):
    """Play a game with ``levels[seat]`` bots; every action must be legal (apply checks)."""
    state = new_game(config, seed)
    bots = [make_bot(level, seed * 10 + seat) for seat, level in enumerate(levels)]
    for _ in range(max_actions):
        if state.phase == "over" or (hands is not None and state.hand_no > hands):
            return state
        for seat in range(config.players):
            seen = view(state, seat)
            if seen.legal:
                action = bots[seat].choose(seen)
                assert action in seen.legal
                state, _ = apply(state, action)
                break
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_cheap_levels_play_whole_legal_games(level, players):
    for seed in range(3):
        others = ["easy", "medium", "hard"][seed]
        levels = [level if seat % 2 == 0 else others for seat in range(players)]
        state = play_out(Config(players=players), seed, levels)
        assert state.phase == "over"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hard_plays_legal_hands(players):
    # Two hands each at 121 and one whole short game: hard is the slow one.
    play_out(Config(players=players), 7, ["hard"] * players, hands=2)
    state = play_out(Config(players=players, target=61), 8, ["hard"] * players)
    assert state.phase == "over"


def test_hard_plays_legal_hands_with_a_blind_partner(monkeypatch):
    """The four-player lever `pegging.PARTNER_BLIND` (off until measured) keeps play legal."""
    monkeypatch.setattr(pegging, "PARTNER_BLIND", True)
    state = play_out(Config(players=4), 9, ["hard"] * 4, hands=1)
    assert state.hand_no >= 1 or state.phase == "over"


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_same_view_and_seed_same_decision(level):
    state = new_game(Config(), seed=21)
    seen = view(state, 1)
    assert make_bot(level, 5).choose(seen) == make_bot(level, 5).choose(seen)
    assert choose(level, seen, random.Random(9)) == choose(level, seen, random.Random(9))
    state, _ = apply(state, make_bot(level, 1).choose(view(state, 0)))
    state, _ = apply(state, make_bot(level, 1).choose(view(state, 1)))
    seen = view(state, state.turn)
    assert make_bot(level, 5).choose(seen) == make_bot(level, 5).choose(seen)


def _twin_states():
    """Two deals identical for seat 0 (hand, starter), different for everything it cannot see."""
    mine = parse_cards("5H 6D 7C 8S JH QD")
    theirs_a, theirs_b = parse_cards("2C 3C 4D 9H KS AS"), parse_cards("TC TD 9D 3H 2S AH")
    deck_a = stack_deck(Config(), 1, [mine, theirs_a], Card.parse("4S"))
    deck_b = stack_deck(Config(), 1, [mine, theirs_b], Card.parse("4S"))
    return (new_game(Config(), seed=1, stacked=[deck_a], first_dealer=1),
            new_game(Config(), seed=99, stacked=[deck_b], first_dealer=1))


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_cannot_see_hidden_cards(level):
    a, b = _twin_states()
    assert a.hands[1] != b.hands[1] and a.seed != b.seed
    assert view(a, 0) == view(b, 0)  # the seat's whole knowledge is the same
    for seed in range(3):
        assert make_bot(level, seed).choose(view(a, 0)) == make_bot(level, seed).choose(view(b, 0))
    # Into the play: seat 1 discards differently in each world, seat 0 the same.
    a, _ = apply(a, "0 discard JH QD")
    b, _ = apply(b, "0 discard JH QD")
    a, _ = apply(a, "1 discard KS AS")
    b, _ = apply(b, "1 discard TC TD")
    assert view(a, 0) == view(b, 0)
    assert make_bot(level, 3).choose(view(a, 0)) == make_bot(level, 3).choose(view(b, 0))


def test_bot_modules_never_touch_the_state():
    """The deciding modules import only value types and helpers: never State, the deck or the
    game's seed (the protocol and the table generator, which are not bots, may)."""
    for path in BOTS_DIR.glob("*.py"):
        if path.name in ("proto.py", "make_crib_table.py", "make_win_table.py", "make_peg_table.py"):
            continue
        text = path.read_text()
        names = {alias.name for node in ast.walk(ast.parse(text))
                 if isinstance(node, ast.ImportFrom) for alias in node.names}
        assert not names & {"State", "new_game", "apply", "replay", "legal_actions"}, path.name
        assert "undealt" not in text and ".seed" not in text.replace("self.seed", ""), path.name


# ---- textbook positions -----------------------------------------------------------------

def _deal(hands, starter, dealer=0, config=Config()):
    deck = stack_deck(config, dealer, [parse_cards(h) for h in hands], Card.parse(starter))
    return new_game(config, seed=1, stacked=[deck], first_dealer=dealer)


def test_keeps_the_fives():
    # Dealer with 5-5 and two tens: the medium and hard bots keep 5 5 J Q.
    state = _deal(["5H 5D JS QC 2C 9D", "AC 3D 6H 8C KH 7S"], "4C")
    for level in ("medium", "hard"):
        action = make_bot(level).choose(view(state, 0))
        assert {str(c) for c in action.cards} == {"2C", "9D"}, level


def test_hard_does_not_give_the_opponent_fives():
    # Pone with 5 5 and junk: hard keeps the fives (never throws them to the dealer's crib).
    state = _deal(["AC 3D 6H 8C KH 7S", "5H 5D JS QC 2C 9D"], "4C")
    action = make_bot("hard").choose(view(state, 1))
    assert not any(card.rank == 5 for card in action.cards)


def _playing(hands, starter, discards, plays=(), dealer=0):
    state = _deal(hands, starter, dealer)
    for action in discards + list(plays):
        state, _ = apply(state, action)
    return state


def test_does_not_lead_a_five():
    state = _playing(["KH QH 2C 3C 4D 6S", "TD 5C 7H 8H 9S 5S"], "AD",
                     ["0 discard KH QH", "1 discard 7H 8H"])
    assert state.turn == 1
    for level in ("medium", "hard"):
        for seed in range(3):
            assert make_bot(level, seed).choose(view(state, 1)).card.rank != 5, level


def test_takes_the_thirty_one():
    # Count 21 after T, A... seat to play holds a ten and a 2: the ten makes 31.
    state = _playing(["KH QH 2C 3C 4D 6S", "TD JC 7H 8H 9S AS"], "5D",
                     ["0 discard KH QH", "1 discard 7H 8H"], ["1 play TD", "0 play 6S",
                                                               "1 play 9S"])
    assert state.count == 25 and state.turn == 0
    state, _ = apply(state, "0 play 2C")          # 27: seat 1 has J A: plays A (28)
    state, _ = apply(state, "1 play AS")
    seen = view(state, 0)                          # 28: 3 makes 31
    for level in BOT_LEVELS:
        assert make_bot(level).choose(seen).card == Card.parse("3C"), level


def test_hard_pegs_out_when_it_can():
    # Seat 0 needs 2 to win: a pair does it, even though the 4 would peg a run later.
    state = _playing(["KH QH 7C 3C 4D 6S", "TD 7H 9H 8H 9S AS"], "5D",
                     ["0 discard KH QH", "1 discard 9H 8H"], ["1 play 7H"])
    state = _with_scores(state, (119, 100))
    seen = view(state, 0)
    assert make_bot("hard").choose(seen).card == Card.parse("7C")


def _with_scores(state, scores):
    from dataclasses import replace
    return replace(state, scores=tuple(scores), previous=tuple(scores))


def test_hard_lookahead_prefers_the_fifteen_it_can_take():
    state = _playing(["KH QH 2C 3C 4D 5S", "TD 5C 7H 8H 9S AS"], "6D",
                     ["0 discard KH QH", "1 discard 7H 8H"], ["1 play TD"])
    assert make_bot("hard").choose(view(state, 0)).card == Card.parse("5S")


def test_fast_play_scoring_matches_the_engine():
    rng = random.Random(3)
    from game.cards import DECK
    for _ in range(2000):
        pile, count = [], 0
        for card in rng.sample(DECK, 8):
            if count + card.value > 31:
                break
            pile.append(card)
            count += card.value
            assert peg_points(tuple(c.rank for c in pile), count) == score_play(pile).total


def test_crib_table_is_small_and_complete():
    assert (BOTS_DIR / "crib_data.py").stat().st_size < 40_000
    assert len(crib_table.PAIRS) == 91
    for a, b in crib_table.PAIRS:
        for dealer in (True, False):
            row = crib_table.pair_row(a, b, dealer)
            assert len(row) == 14 and all(0 < x < 25 for x in row[1:])
    # Ranks known to be good and bad crib cards.
    assert crib_table.pair_mean(5, 5, True) > crib_table.pair_mean(2, 3, True) > \
        crib_table.pair_mean(10, 13, True)


def test_pegging_search_counts_samples_in_nodes_not_time():
    state = _playing(["KH QH 2C 3C 4D 5S", "TD 5C 7H 8H 9S AS"], "6D",
                     ["0 discard KH QH", "1 discard 7H 8H"], ["1 play TD"])
    seen = view(state, 0)
    first = pegging.evaluate(seen, random.Random(4))
    assert first == pegging.evaluate(seen, random.Random(4))
    assert max(first, key=first.get) == 5


def test_the_search_remembers_little_the_garbage_collector_must_walk(monkeypatch):
    """In Pyodide a large memory of piles made single garbage collections of up to 124 ms,
    blocking the page (bench/bot_browser.py): the memories stay small, and the remembered
    replies are tuples of ints, which the collector stops tracking."""
    import gc

    monkeypatch.setattr(pegging, "POINTS_KEPT", 50)
    monkeypatch.setattr(pegging, "REPLIES_KEPT", 20)
    monkeypatch.setattr(pegging, "_POINTS", {})
    monkeypatch.setattr(pegging, "_REPLIES", {})
    rng = random.Random(8)
    for _ in range(300):
        pile = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 5)))
        pegging.points_of(pile, sum(pile))
        pegging.replies(sum(pile), pile)
        assert len(pegging._POINTS) <= 51 and len(pegging._REPLIES) <= 21
    gc.collect()
    gc.collect()  # the inner pairs are let go first, then the tuples that hold them
    assert not any(gc.is_tracked(found) for found in pegging._REPLIES.values())


def test_hard_v1_is_arena_only_and_plays():
    from game.bots import ARENA_LEVELS
    assert "hard-v1" in ARENA_LEVELS and "hard-v1" not in BOT_LEVELS
    state = new_game(Config(players=2), seed=11)
    seen = view(state, 1)
    action = make_bot("hard-v1", seed=2).choose(seen)
    assert action in seen.legal and action == make_bot("hard-v1", seed=2).choose(seen)


def test_hard_thinks_in_slices_and_explains_itself():
    from game.bots import run
    state = _playing(["KH QH 2C 3C 4D 5S", "TD 5C 7H 8H 9S AS"], "6D",
                     ["0 discard KH QH", "1 discard 7H 8H"], ["1 play TD"])
    seen = view(state, 0)
    steps = make_bot("hard", 3).think(seen)
    pauses = 0
    while True:
        try:
            next(steps)
            pauses += 1
        except StopIteration as done:
            thought = done.value
            break
    assert pauses >= pegging.MIN_SAMPLES // 2  # one pause per searched sample
    assert thought.action == make_bot("hard", 3).choose(seen)
    assert [str(action.card) for action, _ in thought.values][0] == "5S"
    values = [value for _, value in thought.values]
    assert values == sorted(values, reverse=True) and thought.measure
    discard = run(make_bot("hard", 3).think(view(new_game(Config(), seed=4), 1)))
    assert len(discard.values) == 15 and discard.action == discard.values[0][0]


def test_a_rival_in_the_search_does_not_see_our_cards():
    # We lead a 4 holding an ace; the rival holds 5, 6, J. Seeing our ace it would play the 5
    # or the 6 (nothing for us); not seeing it, the jack is its safest card (only an ace
    # answers 14), and our ace makes fifteen: the trap is worth 2 in the search.
    seen = view(new_game(Config(), seed=2), 0)
    hands = [[1, 4], [5, 6, 11]]
    lay, _, _ = pegging._searcher(seen, hands, None, [0] * 14)
    assert lay(0, 1, 0, (), 3, 0.0) == 2.0
    assert hands == [[1, 4], [5, 6, 11]]  # restored after the search



def test_near_the_end_a_play_with_nobody_out_is_worth_the_chance_of_winning(monkeypatch):
    """Two players near the target: when the hand's play and shows leave nobody out, the
    search values the end by our chance from the next hand (`win_table`), the points only
    breaking ties; without `RACE`, by the points."""
    from dataclasses import replace

    from game.bots import win_table

    seen = replace(view(new_game(Config(), seed=2), 1), scores=(104, 100), dealer=0)  # we: pone
    shows = [(1, 6), (0, 9)]                 # pone 6, then dealer 9: 106 / 113, nobody out
    chance = win_table.win_probability(121 - 106, 121 - 113, dealing=True)  # we deal next
    _, _, lead = pegging._searcher(seen, [[], []], shows, [0] * 14)
    assert lead(0, 5, 2.0) == pytest.approx((2 * chance - 1) * (pegging.WIN - 1) + 0.002)
    assert lead(0, 5, 2.0) > lead(0, 5, 1.0)           # ties: the points decide
    monkeypatch.setattr(pegging, "RACE", {**pegging.RACE, 2: False})
    _, _, lead = pegging._searcher(seen, [[], []], shows, [0] * 14)
    assert lead(0, 5, 2.0) == 2.0


def test_four_players_race_by_sides_and_the_next_dealer_is_the_pones_side():
    """Four players near the target: with nobody out, the end of the play is worth our side's
    chance from the next hand by the four-player table; the deal passes to the pone's side."""
    from dataclasses import replace

    from game.bots import win_table

    config = Config(players=4)
    seen = replace(view(new_game(config, seed=3), 2), scores=(100, 104), dealer=0)  # partner deals
    shows = [(1, 5), (0, 6), (1, 4), (0, 9)]  # round the table from the pone: 115 / 113
    chance = win_table.win_probability(121 - 115, 121 - 113, dealing=False, players=4)
    _, _, lead = pegging._searcher(seen, [[], [], [], []], shows, [0] * 14)
    assert lead(0, 5, 1.0) == pytest.approx((2 * chance - 1) * (pegging.WIN - 1) + 0.001)
    assert chance != win_table.win_probability(121 - 115, 121 - 113, dealing=True, players=4)
