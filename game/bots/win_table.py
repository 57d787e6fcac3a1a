"""Chances of winning a two-player race to the target, from the hands good play scores.

A hand is three steps in the order the rules count them: the play (both sides peg; whoever
reaches the target there wins, a tie in the same play is shared), the pone's show, then the
dealer's hand and crib. `solve` turns the measured distributions of those steps (hard-bot
self-play, `make_win_table`) into ``P(the dealer wins)`` for every pair of points needed, by
exact dynamic programming over the score race: every hand pegs at least one point, so each
position depends only on positions with fewer points needed in all.

`win_data` holds the distributions and the solved table (generated; do not edit);
`dealer_wins` reads it, clamping needs above the table's edge to it (a side that far away
is not the one that decides a close race).

>>> dealer_wins(50, 50) > 0.5 > dealer_wins(50, 40)
True
>>> round(win_probability(5, 100, dealing=False), 2)
1.0
"""

from __future__ import annotations


def solve(peg, pone, dealer, size: int):
    """``table[d][p]`` = P(dealer wins) when the dealer needs ``d`` and the pone ``p`` points
    (1 <= d, p <= size; index 0 unused). ``peg``: {(dealer pegs, pone pegs): probability};
    ``pone``: {pone's hand: probability}; ``dealer``: {dealer's hand + crib: probability}.
    After the hand the deal passes: the old pone deals.

    >>> t = solve({(1, 0): 1.0}, {0: 1.0}, {0: 1.0}, 3)  # the dealer pegs 1 a hand, nothing else
    >>> t[2][3], t[3][2]   # each side scores only when it deals: needing 2 and dealing wins
    (1.0, 0.0)
    """
    if peg.get((0, 0)):
        raise ValueError("every play pegs at least the last card's point")
    peg, pone, dealer = list(peg.items()), list(pone.items()), list(dealer.items())
    win = [[0.0] * (size + 1) for _ in range(size + 1)]
    after_peg = [[0.0] * (size + 1) for _ in range(size + 1)]   # both still short after play
    after_pone = [[0.0] * (size + 1) for _ in range(size + 1)]  # ... and after the pone's show
    for total in range(2, 2 * size + 1):
        cells = [(d, total - d) for d in range(max(1, total - size), min(size, total - 1) + 1)]
        for d, p in cells:  # the play: depends on smaller totals only (it pegs >= 1 point)
            value = 0.0
            for (pd, pp), chance in peg:
                d_out, p_out = pd >= d, pp >= p
                if d_out or p_out:
                    value += chance * (0.5 if d_out and p_out else 1.0 if d_out else 0.0)
                else:
                    value += chance * after_peg[d - pd][p - pp]
            win[d][p] = value
        for d, p in cells:  # the dealer's show, then the deal passes (total stays or drops)
            value = 0.0
            for points, chance in dealer:
                value += chance * (1.0 if points >= d else 1.0 - win[p][d - points])
            after_pone[d][p] = value
        for d, p in cells:  # the pone's show counts first
            value = 0.0
            for points, chance in pone:
                if points < p:
                    value += chance * after_pone[d][p - points]
            after_peg[d][p] = value
    return win


def decode(text: str, size: int):
    """The table from its stored text: three hex digits (probability x 4095) per cell."""
    rows = [[0.0] * (size + 1)]
    for d in range(size):
        line = text[3 * size * d:3 * size * (d + 1)]
        rows.append([0.0] + [int(line[i:i + 3], 16) / 4095 for i in range(0, 3 * size, 3)])
    return rows


def encode(table, size: int) -> str:
    return "".join(f"{round(table[d][p] * 4095):03x}"
                   for d in range(1, size + 1) for p in range(1, size + 1))


_TABLE = None


def _table():
    """The stored table, decoded once. `win_data` is generated, so it is imported on first
    use (the generator runs without it); later calls, from the search's leaves, skip the
    import statement."""
    global _TABLE
    if _TABLE is None:
        from . import win_data

        _TABLE = decode(win_data.TABLE, win_data.SIZE)
    return _TABLE


def dealer_wins(dealer_need: int, pone_need: int) -> float:
    """P(the dealer wins) from the start of a hand, two players."""
    if dealer_need <= 0:
        return 1.0
    if pone_need <= 0:
        return 0.0
    table = _table()
    size = len(table) - 1
    return table[min(dealer_need, size)][min(pone_need, size)]


def win_probability(need: int, their_need: int, dealing: bool) -> float:
    """Our chance from the start of a hand, two players (as `board.win_probability`)."""
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    if dealing:
        return dealer_wins(need, their_need)
    return 1.0 - dealer_wins(their_need, need)


_SHOWS = {}


def their_show(we_deal: bool, shift: float = 0.0):
    """The other side's show this hand as [(points, probability)] from self-play: the pone's
    hand when we deal, else the dealer's hand and crib moved by ``shift`` points (what our
    throw adds to or takes from an average crib)."""
    from . import win_data

    key = (we_deal, round(shift))
    if key not in _SHOWS:
        seen = win_data.PONE if we_deal else win_data.DEALER
        total = sum(seen.values())
        moved = {}
        for points, n in seen.items():
            moved[max(0, points + key[1])] = moved.get(max(0, points + key[1]), 0) + n / total
        _SHOWS[key] = sorted(moved.items())
    return _SHOWS[key]
