"""How much stronger the hard bot is than `hard-v1` (issue 15): arena tables and decision times.

    .venv/bin/python bench/bot_strength.py --a hard --b hard-v1 --players 2 --games 4000 \\
        --jobs 2 --seed 15 --log /tmp/h2.jsonl          # plays, appending each game to the log
    .venv/bin/python bench/bot_strength.py --report /tmp/h2.jsonl   # the tables of a log so far
    .venv/bin/python bench/bot_strength.py --report /tmp/h2.jsonl /tmp/h2_seed16.jsonl  # pooled
    .venv/bin/python bench/bot_strength.py --report /tmp/lever.jsonl --against /tmp/h2.jsonl
                                                # a lever's log against another on the same games

Games go in duplicate deals (the same cards, the seats rotated; `game.arena.Arena.seating`).
Every finished game is appended to the log at once, so a run cut short (or still going) can be
reported from what it has played; a run given an existing log continues after its last game.
The report gives A's win rate with the paired 95% interval over complete deals (and the plain
Wilson interval over games), points per hand by source (pegging, hand, crib) for the dealer and
the pone, and each side's decision times under CPython (median, 95th percentile, maximum).
Decision times on a busy machine are inflated: measure them alone for the figure that counts.
Several logs of the same match (bots, table size, target and `--set` levers) with different
seeds are reported together: their deals are pooled, so the paired interval is over them all.

``--against`` compares two runs of the same seed game by game (`compare`): the difference in
A's wins and in A's points minus B's per deal, by source, each with its paired 95% interval.
The same deals make the comparison far tighter than the two runs' own intervals.
"""

import argparse
import ast
import importlib
import json
import math
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.arena import Arena, _merge, _new_stats, play_game, report, summarise  # noqa: E402


def _play(args):
    arena, game = args
    stats = play_game(arena, game)
    for label in stats:
        stats[label]["deals"] = {str(k): v for k, v in stats[label]["deals"].items()}
    return game, stats


def load(path: Path):
    """``(header, {game: stats})`` from a log."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    games = {}
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line cut short by a stopped run
        games[row["game"]] = row["stats"]
    return header, games


def tables(paths) -> str:
    """The tables of a log, or of several logs of the same match with other seeds, pooled deal
    by deal (each log's complete deals from the start)."""
    paths = [paths] if isinstance(paths, Path) else list(paths)
    stats = {"A": _new_stats(), "B": _new_stats()}
    match, seeds, played = None, [], 0
    for path in paths:
        header, games = load(path)
        this = {key: header.get(key) for key in ("a", "b", "players", "target", "set")}
        if match is None:
            match = this
        elif this != match:
            sys.exit(f"{path} is another match ({this}), not {match}")
        if header["seed"] in seeds:
            sys.exit(f"{path} plays seed {header['seed']} again: those games are counted already")
        seeds.append(header["seed"])
        arena = Arena(header["a"], header["b"], header["games"], header["players"],
                      header["seed"], header["target"])
        done = 0  # only whole deals from the start: the duplicate pairs stay paired
        while all(g in games for g in range(done, done + arena.group)):
            done += arena.group
        first_deal = played // arena.group  # this log's deals follow the earlier logs'
        for game in range(done):
            for label in ("A", "B"):
                part = dict(games[game][label])
                part["deals"] = {first_deal + int(k): v for k, v in part["deals"].items()}
                _merge(stats[label], part)
        played += done
    if not played:
        return "no complete deal yet"
    # The seed is only a label here (no game is played): several logs list all their seeds.
    arena = Arena(match["a"], match["b"], played, match["players"],
                  ", ".join(str(seed) for seed in seeds), match["target"])
    result = summarise(arena, stats)
    lines = [report(result)]
    for label in ("A", "B"):
        times = stats[label]["times"]
        for phase in ("discard", "play"):
            if times[phase]:
                lines.append(f"{label} {phase} max {1000 * max(times[phase]):.1f} ms")
    return "\n".join(lines)


def per_game(stats) -> dict:
    """A's wins and, per deal, A's points minus B's by source (and in all) in one game."""
    deals = sum(stats["A"]["hands"].values()) or 1
    row = {"wins": float(stats["A"]["wins"])}
    for source in ("pegging", "hand", "crib"):
        row[source] = sum(stats[label]["points"][role][source] * sign
                          for label, sign in (("A", 1), ("B", -1))
                          for role in ("dealer", "pone")) / deals
    row["all"] = row["pegging"] + row["hand"] + row["crib"]
    return row


def mean_interval(values, z: float = 1.96):
    """``(mean, low, high)``: the mean and its normal 95% interval.

    >>> mean_interval([1.0, 0.0, 1.0, 0.0])
    (0.5, -0.06580..., 1.06580...)
    """
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def compare(path: Path, other: Path) -> str:
    """``path``'s run minus ``other``'s on the games both played (the same seed and table)."""
    head, games = load(path)
    other_head, other_games = load(other)
    if (head["players"], head["seed"], head["target"]) != \
            (other_head["players"], other_head["seed"], other_head["target"]):
        sys.exit(f"{path} and {other} did not play the same games")
    common = sorted(set(games) & set(other_games))
    if len(common) < 2:
        return "fewer than two games in common"
    mine = [per_game(games[g]) for g in common]
    theirs = [per_game(other_games[g]) for g in common]
    lines = [f"{len(common)} games in common: {path.name} minus {other.name}"]
    mean, low, high = mean_interval([a["wins"] - b["wins"] for a, b in zip(mine, theirs)])
    lines.append(f"  A's wins: {100 * mean:+.1f} points of games (95% CI {100 * low:+.1f} to "
                 f"{100 * high:+.1f})")
    for source in ("pegging", "hand", "crib", "all"):
        mean, low, high = mean_interval([a[source] - b[source] for a, b in zip(mine, theirs)])
        lines.append(f"  A minus B per deal, {source:7s}: {mean:+.3f} (95% CI {low:+.3f} to "
                     f"{high:+.3f})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="hard-v1")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", type=Path, help="append each game here (JSON lines)")
    parser.add_argument("--report", type=Path, nargs="+", metavar="LOG",
                        help="only print the tables of this log (of several: pooled)")
    parser.add_argument("--against", type=Path,
                        help="with one --report log: compare with this log on the same games")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="try a lever: set a constant of game.bots.MODULE (hard-v1 is apart)")
    args = parser.parse_args()
    for assignment in args.set:  # e.g. pegging.PARTNER_BLIND=True (the workers fork after this)
        name, _, value = assignment.partition("=")
        module, _, constant = name.rpartition(".")
        setattr(importlib.import_module(f"game.bots.{module}"), constant, ast.literal_eval(value))
    if args.report:
        if args.against and len(args.report) > 1:
            parser.error("--against compares one log with another")
        print(compare(args.report[0], args.against) if args.against else tables(args.report))
        return
    log = args.log or Path(f"/tmp/bot_strength_{args.a}_{args.b}_{args.players}p.jsonl")
    arena = Arena(args.a, args.b, args.games, args.players, args.seed, args.target)
    header = {"a": args.a, "b": args.b, "games": args.games, "players": args.players,
              "seed": args.seed, "target": args.target}
    if args.set:
        header["set"] = args.set
    done = set()
    if log.exists():
        old, games = load(log)
        if old != header:
            sys.exit(f"{log} holds another run: {old}")
        done = set(games)
    else:
        log.write_text(json.dumps(header) + "\n")
    todo = [(arena, game) for game in range(args.games) if game not in done]
    with open(log, "a") as out, Pool(args.jobs) as pool:
        for game, stats in pool.imap(_play, todo):
            out.write(json.dumps({"game": game, "stats": stats}) + "\n")
            out.flush()
    print(tables(log))


if __name__ == "__main__":
    main()
