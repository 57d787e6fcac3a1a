"""Count it yourself at the bot table (issue #39, part 1), without the browser: Settings turns it
on, the table draws the claim's chips and says what it waits for, the bots count and call."""

import re
from dataclasses import replace

import pytest

from game.errors import IllegalActionError, ParseError
from game.scoring import score_hand, score_play
from web.controller import Controller
from web.profile.model import clean_prefs
from web.profile.view import render_settings
from web.profile.model import Profile
from web.render import render


NOTES: set[str] = set()
CRIBS_COUNTED: set[bool] = set()     # whether the player counted a crib (the crib turned over)


def muggins_table(players=2, seed=5):
    ctl = Controller(seed_source=lambda: seed)
    ctl.prefs["muggins"] = True
    ctl.command("start", {"name": "Ann", "level": "hard", "players": str(players), "target": "61"})
    return ctl


def true_points(view):
    claim = view.claim
    if claim.what == "play":
        return score_play(claim.cards).total
    return score_hand(claim.cards, view.starter, crib=claim.what == "crib").total


def play_out(ctl, short_every=3):
    """Play the player's seat to the end, one point short on every ``short_every``-th claim;
    every screen drawn on the way. Returns (claims made, the claim bars seen); the notes under
    the counted hands go into ``NOTES``."""
    claims = bars = 0
    for _ in range(6000):
        if ctl.session.state.phase == "over":
            return claims, bars
        view, html = ctl.view(), render(ctl)
        NOTES.update(re.findall(r'data-testid="claimed">([^<]*)<', html))
        if ctl.bot_waiting():
            ctl.bot_step()
        elif ctl.seat_screen.play_end or ctl.seat_screen.count_end:
            ctl.seat_screen.end_beat()
        elif view.claim is not None and view.claim.seat == 0 and view.claim.claimed is None:
            assert 'data-testid="claim-bar"' in html and "claim its points" in html
            assert 'data-action="play"' not in html            # no card to lay meanwhile
            drawn = set(re.findall(r'data-card="(\w\w)"', html))
            assert {str(card) for card in view.claim.cards} <= drawn    # what is counted is in sight
            CRIBS_COUNTED.add(view.claim.what == "crib")
            points = true_points(view)
            claims += 1
            bars += 1
            ctl.command("claim", str(max(0, points - (claims % short_every == 0))))
            assert not ctl.error
        elif ctl.seat_screen.show:
            ctl.command("continue")
        elif view.phase == "discard" and not view.has_discarded[0]:
            for card in sorted(view.hand)[:view.config.to_crib]:
                ctl.command("select", str(card))
            ctl.command("confirm-discard")
        elif view.phase == "play" and view.turn == 0:
            ctl.command("play", str(view.legal[0].card))
        else:
            raise AssertionError(f"stuck at {view.phase}, turn {view.turn}, claim {view.claim}")
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("players", [2, 3])
def test_a_muggins_game_at_the_bot_table_to_the_end(players):
    ctl = muggins_table(players)
    assert ctl.session.config.muggins
    claims, bars = play_out(ctl)
    assert claims > 10 and bars == claims and True in CRIBS_COUNTED
    log = " ".join(ctl.session.log)
    assert "muggins! takes the 1 missed" in log and "missing 1" in log


def test_muggins_is_off_unless_settings_turn_it_on():
    ctl = Controller(seed_source=lambda: 5)
    ctl.command("start", {"name": "Ann", "level": "hard", "players": "2", "target": "61"})
    assert not ctl.session.config.muggins
    assert clean_prefs({})["muggins"] is False and clean_prefs({"muggins": True})["muggins"] is True
    assert 'data-pref="muggins"' in render_settings(Profile.new("Ann"))


def test_a_claim_the_player_should_not_make_is_refused_with_a_message():
    ctl = muggins_table()
    with pytest.raises(IllegalActionError):
        ctl.claim("2")                         # nothing to claim while discarding
    for card in sorted(ctl.view().hand)[:2]:
        ctl.command("select", str(card))
    ctl.command("confirm-discard")
    while ctl.bot_waiting():
        ctl.bot_step()
    view = ctl.view()
    if view.turn != 0:
        ctl.bot_step()
    ctl.command("play", str(ctl.view().legal[0].card))
    for bad in ("two", "-1", "123"):
        with pytest.raises(ParseError):
            ctl.claim(bad)
    points = true_points(ctl.view())
    ctl.command("claim", str(points + 1))
    assert ctl.error == f"{points + 1} is more than the cards make: count again"
    assert ctl.view().claim.claimed is None
    assert ctl.seat_screen.key("1", "rank") is None          # the digits lay no card meanwhile
    ctl.command("claim", str(points))
    assert not ctl.error


def test_statistics_keep_the_points_missed_and_old_records_read_as_before():
    from web.profile.records import GameRecord, make_record
    from web.profile.stats import compute

    ctl = muggins_table()
    play_out(ctl)
    state = ctl.session.state
    actions = [str(action) for action in state.actions]
    record = make_record(state.config, state.seed, actions, 0, ["Ann", "Bot"], "bot-hard", "2026-12-05")
    claimed = [e for e in ctl.session.state.actions if e.kind == "claim" and e.seat == 0]
    assert claimed and record.summary.missed > 0
    assert GameRecord.from_json(record.to_json()) == record
    stats = compute([record])["all"]
    assert stats.muggins_games == 1 and stats.missed_per_game() == f"{record.summary.missed:.1f}"
    plain = Controller(seed_source=lambda: 5)
    plain.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
    from game.bots import make_bot
    session = plain.session
    bots = [make_bot("easy", 1), make_bot("easy", 2)]
    while session.state.phase != "over":
        seat = next(s for s in (0, 1) if session.view(s).legal)
        session.act(seat, bots[seat].choose(session.view(seat)))
    standard = make_record(session.config, session.state.seed, [str(a) for a in session.state.actions], 0,
                           ["Ann", "Bot"], "bot-easy", "2026-12-05")
    assert "missed" not in standard.to_json()["summary"] and "muggins" not in standard.to_json()["config"]
    assert compute([standard])["all"].missed_per_game() == "—"


def test_the_coach_counts_the_points_missed_as_given_away():
    from game.coach.hands import review_game, walk
    from game.engine import new_game
    from web.coach.view import review_html, summary_html

    ctl = muggins_table(seed=6)
    play_out(ctl, short_every=2)
    state = ctl.session.state
    start = new_game(state.config, state.seed)
    hands = walk(start, state.actions, seat=0)
    game = review_game(hands, pegging=False)
    expected = sum(e.breakdown.total - e.count for e in _claims(state) if e.seat == 0)
    assert game.missed == expected > 0
    missed_hand = next(review for review in game.reviews if review.missed)
    assert "missed in the count" in review_html(missed_hand, 0, True)
    assert f"You missed <b>{expected}</b>" in summary_html(game, 0)


def _claims(state):
    from game.engine import apply, new_game

    replayed, events = new_game(state.config, state.seed), []
    for action in state.actions:
        replayed, new = apply(replayed, action)
        events += [event for event in new if event.kind == "claim"]
    return events


def test_each_counted_hand_says_what_was_claimed_missed_and_taken():
    NOTES.clear()
    play_out(muggins_table(seed=8), short_every=1)         # one short on every score
    assert any(note.startswith("claimed ") and "missed" not in note for note in NOTES)   # the bots'
    assert any("missed 1 · 1 taken (muggins)" in note for note in NOTES)                # the player's


def test_the_chips_are_the_claimant_s_only():
    from game.engine import Claim
    from game.scoring import Breakdown
    from web.table.render import claim_bar, claim_text

    ctl = muggins_table()
    mine = replace(ctl.view(), claim=Claim("show", 0, (), Breakdown()))
    assert claim_bar(mine).count('class="chip"') == 30
    assert claim_bar(replace(mine, claim=Claim("show", 1, (), Breakdown()))) == ""   # the bot's count
    called = replace(mine, claim=Claim("show", 0, (), Breakdown(), claimed=4, caller=1))
    assert claim_bar(called) == "" and claim_text(called, ["Ann", "Bot"]) == "Bot may call muggins"
