"""The arena: plays whole games, alternates seats, reports the figures, seats external bots."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from game.arena import Arena, main, play_game, report, run, wilson


def test_seats_and_deals_alternate_in_pairs():
    arena = Arena("easy", "medium", games=4, players=2, seed=3)
    (first, seed1), (second, seed2) = arena.seating(0), arena.seating(1)
    assert first == ["A", "B"] and second == ["B", "A"] and seed1 == seed2
    assert arena.seating(2)[1] != seed1
    assert [arena.seating(g)[0].index("A") for g in range(3)] == [0, 1, 0]
    three = Arena("easy", "medium", players=3)
    assert [three.seating(g)[0] for g in range(3)] == [["A", "B", "B"], ["B", "A", "B"],
                                                       ["B", "B", "A"]]
    four = Arena("easy", "medium", players=4)
    assert four.seating(0)[0] == ["A", "B", "A", "B"]
    assert four.seating(1)[0] == ["B", "A", "B", "A"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_short_run_adds_up(players):
    result = run(Arena("easy", "medium", games=players * 2, players=players, seed=2))
    assert result["wins"]["A"] + result["wins"]["B"] == players * 2
    low, high = result["a_win_ci95"]
    assert 0 <= low <= result["a_win_rate"] <= high <= 1
    for label in ("A", "B"):
        side = result["sides"][label]
        assert side["per_hand"]["dealer"]["hands"] > 0 and side["per_hand"]["pone"]["hands"] > 0
        assert side["per_hand"]["pone"]["crib"] == 0
        assert side["times_ms"]["play"]["n"] > 0
    text = report(result)
    assert "95% CI" in text and "pegging" in text and "median" in text


def test_a_game_is_reproducible():
    arena = Arena("medium", "easy", games=2, seed=4)
    first, again = play_game(arena, 1), play_game(arena, 1)
    for stats in (first, again):
        for label in stats:
            stats[label]["times"] = None
    assert first == again


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low < 0.5 < high and round(high - low, 2) == 0.19
    assert wilson(0, 10)[0] == 0.0


def test_rejects_unknown_sides():
    with pytest.raises(ValueError):
        Arena("grandmaster", "easy")


def test_command_line_json(capsys):
    assert main(["--a", "easy", "--b", "easy", "--games", "2", "--json", "--seed", "9"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 2 and result["a"] == "easy"


def test_seats_an_external_program_over_the_protocol():
    command = f"cmd:{sys.executable} -m game.bots.proto medium"
    result = run(Arena(command, "easy", games=2, players=2, seed=5), jobs=1)
    assert result["wins"]["A"] + result["wins"]["B"] == 2
    assert result["sides"]["A"]["times_ms"]["discard"]["n"] > 0


def test_runs_on_several_processes():
    out = subprocess.run([sys.executable, "-m", "game.arena", "--a", "easy", "--b", "medium",
                          "--games", "4", "--jobs", "2", "--players", "4"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "4 games, 4 players" in out.stdout


def test_paired_interval_counts_deals():
    from game.arena import paired
    rate, low, high = paired([1] * 50 + [2] * 30 + [0] * 20, 2)
    assert rate == 0.55 and low < 0.55 < high
    assert paired([1] * 40, 2) == (0.5, 0.5, 0.5)  # every deal split: no doubt left
    result = run(Arena("hard-v1", "easy", games=4, players=2, seed=6))
    assert result["paired"]["deals"] == 2
    assert result["paired"]["a_win_rate"] == result["a_win_rate"]
    three = run(Arena("easy", "easy", games=3, players=3, seed=6))
    assert three["paired"]["deals"] == 1


def _strength_bench():
    """bench/bot_strength.py's functions (the bench is a script, not a package)."""
    import runpy
    from pathlib import Path

    return runpy.run_path(str(Path(__file__).parent.parent / "bench" / "bot_strength.py"))


def _strength_log(tmp_path, name, seed, b="medium", games=4):
    """A log as the bench writes it: easy against ``b``, two players."""
    arena = Arena("easy", b, games=games, players=2, seed=seed)
    rows = [{"a": "easy", "b": b, "games": games, "players": 2, "seed": seed, "target": 121}]
    rows += [{"game": g, "stats": play_game(arena, g)} for g in range(games)]
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return path


def test_the_strength_bench_compares_two_runs_on_the_same_games(tmp_path):
    """bench/bot_strength.py --against: a run against itself differs by nothing; a run of
    other deals is refused."""
    bench = _strength_bench()
    first, second = (_strength_log(tmp_path, name, 5) for name in ("a.jsonl", "b.jsonl"))
    text = bench["compare"](first, second)
    assert text.startswith("4 games in common") and "A's wins: +0.0 points" in text
    assert "pegging: +0.000 (95% CI +0.000 to +0.000)" in text
    with pytest.raises(SystemExit):
        bench["compare"](first, _strength_log(tmp_path, "c.jsonl", 6))


def test_the_strength_bench_pools_logs_of_other_seeds_deal_by_deal(tmp_path):
    """bench/bot_strength.py --report LOG LOG: two seeds' deals are pooled (as one run of all
    their games would count them); the same seed twice, or another match, is refused."""
    bench = _strength_bench()
    first = _strength_log(tmp_path, "a.jsonl", 5)
    second = _strength_log(tmp_path, "b.jsonl", 6, games=3)
    pooled = bench["tables"]([first, second])
    # Seed 6's third game has no partner yet: only its first deal (two games) is pooled.
    wins = sum(stats["A"]["wins"] for log, games in ((first, 4), (second, 2))
               for game, stats in bench["load"](log)[1].items() if game < games)
    assert pooled.startswith("6 games, 2 players, seed 5, 6: A = easy, B = medium")
    assert f"A wins {wins} (" in pooled and "paired over 3 deals" in pooled
    assert bench["tables"]([first]) == bench["tables"](first)
    with pytest.raises(SystemExit, match="seed 5 again"):
        bench["tables"]([first, first])
    with pytest.raises(SystemExit, match="another match"):
        bench["tables"]([first, _strength_log(tmp_path, "c.jsonl", 7, b="hard")])
