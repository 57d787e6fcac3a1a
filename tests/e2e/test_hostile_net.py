"""The relay path and the host's channels against a hostile room member (issue 35), in real
browsers; each test is the attacker of one finding.

- Replay (finding 7): a real guest's sealed session, recorded on the wire and replayed to the
  host by a scripted relay member, seats no one: the host mixes a fresh value of its own into
  every relay path's key, so the replayed pieces never open.

The scripted members speak the relay's protocol with `websockets` (no crypto): a malicious
relay, or anyone on the wire, could do the same.
"""

import json
import time

import pytest
from harness import with_query, wait_ready
from playwright.sync_api import expect
from test_relay_path import seated_through_the_relay
from test_secure_tables import relay_url, room_of
from websockets.sync.client import connect

pytestmark = pytest.mark.e2e


class Member:
    """A scripted member of a table's relay room, while in a ``with`` block."""

    def __init__(self, site: str, room: str):
        self.url, self.room = relay_url(site), room

    def __enter__(self) -> "Member":
        self.socket = connect(self.url, close_timeout=0.5).__enter__()
        self.socket.send(json.dumps({"type": "join", "room": self.room}))
        joined = json.loads(self.socket.recv(timeout=5))
        assert joined["type"] == "joined", joined
        self.peers = joined["peers"]
        return self

    def __exit__(self, *failed) -> None:
        self.socket.__exit__(*failed)

    def say(self, to, payload) -> None:
        """Send ``payload`` (a dict, or a payload's JSON text as recorded) to ``to`` (None: all)."""
        data = payload if isinstance(payload, str) else json.dumps(payload)
        self.socket.send(json.dumps({"type": "send", "to": to, "data": data}))

    def heard(self, timeout: float):
        """The next ``(sender, payload)`` another member sent, or None after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(self.socket.recv(timeout=left))
            except TimeoutError:
                return None
            if message.get("type") == "from":
                return message["from"], json.loads(message["data"])
        return None

    def host_in_the_room(self) -> None:
        """Wait until the host is in the room, if it was not when this member joined."""
        if not self.peers:
            assert self.wait_for("host-here") is not None

    def wait_for(self, kind: str, timeout: float = 10):
        """The first ``(sender, payload)`` of ``kind`` within ``timeout`` s, or None."""
        deadline = time.monotonic() + timeout
        while (heard := self.heard(deadline - time.monotonic())) is not None:
            if heard[1].get("kind") == kind:
                return heard
        return None


def sealed_session(frames) -> tuple[str, list[str]]:
    """From a guest's recorded relay frames: the payload of its last ``seal-hello`` and of the
    ``sealed`` pieces it sent after it, as the relay forwarded them (JSON text)."""
    sent = [json.loads(text) for way, text in frames if way == "out"]
    data = [message["data"] for message in sent if message.get("type") == "send"]
    kinds = [json.loads(text).get("kind") for text in data]
    last_hello = len(kinds) - 1 - kinds[::-1].index("seal-hello")
    return data[last_hello], [text for text, kind in zip(data[last_hello:], kinds[last_hello:]) if kind == "sealed"]


def test_a_replayed_sealed_session_seats_no_one(people, site):
    host, guest, link = seated_through_the_relay(people, site)
    hello, pieces = sealed_session(guest.evaluate("window.__relayFrames"))
    assert len(pieces) >= 1           # the hello with Gus's seat token went in them
    guest.goto("about:blank")         # Gus closes the tab: the seat waits for him
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus left", timeout=15_000)

    with Member(site, room_of(link)) as thief:
        thief.say(None, hello)
        assert thief.wait_for("seal-ready") is not None       # the host takes the recorded key...
        for piece in pieces:
            thief.say(None, piece)
            time.sleep(1 / 15)                                # (under the relay's rate)
        refused = thief.wait_for("seal-bye", timeout=5)       # ... but its pieces do not open
    chat = host.get_by_test_id("chat-lines")
    assert "Gus is back" not in chat.inner_text()
    assert refused is not None
    expect(host.get_by_test_id("seat-1")).not_to_have_class("seat-row online")

    guest.goto(with_query(link, "speed=instant"))      # the real Gus comes back, through the relay
    wait_ready(guest)
    expect(host.get_by_test_id("seat-1")).to_contain_text("through the relay", timeout=25_000)
    expect(chat).to_contain_text("Gus is back")
    assert chat.inner_text().count("Gus is back") == 1
    expect(guest.get_by_test_id("lobby")).to_be_visible()
