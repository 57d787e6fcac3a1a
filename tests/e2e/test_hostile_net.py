"""The relay path and the host's channels against a hostile room member (issue 35), in real
browsers; each test is the attacker of one finding.

- Replay (finding 7): a real guest's sealed session, recorded on the wire and replayed to the
  host by a scripted relay member, seats no one: the host mixes a fresh value of its own into
  every relay path's key, so the replayed pieces never open.
- Parking (finding 8): a member that answers a guest's ``seal-hello`` with the host's (public)
  key, racing the host, does not leave the guest on a link nobody can use: the guest counts a
  relay path open only once a piece from that member opens, and sits down through the real
  host's in the usual time; the member's ``host-here`` does not cut that path either.
- Channel hoarding (finding 12): a page that answers every offer and asks again, as several
  relay members that keep coming back under new ids, cannot make the host keep more than a
  few peer connections; a friend sits down meanwhile and plays.

The scripted members speak the relay's protocol with `websockets` (no crypto): a malicious
relay, or anyone on the wire, could do the same.
"""

import base64
import json
import secrets
import threading
import time

import pytest
from harness import spied, with_query, wait_ready
from playwright.sync_api import expect
from test_friends import chat, host_table, join, play
from test_relay_path import NO_DIRECT_PATH, seated_through_the_relay
from test_secure_tables import relay_url, room_of
from websockets.sync.client import connect

from web.friends.protocol import VERSION
from web.net.channels import MAX_UNSEATED

pytestmark = pytest.mark.e2e

# The P-256 base point, uncompressed: a valid public key (its private key is 1) for a member
# that only wants the host's answer.
P256_G = bytes.fromhex("04"
                       "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                       "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")


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


# Init script: the page's relay messages leave 300 ms late, as from a host far from the relay
# (on a phone across the world), while the attacker's script runs next to it: the attacker's
# answer to a seal-hello comes first every time.
FAR_FROM_THE_RELAY = """
(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { setTimeout(() => send.call(this, data), 300); };
})();
"""


def squat(member: Member, host_public: str, answered: list, stop: threading.Event) -> None:
    """Answer every other member's seal-hello at once with the host's public key (and a random
    nonce, for a handshake that carries one)."""
    while not stop.is_set():
        heard = member.heard(0.2)
        if heard is not None and heard[1].get("kind") == "seal-hello":
            nonce = base64.b64encode(secrets.token_bytes(16)).decode()
            member.say(heard[0], {"kind": "seal-ready", "v": 2, "pub": host_public, "nonce": nonce})
            answered.append(heard[0])


def test_a_fake_seal_ready_with_the_hosts_key_does_not_park_a_friend(people, site):
    host, guest = people(), people()
    host.context.add_init_script(FAR_FROM_THE_RELAY)
    guest.context.add_init_script(NO_DIRECT_PATH)
    link = host_table(host, site, 2)
    answered, stop = [], threading.Event()
    with Member(site, room_of(link)) as squatter:
        # The host's relay-path key is public: any member gets it by asking for a relay path.
        squatter.host_in_the_room()
        squatter.say(None, {"kind": "seal-hello", "v": 2, "pub": base64.b64encode(P256_G).decode()})
        _, ready = squatter.wait_for("seal-ready")
        racer = threading.Thread(target=squat, args=(squatter, ready["pub"], answered, stop))
        racer.start()
        try:
            guest.goto(with_query(link, "speed=instant"))
            wait_ready(guest)
            guest.get_by_test_id("name").fill("Gus")
            started = time.monotonic()
            guest.get_by_test_id("sit-down").click()
            expect(host.get_by_test_id("seat-1")).to_contain_text("through the relay", timeout=20_000)
            took = time.monotonic() - started
        finally:
            stop.set()
            racer.join()
        print(f"\nseated through the relay {took:.1f} s after 'Sit down', a squatter answering "
              f"{len(answered)} seal-hello(s) first")
        assert answered
        expect(guest.get_by_test_id("lobby")).to_be_visible()
        expect(guest.get_by_test_id("link-status")).to_have_count(0)
        # Saying it is the host (back) does not cut the guest's relay path either.
        squatter.say(None, {"kind": "host-here", "v": VERSION})
        chat(guest, "still here")
        expect(host.get_by_test_id("chat-lines")).to_contain_text("still here", timeout=3000)
        expect(guest.get_by_test_id("link-status")).to_have_count(0)


# The hoarder, in a page of its own: `lanes` relay members at once, each one answering every
# offer (a new RTCPeerConnection each time) and asking again as soon as a channel opens, and
# leaving the room after `churn` seconds to come back as a new member; for `seconds` s.
HOARD = """({ url, room, version, lanes, churn, seconds }) => {
  const stats = window.__hoard = { members: 0, offers: 0, channels: 0 };
  const until = performance.now() + seconds * 1000;
  const gathered = (pc) => new Promise((resolve) => {
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
    setTimeout(resolve, 2000);
  });
  const member = () => new Promise((left) => {
    const socket = new WebSocket(url);
    const say = (to, payload) => socket.readyState === 1
      && socket.send(JSON.stringify({ type: "send", to, data: JSON.stringify(payload) }));
    const ask = () => say(null, { kind: "want-offer", v: version });
    const asking = setInterval(ask, 1000);
    socket.onopen = () => socket.send(JSON.stringify({ type: "join", room }));
    socket.onmessage = async (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "joined") { stats.members += 1; ask(); }
      if (message.type !== "from" || JSON.parse(message.data).kind !== "offer") return;
      stats.offers += 1;
      const pc = new RTCPeerConnection();
      pc.ondatachannel = ({ channel }) => {
        channel.onopen = () => { stats.channels += 1; ask(); };
        channel.onclose = () => pc.close();
      };
      await pc.setRemoteDescription({ type: "offer", sdp: JSON.parse(message.data).sdp });
      await pc.setLocalDescription(await pc.createAnswer());
      await gathered(pc);
      say(message.from, { kind: "answer", sdp: pc.localDescription.sdp });
    };
    setTimeout(() => { clearInterval(asking); socket.close(); left(); }, churn * 1000);
  });
  const lane = async () => { while (performance.now() < until) await member(); };
  window.__hoarding = Promise.all(Array.from({ length: lanes }, lane)).then(() => stats);
}"""
# Init script: the most peer connections the page held open at once (window.__peak), every 50 ms.
PEAK_PCS = """
setInterval(() => {
  const live = (window.__pcs || []).filter((pc) => pc.signalingState !== "closed").length;
  window.__peak = Math.max(window.__peak || 0, live);
}, 50);
"""


def test_a_channel_hoarder_leaves_the_host_bounded_and_a_friend_plays(people, roomy_site):
    site, lanes = roomy_site, 4
    host, friend, hoarder = spied(people, site), people(site), people(site)
    host.context.add_init_script(PEAK_PCS)
    link = host_table(host, site, 2)
    hoarder.route("**/favicon.ico", lambda route: route.fulfill(body=b"", content_type="image/x-icon"))
    hoarder.goto(f"{site}web/vendor/pyscript/core.css")   # a page of our origin, without the app
    hoarder.evaluate(HOARD, {"url": relay_url(site), "room": room_of(link), "version": VERSION,
                             "lanes": lanes, "churn": 4, "seconds": 20})
    hoarder.wait_for_function("window.__hoard.channels >= 10", timeout=10_000)
    join(friend, link, "Gus")                            # while the hoarder is at it
    expect(host.get_by_test_id("seat-1")).to_have_class("seat-row online")
    host.get_by_test_id("start-table").click()
    expect(friend.get_by_test_id("hand")).to_be_visible(timeout=10_000)
    play([host, friend], moves=4)
    stats = hoarder.evaluate("window.__hoarding")
    peak = host.evaluate("window.__peak")
    print(f"\nchannel hoarding: {stats['channels']} channels opened by {stats['members']} members in 20 s, "
          f"at most {peak} of the host's peer connections alive at once")
    assert stats["channels"] >= 20
    # The friend's; the unseated channels (each hoarding member's and those of members gone);
    # an offer pending for each member in the room (a lane's next member may join before its
    # last one has left) and the friend's.
    assert peak <= 1 + MAX_UNSEATED + 2 * lanes + 1
    play([host, friend], moves=2)
