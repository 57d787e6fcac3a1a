"""Connection codes for invites without a relay (web.net.signal_code), on real Chromium SDP."""

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from game.errors import ParseError
from web.net.signal_code import MAX_CODE, pack, unpack

# An offer and its answer from headless Chromium (data channel only, host candidates).
SAMPLE = json.loads((Path(__file__).parent / "data" / "chromium_sdp.json").read_text())


@pytest.mark.parametrize("kind", ["offer", "answer"])
def test_real_sdp_round_trips_in_a_short_code(kind):
    code = pack(kind, 123456, SAMPLE[kind])
    assert unpack(code) == (kind, 123456, SAMPLE[kind])
    assert len(code) < 320 and len(code) < len(SAMPLE[kind]) / 2     # under half the SDP
    assert code.isascii() and all(ch.isalnum() or ch in "-_" for ch in code)


def test_a_pasted_code_may_pick_up_spaces_and_line_breaks():
    code = pack("answer", 7, SAMPLE["answer"])
    messy = "  " + code[:50] + "\n" + code[50:120] + " \r\n" + code[120:] + "\n"
    assert unpack(messy) == ("answer", 7, SAMPLE["answer"])


@pytest.mark.parametrize("text, reason", [
    ("", "not a connection code"),
    ("hello", "not a connection code"),
    ("https://example.org/?table=x", "not a connection code"),
    ("A1", "damaged"),
    ("A1!!!!", "damaged"),
    ("O1" + "A" * (MAX_CODE + 1), "too long"),
])
def test_bad_codes_are_refused_with_a_reason(text, reason):
    with pytest.raises(ParseError, match=reason):
        unpack(text)


def test_cut_or_altered_codes_are_refused():
    code = pack("offer", 1, SAMPLE["offer"])
    for bad in (code[:-1], code[:-8], code[:40], code[:60] + ("A" if code[60] != "A" else "B") + code[61:]):
        with pytest.raises(ParseError):
            unpack(bad)


@given(st.text(max_size=400))
def test_any_text_is_a_code_or_a_parse_error(text):
    for candidate in (text, "A1" + text, "O1" + text):
        try:
            kind, invite, sdp = unpack(candidate)
        except ParseError:
            continue
        assert kind in ("offer", "answer") and isinstance(invite, int) and sdp.startswith("v=0")
