"""The two-player win-probability table (`game.bots.win_table`, generated `win_data`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from game.bots import board, win_data, win_table
from game.bots.make_win_table import shares

DATA = Path(win_data.__file__)
SIZE = win_data.SIZE
needs = st.integers(min_value=1, max_value=SIZE)


def test_the_stored_table_is_the_solution_of_its_distributions():
    """Nobody edited the table by hand: solving the stored distributions gives it back."""
    solved = win_table.solve(shares(win_data.PEG), shares(win_data.PONE),
                             shares(win_data.DEALER), SIZE)
    assert win_table.encode(solved, SIZE) == win_data.TABLE


def test_the_data_is_small():
    assert DATA.stat().st_size < 20_000
    assert len(win_data.TABLE) == 3 * SIZE * SIZE


@given(needs, needs)
def test_needing_more_never_helps(d, p):
    """Monotone: the dealer's chance falls with its own need and rises with the pone's."""
    here = win_table.dealer_wins(d, p)
    if d < SIZE:
        assert win_table.dealer_wins(d + 1, p) <= here + 1e-9
    if p < SIZE:
        assert win_table.dealer_wins(d, p + 1) >= here - 1e-9


@given(needs, needs, st.booleans())
def test_the_two_sides_chances_add_up_to_one(need, their_need, dealing):
    ours = win_table.win_probability(need, their_need, dealing)
    theirs = win_table.win_probability(their_need, need, not dealing)
    assert ours + theirs == pytest.approx(1.0)
    assert 0.0 <= ours <= 1.0


@given(st.integers(min_value=-10, max_value=0), needs, st.booleans())
def test_at_the_target_the_game_is_decided(reached, need, dealing):
    assert win_table.win_probability(reached, need, dealing) == 1.0
    assert win_table.win_probability(need, reached, dealing) == 0.0


def test_the_race_favours_whom_it_should():
    assert win_table.dealer_wins(SIZE, SIZE) > 0.5           # the deal is worth points
    assert win_table.dealer_wins(1, SIZE) > 0.99              # one point, and a hand to peg it
    assert win_table.dealer_wins(SIZE, 1) < 0.2               # the pone pegs first
    assert win_table.dealer_wins(61, 1) < win_table.dealer_wins(2, 1)


def test_solve_counts_the_hand_in_its_order():
    """A hand where each side pegs 1 (tie shared), the pone shows 5, the dealer 10."""
    table = win_table.solve({(1, 1): 1.0}, {5: 1.0}, {10: 1.0}, 20)
    assert table[1][1] == 0.5             # both peg out in the same play
    assert table[8][6] == 0.0             # the pone counts out first
    assert table[11][7] == 1.0            # the pone falls one short; the dealer counts out
    assert table[12][20] == 1.0 - table[14][1]  # nobody out: the pone deals the next hand
    with pytest.raises(ValueError):
        win_table.solve({(0, 0): 1.0}, {0: 1.0}, {0: 1.0}, 3)


def test_their_show_is_a_distribution_moved_by_the_crib():
    for we_deal in (True, False):
        show = win_table.their_show(we_deal)
        assert sum(p for _, p in show) == pytest.approx(1.0)
    plain = sum(x * p for x, p in win_table.their_show(False))
    better = sum(x * p for x, p in win_table.their_show(False, 3.0))
    assert better == pytest.approx(plain + 3.0, abs=0.05)


def test_board_uses_the_table_for_two_players_only():
    assert board.win_probability(30, 40, True, 2) == win_table.win_probability(30, 40, True)
    assert 0.0 < board.win_probability(30, 40, True, 4) < 1.0
