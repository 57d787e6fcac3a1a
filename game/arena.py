"""The arena: bot against bot, many games, with the figures that tell them apart.

    python -m game.arena --a hard --b medium --games 5000 --players 2 --seed 1 --jobs 2
    python -m game.arena --a hard --b easy --variant five --target 61 --games 2000

A side is a level (``easy``, ``medium``, ``hard``, or ``hard-v1``, the hard bot frozen before
issue 15) or ``cmd:COMMAND``, any program speaking
the bot line protocol (docs/bot-protocol.md), e.g. ``--a "cmd:python -m game.bots.proto hard"``.

Seats and the first deal alternate: in two and four players, games go in pairs dealt from the
same seed with the sides swapped (each side gets the other's cards), which also cancels much
of the luck; in three players, A takes each seat in turn against two B bots.

It prints A's wins with a 95% (Wilson) interval, the paired interval over deals (each deal's
win share is one sample: the fair yardstick for duplicate play), skunks, the average points per hand from
pegging, hand and crib for the dealer and the pone (complete hands only), and the decision
times (median and 95th percentile) for discards and plays; forced moves (one legal action)
are not timed.

>>> result = run(Arena("easy", "medium", games=2, players=2, seed=1))
>>> result["games"], result["wins"]["A"] + result["wins"]["B"]
(2, 2)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from .bots import ARENA_LEVELS, Bot, make_bot
from .engine import Config, apply, new_game
from .view import view

if TYPE_CHECKING:
    from .bots.proto import ExternalBot

PLAY_KINDS = ("fifteen", "thirty-one", "pair", "run", "go", "last card")


class Stats(TypedDict):
    """One side's figures: games won and skunked, A's wins per deal (by deal number), complete
    hands and points per role (``dealer``, ``pone``) and kind (``pegging``, ``hand``, ``crib``),
    and decision times in seconds per phase (``discard``, ``play``)."""

    wins: int
    skunked: int
    deals: dict[int, int]
    hands: dict[str, int]
    points: dict[str, dict[str, int]]
    times: dict[str, list[float]]


class Arena:
    """What to play: sides ``a`` and ``b``, ``games``, ``players``, ``seed``, ``target``,
    ``variant`` (`Config`'s: ``"five"`` is five-card cribbage, 2 players to 61)."""

    def __init__(self, a: str, b: str, games: int = 100, players: int = 2, seed: int = 1,
                 target: int = 121, variant: str = "standard") -> None:
        for spec in (a, b):
            if spec not in ARENA_LEVELS and not spec.startswith("cmd:"):
                raise ValueError(f"a side is {', '.join(ARENA_LEVELS)} or cmd:COMMAND, not {spec!r}")
        self.a, self.b, self.games, self.players = a, b, games, players
        self.seed, self.target, self.variant = seed, target, variant
        Config(players=players, target=target, variant=variant)   # refused here, not in a worker

    @property
    def group(self) -> int:
        """Games dealt from one seed with the seats rotated: 2 (3 in three players)."""
        return 3 if self.players == 3 else 2

    def seating(self, game: int) -> tuple[list[str], int]:
        """``(labels per seat, deal seed)`` of game number ``game``."""
        n = self.players
        if n == 3:
            labels = ["B"] * 3
            labels[game % 3] = "A"
            return labels, self.seed * 1_000_003 + game // 3
        a_side = game % 2
        labels = ["A" if seat % 2 == a_side else "B" for seat in range(n)]
        return labels, self.seed * 1_000_003 + game // 2


_BOTS: dict[str, ExternalBot] = {}  # per worker process: the external programs, started once


def _bot(spec: str, seed: int) -> Bot | ExternalBot:
    if spec.startswith("cmd:"):
        if spec not in _BOTS:
            from .bots.proto import ExternalBot
            _BOTS[spec] = ExternalBot(spec[4:])
        return _BOTS[spec]
    return make_bot(spec, seed)


def _new_stats() -> Stats:
    return {"wins": 0, "skunked": 0, "deals": {}, "hands": {"dealer": 0, "pone": 0},
            "points": {role: {"pegging": 0, "hand": 0, "crib": 0} for role in ("dealer", "pone")},
            "times": {"discard": [], "play": []}}


def play_game(arena: Arena, game: int) -> dict[str, Stats]:
    """Play one game; return A's and B's statistics for it."""
    labels, deal_seed = arena.seating(game)
    config = Config(players=arena.players, target=arena.target, variant=arena.variant)
    specs = {"A": arena.a, "B": arena.b}
    bots = [_bot(specs[label], arena.seed * 7919 + game * 4 + seat)
            for seat, label in enumerate(labels)]
    stats = {"A": _new_stats(), "B": _new_stats()}
    group = game // arena.group
    stats["A"]["deals"][group] = stats["B"]["deals"][group] = 0
    state = new_game(config, deal_seed, first_dealer=0)
    hand = {seat: {"pegging": 0, "hand": 0, "crib": 0} for seat in range(arena.players)}
    showing = False
    while state.phase != "over":
        for seat in range(arena.players):
            seen = view(state, seat)
            if seen.legal:
                break
        start = time.perf_counter()
        action = bots[seat].choose(seen)
        elapsed = time.perf_counter() - start
        if len(seen.legal) > 1:
            stats[labels[seat]]["times"][seen.phase].append(elapsed)
        dealer: int | None = state.dealer   # this hand's (a deal event names the next one's)
        state, events = apply(state, action)
        for event in events:
            if event.kind == "peg" and not showing:
                assert event.seat is not None and event.breakdown is not None   # a peg has both
                if event.breakdown.items[0].kind in PLAY_KINDS:
                    hand[event.seat]["pegging"] += event.breakdown.total
            elif event.kind == "show":
                assert event.seat is not None and event.breakdown is not None   # so has a show
                showing = True  # the pegs that follow are the show's, already counted here
                hand[event.seat]["hand"] += event.breakdown.total
            elif event.kind == "crib":
                assert event.seat is not None and event.breakdown is not None   # and a crib
                hand[event.seat]["crib"] += event.breakdown.total
                for player in range(arena.players):  # a complete hand: count it
                    role = "dealer" if player == dealer else "pone"
                    mine = stats[labels[player]]
                    mine["hands"][role] += 1
                    for kind, points in hand[player].items():
                        mine["points"][role][kind] += points
            elif event.kind == "deal":
                showing = False
                hand = {seat: {"pegging": 0, "hand": 0, "crib": 0} for seat in hand}
                dealer = event.seat
            elif event.kind == "game_over":
                for player, label in enumerate(labels):
                    side = config.side_of(player)
                    if side == event.side and (player < config.sides):
                        stats[label]["wins"] += 1
                        stats[label]["deals"][group] += 1
                    if event.verdicts[side] in ("skunk", "double skunk") and player < config.sides:
                        stats[label]["skunked"] += 1
    return stats


def _chunk(args: tuple[Arena, Iterable[int]]) -> list[dict[str, Stats]]:
    arena, games = args
    return [play_game(arena, game) for game in games]


def _merge(total: Stats, part: Stats) -> None:
    total["wins"] += part["wins"]
    for group, wins in part["deals"].items():
        total["deals"][group] = total["deals"].get(group, 0) + wins
    total["skunked"] += part["skunked"]
    for role in ("dealer", "pone"):
        total["hands"][role] += part["hands"][role]
        for kind in ("pegging", "hand", "crib"):
            total["points"][role][kind] += part["points"][role][kind]
    for phase in ("discard", "play"):
        total["times"][phase].extend(part["times"][phase])


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate.

    >>> [round(x, 3) for x in wilson(550, 1000)]
    [0.519, 0.581]
    """
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def paired(deal_wins: Sequence[int], group: int, z: float = 1.96) -> tuple[float, float, float]:
    """A's win rate and its 95% interval over complete deals, each deal played ``group`` times
    with the seats rotated (``deal_wins``: A's wins per deal). The deals are the independent
    units, so the luck of the cards, shared within a deal, drops out of the interval.

    >>> [round(x, 3) for x in paired([2, 1, 1, 0, 2, 1, 1, 2], 2)]
    [0.625, 0.38, 0.87]
    """
    scores = [wins / group for wins in deal_wins]
    n = len(scores)
    if n < 2:
        return (scores[0] if scores else 0.0), 0.0, 1.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(arena: Arena, jobs: int = 1,
        progress: Callable[[int, dict[str, Stats]], None] | None = None) -> dict[str, Any]:
    """Play all the games (on ``jobs`` processes) and return the summary as a dict."""
    stats = {"A": _new_stats(), "B": _new_stats()}
    step = arena.group
    chunks = [range(start, min(start + 10 * step, arena.games))
              for start in range(0, arena.games, 10 * step)]
    done = 0

    def absorb(results: list[dict[str, Stats]]) -> None:
        nonlocal done
        for game in results:
            for label in ("A", "B"):
                _merge(stats[label], game[label])
            done += 1
        if progress:
            progress(done, stats)

    if jobs > 1:
        from multiprocessing import Pool  # imported here: the browser never runs the arena

        with Pool(jobs) as pool:
            for results in pool.imap_unordered(_chunk, [(arena, c) for c in chunks]):
                absorb(results)
    else:
        try:
            for chunk in chunks:
                absorb(_chunk((arena, chunk)))
        finally:
            close_external()
    return summarise(arena, stats)


def close_external() -> None:
    """Stop the external programs this process started (workers' end with the worker)."""
    while _BOTS:
        _BOTS.popitem()[1].close()


def summarise(arena: Arena, stats: dict[str, Stats]) -> dict[str, Any]:
    games = arena.games
    wins_a = stats["A"]["wins"]
    low, high = wilson(wins_a, games)
    result: dict[str, Any] = {"a": arena.a, "b": arena.b, "games": games, "players": arena.players,
              "seed": arena.seed, "wins": {"A": wins_a, "B": games - wins_a},
              "a_win_rate": wins_a / games, "a_win_ci95": [low, high], "sides": {}}
    complete = [wins for group, wins in stats["A"]["deals"].items()
                if (group + 1) * arena.group <= games]
    rate, low, high = paired(complete, arena.group)
    result["paired"] = {"deals": len(complete), "a_win_rate": rate, "ci95": [low, high]}
    for label in ("A", "B"):
        mine = stats[label]
        side: dict[str, Any] = {"skunked": mine["skunked"], "per_hand": {}, "times_ms": {}}
        for role in ("dealer", "pone"):
            hands = max(mine["hands"][role], 1)
            side["per_hand"][role] = {kind: mine["points"][role][kind] / hands
                                      for kind in ("pegging", "hand", "crib")}
            side["per_hand"][role]["hands"] = mine["hands"][role]
        for phase in ("discard", "play"):
            times = mine["times"][phase]
            side["times_ms"][phase] = {"median": 1000 * _quantile(times, 0.5),
                                       "p95": 1000 * _quantile(times, 0.95), "n": len(times)}
        result["sides"][label] = side
    return result


def report(result: dict[str, Any]) -> str:
    """The summary as text for people."""
    low, high = result["a_win_ci95"]
    lines = [f"{result['games']} games, {result['players']} players, seed {result['seed']}: "
             f"A = {result['a']}, B = {result['b']}",
             f"A wins {result['wins']['A']} ({100 * result['a_win_rate']:.1f}%, "
             f"95% CI {100 * low:.1f}-{100 * high:.1f}%), B wins {result['wins']['B']}"]
    if result["players"] == 3:
        lines[-1] += " (A is one of three: an equal player wins 33.3%)"
    pair = result["paired"]
    lines.append(f"paired over {pair['deals']} deals (each played with the seats rotated): "
                 f"A {100 * pair['a_win_rate']:.1f}%, 95% CI {100 * pair['ci95'][0]:.1f}-"
                 f"{100 * pair['ci95'][1]:.1f}%")
    for label in ("A", "B"):
        side = result["sides"][label]
        name = result[label.lower()]
        lines.append(f"{label} ({name}): skunked {side['skunked']} times")
        for role in ("dealer", "pone"):
            row = side["per_hand"][role]
            lines.append(f"  as {role:6}: pegging {row['pegging']:.2f}  hand {row['hand']:.2f}"
                         f"  crib {row['crib']:.2f}  ({row['hands']} hands)")
        for phase in ("discard", "play"):
            t = side["times_ms"][phase]
            lines.append(f"  {phase:7} time: median {t['median']:.2f} ms, p95 {t['p95']:.2f} ms"
                         f" ({t['n']} decisions)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play bots against each other.")
    parser.add_argument("--a", default="hard", help="side A: a level or cmd:COMMAND")
    parser.add_argument("--b", default="medium", help="side B: a level or cmd:COMMAND")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--variant", choices=("standard", "five"), default="standard",
                        help="five: five-card cribbage (2 players, --target 61)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    try:
        arena = Arena(args.a, args.b, args.games, args.players, args.seed, args.target, args.variant)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()

    def progress(done: int, stats: dict[str, Stats]) -> None:
        if sys.stderr.isatty():
            print(f"\r{done}/{args.games} games, A {stats['A']['wins']}", end="", file=sys.stderr)

    result = run(arena, args.jobs, progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    result["seconds"] = time.perf_counter() - started
    print(json.dumps(result, indent=1) if args.json else report(result)
          + f"\n({result['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
