"""Profiles, game records and statistics: round trips, migrations, merging, refusing damage."""

import json
import re

import pytest

from game.errors import ParseError
from web.profile.model import DEFAULT_PREFS, MAX_RECORDS, Profile, clean_prefs
from web.profile.records import (GameRecord, record_from_link_code, record_game, record_to_link_code,
                         summarise)
from web.session import Session
from web.profile.stats import compute, histogram_svg, results_svg


def finished_game(seed, players=2, target=61):
    session = Session.new(players, target, [f"P{i}" for i in range(players)],
                          ["easy"] * players, seed=seed)
    while session.state.phase != "over":
        session.bot_move()
    return session


@pytest.fixture(scope="module")
def records():
    return [record_game(finished_game(seed, players=2 + seed % 3), seat=0,
                        finished=f"2026-11-{10 + seed:02d}T12:00:00Z") for seed in range(6)]


def test_a_record_replays_to_its_summary(records):
    for record in records:
        again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
        assert again == record
        s = record.summary
        assert s.hands == len(s.pegging) and len(s.shown) <= s.hands
        assert s.won == (s.verdict == "win")
        assert record.mode == "bot-easy"


@pytest.mark.parametrize("damage", [
    lambda d: d["actions"].pop(),
    lambda d: d["actions"].__setitem__(0, d["actions"][1]),
    lambda d: d["summary"].__setitem__("won", not d["summary"]["won"]),
    lambda d: d["summary"].__setitem__("best_hand", 29),
    lambda d: d.__setitem__("seed", d["seed"] + 1),
    lambda d: d.__setitem__("seat", 7),
    lambda d: d.pop("summary"),
    lambda d: d["config"].__setitem__("players", 5),
])
def test_an_altered_record_is_refused(records, damage):
    data = records[0].to_json()
    damage(data)
    with pytest.raises(ParseError):
        GameRecord.from_json(data)


def test_records_travel_as_links(records):
    code = record_to_link_code(records[1])
    assert len(code) < 4000 and record_from_link_code(code) == records[1]
    for broken in (code[:-7], code[:40], "!!!", ""):
        with pytest.raises(ParseError):
            record_from_link_code(broken)


def test_only_finished_games_are_recorded():
    session = Session.new(2, 61, ["A", "B"], ["easy", "easy"], seed=1)
    with pytest.raises(ParseError):
        record_game(session, seat=0, finished="x")
    with pytest.raises(ParseError, match="stops before the end"):
        summarise(session.config, 1, [], 0)


def test_profile_round_trip_and_preferences(records):
    profile = Profile.new("Ann", now="t1").with_prefs("t2", theme="dark", four_colour=True)
    for record in records:
        profile = profile.add_record(record)
    again = Profile.from_json(profile.to_json())
    assert again == profile and again.prefs["theme"] == "dark" and len(again.records) == 6
    assert Profile.from_json(profile.to_json(), verify_records=True) == profile
    assert clean_prefs({"four_colour": 1, "sound": "yes", "target": 61}) == \
        {**DEFAULT_PREFS, "target": 61}


def test_version_one_preferences_migrate():
    old = json.dumps({"name": "Bea", "level": "hard", "players": 3, "target": 61,
                      "auto_continue": True})
    profile = Profile.from_json(old)
    assert profile.nickname == "Bea"
    assert {k: profile.prefs[k] for k in ("level", "players", "target", "auto_continue")} == \
        {"level": "hard", "players": 3, "target": 61, "auto_continue": True}


@pytest.mark.parametrize("text, message", [
    ("", "at most 4 MB"),
    ('{"format": "cribbage-profile", "version": 3}', "newer version"),
    ('{"format": "something-else", "version": 2}', "not a cribbage profile"),
    ('{"hello": 1}', "not a cribbage profile"),
    ('{"format": "cribbage-profile", "version": 2, "id": 5}', "damaged"),
    ("[1, 2", "not valid JSON"),
])
def test_unusable_profiles_are_refused(text, message):
    with pytest.raises(ParseError, match=message):
        Profile.from_json(text)


def test_truncated_and_tampered_imports_are_refused(records):
    profile = Profile.new("Ann", now="t")
    for record in records:
        profile = profile.add_record(record)
    text = profile.to_json()
    with pytest.raises(ParseError):
        Profile.from_json(text[: len(text) // 2])
    tampered = json.loads(text)
    tampered["records"][2]["summary"]["won"] = not tampered["records"][2]["summary"]["won"]
    with pytest.raises(ParseError, match="altered"):
        Profile.from_json(json.dumps(tampered), verify_records=True)


def test_merging_never_counts_a_game_twice(records):
    phone = Profile.new("Ann", now="2026-11-01")
    laptop = Profile.new("Ann L", now="2026-11-02").with_prefs("2026-11-03", theme="light")
    for record in records[:4]:
        phone = phone.add_record(record)
    for record in records[2:]:
        laptop = laptop.add_record(record)
    merged = phone.merge(laptop)
    assert len(merged.records) == 6
    assert merged.merge(laptop) == merged and merged.merge(phone) == merged
    assert merged.nickname == "Ann L" and merged.prefs["theme"] == "light"   # the newer settings
    assert compute(merged.records)["all"].games == 6


def test_profiles_keep_the_newest_games_only(records):
    profile = Profile.new()
    base = records[0].to_json()
    for index in range(MAX_RECORDS + 5):
        data = dict(base, id=f"{index:020d}", finished=f"2026-{index:06d}")
        profile = profile.add_record(GameRecord(**{**records[0].__dict__, "id": data["id"],
                                                   "finished": data["finished"]}))
    assert len(profile.records) == MAX_RECORDS and profile.records[0].id == f"{5:020d}"


def test_statistics_add_up(records):
    stats = compute(records)
    everything = stats["all"]
    assert everything.games == 6 and everything.wins == sum(r.summary.won for r in records)
    assert sum(s.games for key, s in stats.items() if key != "all") == 6
    assert everything.hands == sum(r.summary.hands for r in records)
    assert 0 <= everything.per_hand("pegging") < 15 and 0 <= everything.per_hand("hand") <= 29
    assert everything.best_hand == max(r.summary.best_hand for r in records)
    assert abs(everything.streak) >= 1 and everything.best_streak >= 0
    assert histogram_svg(everything.shown, "hands").count("<rect") == 30
    assert results_svg(everything.results, "results").count("<circle") == 6


def test_the_replay_viewer_shows_every_hand(records):
    from web.profile.view import render_replay, render_stats
    from web.profile.replay import replay_hands

    record = records[0]
    hands = replay_hands(record)
    assert len(hands) == record.summary.hands
    assert hands[-1].scores == record.summary.scores
    me = record.names[0]
    for hand, pegged in zip(hands, record.summary.pegging):
        mine = [line for line in hand.lines if line.startswith(f"{me} pegs ")]
        assert sum(int(n) for line in mine for n in re.findall(r"for (\d+)", line)) == pegged
        dealt = {card for cards in hand.dealt for card in cards}
        assert len(dealt) == sum(len(cards) for cards in hand.dealt)   # every card face up, once
    html = render_replay(record, 0)
    assert f"hand 1 of {len(hands)}" in html and 'data-testid="replay-next"' in html
    assert html.count('data-card="') >= sum(len(c) for c in hands[0].dealt)
    profile = Profile.new("Ann")
    for r in records:
        profile = profile.add_record(r)
    stats = render_stats(profile)
    assert stats.count('data-action="replay"') == len(records) and "All games" in stats


def test_profile_screens_commands(records):
    from web.profile.screens import ProfileScreens

    screens = ProfileScreens(Profile.new("Ann"), clock=lambda: "2026-11-30T12:00:00Z")
    assert screens.command("pref", ("four_colour", "true")) and screens.profile.prefs["four_colour"]
    screens.command("pref", ("theme", "purple"))
    assert "theme" in screens.message and screens.profile.prefs["theme"] == "system"
    screens.command("nickname", "  Bea  ")
    assert screens.profile.nickname == "Bea" and screens.changed
    other = Profile.new("Far away", now="2026-01-01")
    for record in records:
        other = other.add_record(record)
    assert screens.command("import-profile", other.to_json())
    assert screens.message == "Profile loaded: 6 new games." and screens.profile.nickname == "Bea"
    screens.command("import-profile", other.to_json())
    assert screens.message == "Profile loaded: 0 new games." and len(screens.profile.records) == 6
    kept = screens.profile
    screens.command("import-profile", other.to_json()[:-20])
    assert "damaged" in screens.message and screens.profile is kept
    screens.command("share-record", records[2].id)
    code = screens.clipboard.removeprefix("#record=")
    fresh = ProfileScreens(Profile.new(), clock=lambda: "t")
    fresh.command("open-record", code)
    assert fresh.screen == "replay" and fresh.profile.records == (records[2],)
    assert 'data-testid="replay"' in fresh.render()
    fresh.command("replay-hand", "1")
    assert "hand 2 of" in fresh.render()
    assert not fresh.command("play", "5H")
