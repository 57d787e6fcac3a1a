"""Deeply nested JSON at every place JSON arrives (issue 35, finding 9): each reader refuses it
with a clear error before parsing. In the browser a 30,000-deep list overflowed the WebAssembly
stack inside ``json.loads`` and killed the page's Python (tests/e2e/test_hostile_input.py opens
such a link and file in Chromium); under CPython the same input must be refused, not parsed.
"""

import base64
import zlib

import pytest

from game.codec import MAX_DEPTH, decode_state, loads, nesting
from game.errors import ParseError
from web.friends.host import HostTable
from web.friends.protocol import ProtocolError, parse
from web.net.frames import FrameError, unbatch
from web.profile.device_link import Transfer
from web.profile.model import Profile
from web.profile.records import record_from_link_code
from web.session import Session

DEEP = "[" * 30_000 + "]" * 30_000


def deep_object(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def link_code(text: str) -> str:
    """``text`` packed as a ``#record=`` link packs a record."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


READERS = {
    "a host's message": lambda text: parse(text, "host"),
    "a guest's message": lambda text: parse(text, "guest"),
    "a sealed batch": lambda text: unbatch(text.encode()),
    "a device link's part": Transfer("{}").receive,
    "a profile file": Profile.from_json,
    "a game link": lambda text: record_from_link_code(link_code(text)),
    "a saved game": Session.from_json,
    "a saved hosted table": HostTable.from_json,
    "a saved state": decode_state,
}


@pytest.mark.parametrize("where", sorted(READERS))
def test_every_reader_refuses_nesting_deeper_than_the_bound(where):
    read = READERS[where]
    small = ("[" * 1_000 + "]" * 1_000, deep_object(300), '{"v": 8, "type": ' + "[" * 900 + "]" * 900 + "}")
    large = (DEEP, deep_object(5_000)) if where not in ("a guest's message", "a device link's part") else ()
    for text in small + large:
        with pytest.raises((ParseError, ProtocolError, FrameError), match="nested more than"):
            read(text)


def test_a_link_of_120_characters_unpacks_to_30000_deep_and_is_refused():
    code = link_code(DEEP)
    assert len(code) < 200
    with pytest.raises(ParseError, match="this game link is not valid JSON: nested more than 32 deep"):
        record_from_link_code(code)


def test_the_bound_counts_only_structure_outside_strings():
    inside = '["' + "[" * 1000 + '", "\\"{{{{"]'
    assert nesting(inside, MAX_DEPTH) == 1 and loads(inside)[0] == "[" * 1000
    assert nesting("[" * MAX_DEPTH + "]" * MAX_DEPTH, MAX_DEPTH) == MAX_DEPTH
    with pytest.raises(ParseError):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_a_flood_of_brackets_is_refused_without_reading_it_all():
    # Counting stops one past the bound: the cost is the bound's, not the text's.
    assert nesting("[" * 10**6, 32) == 33
