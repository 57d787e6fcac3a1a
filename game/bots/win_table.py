"""Chances of winning a race to the target, from the hands good play scores (two players,
and four in partnerships).

A hand is steps in the order the rules count them: the play (both sides peg; whoever
reaches the target there wins, a tie in the same play is shared), then the shows: in two
players the pone's, then the dealer's hand and crib; in four the pone's, the dealer's
partner's, the pone's partner's, then the dealer's hand and crib. `solve_steps` turns the
measured distributions of those steps (hard-bot self-play, `make_win_table`) into ``P(the
dealer's side wins)`` for every pair of points needed, by exact dynamic programming over the
score race: every hand pegs at least one point, so each position depends only on positions
with fewer points needed in all.

`win_data` (two players) and `win_data_4p` (four) hold the distributions and the solved
tables (generated; do not edit); `dealer_wins` reads them, clamping needs above the table's
edge to it (a side that far away is not the one that decides a close race).

>>> dealer_wins(50, 50) > 0.5 > dealer_wins(50, 40)
True
>>> round(win_probability(5, 100, dealing=False), 2)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

Shares = tuple[tuple[int, float], ...]
"""A distribution of points: ``((points, probability), ...)``."""


def counting_order(players: int) -> tuple[int, ...]:
    """Who shows, in counting order, in seats from the dealer: the pone first, the dealer (with
    the crib) last. Even seats are the dealer's side.

    >>> counting_order(2), counting_order(4)
    ((1, 0), (1, 2, 3, 0))
    """
    return tuple(k % players for k in range(1, players + 1))


def solve(peg: dict[tuple[int, int], float], pone: dict[int, float], dealer: dict[int, float],
          size: int) -> list[list[float]]:
    """``table[d][p]`` = P(dealer wins) when the dealer needs ``d`` and the pone ``p`` points
    (1 <= d, p <= size; index 0 unused). ``peg``: {(dealer pegs, pone pegs): probability};
    ``pone``: {pone's hand: probability}; ``dealer``: {dealer's hand + crib: probability}.
    After the hand the deal passes: the old pone deals.

    >>> t = solve({(1, 0): 1.0}, {0: 1.0}, {0: 1.0}, 3)  # the dealer pegs 1 a hand, nothing else
    >>> t[2][3], t[3][2]   # each side scores only when it deals: needing 2 and dealing wins
    (1.0, 0.0)
    """
    return solve_steps(peg, [(False, pone), (True, dealer)], size)


def solve_steps(peg: dict[tuple[int, int], float], shows: Sequence[tuple[bool, dict[int, float]]],
                size: int) -> list[list[float]]:
    """`solve` for any order of shows: ``shows`` is ``[(by the dealer's side, {points:
    probability}), ...]`` in counting order. Four players (partnerships) count the pone's
    hand, the dealer's partner's, the pone's partner's, then the dealer's hand and crib.

    >>> t = solve_steps({(1, 1): 1.0}, [(False, {2: 1.0}), (True, {3: 1.0})], 9)
    >>> t[9][4], t[5][9]   # the pone side counts out first; then the dealer's side does
    (0.0, 1.0)
    """
    if peg.get((0, 0)):
        raise ValueError("every play pegs at least the last card's point")
    pegs = list(peg.items())
    steps = [(by_dealer, list(dist.items())) for by_dealer, dist in shows]
    win = [[0.0] * (size + 1) for _ in range(size + 1)]
    # before[k][d][p]: P(dealer's side wins) before show k, nobody out yet
    before = [[[0.0] * (size + 1) for _ in range(size + 1)] for _ in steps]
    last = len(steps) - 1
    for total in range(2, 2 * size + 1):
        cells = [(d, total - d) for d in range(max(1, total - size), min(size, total - 1) + 1)]
        after_peg = before[0]
        for d, p in cells:  # the play: depends on smaller totals only (it pegs >= 1 point)
            value = 0.0
            for (pd, pp), chance in pegs:
                d_out, p_out = pd >= d, pp >= p
                if d_out or p_out:
                    value += chance * (0.5 if d_out and p_out else 1.0 if d_out else 0.0)
                else:
                    value += chance * after_peg[d - pd][p - pp]
            win[d][p] = value
        for k in range(last, -1, -1):  # the shows, last first; the deal passes after them
            by_dealer, dist = steps[k]
            here = before[k]
            following = before[k + 1] if k < last else None
            for d, p in cells:
                value = 0.0
                for points, chance in dist:
                    if by_dealer:
                        if points >= d:
                            value += chance
                        elif following is None:
                            value += chance * (1.0 - win[p][d - points])
                        else:
                            value += chance * following[d - points][p]
                    elif points < p:
                        if following is None:
                            value += chance * (1.0 - win[p - points][d])
                        else:
                            value += chance * following[d][p - points]
                here[d][p] = value
    return win


def decode(text: str, size: int) -> list[list[float]]:
    """The table from its stored text: three hex digits (probability x 4095) per cell."""
    rows = [[0.0] * (size + 1)]
    for d in range(size):
        line = text[3 * size * d:3 * size * (d + 1)]
        rows.append([0.0] + [int(line[i:i + 3], 16) / 4095 for i in range(0, 3 * size, 3)])
    return rows


def encode(table: Sequence[Sequence[float]], size: int) -> str:
    return "".join(f"{round(table[d][p] * 4095):03x}"
                   for d in range(1, size + 1) for p in range(1, size + 1))


def _data(players: int) -> ModuleType:
    if players == 2:
        from . import win_data
        return win_data
    from . import win_data_4p
    return win_data_4p


_TABLES: dict[int, list[list[float]]] = {}


def _table(players: int = 2) -> list[list[float]]:
    """The stored table for ``players`` (2, or 4 in partnerships), decoded once. The data
    modules are generated, so they are imported on first use (the generator runs without
    them)."""
    table = _TABLES.get(players)
    if table is None:
        data = _data(players)
        table = _TABLES[players] = decode(data.TABLE, data.SIZE)
    return table


def dealer_wins(dealer_need: int, pone_need: int, players: int = 2) -> float:
    """P(the dealer's side wins) from the start of a hand."""
    if dealer_need <= 0:
        return 1.0
    if pone_need <= 0:
        return 0.0
    table = _table(players)
    size = len(table) - 1
    return table[min(dealer_need, size)][min(pone_need, size)]


def win_probability(need: int, their_need: int, dealing: bool, players: int = 2) -> float:
    """Our side's chance from the start of a hand (as `board.win_probability`)."""
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    if dealing:
        return dealer_wins(need, their_need, players)
    return 1.0 - dealer_wins(their_need, need, players)


_SHOWS: dict[tuple[bool, int], list[tuple[int, float]]] = {}


def their_show(we_deal: bool, shift: float = 0.0) -> list[tuple[int, float]]:
    """The other side's show this hand as [(points, probability)] from self-play: the pone's
    hand when we deal, else the dealer's hand and crib moved by ``shift`` points (what our
    throw adds to or takes from an average crib)."""
    from . import win_data

    key = (we_deal, round(shift))
    if key not in _SHOWS:
        seen = win_data.PONE if we_deal else win_data.DEALER
        total = sum(seen.values())
        moved: dict[int, float] = {}
        for points, n in seen.items():
            moved[max(0, points + key[1])] = moved.get(max(0, points + key[1]), 0) + n / total
        _SHOWS[key] = sorted(moved.items())
    return _SHOWS[key]


_STEPS: list[Shares] = []


def show_steps() -> tuple[Shares, ...]:
    """Each show of a four-player hand in counting order as ``((points, probability), ...)``,
    from the self-play the table was solved from: the pone's hand, the dealer's partner's,
    the pone's partner's, then the dealer's hand and crib.

    >>> [round(sum(x * p for x, p in step)) for step in show_steps()]
    [7, 6, 7, 11]
    """
    if not _STEPS:
        for seen in _data(4).SHOWS:
            total = sum(seen.values())
            _STEPS.append(tuple((points, n / total) for points, n in sorted(seen.items())))
    return tuple(_STEPS)
