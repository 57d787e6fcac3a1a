"""Random complete games for 2, 3 and 4 players: invariants at every step, and replay."""

import random

import pytest

from game.cards import DECK
from game.engine import OVER, PLAYING, Config, apply, legal_actions, new_game, replay

GAMES = 400
ALL_CARDS = set(DECK)


def seat_to_act(state):
    if state.phase == PLAYING:
        return state.turn
    return next(seat for seat, chosen in enumerate(state.discards) if chosen is None)


def check_invariants(state, before):
    config = state.config
    assert 0 <= state.count <= 31
    assert state.count == sum(card.value for card in state.pile)
    played = [step.card for step in state.play if step.kind == "play"]
    waiting = [card for chosen in state.discards if chosen and state.phase != PLAYING for card in chosen]
    if state.phase == PLAYING or state.starter is not None:
        waiting = []
    everything = [card for hand in state.hands for card in hand] + played + list(state.crib) \
        + waiting + list(state.undealt) + ([state.starter] if state.starter else [])
    if state.phase != OVER:
        assert len(everything) == 52 and set(everything) == ALL_CARDS, "cards are conserved"
    if before.game_no == state.game_no:
        assert all(now >= then for now, then in zip(state.scores, before.scores)), "scores only grow"
    if state.phase != OVER and before.game_no == state.game_no:
        assert max(state.scores) < config.target
    if state.phase == PLAYING:
        assert legal_actions(state, state.turn), "the seat to play can play"
        assert all(len(hand) == 4 for hand in state.kept)
        assert len(state.crib) == 4


def play_out(config, seed):
    rng = random.Random(seed)
    state = new_game(config, seed)
    games_seen = 0
    while state.phase != OVER:
        before = state
        state, events = apply(state, rng.choice(legal_actions(state, seat_to_act(state))))
        check_invariants(state, before)
        for event in events:
            if event.kind == "game_over":
                games_seen += 1
                winner_score = event.scores[event.side]
                assert winner_score >= config.target
                assert all(score < config.target for side, score in enumerate(event.scores)
                           if side != event.side), "the game stops exactly at the target"
                assert events[-1] is event or config.match_wins > 1
    return state, games_seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant_and_replay(players):
    config = Config(players=players, target=121)
    for seed in range(GAMES):
        state, games = play_out(config, seed)
        assert games == 1 and state.winner is not None
        assert sum(state.wins) == 1
        if seed % 10 == 0:
            assert replay(config, seed, state.actions) == state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_short_matches(players):
    config = Config(players=players, target=61, match_wins=2)
    for seed in range(50):
        state, games = play_out(config, seed)
        assert max(state.wins) == 2 and games == sum(state.wins)
        assert replay(config, seed, state.actions) == state


def test_the_same_seed_deals_the_same_game_and_seeds_differ():
    config = Config()
    assert new_game(config, 5) == new_game(config, 5)
    assert new_game(config, 5).hands != new_game(config, 6).hands
