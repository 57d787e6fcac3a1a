"""game.blind.transcript.accept refuses whatever a peer may send that is not a well-formed message
of its turn (`ParseError`, `IllegalActionError`), never crashes, and changes nothing when it
refuses a message or sounds an alarm."""

import copy
import json
import random
from functools import cache

import pytest
from hypothesis import given, settings, strategies as st

from game.blind.alarms import finish
from game.blind.deck import shuffle
from game.blind.local import play_hand
from game.blind.seating import Keys, Setup, new_keys
from game.blind.transcript import accept, replay
from game.errors import IllegalActionError, ParseError
from tests.test_blind_deal import counting

SETUP = Setup("table-38", 0, 0, players=2, dealer=1, humans=(0, 1), host=0)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


@cache
def dealt():
    """A 2-player hand's messages up to the starter, and the transcript before each."""
    run = play_hand(SETUP, random.Random(2), deal_only=True)
    assert run.alarms == ()
    messages = [json.loads(text) for text in run.sent]
    return messages, [run.snapshots[0].__class__(SETUP), *run.snapshots[:-1]], run.snapshots[-1]


def outcome(hand, message):
    """What accept does with message: 'refused', 'alarm' (nothing changed) or 'accepted'."""
    try:
        after, alarms = finish(accept(hand, message))
    except (ParseError, IllegalActionError):
        return "refused"
    if alarms:
        assert after == hand or after.cards != hand.cards     # an alarm about a public card keeps the unlock
        return "alarm"
    return "accepted"


@settings(max_examples=200)
@given(message=JSON | st.fixed_dictionaries({"step": st.sampled_from(["shuffle", "lock", "unlock", "reveal", "keys"]),
                                              "seat": JSON}, optional={"deck": JSON, "values": JSON,
                                                                       "positions": JSON, "card": JSON}))
def test_random_json_is_refused(message):
    _, _, hand = dealt()
    assert outcome(hand, message) == "refused"


@settings(max_examples=60)
@given(data=st.data())
def test_a_message_with_one_field_changed_is_refused_or_sounds_an_alarm(data):
    messages, before, _ = dealt()
    index = data.draw(st.integers(0, len(messages) - 1))
    message = copy.deepcopy(messages[index])
    key = data.draw(st.sampled_from(sorted(message)))
    value = message[key]
    if isinstance(value, list) and value and data.draw(st.booleans()):
        where = data.draw(st.integers(0, len(value) - 1))
        item = value[where]
        if isinstance(item, str) and data.draw(st.booleans()):   # one hex digit changed: well formed, wrong
            spot = data.draw(st.integers(0, len(item) - 1))
            value[where] = item[:spot] + ("1" if item[spot] != "1" else "2") + item[spot + 1:]
        else:
            value[where] = data.draw(JSON)
    else:
        message[key] = data.draw(JSON)
    if message == messages[index]:
        return
    expected = ("refused", "alarm", "accepted") if message["step"] == "shuffle" and key == "deck" else ("refused", "alarm")
    assert outcome(before[index], message) in expected     # a shuffled deck's values: see the test below


def test_every_message_as_sent_is_accepted_in_its_turn_and_refused_out_of_it():
    messages, before, hand = dealt()
    for message, earlier in zip(messages, before):
        assert outcome(earlier, message) == "accepted"
        assert outcome(hand, message) == "refused"        # a replay, later


def test_huge_and_strange_input_is_refused_quickly():
    _, _, hand = dealt()
    for message in ({"step": "shuffle", "seat": 0, "commit": "0" * 512, "deck": ["0" * 512] * 10**6},
                    {"step": "unlock", "seat": 10**5000, "positions": [], "values": [], "proofs": []},
                    {"step": "reveal", "seat": True, "position": 0, "card": "AS", "proof": ["0", "0"]},
                    {"step": "reveal", "seat": 0, "position": 0, "card": 5, "proof": ["00" * 32] * 2},
                    {"step": "keys", "seat": 0, "shuffle": "ff" * 32, "locks": ["ff" * 32] * 13}):
        assert outcome(hand, message) == "refused"


def flipped(text):
    return text[:-1] + ("1" if text[-1] != "1" else "2")


def test_a_changed_value_or_proof_sounds_an_alarm_naming_the_seat():
    messages, before, _ = dealt()
    for message, earlier in zip(messages, before):
        for key in ("commit", "values", "commits", "proofs"):
            if key not in message or message["step"] == "shuffle" and key != "commit":
                continue
            changed = copy.deepcopy(message)
            if key == "proofs":
                changed[key][0][1] = flipped(changed[key][0][1])
            elif key == "commit":
                changed[key] = flipped(changed[key])
            else:
                changed[key][0] = flipped(changed[key][0])
            after, alarms = finish(accept(earlier, changed))
            assert after == earlier and [alarm.seat for alarm in alarms] == [message["seat"]], (message["step"], key)


def test_a_changed_value_in_a_shuffled_deck_is_left_to_the_next_seat_and_the_audit():
    messages, before, _ = dealt()
    first = copy.deepcopy(messages[0])
    first["deck"][7] = flipped(first["deck"][7])
    after, alarms = finish(accept(before[0], first))
    assert alarms == () and after.decks[0][7] != before[1].decks[0][7]
    with pytest.raises(IllegalActionError, match="outside the group"):
        finish(shuffle(after, new_keys(SETUP, 1, random.Random(1))))


def test_a_browsers_own_messages_go_in_unchanged_without_exponentiations(monkeypatch):
    messages, before, final = dealt()
    counted = counting(monkeypatch)
    for message, earlier, after in zip(messages, before, [*before[1:], final]):
        counted[0] = 0
        assert finish(accept(earlier, message, made_here=True)) == (after, ())
        assert counted[0] == 0, message["step"]
    for message, earlier in zip(messages, before):
        counted[0] = 0
        finish(accept(earlier, message))
        assert counted[0] >= 1, message["step"]          # the same message from elsewhere is checked


def test_a_reloaded_browser_rebuilds_the_transcript_and_its_keys_from_json():
    messages, before, hand = dealt()
    assert finish(replay(SETUP, messages)) == (hand, ())
    broken = copy.deepcopy(messages)
    broken[3]["values"][0] = flipped(broken[3]["values"][0])
    rebuilt, alarms = finish(replay(SETUP, broken))
    assert rebuilt == before[3] and alarms[0].seat == broken[3]["seat"]
    keys = new_keys(SETUP, 1, random.Random(5))
    assert Keys.from_json(json.loads(json.dumps(keys.to_json())), SETUP.used) == keys
    with pytest.raises(ParseError):
        Keys.from_json({**keys.to_json(), "locks": keys.to_json()["locks"][:-1]}, SETUP.used)


@settings(max_examples=200)
@given(data=st.data())
def test_a_saved_setup_or_keys_with_anything_changed_is_refused_or_read_back_exactly(data):
    saved = data.draw(st.sampled_from([SETUP.to_json(), new_keys(SETUP, 1, random.Random(5)).to_json()]))
    key = data.draw(st.sampled_from(sorted(saved)))
    changed = {**saved, key: data.draw(JSON | st.lists(st.integers(-1, 4), max_size=5))}
    read = Setup.from_json if "table" in saved else lambda value: Keys.from_json(value, SETUP.used)
    try:
        back = read(json.loads(json.dumps(changed)))
    except ParseError:
        return
    assert back.to_json() == changed
