"""Five-card cribbage at the bot table (issue #39, part 4): the start form offers it, the
controller deals it, the profile remembers it. (A friends table refuses it in web/friends/glue.py,
which needs the browser: tests/e2e/test_five_card_play.py.)"""

import pytest

from game.errors import ParseError
from web.controller import Controller
from web.profile.model import clean_prefs
from web.profile.view import parse_pref
from web.render import render_start
from web.session import Session


def start(target, players="2"):
    ctl = Controller(seed_source=lambda: 5)
    ctl.command("start", {"name": "Ann", "level": "hard", "players": players, "target": target})
    return ctl


def test_the_start_form_offers_five_card_cribbage():
    ctl = Controller(seed_source=lambda: 5)
    assert 'name="target" value="five"' in render_start(ctl)
    ctl.prefs["target"] = "five"
    assert 'value="five" checked' in render_start(ctl)


def test_choosing_it_deals_five_cards_and_logs_three_for_last():
    ctl = start("five")
    session = ctl.session
    assert session.config.variant == "five" and session.config.target == 61
    assert len(ctl.view().hand) == 5 and ctl.prefs["target"] == "five"
    assert session.log[-1].endswith("pegs three for last: 3")
    assert sum(session.state.scores) == 3
    hand = sorted(ctl.view().hand)
    for card in hand[:2]:
        ctl.command("select", str(card))
    ctl.command("confirm-discard")
    assert not ctl.error and ctl.session.state.discards[0] == tuple(hand[:2])
    restored = Session.from_json(session.to_json())
    assert restored.state == session.state
    session.rematch(9)
    assert session.log[-1].endswith("pegs three for last: 3") and sum(session.state.scores) == 3


def test_five_card_at_three_players_is_refused_with_a_message():
    ctl = start("five", players="3")
    assert ctl.error == "five-card cribbage is played by 2 players to 61" and ctl.session is None


def test_the_profile_keeps_five_card_as_the_default_game():
    assert clean_prefs({"target": "five"})["target"] == "five"
    assert parse_pref("target", "five") == "five"
    assert clean_prefs({"target": "six"})["target"] == 121


def test_a_standard_table_logs_as_before():
    ctl = start("121")
    assert ctl.session.config.variant == "standard" and len(ctl.view().hand) == 6
    assert len(ctl.session.log) == 1 and "deals" in ctl.session.log[0]


def test_a_session_refuses_five_card_at_three_players():
    with pytest.raises(ParseError, match="2 players to 61"):
        Session.new(3, 61, ["A", "B", "C"], [None, "easy", "easy"], seed=1, variant="five")


def test_a_refused_start_says_why_on_the_start_form():
    ctl = start("five", players="3")
    assert 'role="alert"' in render_start(ctl) and "2 players to 61" in render_start(ctl)
    assert 'role="alert"' not in render_start(Controller(seed_source=lambda: 5))
