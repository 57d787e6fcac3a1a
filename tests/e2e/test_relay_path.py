"""The relay fallback (issue 12) in real browsers: a guest whose browser finds no WebRTC path to
the host (here: every peer connection of the guest is made with ``iceTransportPolicy: "relay"``
and no TURN server, so it has no candidate at all) plays a whole game through the relay,
sealed end to end; every frame the relay forwards to or from the guest is recorded and holds
no card, name, token or protocol text, only ciphertext. When a direct path becomes possible,
the guest moves to it and the game goes on. A guest whose page sends a batch nested 30,000
deep (issue 35, finding 9) does not kill the host's Python. The attacks of a stranger in the
relay's room on this path are in test_hostile_net.py.
"""

import json

import pytest
from harness import screenshot
from playwright.sync_api import expect
from relay_frames import RELAY_RECORDER, assert_only_signalling_and_ciphertext
from test_friends import chat, check_scores, host_session, host_table, join, play

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


# Runs Python in the page's interpreter (PyScript's), where the app's modules are loaded.
PYTHON = """async (code) => {
  const { interpreter } = await globalThis[Symbol.for("@pyscript/core")].whenDefined("py");
  interpreter.runPython(code, { globals: interpreter.globals.get("dict")() });
}"""
# The guest's next batch on the relay path is a list nested 30,000 deep (about 60 KB, eight
# pieces), sealed like any other; the batches after it are the real ones again.
DEEP_BATCH = """
from web.net import frames
real = frames.batch
def deep(texts):
    frames.batch = real
    return b"[" * 30_000 + b"]" * 30_000
frames.batch = deep
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


def test_a_deeply_nested_batch_on_the_relay_path_leaves_the_host_alive(people, site):
    host, guest, _ = seated_through_the_relay(people, site)
    guest.evaluate(PYTHON, DEEP_BATCH)
    chat(guest, "deep")                  # goes in the deep batch: the host drops the relay path
    expect(guest.get_by_test_id("link-status")).to_contain_text("Lost the connection", timeout=10_000)
    chat(guest, "still here")            # both lines are sent again once the guest is back
    expect(host.get_by_test_id("chat-lines")).to_contain_text("still here", timeout=30_000)
    expect(host.get_by_test_id("seat-1")).to_contain_text("through the relay")
    chat(host, "welcome back")
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("welcome back")
