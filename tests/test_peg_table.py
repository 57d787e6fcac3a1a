"""The kept four's pegging value (`game.bots.peg_table`, generated `peg_data`) and the
discard that uses it (`game.bots.keep`)."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import pytest

from game.bots import keep, levels, make_bot, peg_data, peg_table, run
from game.bots.discard import expected_values
from game.bots.make_peg_table import fit, inputs, main, own, target
from game.cards import Card, parse_cards
from game.engine import Config, new_game, stack_deck
from game.view import view


def random_four(rng):
    return sorted(rng.randint(1, 13) for _ in range(4))


def test_the_fit_finds_known_weights_through_noise():
    """Pegging outcomes made from known weights plus noise as large as the play's: the fit
    gets our four's weights back, with the other four in the fit as the generator has it."""
    rng = random.Random(4)
    truth = [rng.uniform(-0.5, 0.5) for _ in range(2 * len(peg_table.FEATURES) - 1)]
    rows = []
    for _ in range(6000):
        x = inputs(2, 0, [random_four(rng), random_four(rng)])
        rows.append((x, sum(w * v for w, v in zip(truth, x)) + rng.gauss(0.0, 3.0)))
    found = own(fit(rows, ridge=1.0))
    for name, got, want in zip(peg_table.FEATURES[1:], found[1:], truth[1:]):
        assert got == pytest.approx(want, abs=0.25), name


def test_the_fit_takes_every_other_seat_as_inputs_and_counts_for_the_side():
    fours = [[1, 2, 3, 4], [5, 5, 10, 11], [7, 8, 9, 13], [6, 6, 6, 12]]
    x = inputs(4, 1, fours)
    size = len(peg_table.FEATURES)
    assert len(x) == size + 3 * (size - 1)
    assert x[:size] == peg_table.features(fours[1])
    assert x[size:2 * size - 1] == peg_table.features(fours[2])[1:]   # the next seat first
    assert x[-(size - 1):] == peg_table.features(fours[0])[1:]
    # Partners (seats 0 and 2, 1 and 3) peg for one side; in three players rivals count half.
    assert target(4, 0, [3, 1, 2, 0]) == target(4, 2, [3, 1, 2, 0]) == 4
    assert target(4, 1, [3, 1, 2, 0]) == -4
    assert target(3, 2, [2, 4, 3]) == 0
    assert target(2, 1, [2, 5]) == 3


def test_the_stored_table_has_a_weight_per_feature_for_every_seat_and_is_small():
    assert set(peg_data.WEIGHTS) == {2, 3, 4} == set(peg_data.SOURCES)
    for players, by_role in peg_data.WEIGHTS.items():
        assert set(by_role) == set(peg_table.ROLES[players])
        assert all(len(weights) == len(peg_table.FEATURES) for weights in by_role.values())
        hands, budget = peg_data.SOURCES[players]
        assert hands >= 10_000 and budget >= 1000
    assert Path(peg_data.__file__).stat().st_size < 8_000


def test_what_players_know_about_pegging_holds_in_the_table():
    # As pone low cards peg better than sevens and queens that feed the dealer's fifteens.
    assert peg_table.value([1, 2, 3, 4], "pone") > peg_table.value([7, 7, 12, 12], "pone")
    # A four's value for the dealer is not its value for the pone: the roles are fitted apart.
    assert peg_table.value([1, 2, 3, 4], "pone") != peg_table.value([1, 2, 3, 4], "dealer")


@pytest.mark.parametrize("players", [2, 4])
def test_the_generator_writes_a_table_the_bot_can_read(tmp_path, players):
    out = tmp_path / "peg_data.py"
    saved = tmp_path / "hands.jsonl"
    assert main(["--players", str(players), "--hands", "6", "--jobs", "1", "--budget", "200",
                 "--out", str(out), "--save", str(saved)]) == 0
    table = runpy.run_path(str(out))
    assert table["SOURCES"] == {players: (6, 200)} and len(saved.read_text().splitlines()) == 6
    assert set(table["WEIGHTS"][players]) == set(peg_table.ROLES[players])
    assert all(len(w) == len(peg_table.FEATURES) for w in table["WEIGHTS"][players].values())
    again = tmp_path / "again.py"   # refitting the saved hands gives the same file
    assert main(["--players", str(players), "--load", str(saved), "--out", str(again),
                 "--budget", "200"]) == 0
    assert again.read_text() == out.read_text()


def test_the_generator_keeps_the_other_table_sizes(tmp_path):
    out = tmp_path / "peg_data.py"
    out.write_text(Path(peg_data.__file__).read_text())
    saved = tmp_path / "hands.jsonl"
    assert main(["--players", "3", "--hands", "4", "--jobs", "1", "--budget", "200",
                 "--out", str(out), "--save", str(saved)]) == 0
    table = runpy.run_path(str(out))
    assert table["SOURCES"][3] == (4, 200)
    for players in (2, 4):
        assert table["WEIGHTS"][players] == peg_data.WEIGHTS[players]
        assert table["SOURCES"][players] == peg_data.SOURCES[players]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_every_table_ranks_the_discards_by_show_plus_pegging(players, seed):
    seen = view(new_game(Config(players=players), seed=seed), seed % players)
    rows = expected_values(seen)
    ranked = keep.with_pegging(seen, rows)
    role = peg_table.ROLES[players][(seen.seat - seen.dealer) % players]
    by_action = {row[0]: row for row in rows}
    for action, kept, mean, _, _ in ranked:
        extra = peg_table.value([card.rank for card in kept], role, players)
        assert mean == pytest.approx(by_action[action][2] + keep.WEIGHT * extra)
    assert [row[2] for row in ranked] == sorted((row[2] for row in ranked), reverse=True)
    thought = run(make_bot("hard", seed).think(seen))   # 0-0: far from the board's endgame
    assert thought.action == ranked[0][0]
    assert "pegging" in thought.measure


def test_without_the_weight_the_discard_is_the_show_alone(monkeypatch):
    monkeypatch.setattr(keep, "WEIGHT", 0.0)
    seen = view(new_game(Config(players=3), seed=2), 0)
    rows = expected_values(seen)
    assert keep.with_pegging(seen, rows) is rows
    assert "pegging" not in run(levels.hard_think(seen, random.Random(1))).measure


def test_as_pone_hard_keeps_the_low_cards_that_peg():
    # 4 A T 4 A 2 as pone: by the show alone A 4 4 T (3.53 points with the crib) edges out
    # A A 4 4 (3.40); in the play a pone's low cards answer, make the go and the thirty-one,
    # so hard keeps A A 4 4 and throws the ten.
    deck = stack_deck(Config(), 0, [parse_cards("KC QC 9H 8D 7C 6S"),
                                    parse_cards("4H AS TS 4S AD 2S")], Card.parse("3D"))
    seen = view(new_game(Config(), seed=1, stacked=[deck], first_dealer=0), 1)
    by_show = expected_values(seen)[0]
    assert "TS" in {str(card) for card in by_show[1]}
    thrown = {str(card) for card in make_bot("hard").choose(seen).cards}
    assert thrown == {"TS", "2S"}
