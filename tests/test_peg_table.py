"""The kept four's pegging value (`game.bots.peg_table`, generated `peg_data`) and the
discard that uses it (`game.bots.keep`)."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import pytest

from game.bots import keep, levels, make_bot, peg_data, peg_table, run
from game.bots.discard import expected_values
from game.bots.make_peg_table import both, fit, main, own
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
        x = both(random_four(rng), random_four(rng))
        rows.append((x, sum(w * v for w, v in zip(truth, x)) + rng.gauss(0.0, 3.0)))
    found = own(fit(rows, ridge=1.0))
    for name, got, want in zip(peg_table.FEATURES[1:], found[1:], truth[1:]):
        assert got == pytest.approx(want, abs=0.25), name


def test_the_stored_table_has_a_weight_per_feature_and_is_small():
    assert set(peg_data.WEIGHTS) == {"dealer", "pone"}
    for weights in peg_data.WEIGHTS.values():
        assert len(weights) == len(peg_table.FEATURES)
    assert Path(peg_data.__file__).stat().st_size < 4_000
    assert peg_data.HANDS >= 20_000


def test_what_players_know_about_pegging_holds_in_the_table():
    # As pone low cards peg better than sevens and queens that feed the dealer's fifteens.
    assert peg_table.value([1, 2, 3, 4], "pone") > peg_table.value([7, 7, 12, 12], "pone")
    # A four's value for the dealer is not its value for the pone: the roles are fitted apart.
    assert peg_table.value([1, 2, 3, 4], "pone") != peg_table.value([1, 2, 3, 4], "dealer")


def test_the_generator_writes_a_table_the_bot_can_read(tmp_path):
    out = tmp_path / "peg_data.py"
    saved = tmp_path / "hands.jsonl"
    assert main(["--hands", "6", "--jobs", "1", "--budget", "200", "--out", str(out),
                 "--save", str(saved)]) == 0
    table = runpy.run_path(str(out))
    assert table["HANDS"] == 6 and len(saved.read_text().splitlines()) == 6
    assert all(len(w) == len(peg_table.FEATURES) for w in table["WEIGHTS"].values())
    again = tmp_path / "again.py"   # refitting the saved hands gives the same file
    assert main(["--load", str(saved), "--out", str(again), "--budget", "200"]) == 0
    assert again.read_text() == out.read_text()


@pytest.mark.parametrize("seed", range(6))
def test_two_players_rank_the_discards_by_show_plus_pegging(seed):
    seen = view(new_game(Config(players=2), seed=seed), seed % 2)
    rows = expected_values(seen)
    ranked = keep.with_pegging(seen, rows)
    role = "dealer" if seen.my_crib else "pone"
    by_action = {row[0]: row for row in rows}
    for action, kept, mean, _, _ in ranked:
        extra = peg_table.value([card.rank for card in kept], role)
        assert mean == pytest.approx(by_action[action][2] + keep.WEIGHT * extra)
    assert [row[2] for row in ranked] == sorted((row[2] for row in ranked), reverse=True)
    thought = run(make_bot("hard", seed).think(seen))   # 0-0: far from the board's endgame
    assert thought.action == ranked[0][0]
    assert "pegging" in thought.measure


@pytest.mark.parametrize("players", [3, 4])
def test_other_tables_discard_by_the_show_alone(players):
    seen = view(new_game(Config(players=players), seed=2), 0)
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
