"""The information-set search of the play (`game.bots.infoset`): our later cards are chosen
once for every sample we cannot tell apart, not once per sample."""

from __future__ import annotations

import random

import pytest

from game.bots import infoset, levels, pegging, run
from game.bots.common import HiddenSampler
from game.engine import Config, apply, new_game
from game.view import view


def play_positions(players: int, seed: int, target: int = 121, games: int = 1):
    """Views of seats to play with a choice of ranks, from medium bots' whole games."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = new_game(Config(players=players, target=target), seed=rng.randrange(10**6))
        while state.phase in ("discard", "play"):
            seen = next(v for v in (view(state, s) for s in range(players)) if v.legal)
            if seen.phase == "play" and len({a.card.rank for a in seen.legal}) > 1:
                found.append(seen)
            state, _ = apply(state, levels.medium(seen, rng))
    return found


def draw(seen, rng, count):
    """``count`` samples as both searches take them: (hands by seat, shows or None)."""
    sampler = HiddenSampler(seen)
    near = max(seen.scores) >= seen.config.target - pegging.NEAR
    samples = []
    for _ in range(count):
        hidden, left = sampler.sample(rng)
        hands = [sorted(c.rank for c in hidden.get(s, ())) for s in range(seen.config.players)]
        samples.append((hands, pegging._shows(seen, hidden, left) if near else None))
    return samples, near


def depth_of(seen, near):
    depth = min(sum(seen.hand_sizes), pegging.DEPTH[seen.config.players])
    if near and (seen.config.players == 2 or sum(seen.hand_sizes) <= 8):
        depth = sum(seen.hand_sizes)
    return depth


def alone(seen, hands, shows, depth):
    """`pegging`'s search of one sample: {rank: value}."""
    hands = [list(h) for h in hands]
    hands[seen.seat] = sorted(c.rank for c in seen.hand)
    lay, _, _ = pegging._searcher(seen, hands, shows, pegging._public(seen))
    mine = hands[seen.seat]
    pile = tuple(c.rank for c in seen.pile)
    return {r: lay(seen.seat, mine.index(r), seen.count, pile, depth, 0.0)
            for r in {a.card.rank for a in seen.legal}}


def together(seen, samples, weights, near, depth):
    """`infoset`'s search of all samples at once: {rank: weighted average}."""
    hidden = [[list(h) for h in hands] for hands, _ in samples]
    shows = [s for _, s in samples] if near else None
    mine = sorted(c.rank for c in seen.hand)
    lay_mine, _ = infoset._joint(seen, mine, hidden, weights, shows, pegging._public(seen))
    pile, total = tuple(c.rank for c in seen.pile), sum(weights)
    return {r: lay_mine(mine.index(r), seen.count, pile, depth, 0.0,
                        list(range(len(samples))), total) / total
            for r in {a.card.rank for a in seen.legal}}


@pytest.mark.parametrize("players,target", [(2, 121), (3, 121), (2, 61), (3, 61)])
def test_one_sample_is_valued_as_the_sample_search_values_it(players, target):
    """With nothing to tell apart there is no fusion: the values are `pegging`'s, to the
    last bit, far from the target and near it (the shows and the race)."""
    rng = random.Random(players * 100 + target)
    positions = play_positions(players, seed=target + players, target=target)
    assert len(positions) > 20
    assert any(max(seen.scores) >= target - pegging.NEAR for seen in positions)
    for seen in positions:
        samples, near = draw(seen, rng, 1)
        depth = depth_of(seen, near)
        assert together(seen, samples, [1.0], near, depth) == alone(seen, *samples[0], depth)


@pytest.mark.parametrize("players", [2, 3])
def test_choosing_once_for_samples_alike_never_expects_more_than_seeing_each(players):
    """A choice made once for samples we cannot tell apart is worth at most the average of
    choices made per sample (a max of sums is at most the sum of maxes), and in real
    positions it is often worth less: that excess is what the sample-by-sample search
    wrongly counted on."""
    rng = random.Random(players)
    lower = 0
    for seen in play_positions(players, seed=players):
        samples, near = draw(seen, rng, 12)
        weights = [rng.uniform(0.5, 2.0) for _ in samples]
        depth = depth_of(seen, near)
        joint = together(seen, samples, weights, near, depth)
        each = [alone(seen, hands, shows, depth) for hands, shows in samples]
        for rank, value in joint.items():
            average = sum(w * v[rank] for w, v in zip(weights, each)) / sum(weights)
            assert value <= average + 1e-9
            lower += value < average - 1e-6
    assert lower > 10


def test_think_is_reproducible_and_values_every_playable_rank():
    seen = play_positions(2, seed=5)[0]
    first = run(infoset.think(seen, random.Random(9)))
    assert first == run(infoset.think(seen, random.Random(9)))
    assert set(first) == {a.card.rank for a in seen.legal}


def test_the_hard_bot_can_search_this_way_except_in_four_players(monkeypatch):
    monkeypatch.setattr(infoset, "JOINT", True)
    assert infoset.applies(play_positions(2, seed=1)[0])
    assert infoset.applies(play_positions(3, seed=1)[0])
    assert not infoset.applies(play_positions(4, seed=1)[0])
