"""Regenerate `game/bots/peg_data.py`: what a kept four is worth in the play.

    python -m game.bots.make_peg_table [--players 2] [--hands 40000] [--jobs 2]
                                      [--budget 1500] [--save HANDS.jsonl] [--load HANDS.jsonl]

How (seeded, so the same arguments always write the same file): the hard bot plays
``--hands`` single hands of ``--players`` against itself (fresh deals). Each seat keeps one
of its best discards by the show, drawn at random among those within `EXPLORE` points of the
best, so the data holds the near-best fours a discard really chooses between, not only the
best. The play is the hard bot's search at ``--budget`` nodes a decision (lower than the
table's default, so the data takes minutes, not hours). Each hand gives, for every seat, its
kept ranks and the pegging points of the hand for its side minus the others' (`target`).

`peg_table.features` describes a kept four by a handful of numbers (how many of each rank,
pairs, fifteens, neighbours); a ridge regression per seat (`peg_table.ROLES`) fits the
pegging difference to them and to the other seats' fours (`inputs`). The file keeps our
four's weights, for this table size; the other sizes' weights in it stay as they were.
`peg_table.value` is their sum for a kept four.
"""

from __future__ import annotations

import argparse
import json
import random
import runpy
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool

from ..arena import PLAY_KINDS
from ..engine import Config, apply, new_game
from ..view import view
from . import make_bot, pegging
from .discard import expected_values
from .peg_table import FEATURES, ROLES, features

OUT = "game/bots/peg_data.py"
EXPLORE = 2.0   # show points from the best within which a kept four may be drawn
TOP = 4         # ... among the best this many
RIDGE = 20.0    # the fit's penalty (in hands' worth of zero evidence per weight)

Hand = tuple[list[list[int]], list[int]]
"""One self-play hand: (kept ranks by seat, pegged points by seat)."""
Tables = dict[int, tuple[int, int, dict[str, list[float]]]]
"""By players: (self-play hands, search budget, {role: our four's weights})."""


_PLAYERS = [2]   # the table size of this process's hands (set by `_init` in each worker)


def _init(budget: int, players: int = 2) -> None:
    pegging.NODE_BUDGET = budget
    _PLAYERS[0] = players


def play_hand(hand_no: int) -> Hand:
    """``(kept ranks by seat, pegged points by seat)`` of one hand; seat 0 deals."""
    players = _PLAYERS[0]
    rng = random.Random(hand_no)
    state = new_game(Config(players=players), 700_000 + hand_no, first_dealer=0)
    bots = [make_bot("hard", hand_no * players + seat) for seat in range(players)]
    kept: list[list[int]] = [[] for _ in range(players)]
    for seat in range(players):
        rows = expected_values(view(state, seat))
        near = [row for row in rows[:TOP] if row[2] >= rows[0][2] - EXPLORE]
        action, cards = rng.choice(near)[:2]
        kept[seat] = sorted(card.rank for card in cards)
        state, _ = apply(state, action)
    peg = [0] * players
    while True:
        seat = next(s for s in range(players) if view(state, s).legal)
        state, events = apply(state, bots[seat].choose(view(state, seat)))
        for event in events:
            if event.kind == "peg":
                assert event.seat is not None and event.breakdown is not None   # a peg has both
                if event.breakdown.items[0].kind in PLAY_KINDS:
                    peg[event.seat] += event.breakdown.total
            elif event.kind == "show":
                return kept, peg


def target(players: int, seat: int, peg: Sequence[int]) -> float:
    """The pegging of a hand for ``seat``: its side's points minus the others' (each rival
    half in three players, as `pegging` counts them).

    >>> target(4, 1, [3, 2, 0, 1]), target(3, 0, [4, 2, 1])
    (0.0, 2.5)
    """
    config = Config(players=players)
    me = config.side_of(seat)
    rivals = config.sides - 1
    return sum(points if config.side_of(s) == me else -points / rivals
               for s, points in enumerate(peg))


def inputs(players: int, seat: int, kept: Sequence[Sequence[int]]) -> tuple[float, ...]:
    """The fit's inputs for ``seat``: its four's features, then each other seat's (in playing
    order after it), without their constant. The others' fours are independent of ours, so
    leaving them out would not bias our weights, but they explain much of the pegging's
    spread: with them in, our weights are fitted from less noise."""
    x = features(kept[seat])
    for k in range(1, players):
        x += features(kept[(seat + k) % players])[1:]
    return x


def fit(rows: Sequence[tuple[Sequence[float], float]], ridge: float = RIDGE) -> list[float]:
    """Ridge least squares: the weights ``w`` minimising sum (y - w.x)^2 + ridge |w|^2 (the
    intercept, the first feature, unpenalised), from ``rows`` of ``(x, y)``.

    >>> w = fit([((1.0, 0.0), 1.0), ((1.0, 1.0), 3.0)] * 50, ridge=0.0)
    >>> [round(v, 6) for v in w]
    [1.0, 2.0]
    """
    size = len(rows[0][0])
    a = [[0.0] * size for _ in range(size)]
    b = [0.0] * size
    for x, y in rows:
        nonzero = [(i, v) for i, v in enumerate(x) if v]
        for i, v in nonzero:
            b[i] += v * y
            row = a[i]
            for j, u in nonzero:
                row[j] += v * u
    for i in range(1, size):
        a[i][i] += ridge
    return _solve(a, b)


def own(weights: list[float]) -> list[float]:
    """Our four's weights from a fit on `inputs` (they come first)."""
    return weights[:len(FEATURES)]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a w = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def weights_by_role(players: int, results: Sequence[Hand]) -> dict[str, list[float]]:
    """``{role: our four's weights}`` fitted to ``results`` (as `play_hand` returns them)."""
    roles = ROLES[players]
    return {roles[seat]: own(fit([(inputs(players, seat, kept), target(players, seat, peg))
                                  for kept, peg in results]))
            for seat in range(players)}


def render(tables: Tables) -> str:
    """The text of `peg_data` for ``{players: (hands, budget, {role: weights})}``."""
    lines = ['"""Pegging value of a kept four (`game.bots.peg_table`): ridge weights fitted to hard '
             'self-play,\nby table size. Generated by `game.bots.make_peg_table`; do not edit:\n']
    for players, (hands, budget, _) in sorted(tables.items()):
        lines.append(f"    python -m game.bots.make_peg_table --players {players} --hands {hands} "
                     f"--budget {budget}")
    lines += ['"""\n',
              "# players -> (self-play hands, search budget)",
              "SOURCES = {" + ", ".join(f"{players}: ({hands}, {budget})" for players,
                                        (hands, budget, _) in sorted(tables.items())) + "}\n",
              "# players -> seat (`peg_table.ROLES`) -> one weight per `peg_table.FEATURES`",
              "# (points pegged, our side's minus the others')",
              "WEIGHTS = {"]
    for players, (_, _, weights) in sorted(tables.items()):
        lines.append(f"    {players}: {{")
        for role, w in weights.items():
            lines.append(f"        {role!r}: (" + ", ".join(f"{v:.3f}" for v in w) + "),")
        lines.append("    },")
    lines.append("}\n")
    return "\n".join(lines)


def _stored(path: str) -> Tables:
    """The tables already in ``path`` (a `peg_data` file), as `render` takes them."""
    try:
        table = runpy.run_path(path)
    except FileNotFoundError:
        return {}
    return {players: (*table["SOURCES"][players], weights)
            for players, weights in table["WEIGHTS"].items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=sorted(ROLES))
    parser.add_argument("--hands", type=int, default=40000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--save", help="also write each hand here (JSON lines)")
    parser.add_argument("--load", help="fit these saved hands instead of playing")
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.load:
        with open(args.load, encoding="utf-8") as saved:
            results: list[Hand] = [(kept, peg) for kept, peg in map(json.loads, saved)][:args.hands]
    else:
        with Pool(args.jobs, _init, (args.budget, args.players)) as pool:
            results = pool.map(play_hand, range(args.hands), chunksize=32)
        if args.save:
            with open(args.save, "w", encoding="utf-8") as out:
                out.writelines(json.dumps(r) + "\n" for r in results)
    weights = weights_by_role(args.players, results)
    tables = _stored(args.out)
    tables[args.players] = (len(results), args.budget, weights)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(render(tables))
    for role, w in weights.items():
        print(role, ", ".join(f"{name} {v:+.2f}" for name, v in zip(FEATURES, w)), file=sys.stderr)
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
