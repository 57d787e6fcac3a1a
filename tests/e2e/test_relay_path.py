"""The relay fallback (issue 12) in real browsers: a guest whose browser finds no WebRTC path to
the host (here: every peer connection of the guest is made with ``iceTransportPolicy: "relay"``
and no TURN server, so it has no candidate at all) plays a whole game through the relay,
sealed end to end; every frame the relay forwards to or from the guest is recorded and holds
no card, name, token or protocol text, only ciphertext. When a direct path becomes possible,
the guest moves to it and the game goes on.
"""

import json

import pytest
from harness import screenshot
from playwright.sync_api import expect
from relay_frames import RELAY_RECORDER, assert_only_signalling_and_ciphertext
from test_friends import check_scores, host_session, host_table, join, play

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
})();
"""


def seated_through_the_relay(people, site):
    """Hana hosts; Gus, whose browser has no direct path, sits down through the relay:
    (host, guest, invite link)."""
    host, guest = people(), people()
    guest.context.add_init_script(NO_DIRECT_PATH)
    guest.context.add_init_script(RELAY_RECORDER)
    link = host_table(host, site, 2)
    join(guest, link, "Gus")
    expect(host.get_by_test_id("seat-1")).to_contain_text("through the relay", timeout=20_000)
    return host, guest, link


def test_a_guest_with_no_direct_path_plays_through_the_sealed_relay(people, site):
    host, guest, _ = seated_through_the_relay(people, site)
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

    token = json.loads(guest.evaluate("localStorage.getItem('cribbage.guest.v1')"))["token"]
    assert_only_signalling_and_ciphertext(guest.evaluate("window.__relayFrames"), (token, "sealed hello", "Gus"))


def test_a_guest_moves_from_the_relay_to_a_direct_path_when_one_appears(people, site):
    host, guest, _ = seated_through_the_relay(people, site)
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    play([host, guest], moves=2)
    guest.evaluate("window.__noDirect = false")          # the network lets a direct path through now
    expect(host.get_by_test_id("seat-1")).to_contain_text("direct", timeout=40_000)
    before = len(host_session(host).state.actions)
    play([host, guest], moves=4)
    assert len(host_session(host).state.actions) >= before + 4
