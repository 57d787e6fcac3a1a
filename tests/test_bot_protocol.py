"""The bot line protocol: hello, choose, errors that never kill the bot, quit."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from game.actions import Action
from game.bots.proto import PROTOCOL, VERSION, ExternalBot, ProtocolError, answer, serve
from game.bots import make_bot
from game.codec import view_to_json
from game.engine import Config, new_game
from game.view import view


def _request(seed=1, seat=0, request_id=1, players=2):
    state = new_game(Config(players=players), seed)
    return {"type": "choose", "id": request_id, "view": view_to_json(view(state, seat))}


def _session(lines, level="medium"):
    out = io.StringIO()
    assert serve(level, 0, io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_hello_then_an_action_per_request():
    replies = _session([json.dumps(_request(request_id=7)), json.dumps(_request(2, 1, 8))])
    assert replies[0] == {"type": "hello", "protocol": PROTOCOL, "version": VERSION,
                          "name": "medium"}
    assert [r["type"] for r in replies[1:]] == ["action", "action"]
    assert [r["id"] for r in replies[1:]] == [7, 8]
    action = Action.from_json(replies[1]["action"])
    assert action in view(new_game(Config(), 1), 0).legal


def test_same_answer_as_the_bot_in_process():
    request = _request(seed=3, seat=1, players=3)
    reply = _session([json.dumps(request)], level="hard")[1]
    state = new_game(Config(players=3), 3)
    assert Action.from_json(reply["action"]) == make_bot("hard", 0).choose(view(state, 1))


@pytest.mark.parametrize("line, words", [
    ("not json", "JSON object"),
    ("[1, 2]", "JSON object"),
    ('{"type": "dance", "id": 3}', "unknown request type"),
    ('{"type": "choose", "id": 4, "view": {"seat": 0}}', "view"),
    ('{"type": "choose", "id": 5}', "view"),
])
def test_malformed_requests_get_an_error_line_and_the_bot_carries_on(line, words):
    replies = _session([line, json.dumps(_request(request_id=9))])
    error, after = replies[1], replies[2]
    assert error["type"] == "error" and words in error["message"]
    assert after["type"] == "action" and after["id"] == 9


def test_a_view_with_nothing_to_do_is_refused():
    state = new_game(Config(), 1)
    data = view_to_json(view(state, 0))
    data["legal"] = []
    reply = answer(make_bot("easy"), json.dumps({"type": "choose", "id": 1, "view": data}))
    assert reply["type"] == "error" and "no legal action" in reply["message"]


def test_quit_and_end_of_input_stop_the_bot():
    replies = _session(['{"type": "quit"}', json.dumps(_request())])
    assert [r["type"] for r in replies] == ["hello"]
    assert [r["type"] for r in _session([])] == ["hello"]


def test_a_real_process_session():
    process = subprocess.run([sys.executable, "-m", "game.bots.proto", "easy", "--seed", "3"],
                             input=json.dumps(_request()) + "\n{\n", capture_output=True,
                             text=True, timeout=60)
    assert process.returncode == 0
    kinds = [json.loads(line)["type"] for line in process.stdout.splitlines()]
    assert kinds == ["hello", "action", "error"]


def test_external_bot_round_trip_and_bad_programs():
    bot = ExternalBot(f"{sys.executable} -m game.bots.proto hard")
    try:
        seen = view(new_game(Config(), 4), 0)
        assert bot.choose(seen) in seen.legal
    finally:
        bot.close()
    with pytest.raises(ProtocolError, match="does not speak"):
        ExternalBot(f"{sys.executable} -c \"print('{{}}')\"")
    with pytest.raises(ProtocolError, match="stopped answering|does not speak"):
        ExternalBot(f"{sys.executable} -c pass")
