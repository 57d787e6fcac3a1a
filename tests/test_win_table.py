"""The win-probability tables (`game.bots.win_table`, generated `win_data`, `win_data_4p`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from game.bots import board, win_data, win_data_4p, win_table
from game.bots.make_win_table import shares, show_steps

DATA = {2: win_data, 4: win_data_4p}
SIZE = win_data.SIZE
needs = st.integers(min_value=1, max_value=SIZE)
players = st.sampled_from(sorted(DATA))


def test_the_stored_tables_are_the_solutions_of_their_distributions():
    """Nobody edited a table by hand: solving the stored distributions gives it back."""
    solved = win_table.solve(shares(win_data.PEG), shares(win_data.PONE),
                             shares(win_data.DEALER), SIZE)
    assert win_table.encode(solved, SIZE) == win_data.TABLE
    solved = win_table.solve_steps(shares(win_data_4p.PEG), show_steps(4, win_data_4p.SHOWS),
                                   win_data_4p.SIZE)
    assert win_table.encode(solved, win_data_4p.SIZE) == win_data_4p.TABLE


@pytest.mark.parametrize("count", sorted(DATA))
def test_the_data_is_small(count):
    data = DATA[count]
    assert Path(data.__file__).stat().st_size < 20_000
    assert len(data.TABLE) == 3 * data.SIZE * data.SIZE
    assert data.HANDS >= 300


@given(needs, needs, players)
def test_needing_more_never_helps(d, p, count):
    """Monotone: the dealer's chance falls with its own need and rises with the pone's."""
    here = win_table.dealer_wins(d, p, count)
    if d < SIZE:
        assert win_table.dealer_wins(d + 1, p, count) <= here + 1e-9
    if p < SIZE:
        assert win_table.dealer_wins(d, p + 1, count) >= here - 1e-9


@given(needs, needs, st.booleans(), players)
def test_the_two_sides_chances_add_up_to_one(need, their_need, dealing, count):
    ours = win_table.win_probability(need, their_need, dealing, count)
    theirs = win_table.win_probability(their_need, need, not dealing, count)
    assert ours + theirs == pytest.approx(1.0)
    assert 0.0 <= ours <= 1.0


@given(st.integers(min_value=-10, max_value=0), needs, st.booleans(), players)
def test_at_the_target_the_game_is_decided(reached, need, dealing, count):
    assert win_table.win_probability(reached, need, dealing, count) == 1.0
    assert win_table.win_probability(need, reached, dealing, count) == 0.0


@pytest.mark.parametrize("count", sorted(DATA))
def test_the_race_favours_whom_it_should(count):
    def dealer_wins(d, p):
        return win_table.dealer_wins(d, p, count)

    assert dealer_wins(SIZE, SIZE) > 0.5           # the deal is worth points
    assert dealer_wins(1, SIZE) > 0.99              # one point, and a hand to peg it
    assert dealer_wins(SIZE, 1) < 0.2               # the pone pegs first
    assert dealer_wins(61, 1) < dealer_wins(2, 1)


def test_four_players_count_in_turn_round_the_table():
    """Four players: the pone's side shows first and third, the dealer's side second and last
    (with the crib). Each side pegs 1; the pone's hand shows 3, the dealer's partner's 4,
    the pone's partner's 5, the dealer's hand and crib 10."""
    steps = [(False, {3: 1.0}), (True, {4: 1.0}), (False, {5: 1.0}), (True, {10: 1.0})]
    table = win_table.solve_steps({(1, 1): 1.0}, steps, 30)
    assert table[10][4] == 0.0           # the pone's hand counts out first
    assert table[5][10] == 1.0           # the pone's side falls short; the partner counts out
    assert table[16][9] == 0.0           # the pone's partner counts out before the dealer
    assert table[15][10] == 1.0          # the dealer counts out with hand and crib
    assert table[17][30] == 1.0 - table[21][2]  # nobody out: the pone's side deals next


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


def test_board_uses_the_tables():
    assert board.win_probability(30, 40, True, 2) == win_table.win_probability(30, 40, True)
    assert board.win_probability(30, 40, True, 4) == win_table.win_probability(30, 40, True, 4)
