"""A blind game's record (docs/blind-deal.md): each browser keeps its own, made of the hands it
audited (their decks stacked in the engine's replay), in Statistics, the recent games, the
replay and a shared link like any other game; anything altered in it is refused.

`assert_records` checks a whole game played over the protocol (`test_blind_wired`'s whole
games call it: no game is played here for it alone); the attacks use a record made from a
game against the bots, re-dealt as a blind game would be (a fraction of a second).
"""

import base64
import json
import zlib

import pytest

from game.engine import new_game, shuffled_deck
from game.errors import ParseError
from web.profile.model import Profile
from web.profile.records import GameRecord, make_record, record_from_link_code, record_game, record_to_link_code
from web.profile.replay import replay_hands
from web.profile.screens import ProfileScreens
from web.profile.stats import compute
from web.profile.view import render_replay, render_stats
from web.session import Session

FINISHED = "2026-12-05T06:00:00Z"


def assert_records(wire):
    """At the end of a whole blind game: the host's record (as `web.keeper.Keeper` keeps it) and every
    guest's (from its own audits) replay to the game's final scores, hand by hand, with the
    same decks and the same digests of each hand's messages; they travel as links, count in
    the statistics, and the replay and the tables' deal panels show every hand as audited."""
    state = wire.table.session.state
    screens = ProfileScreens(Profile.new("Hana"), clock=lambda: FINISHED)
    table = wire.table          # as `web.keeper.Keeper.record_finished` keeps it (web.keeper needs a browser)
    screens.game_finished(table.session, 0, fair=table.fair_transcript(), blind=table.blind_record())
    (host,) = screens.profile.records
    assert host.blind is not None and host.mode == "friends" and host.summary.scores == state.scores
    assert len(host.decks) == len(wire.table.ledger.decks) == host.summary.hands
    for guest in wire.guests.values():
        record = guest.finished
        assert record is not None and record.seat == guest.seat and record.mode == "friends"
        assert record.summary.scores == state.scores and record.decks == host.decks
        assert [h.get("sha256") for h in record.blind["hands"]] == [h["sha256"] for h in host.blind["hands"]]
        guest_screens = ProfileScreens(Profile.new("Gus"), clock=lambda: FINISHED)
        guest_screens.keep(record)
        assert guest_screens.profile.records == (record,)
    for record in [host] + [guest.finished for guest in wire.guests.values()]:
        assert GameRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
        assert record_from_link_code(record_to_link_code(record)) == record
        assert Profile.from_json(Profile.new("A").add_record(record).to_json()).records == (record,)
        hands = replay_hands(record)
        assert len(hands) == record.summary.hands and hands[-1].scores == state.scores
        assert "Hand 1 dealt blind, audited by this browser" in render_replay(record, 0)
    from web.friends.fair_view import fair_panel, fair_strip, host_fair_panel
    hands = len(host.decks)
    assert f"Hand {hands} dealt blind, audited by this browser" in host_fair_panel(wire.host)
    for guest in wire.guests.values():
        assert f"Hand {hands} dealt blind, audited by this browser" in fair_panel(guest)
        assert f'data-hand="{hands}"' in fair_strip(guest) and "Blind deal" in fair_panel(guest)
    stats = compute(screens.profile.records)
    assert stats["all"].games == 1 and stats[f"friends · {state.config.players} players"].games == 1
    assert "✓ dealt blind, audited" in render_stats(screens.profile)


@pytest.fixture(scope="module")
def blind():
    """A game against the bots, recorded as a blind game would be: each hand's deck (one dealt
    again with an alarm before the second), a first dealer, and another seed, which no
    replay of it uses."""
    session = Session.new(2, 61, ["Ann", "Bea"], ["easy", "easy"], seed=4)
    while session.state.phase != "over":
        session.bot_move()
    state = session.state
    decks = [[str(card) for card in shuffled_deck(4, n)] for n in range(record_game(session, 0, FINISHED).summary.hands)]
    hands = [{"hand": n, "deck": deck, "alarms": [], "sha256": f"{n:064x}"} for n, deck in enumerate(decks)]
    hands.insert(1, {"hand": 99, "deck": decks[0], "alarms": ["seat 2, reveal: the card was not dealt"],
                     "abandoned": "Bea held back its keys"})
    blind = {"first_dealer": new_game(state.config, 4).dealer, "hands": hands}
    record = make_record(state.config, 77, [str(a) for a in state.actions], 0, ["Ann", "Bea"], "friends",
                         FINISHED, blind=blind)
    assert record.summary == record_game(session, 0, FINISHED).summary
    return record


def swap_decks(data):
    hands = data["blind"]["hands"]
    hands[0]["deck"], hands[2]["deck"] = hands[2]["deck"], hands[0]["deck"]


def swap_cards(data):
    deck = data["blind"]["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]


DAMAGE = {
    "decks swapped": swap_decks,
    "two cards swapped": swap_cards,
    "a card changed to another": lambda d: d["blind"]["hands"][0]["deck"].__setitem__(0, d["blind"]["hands"][0]["deck"][5]),
    "a card not a card": lambda d: d["blind"]["hands"][0]["deck"].__setitem__(0, "ZZ"),
    "a card short": lambda d: d["blind"]["hands"][0]["deck"].pop(),
    "decks removed": lambda d: d.pop("blind"),
    "a hand removed": lambda d: d["blind"]["hands"].pop(),
    "a hand added": lambda d: d["blind"]["hands"].append(dict(d["blind"]["hands"][0], hand=50)),
    "an alarm hidden": lambda d: d["blind"]["hands"][1].__setitem__("alarms", []),
    "an alarm added": lambda d: d["blind"]["hands"][0]["alarms"].append("made up"),
    "a digest changed": lambda d: d["blind"]["hands"][0].__setitem__("sha256", "f" * 64),
    "a digest not one": lambda d: d["blind"]["hands"][0].__setitem__("sha256", "xyz"),
    "the first dealer": lambda d: d["blind"].__setitem__("first_dealer", 1 - d["blind"]["first_dealer"]),
    "a field more": lambda d: d["blind"].__setitem__("seed", 3),
    "with hand seeds too": lambda d: d.__setitem__("hand_seeds", [1, 2]),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_an_altered_blind_record_is_refused_on_import_and_as_a_link(blind, damage):
    data = blind.to_json()
    DAMAGE[damage](data)
    with pytest.raises(ParseError):
        GameRecord.from_json(json.loads(json.dumps(data)))
    profile = json.loads(Profile.new("A").to_json())
    profile["records"] = [data]
    with pytest.raises(ParseError):
        Profile.from_json(json.dumps(profile), verify_records=True)
    raw = json.dumps(data, separators=(",", ":")).encode()
    with pytest.raises(ParseError):
        record_from_link_code(base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("="))


def test_a_blind_record_replays_with_its_decks_and_keeps_the_hand_dealt_again(blind):
    assert GameRecord.from_json(json.loads(json.dumps(blind.to_json()))) == blind
    assert blind.fair_verdict == "alarm" and blind.alarms == ["seat 2, reveal: the card was not dealt"]
    assert len(record_to_link_code(blind)) < 12_000
    html = render_replay(blind, 1)
    assert "the hand was dealt again" in html and "the card was not dealt" in html
    assert "Hand 2 dealt blind, audited by this browser" in html
    assert "⚠ deal check failed" in render_stats(Profile.new("Ann").add_record(blind))


def test_an_old_record_loads_unchanged(blind):
    session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=3)
    while session.state.phase != "over":
        session.bot_move() if session.bot_to_move() is not None else session.act(0, session.view(0).legal[0])
    old = record_game(session, 0, FINISHED).to_json()
    assert "blind" not in old and GameRecord.from_json(old).blind is None
    profile = Profile.from_json(Profile.new("Ann").add_record(GameRecord.from_json(old)).add_record(blind).to_json())
    assert [r.blind is None for r in profile.records] == [True, False] or \
        [r.blind is None for r in profile.records] == [False, True]
    assert compute(profile.records)["all"].games == 2


def test_a_guest_s_damaged_save_of_its_hands_is_dropped_not_trusted():
    from web.friends.guest import GuestController

    hand = {"game": 0, "hand": 0, "dealer": 1, "deck": None, "alarms": [], "sha256": "", "actions": []}
    saved = {"hands": [hand, {"game": 0}, "junk", dict(hand, alarms=[3]), dict(hand, deck="AC")]}
    assert GuestController("room-0123456789", blind_saved=saved).blind_kept == [hand]
    assert GuestController("room-0123456789", blind_saved={"hands": "junk"}).blind_kept == []
