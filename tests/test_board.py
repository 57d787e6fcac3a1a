"""The hard bot's endgame discard (`game.bots.board`): the chance of winning, hand by hand."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from game.bots import board, discard, run, win_table
from game.engine import Config, new_game
from game.view import view

# One deal of four players shown in counting order: the pone's hand 3, the dealer's partner's
# 4, the pone's partner's 5, the dealer's hand and crib 10 (each certain).
FIXED = [((3, 1.0),), ((4, 1.0),), ((5, 1.0),), ((10, 1.0),)]
DEALERS_SIDE = [False, True, False, True]  # whose show it is, for the dealer's side


def _chances(need, their_need):
    """Our chance by our own show as the dealer's partner (the second show); the other
    side deals next."""
    return board._chance_by_our_show(0.0, {(need, their_need): 1.0}, 1, DEALERS_SIDE, FIXED,
                                     deal_next=False)


def test_our_partner_can_count_us_out_after_our_show():
    """We are the dealer's partner (the second show). Needing 8, a show of 4 is enough:
    the dealer counts the rest before the pone's side gets there."""
    chance_of = _chances(8, 20)
    assert chance_of(4) == 1.0
    assert chance_of(8) == 1.0


def test_the_pone_side_counts_out_between_our_show_and_our_partners():
    """Needing 15 against 8: the pone shows 3 (5 left), we show, then the pone's partner's 5
    counts them out unless our own show already did."""
    chance_of = _chances(15, 8)
    assert chance_of(4) == 0.0
    assert chance_of(15) == 1.0


def test_with_nobody_out_the_next_hand_decides():
    """Needing 30 against 40 as the dealer's partner: after the hand (3, x, 5, 10) we need
    30 - x - 10 and they 32, and they deal next."""
    chance_of = _chances(30, 40)
    assert chance_of(6) == pytest.approx(board.win_probability(14, 32, False, 4))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 3))
def test_a_bigger_show_never_lowers_our_chance(need, their_need, mine):
    dealing = board.ROUND[mine] % 2 == 0  # our show's seat, counted from the dealer
    ours = [(seat % 2 == 0) == dealing for seat in board.ROUND]
    won, start = board._after_play(need, their_need, dealing)
    chance_of = board._chance_by_our_show(won, start, mine, ours, win_table.show_steps(),
                                          not dealing)
    chances = [chance_of(x) for x in range(30)]
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert all(a <= b + 1e-9 for a, b in zip(chances, chances[1:]))


def test_four_player_endgame_discards_are_valued_by_chances():
    """Every discard of a four-player deal near the end gets a chance of winning, in the
    rows' order; a side within a hand of the target makes them differ."""
    config = Config(players=4)
    checked = 0
    for seed in range(12):
        state = new_game(config, seed=seed)
        for seat in range(4):
            scores = random.Random(seed * 4 + seat).sample(range(95, 118), 2)
            seen = replace(view(state, seat), scores=tuple(scores))
            assert board.near_end(seen)
            rows = discard.expected_values(seen)
            chances = run(board.think_discard(seen, rows))
            assert [action for action, _ in chances] == [row[0] for row in rows]
            assert all(-1e-9 <= chance <= 1.0 + 1e-9 for _, chance in chances)
            checked += 1
    assert checked == 48
