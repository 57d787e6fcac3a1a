"""The wire protocol: one parser for every message, and a fuzz test that throws thousands of
malformed, oversized, out-of-turn and replayed messages at a host that is mid-game."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.actions import Action
from game.cards import DECK
from game.engine import Config, new_game
from game.events import Event
from game.view import view
from web.friends import protocol
from web.friends.host import HostTable
from web.friends.protocol import ProtocolError, parse


def test_every_builder_round_trips_through_the_parser():
    state = new_game(Config(players=3), seed=5)
    seat_view = view(state, 1)
    seats = [{"name": "Ann", "kind": "host", "level": None, "online": True, "stand_in": None},
             {"name": "Bob", "kind": "person", "level": None, "online": False, "stand_in": "easy"},
             {"name": "", "kind": "open", "level": None, "online": False, "stand_in": None}]
    cases = [
        (protocol.hello("Bob", None), "guest", "hello"),
        (protocol.hello("Bob", "x" * 22), "guest", "hello"),
        (protocol.action(3, seat_view.legal[0], 1), "guest", "action"),
        (protocol.chat("hi", 2), "guest", "chat"),
        (protocol.welcome(2, "y" * 30), "host", "welcome"),
        (protocol.reject("full"), "host", "reject"),
        (protocol.error("it is not your turn"), "host", "error"),
        (protocol.table(3, 121, False, seats), "host", "table"),
        (protocol.view(seat_view, [Event("go", seat=1, count=28)], ["a line"]), "host", "view"),
        (protocol.chat_lines([{"at": 1.5, "name": "Bob", "text": "hey", "system": False}]), "host", "chat"),
    ]
    for text, sender, kind in cases:
        message = parse(text, sender)
        assert message.type == kind
    assert parse(cases[8][0], "host")["view"] == seat_view
    assert parse(cases[2][0], "guest")["action"] == seat_view.legal[0]


@pytest.mark.parametrize("text, sender, reason", [
    ("", "guest", "JSON"),
    ("[]", "guest", "object"),
    ('{"type": "hello", "name": "x", "token": null}', "guest", "version"),
    ('{"v": 1, "type": "hello", "name": "x", "token": null}', "guest", "version"),  # the version before
    ('{"v": true, "type": "hello", "name": "x", "token": null}', "guest", "version"),
    ('{"v": 8, "type": "welcome", "seat": 1, "token": "' + "a" * 20 + '"}', "guest", "does not send"),
    ('{"v": 8, "type": "hello", "name": "x", "token": null, "seat": 0}', "guest", "exactly"),
    ('{"v": 8, "type": "hello", "name": "", "token": null}', "guest", "empty"),
    ('{"v": 8, "type": "hello", "name": "x", "token": "../../etc"}', "guest", "token"),
    ('{"v": 8, "type": "chat", "n": 1, "text": "' + "x" * 1500 + '"}', "guest", "at most"),
    ('{"v": 8, "type": "chat", "n": 1, "text": "' + "x" * 3000 + '"}', "guest", "bytes"),
    ('{"v": 8, "type": "action", "n": 1, "state_id": -1, "action": {}}', "guest", "state id"),
    ('{"v": 8, "type": "action", "n": 1, "state_id": 1, "action": {"seat": 0, "type": "fold", "cards": []}}',
     "guest", "bad action"),
    ('{"v": 8, "type": "action", "n": 1, "state_id": 1, "action": {"seat": 0, "type": "play", "cards": ["ZZ"]}}',
     "guest", "bad action"),
    ('{"v": 8, "type": "view", "view": {}, "events": [], "log": null, "game": 0, "rounds": [], "record": null}',
     "host", "bad view"),
    ('{"v": 8, "type": "reject", "reason": "<script>", "text": "x"}', "host", "reject"),
    ('[' * 5000 + ']' * 5000, "host", "JSON"),
])
def test_malformed_messages_are_refused_with_a_reason(text, sender, reason):
    with pytest.raises(ProtocolError) as refused:
        parse(text, sender)
    assert reason in str(refused.value)


def test_a_version_mismatch_is_its_own_code():
    with pytest.raises(ProtocolError) as refused:
        parse('{"v": 6, "type": "hello"}', "guest")
    assert refused.value.code == "version"


def test_names_and_chat_lose_control_characters():
    message = parse(protocol.hello("Bo\u0000b\u202e", None), "guest")
    assert message["name"] == "Bob"


# ---- fuzz: a host mid-game must ignore everything bad ----

def host_mid_game():
    tokens = iter(f"token-{n:016d}" for n in range(100))
    table = HostTable("room-0123456789", 2, 61, "Hana", token_source=lambda: next(tokens),
                      clock=lambda: 0.0)
    table.connect("guest")
    table.receive("guest", protocol.hello("Gus", None))
    table.start()
    table.receive("guest", protocol.fair_contribute(0, 0, "cd" * 32))   # the first shuffle's share
    table.take_outbox()
    return table


cards = st.sampled_from([str(card) for card in DECK] + ["ZZ", "", "10H", "5h", None, 5])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20)
actions = st.fixed_dictionaries({"seat": st.integers(-1, 5) | json_values,
                                 "type": st.sampled_from(["discard", "play", "go", "x"]) | json_values,
                                 "cards": st.lists(cards, max_size=3) | json_values})
messages = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=50).map(lambda b: b.decode("latin-1")),
    json_values.map(json.dumps),
    st.builds(lambda v, t, extra: json.dumps({"v": v, "type": t, **extra}),
              st.sampled_from([1, 1, 1, 0, 2, "1", True, None]),
              st.sampled_from(["hello", "action", "chat", "view", "welcome", "table", "nope", "fair_contribute"]),
              st.dictionaries(st.sampled_from(["name", "token", "state_id", "action", "text", "seat",
                                               "game", "hand", "value"]),
                              json_values, max_size=4)),
    st.builds(lambda g, h, v: json.dumps({"v": 8, "type": "fair_contribute", "game": g, "hand": h, "value": v}),
              st.integers(-1, 2) | json_values, st.integers(-1, 3) | json_values,
              st.sampled_from(["ab" * 32, "0" * 64, "AB" * 32, "ab" * 31]) | json_values),
    st.builds(lambda sid, a: json.dumps({"v": 8, "type": "action", "n": 1, "state_id": sid, "action": a}),
              st.integers(-3, 40) | json_values, actions),
    st.builds(lambda n: "x" * n, st.integers(2000, 70000)),
)


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages, min_size=1, max_size=3))
def test_fuzzed_messages_never_break_the_host(texts):
    table = host_mid_game()
    before, rounds = table.session.state, dict(table.fair.rounds)
    seats = [(s.kind, s.name, s.token) for s in table.seats]
    for text in texts:
        table.receive("guest", text)
        table.receive("stranger", text)
    state = table.session.state
    if state != before:
        # Only a well-formed, legal move for the guest's own seat, at the current state id, gets through.
        assert len(state.actions) == len(before.actions) + 1
        assert state.actions[-1].seat == 1 and state.actions[-1] in view(before, 1).legal
    assert [(s.kind, s.name, s.token) for s in table.seats] == seats
    for key, round_ in table.fair.rounds.items():   # only the guest's own share of the open round
        if round_ != rounds[key]:
            assert key == (0, 1) and round_.contributions[1] == "ab" * 32 and rounds[key].contributions[1] == "0" * 64
    for conn, text in table.take_outbox():
        assert conn == "guest"
        parse(text, "host")   # everything the host says is well-formed


@settings(max_examples=500)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=6), st.integers(0, 14))
def test_a_move_is_taken_once_whatever_state_ids_and_repeats_come(state_ids, pick):
    """The first copy of a legal move is taken (a stale state id does not matter while the move
    still applies); every repeat, under the same number or a new one, is dropped."""
    table = host_mid_game()
    legal = view(table.session.state, 1).legal
    action = legal[pick % len(legal)]
    for n, state_id in enumerate(state_ids, start=1):
        table.receive("guest", protocol.action(state_id, action, 1 + n // 2))   # numbers repeat too
        assert table.session.state.actions == (action,)
    assert len(table.drops) >= len(state_ids) - 1


def test_a_guest_never_acts_for_another_seat():
    table = host_mid_game()
    host_view = view(table.session.state, 0)
    for action in host_view.legal:
        table.receive("guest", protocol.action(host_view.state_id, action, 1))
    assert table.session.state.actions == ()
    forged = Action.discard(1, view(table.session.state, 1).hand[:2])
    table.receive("guest", protocol.action(0, forged, 2))
    assert table.session.state.actions == (forged,)
