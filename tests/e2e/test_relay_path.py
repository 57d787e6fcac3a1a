"""The relay fallback (issue 12) in real browsers: a guest whose browser finds no WebRTC path to
the host (here: every peer connection of the guest is made with ``iceTransportPolicy: "relay"``
and no TURN server, so it has no candidate at all) plays a whole game through the relay,
sealed end to end; every frame the relay forwards to or from the guest is recorded and holds
no card, name, token or protocol text, only ciphertext. When a direct path becomes possible,
the guest moves to it and the game goes on.
"""

import json
import re

import pytest
from harness import screenshot
from playwright.sync_api import expect
from test_friends import check_scores, host_session, host_table, join, play

from game.cards import DECK

pytestmark = pytest.mark.e2e

NO_DIRECT_PATH = """
(() => {
  const Native = window.RTCPeerConnection;
  window.__noDirect = true;
  window.RTCPeerConnection = class extends Native {
    constructor(config = {}) {
      super(window.__noDirect ? { ...config, iceServers: [], iceTransportPolicy: "relay" } : config);
    }
  };
  window.__relayFrames = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__relayFrames.push(["out", String(data)]);
    return send.call(this, data);
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => window.__relayFrames.push(["in", String(event.data)]));
    }
  };
})();
"""
SIGNALLING = {"want-offer", "host-here", "offer", "answer", "seal-hello", "seal-ready", "sealed", "seal-ping",
              "seal-pong", "seal-bye"}
BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
CARD = re.compile(r"\b(" + "|".join(str(card) for card in DECK) + r")\b")


def payloads(frames):
    """The guest's signalling payloads (what members say to each other through the relay)."""
    found = []
    for _, text in frames:
        message = json.loads(text)
        data = message.get("data")
        if isinstance(data, str):
            found.append(json.loads(data))
    return found


def seated_through_the_relay(people, site):
    """Hana hosts; Gus, whose browser has no direct path, sits down through the relay."""
    host, guest = people(), people()
    guest.context.add_init_script(NO_DIRECT_PATH)
    link = host_table(host, site, 2)
    join(guest, link, "Gus")
    expect(host.get_by_test_id("seat-1")).to_contain_text("through the relay", timeout=20_000)
    return host, guest


def test_a_guest_with_no_direct_path_plays_through_the_sealed_relay(people, site):
    host, guest = seated_through_the_relay(people, site)
    screenshot(host, "relay-path-lobby")
    host.set_viewport_size({"width": 1280, "height": 800})
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    guest.get_by_test_id("chat-input").fill("sealed hello")
    guest.get_by_test_id("chat-send").click()
    expect(host.get_by_test_id("chat-lines")).to_contain_text("sealed hello", timeout=10_000)
    play([host, guest])
    check_scores(host, [guest])
    assert host_session(host).state.phase == "over"

    frames = guest.evaluate("window.__relayFrames")
    said = payloads(frames)
    kinds = [p.get("kind") for p in said]
    assert set(kinds) <= SIGNALLING, set(kinds) - SIGNALLING
    assert kinds.count("sealed") > 20 and "seal-ready" in kinds and "seal-hello" in kinds
    for p in said:
        if p.get("kind") == "sealed":
            assert set(p) == {"kind", "n", "more", "iv", "data"} and BASE64.fullmatch(p["data"])
    token = json.loads(guest.evaluate("localStorage.getItem('cribbage.guest.v1')"))["token"]
    clear = json.dumps([p for p in said if p.get("kind") != "sealed"])   # all that is not ciphertext
    for secret in (token, "sealed hello", "Gus", '"type"', '"hand"'):
        assert secret not in clear, secret
    sdp_free = [p for p in said if p.get("kind") not in ("offer", "answer", "sealed")]
    assert not CARD.search(json.dumps(sdp_free))


def test_a_guest_moves_from_the_relay_to_a_direct_path_when_one_appears(people, site):
    host, guest = seated_through_the_relay(people, site)
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    play([host, guest], moves=2)
    guest.evaluate("window.__noDirect = false")          # the network lets a direct path through now
    expect(host.get_by_test_id("seat-1")).to_contain_text("direct", timeout=40_000)
    before = len(host_session(host).state.actions)
    play([host, guest], moves=4)
    assert len(host_session(host).state.actions) >= before + 4
