"""The fair deal (`game.fair`, `web.friends.fair_host`, `web.friends.fair_guest`): properties of
the derivation and the checks, honest tables verified hand by hand, and cheating hosts (a secret
changed after the commitment, a different secret revealed, a commitment used again, a deal from
another seed) caught by every guest; late shares replaced without stalling; malformed fair-deal
messages refused with a reason and changing nothing; records that keep and re-check it all."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.codec import decode_state, encode_state
from game.engine import Config, apply, deal_from, legal_actions, new_game, replay, shuffled_deck, with_hand_seed
from game.errors import IllegalActionError, ParseError
from game.fair import Round, Seen, audit, check_reveal, check_seen, commitment, hand_seed, stand_in
from web.friends import protocol
from web.friends.fair_view import fair_panel, fair_strip
from web.friends.protocol import ProtocolError, parse
from web.profile.records import GameRecord, record_game

from test_host import Wire, guest_move, play_to_the_end

hexes = st.binary(min_size=32, max_size=32).map(bytes.hex)


# ---- game.fair: properties ----

@given(hexes, st.lists(hexes, min_size=2, max_size=4), st.integers(0, 50), st.integers(0, 40),
       st.integers(0, 3), hexes)
def test_the_seed_depends_on_every_input(secret, contributions, game, hand, which, other):
    seed = hand_seed("room", game, hand, secret, contributions)
    assert 0 <= seed < 2**63 and seed == hand_seed("room", game, hand, secret, list(contributions))
    changed = list(contributions)
    changed[which % len(changed)] = other
    variants = [("room", game, hand, other, contributions), ("room", game, hand, secret, changed),
                ("room2", game, hand, secret, contributions), ("room", game + 1, hand, secret, contributions),
                ("room", game, hand + 1, secret, contributions),
                ("room", game, hand, secret, contributions[::-1])]
    original = ("room", game, hand, secret, tuple(contributions))
    for args in variants:
        if args[:4] + (tuple(args[4]),) != original:
            assert hand_seed(*args) != seed


@given(hexes, hexes)
def test_only_the_committed_secret_passes(secret, other):
    round_ = Round(0, 0, commitment(secret), ("0" * 64, "ab" * 32), ("host", "guest"), secret).stood_in()
    assert check_reveal(round_, secret, ()) == ()
    if other != secret:
        assert "does not match the commitment" in check_reveal(round_, other, ())[0]
    assert any("again" in p for p in check_reveal(round_, secret, (round_.commitment,)))
    assert any("changed your contribution" in p for p in check_reveal(round_, secret, (), mine=(1, other)))\
        == (other != "ab" * 32)


@settings(max_examples=60)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**63 - 1), st.integers(1, 2**63 - 1), st.integers(0, 3))
def test_what_a_seat_saw_matches_its_own_deck_and_no_other(players, seed, delta, seat):
    config = Config(players=players)
    seat %= players
    state = new_game(config, seed)
    hands, extra, rest = deal_from(config, state.dealer, shuffled_deck(seed, 0))
    assert hands == state.hands and rest[0] == state.undealt[0]
    seen = Seen(seat, state.dealer, frozenset(state.hands[seat]), True, rest[0],
                frozenset((s, h[0]) for s, h in enumerate(hands)), cut=state.cut)
    assert check_seen(config, seed, 0, seen) == ()
    assert check_seen(config, (seed + delta) % 2**63, 0, seen) != ()


@given(st.sampled_from(["host", "guest", "bot", "replaced"]), hexes, hexes)
def test_a_round_reads_back_what_it_writes(source, secret, value):
    round_ = Round(3, 7, commitment(secret), (value, value), ("host", source), secret)
    assert Round.from_json(json.loads(json.dumps(round_.to_json()))) == round_
    for broken in ({"secret": "AB" * 32}, {"sources": ["host", "cheat"]}, {"game": -1}, {"contributions": [value]}):
        with pytest.raises(ParseError):
            Round.from_json(dict(round_.to_json(), **broken))


def test_stand_ins_are_fixed_by_the_secret():
    assert stand_in("ab" * 32, 1) != stand_in("ab" * 32, 2) != stand_in("cd" * 32, 2)


# ---- the engine: per-hand seeds, and every other game exactly as before ----

def test_games_without_hand_seeds_deal_and_save_as_before():
    state = new_game(Config(players=3), seed=7)
    # The deck of hand 1 for seed 7, as the engine dealt it before per-hand seeds existed.
    assert " ".join(map(str, shuffled_deck(7, 0)[:6])) == " ".join(map(str, _old_deck(7, 0)[:6]))
    assert "hand_seeds" not in encode_state(state) and decode_state(encode_state(state)) == state


def _old_deck(seed, hand):
    deck = list(__import__("game.cards", fromlist=["DECK"]).DECK)
    random.Random(f"cribbage/{seed}/deal/{hand}").shuffle(deck)
    return deck


def test_hand_seeds_replay_and_save_exactly():
    config, rng = Config(players=2, target=61), random.Random(4)
    state = new_game(config, 11, hand_seeds=(11,))
    seeds = [11]
    while state.phase != "over":
        seat = next(s for s in range(2) if legal_actions(state, s))
        action = rng.choice(legal_actions(state, seat))
        trial, _ = apply(state, action)
        if trial.hand_no > state.hand_no:
            seeds.append(rng.randrange(2**63))
            state = with_hand_seed(state, trial.hand_no, seeds[-1])
        state, _ = apply(state, action)
    assert replay(config, 11, state.actions, hand_seeds=seeds) == state
    assert decode_state(encode_state(state)) == state
    with pytest.raises(IllegalActionError):
        with_hand_seed(state, 1, 5)          # a hand dealt already keeps its seed


# ---- tables: honest hosts are verified, cheats are caught by every guest ----

def table(players=3, seed=1, bots=()):
    wire = Wire(players, seed=seed, bots=bots)
    for n, seat in enumerate(s for s in range(1, players) if s not in dict(bots)):
        wire.join(f"conn-{seat}", wire.names[n])
    return wire


def verdicts(guest):
    return {hand: verdict for hand, verdict, _ in guest.fair.marks()}


@pytest.mark.parametrize("players, bots", [(3, ()), (4, ((3, "easy"),))])
def test_every_hand_of_an_honest_game_is_verified_by_every_guest(players, bots):
    wire = table(players, bots=bots)
    wire.host.command("start-table")
    wire.pump()
    play_to_the_end(wire, random.Random(players))
    wire.pump()
    hands = wire.table.session.state.hand_no + 1
    for guest in wire.guests.values():
        assert verdicts(guest) == {hand: "verified" for hand in range(hands)}, guest.fair.alarms
        assert guest.finished.fair_verdict == "verified"
        assert 'data-testid="fair-mark"' in fair_strip(guest) and "fair-alarm" not in fair_strip(guest)
        assert ("fair-bots" in fair_panel(guest)) == bool(bots)


# Cheating hosts. Each patches the honest host (its dealer, its session or the rounds its views
# carry) the way a modified page would, from hand ``hand`` on; every guest must raise an alarm.

def edit_rounds(wire, change):
    """The host's views carry ``change(round, state)`` for each round (None: left out)."""
    honest = wire.table.view_rounds

    def view_rounds(full):
        state = wire.table.session.state
        return [r for r in (change(dict(r), state) for r in honest(full)) if r is not None]
    wire.table.view_rounds = view_rounds


def cheat_changed_secret(wire, hand):
    """Deals ``hand`` from a secret other than the one it committed to, and reveals that one."""
    dealer = wire.table.fair
    honest_fix = dealer.fix

    def fix(game, h):
        if h == hand and (game, h) not in dealer.fixed:
            dealer.rounds[game, h] = Round(**dict(dealer.rounds[game, h].to_json(), secret="ee" * 32))
        return honest_fix(game, h)
    dealer.fix = fix


def cheat_revealed_other(wire, hand):
    """Deals honestly but reveals another secret for ``hand``."""
    edit_rounds(wire, lambda r, state: dict(r, secret="ee" * 32) if r["hand"] == hand and r["secret"] else r)


def cheat_reused_commitment(wire, hand):
    """Sends ``hand`` the commitment of the hand before it (so it deals from the same secret)."""
    dealer = wire.table.fair
    honest_open = dealer.open

    def open_(game, h, sources, now):
        if h == hand:
            dealer.secret_source, dealer.sent = (lambda: dealer.rounds[game, h - 1].secret), []
        return honest_open(game, h, sources, now)
    dealer.open = open_


def cheat_other_seed(wire, hand):
    """Deals ``hand`` from a seed of its choosing, not the derived one."""
    honest = wire.table.seed_for
    wire.table.session.seed_for = lambda h: (honest(h) + 1) % 2**63 if h == hand else honest(h)


def cheat_shares_after_the_deal(wire, hand):
    """Publishes ``hand``'s shares only after its deal (with the next view)."""
    def later(r, state):
        dealing = state.hand_no < hand or (state.hand_no == hand and not any(d is not None for d in state.discards))
        return dict(r, contributions=None, sources=None) if r["hand"] == hand and dealing else r
    edit_rounds(wire, later)


def cheat_withheld_secret(wire, hand):
    """Never reveals ``hand``'s secret."""
    edit_rounds(wire, lambda r, state: dict(r, secret=None) if r["hand"] == hand else r)


def cheat_second_commitment(wire, hand):
    """Sends a second, different commitment for ``hand`` once the guests have answered the first."""
    edit_rounds(wire, lambda r, state: dict(r, commitment="ee" * 32)
                if r["hand"] == hand and state.hand_no == hand else r)


def cheat_own_share_labelled_a_friends(wire, hand):
    """Labels the host's own share a friend's ("guest"), so it could pick it after the friends'."""
    edit_rounds(wire, lambda r, state: dict(r, sources=["guest"] + r["sources"][1:])
                if r["hand"] == hand and r["sources"] else r)


def cheat_on_time_share_replaced(wire, hand):
    """Marks a friend's on-time share of ``hand`` late, so its stand-in is used instead."""
    dealer = wire.table.fair
    honest_waiting = dealer.waiting
    dealer.waiting = lambda game, h: [1] if h == hand else honest_waiting(game, h)


def renumber(dealer, old, new):
    """Every round of game ``old`` in the dealer's books, as game ``new``."""
    for store in (dealer.rounds, dealer.opened, dealer.fixed):
        for key in [key for key in store if key[0] == old]:
            value = store.pop(key)
            store[new, key[1]] = Round(**dict(value.to_json(), game=new)) if store is dealer.rounds else value
    dealer.revealed = {(new if g == old else g, h) for g, h in dealer.revealed}


def cheat_new_game_every_hand(wire, hand):
    """The hostile tester's stack: from ``hand`` on, every hand under a new game number, its
    deck picked from 64 seeds for the host's best hand."""
    table = wire.table
    honest_open, honest_seed = table.open_round, table.seed_for

    def open_round(game, h):
        if h >= hand:                  # the game's rounds so far move to a new number, then this one
            renumber(table.fair, table.games, table.games + 1)
            table.games += 1
        honest_open(table.playing, h)

    def stacked(h):
        honest_seed(h)
        return max((table.fair.fixed[table.playing, h] + n) % 2**63 for n in range(64))
    table.open_round = open_round
    table.session.seed_for = stacked


@pytest.mark.parametrize("cheat, words", [
    (cheat_changed_secret, "does not match the commitment"),
    (cheat_revealed_other, "does not match the commitment"),
    (cheat_reused_commitment, "earlier hand's commitment"),
    (cheat_other_seed, "not the ones the deck deals you"),
    (cheat_shares_after_the_deal, "dealt without its shuffle's shares published"),
    (cheat_withheld_secret, "did not reveal its secret by the next deal"),
    (cheat_second_commitment, "second commitment"),
    (cheat_own_share_labelled_a_friends, "labelled a friend's (guest), but the host sits there"),
    (cheat_on_time_share_replaced, "sent in time but the host did not use it"),
    (cheat_new_game_every_hand, "moved this game's deals to game"),
])
def test_a_cheating_host_is_caught_by_every_guest(cheat, words):
    wire = table(3, seed=7)
    wire.host.command("start-table")
    wire.pump()
    cheat(wire, 2)
    play_to_the_end(wire, random.Random(7))
    wire.pump()
    for seat, guest in enumerate(wire.guests.values(), start=1):
        marks = verdicts(guest)
        if cheat is cheat_new_game_every_hand:           # every hand from the third is an alarm
            assert all(marks[h] == "alarm" for h in marks if h >= 2), guest.fair.verdicts
        else:
            assert marks[0] == marks[1] == "verified", guest.fair.verdicts
        assert marks[2] == "alarm" or cheat is cheat_on_time_share_replaced and seat != 1, guest.fair.verdicts
        if cheat is not cheat_on_time_share_replaced or seat == 1:     # only Gus's share was replaced
            assert any(words in alarm for alarm in guest.fair.alarms), guest.fair.alarms
            assert "fair-alarm" in fair_strip(guest) and 'role="alert"' in fair_strip(guest)
        record = guest.finished      # the alarm stays with the game's record, and survives an import
        if record is not None and guest.fair.alarms:
            assert record.fair_verdict == "alarm"
            assert GameRecord.from_json(record.to_json()).fair["alarms"] == record.fair["alarms"]


def test_a_guest_answers_one_commitment_a_hand_however_many_come():
    """Grinding: the host asks for hand 2's shuffle under 16 game numbers and again under its
    own, and a new game's mid-game, hoping to deal the best of many; each guest answers once."""
    wire = table(3, seed=8)
    wire.host.command("start-table")
    wire.pump()
    gus = wire.guests["conn-1"]
    answered = dict(gus.fair.shares)
    assert set(answered) == {(0, 0), (0, 1)}         # the first hand's share, and the next hand's
    for game in range(16):
        gus.receive(protocol.fair_commit(Round(game, 1, commitment(f"{game:02x}" * 32), (), ())))
        gus.receive(protocol.fair_commit(Round(game, 0, commitment(f"{game + 16:02x}" * 32), (), ())))
    edit_rounds(wire, lambda r, state: dict(r, commitment=commitment("ee" * 32)) if r["hand"] == 1 else r)
    wire.host.command("chat", "anyone?")              # (a table message: nothing changes hands)
    wire.pump()
    guest_move(gus, random.Random(8))                 # a view that carries hand 2's other commitment
    wire.pump()
    assert gus.fair.shares == answered                # no other share was ever made, so none was sent
    assert any("during game 1" in alarm for alarm in gus.fair.alarms), gus.fair.alarms
    assert any("second commitment" in alarm for alarm in gus.fair.alarms), gus.fair.alarms


def test_late_or_away_friends_are_named_and_the_away_one_sees_why():
    """A friend away when a hand is shuffled: the hand is checked, marked as not holding its
    share (not verified), and the others see whose share the host's secret stood in for."""
    wire = table(3, seed=9)
    wire.host.command("start-table")
    wire.pump()
    rng = random.Random(9)
    wire.table.disconnect("conn-1")                       # Gus's channel drops ...
    gus = wire.guests.pop("conn-1")
    wire.host.command("stand-in", "1:easy")
    while wire.table.session.state.hand_no < 2:           # ... while hand 3 is shuffled and dealt without him
        while wire.host.seat_screen.show:
            wire.host.command("continue")
        if not guest_move(wire.guests["conn-2"], rng):
            if wire.host.bot_waiting():
                wire.host_step()
            else:
                wire.host_act(rng.choice(wire.table.session.view(0).legal))
        wire.pump()
    wire.guests["conn-1b"] = gus                          # the same page, reconnected
    wire.received["conn-1b"] = []
    wire.table.connect("conn-1b")
    gus.rejoin()
    wire.pump()
    marks = verdicts(gus)
    assert gus.fair.alarms == [] and "unchecked" in marks.values(), gus.fair.verdicts
    assert "away" in fair_strip(gus)
    assert "fair-bots" in fair_panel(wire.guests["conn-2"])


# ---- malformed fair-deal messages ----

@pytest.mark.parametrize("fields, reason", [
    ({"game": 0, "hand": 0, "value": "AB" * 32}, "hex"),
    ({"game": 0, "hand": 0, "value": "0" * 64}, "not all zeros"),
    ({"game": 0, "hand": -1, "value": "ab" * 32}, "hand number"),
    ({"game": True, "hand": 0, "value": "ab" * 32}, "game number"),
    ({"game": 0, "hand": 0}, "exactly"),
])
def test_malformed_shares_are_refused_with_a_reason(fields, reason):
    with pytest.raises(ProtocolError) as refused:
        parse(json.dumps({"v": 8, "type": "fair_contribute", **fields}), "guest")
    assert reason in str(refused.value)


def view_with_round(**changes) -> str:
    """A well-formed view message whose one round has ``changes``."""
    state = new_game(Config(players=2), 5)
    round_ = {"game": 0, "hand": 0, "commitment": "ab" * 32, "contributions": ["ab" * 32, "cd" * 32],
              "sources": ["host", "guest"], "secret": None, **changes}
    data = json.loads(protocol.view(__import__("game.view", fromlist=["view"]).view(state, 1), ()))
    return json.dumps(dict(data, rounds=[round_]))


@pytest.mark.parametrize("text, reason", [
    ('{"v": 8, "type": "fair_commit", "game": 0, "hand": 0, "commitment": "xyz"}', "hex"),
    (view_with_round(contributions=["ab" * 32], sources=["host"]), "every seat"),
    (view_with_round(sources=["host", "me"]), "every seat"),
    (view_with_round(contributions=None), "fixed together"),
    (view_with_round(secret=5), "hex"),
    (view_with_round(commitment="0" * 64), "not all zeros"),
    (view_with_round(hand=-1), "hand number"),
    ('{"v": 8, "type": "fair_deal", "game": 0, "hand": 0, "contributions": [], "sources": []}', "does not send"),
])
def test_malformed_host_fair_messages_are_refused_with_a_reason(text, reason):
    assert parse(view_with_round(), "host").type == "view"
    with pytest.raises(ProtocolError) as refused:
        parse(text, "host")
    assert reason in str(refused.value)


def test_shares_that_are_not_awaited_change_nothing():
    wire = table(2)
    wire.host.command("start-table")
    wire.pump()
    fair = wire.table.fair
    before = dict(fair.rounds)
    for text in [protocol.fair_contribute(0, 0, "cd" * 32),     # the round is fixed already
                 protocol.fair_contribute(5, 1, "cd" * 32),     # another game
                 protocol.fair_contribute(0, 9, "cd" * 32),     # no such round
                 '{"v": 8, "type": "fair_contribute", "game": 0, "hand": 1, "value": "zz"}']:
        wire.table.receive("conn-1", text)
        assert fair.rounds == before
    assert "not awaited" in wire.table.drops[-2] and "hex" in wire.table.drops[-1]
    wire.table.receive("stranger", protocol.fair_contribute(0, 1, "cd" * 32))
    assert fair.rounds == before


# ---- records and the profile's import ----

def finished_record(players=2):
    wire = table(players, seed=3)
    wire.host.command("start-table")
    wire.pump()
    play_to_the_end(wire, random.Random(3))
    wire.pump()
    return wire, wire.guests["conn-1"].finished


def test_an_import_checks_the_fair_deal_again():
    wire, record = finished_record()
    data = record.to_json()
    assert GameRecord.from_json(data) == record and record.fair_verdict == "verified"
    forged = json.loads(json.dumps(data))
    forged["fair"]["rounds"][0]["secret"] = "ee" * 32        # an altered transcript, no alarm
    with pytest.raises(ParseError, match="altered"):
        GameRecord.from_json(forged)
    hidden = json.loads(json.dumps(data))
    hidden["fair"]["rounds"][1]["commitment"] = hidden["fair"]["rounds"][0]["commitment"]
    with pytest.raises(ParseError):
        GameRecord.from_json(hidden)
    plain = {k: v for k, v in data.items() if k not in ("fair",)}     # the check deleted, same id
    with pytest.raises(ParseError, match="keeps its fair deal"):
        GameRecord.from_json(plain)
    for mode in ("bot-hard", "bot-easy"):                               # a friends game as a bot game
        with pytest.raises(ParseError, match="played with friends"):
            GameRecord.from_json(dict(data, mode=mode))


def test_a_fair_table_with_only_bots_beside_the_host_may_count_as_a_bot_game():
    wire = table(2, seed=4, bots=((1, "hard"),))
    wire.host.command("start-table")
    wire.pump()
    play_to_the_end(wire, random.Random(4))
    record = record_game(wire.table.session, 0, "2026-12-04T20:00:00Z", fair=wire.table.fair_transcript())
    assert record.mode == "bot-hard" and record.fair_verdict == "verified"
    assert GameRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize("players", [2, 4])
def test_the_hosts_own_record_carries_the_transcript_and_is_checked_again(players):
    wire, guests_record = finished_record(players)
    transcript = wire.table.fair_transcript()
    record = record_game(wire.table.session, 0, "2026-12-01T23:00:00Z", fair=transcript)
    assert record.fair_verdict == "verified" and len(record.fair["rounds"]) == len(record.hand_seeds)
    assert [r["secret"] for r in record.fair["rounds"]] == [r["secret"] for r in guests_record.fair["rounds"]]
    assert GameRecord.from_json(record.to_json()) == record              # a shared link or an import
    forged = record.to_json()
    forged["fair"]["rounds"][-1]["secret"] = "ee" * 32
    with pytest.raises(ParseError):
        GameRecord.from_json(forged)


def test_audit_finds_a_deal_from_another_seed():
    wire, record = finished_record()
    rounds = [Round.from_json(r) for r in record.fair["rounds"]]
    seeds = list(record.hand_seeds)
    assert audit(record.fair["table"], record.config, record.seed, seeds, rounds) == ()
    seeds[1] += 1
    assert any("committed seed" in p for p in audit(record.fair["table"], record.config, record.seed, seeds, rounds))


def test_a_guest_that_reloads_mid_game_raises_no_false_alarm():
    wire = table(3, seed=5)
    wire.host.command("start-table")
    wire.pump()
    rng = random.Random(5)
    while wire.table.session.state.hand_no < 2:        # two hands in, then Gus reloads
        for guest in wire.guests.values():
            guest_move(guest, rng)
        view = wire.table.session.view(0)
        if view.legal:
            wire.host_act(rng.choice(view.legal))
        wire.pump()
    gus = wire.guests["conn-1"]
    token, saved = gus.token, json.loads(json.dumps(gus.fair.to_json()))    # as localStorage keeps it
    wire.table.disconnect("conn-1")
    del wire.guests["conn-1"]
    again = wire.join("conn-1b", "Gus", token=token, fair=saved)      # a fresh page, from its storage
    assert again.seat == 1
    play_to_the_end(wire, rng)
    wire.pump()
    hands = wire.table.session.state.hand_no + 1
    for guest in wire.guests.values():
        assert guest.fair.alarms == [] and verdicts(guest) == {h: "verified" for h in range(hands)}


def test_a_profile_import_keeps_the_verdict_and_refuses_a_hidden_alarm():
    from web.profile.model import Profile
    wire, record = finished_record(3)
    profile = Profile.new("Gus").add_record(record)
    imported = Profile.from_json(profile.to_json(), verify_records=True)
    assert imported.records[0].fair_verdict == "verified" and imported.records[0] == record
    data = json.loads(profile.to_json())
    data["records"][0]["hand_seeds"][1] += 1                 # dealt from another seed, alarm removed
    with pytest.raises(ParseError):
        Profile.from_json(json.dumps(data), verify_records=True)


def test_the_profile_shows_each_friends_game_deal_check():
    from dataclasses import replace
    from web.profile.view import _game_row, render_replay
    wire, record = finished_record()
    assert "✓ deal verified" in _game_row(record) and "fair-alarm" not in render_replay(record, 0)
    failed = replace(record, fair=dict(record.fair, alarms=["hand 2: the revealed secret does not match"]))
    assert "deal check failed" in _game_row(failed)
    assert 'role="alert"' in render_replay(failed, 1) and "hand 2: the revealed secret" in render_replay(failed, 1)


def test_a_guest_drops_malformed_fair_messages_with_a_reason_and_keeps_its_checks():
    wire = table(2)
    wire.host.command("start-table")
    wire.pump()
    gus = wire.guests["conn-1"]
    before = (dict(gus.fair.rounds), dict(gus.fair.verdicts), list(gus.fair.alarms), list(gus.outbox))
    for text in [view_with_round(secret="AB" * 32),
                 '{"v": 8, "type": "fair_commit", "game": 0, "hand": 5}',
                 view_with_round(contributions=[], sources=[])]:
        gus.receive(text)
        assert (dict(gus.fair.rounds), dict(gus.fair.verdicts), list(gus.fair.alarms), list(gus.outbox)) == before
    assert "hex" in gus.drops[-3] and "exactly" in gus.drops[-2] and "every seat" in gus.drops[-1]


def test_a_host_flooding_rounds_cannot_grow_a_guests_memory():
    """Thousands of commitments and rounds under made-up game and hand numbers: a few hundred
    alarms at most, kept under real hands, and the guest still plays on."""
    wire = table(2, seed=12)
    wire.host.command("start-table")
    wire.pump()
    gus = wire.guests["conn-1"]
    rng = random.Random(12)
    for n in range(3000):
        game, hand = rng.randrange(10**9), rng.randrange(1000)
        gus.receive(protocol.fair_commit(Round(game, hand, commitment(f"{n:064x}"), (), ())))
    edit_rounds(wire, lambda r, state: dict(r, game=rng.randrange(10**9)))
    for _ in range(20):
        while wire.host.seat_screen.show:
            wire.host.command("continue")
        legal = wire.table.session.view(0).legal
        if not guest_move(gus, rng) and legal:
            wire.host_act(rng.choice(legal))
        wire.pump()
    assert 0 < len(gus.fair.alarms) <= 200 and len(gus.fair.verdicts) <= 10, len(gus.fair.verdicts)
    assert gus.view().state_id == wire.table.session.state.state_id


def test_the_alarm_stays_in_sight_at_the_show():
    """The board (and the fair deal's strip under it) is put away at the show; the alarm then
    heads the show instead (CI caught it hidden at a friend's show: a patched host's stacked hand)."""
    import re

    from web.render import render
    wire = table(3, seed=7)
    wire.host.command("start-table")
    wire.pump()
    cheat_shares_after_the_deal(wire, 1)
    alarmed = []

    def at_a_show_with_an_alarm(wire):
        for guest in wire.guests.values():
            if guest.seat_screen.play_end is not None:
                guest.seat_screen.end_beat()          # (the page does, a beat later: the show opens)
        alarmed.extend(g for g in wire.guests.values() if g.fair.alarms and g.seat_screen.shown)
        return bool(alarmed)
    play_to_the_end(wire, random.Random(7), until=at_a_show_with_an_alarm)
    assert alarmed, "no guest saw its alarm at a show"
    html = render(alarmed[0])
    head = re.search(r'<div class="show-head".*?<h2>The show</h2>', html, re.S)
    assert head and 'data-testid="fair-alarm"' in head.group(0)
    assert html.count('data-testid="fair-alarm"') == 1        # (not also in the board's row, put away)
