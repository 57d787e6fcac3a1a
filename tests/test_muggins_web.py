"""Count it yourself at the bot table (issue #39, part 1), without the browser: Settings turns it
on, the table draws the claim's chips and says what it waits for, the bots count and call."""

import pytest

from game.errors import IllegalActionError, ParseError
from game.scoring import score_hand, score_play
from web.controller import Controller
from web.profile.model import clean_prefs
from web.profile.view import render_settings
from web.profile.model import Profile
from web.render import render


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
    every screen drawn on the way. Returns (claims made, the claim bars seen)."""
    claims = bars = 0
    for _ in range(6000):
        if ctl.session.state.phase == "over":
            return claims, bars
        view, html = ctl.view(), render(ctl)
        if ctl.bot_waiting():
            ctl.bot_step()
        elif ctl.seat_screen.play_end or ctl.seat_screen.count_end:
            ctl.seat_screen.end_beat()
        elif view.claim is not None and view.claim.seat == 0 and view.claim.claimed is None:
            assert 'data-testid="claim-bar"' in html and "claim its points" in html
            assert 'data-action="play"' not in html            # no card to lay meanwhile
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
    assert claims > 10 and bars == claims
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
