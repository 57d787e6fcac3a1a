"""Link a device: two browsers (two devices) with different games swap profiles through a
short code, peer to peer, the relay of serve.py only introducing them; a third browser that
knows only the code's first half (the room, which the relay sees) gets nothing and gives nothing."""

import json

import pytest
from harness import Network, screenshot, wait_ready
from playwright.sync_api import expect

from web.profile.device_link import ALPHABET, REFUSED_SHOWN, Transfer
from web.profile.model import Profile
from web.profile.records import record_game
from web.session import Session

pytestmark = pytest.mark.e2e
PROFILE_KEY = "cribbage.profile.v2"
# Init script for the stranger's page: keeps everything that arrives on the data channels it is
# offered (window.__heard, from the first message on), and sends window.__forge's texts on each
# as soon as it opens, before the page's own first message.
STRANGER = """
(() => {
  window.__heard = [];
  window.__forge = [];
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("datachannel", ({ channel }) => {
        channel.addEventListener("message", (message) => window.__heard.push(String(message.data)));
        channel.addEventListener("open", () => window.__forge.forEach((text) => channel.send(text)));
      });
    }
  };
})();
"""


def finished(seed):
    session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=seed)
    session.bots[0] = "easy"                       # let a bot play Ann's seat to the end
    while session.state.phase != "over":
        session.bot_move()
    session.bots[0] = None
    return record_game(session, seat=0, finished=f"2026-11-{20 + seed:02d}T12:00:00Z")


@pytest.fixture
def devices(browser, site):
    made = []

    def make(profile: Profile, script: str = ""):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        if script:
            context.add_init_script(script)
        # Once, before the page's first script: this device's own profile.
        context.add_init_script(f"""if (!sessionStorage.getItem("seeded")) {{
            sessionStorage.setItem("seeded", "1");
            localStorage.setItem({json.dumps(PROFILE_KEY)}, {json.dumps(profile.to_json())});
        }}""")
        watched = Network(context, site)
        made.append((context, watched))
        page = watched.page
        page.goto(site)
        wait_ready(page)
        page.get_by_test_id("open-settings").click()
        expect(page.get_by_test_id("link-device")).to_be_visible()
        return page

    yield make
    problems = []
    for context, watched in made:
        problems += [f"left the origin: {url}" for url in watched.outside()] + watched.errors
        context.close()
    assert not problems, problems


def relay_rooms(page) -> list[str]:
    """The rooms ``page`` asks the relay to join from now on: what the relay (and anyone it
    tells) sees of a link."""
    rooms = []

    def frame(payload) -> None:
        message = json.loads(payload) if isinstance(payload, str) and payload.startswith("{") else {}
        if message.get("type") == "join":
            rooms.append(message["room"])
    page.on("websocket", lambda socket: socket.on("framesent", frame))
    return rooms


def stored_ids(page) -> set[str]:
    return {r["id"] for r in json.loads(page.evaluate(f"localStorage.getItem('{PROFILE_KEY}')"))["records"]}


def test_two_devices_swap_their_games_by_code_and_a_stranger_in_the_room_gets_nothing(devices):
    games = [finished(seed) for seed in range(4)]
    phone = devices(Profile.new("Ann", now="2026-11-01T00:00:00Z", profile_id="phone")
                    .add_record(games[0]).add_record(games[1]))
    laptop = devices(Profile.new("Ann", now="2026-11-02T00:00:00Z", profile_id="laptop")
                     .add_record(games[2]))
    stranger = devices(Profile.new("Eve", now="2026-11-03T00:00:00Z", profile_id="eve").add_record(games[3]),
                       STRANGER)

    laptop.get_by_test_id("link-code-input").fill("K7MQ-2XR0")      # a typo is explained
    laptop.get_by_test_id("link-enter").click()
    expect(laptop.get_by_test_id("link-status")).to_contain_text("never has 0")

    # A stranger who knows the room the phone joins (what the relay sees) joins it first,
    # guesses the rest of the code, and sends a forged profile the moment its channel opens.
    seen = relay_rooms(phone)
    phone.get_by_test_id("link-show").click()
    shown = phone.get_by_test_id("link-code").inner_text().replace("-", "")
    for _ in range(250):
        if seen:
            break
        phone.wait_for_timeout(20)
    known = seen[0].removeprefix("link-")       # the rest it guesses (wrong: each letter the next one)
    guess = known + "".join(ALPHABET[(ALPHABET.index(ch) + 1) % len(ALPHABET)] for ch in shown[len(known):])
    forged = Profile.new("Ann", now="2026-11-04T00:00:00Z", profile_id="forged").add_record(games[3])
    stranger.evaluate("(parts) => { window.__forge = parts; }", Transfer(forged.to_json()).outgoing())
    stranger.get_by_test_id("link-code-input").fill(guess)
    stranger.get_by_test_id("link-enter").click()
    expect(phone.get_by_test_id("link-status")).to_have_text(REFUSED_SHOWN, timeout=10_000)
    heard = {json.loads(text)["type"] for text in stranger.evaluate("window.__heard")}
    assert heard <= {"share"}                       # not a byte of the phone's profile (nor its proof)
    assert stored_ids(phone) == {games[0].id, games[1].id} and stored_ids(stranger) == {games[3].id}

    phone.get_by_test_id("link-show").click()       # a new code, for the real device
    code = phone.get_by_test_id("link-code").inner_text()
    assert len(code) == 9 and code[4] == "-"
    screenshot(phone, "link-device-code")
    phone.set_viewport_size({"width": 1280, "height": 800})
    laptop.get_by_test_id("link-code-input").fill(code.lower().replace("-", " "))
    laptop.get_by_test_id("link-code-input").press("Enter")
    expect(laptop.get_by_test_id("link-status")).to_contain_text("Linked: 2 new games here", timeout=20_000)
    expect(phone.get_by_test_id("link-status")).to_contain_text("Linked: 1 new game here", timeout=20_000)
    assert stored_ids(phone) == stored_ids(laptop) == {g.id for g in games[:3]}
    screenshot(laptop, "link-device-done")
    laptop.set_viewport_size({"width": 1280, "height": 800})

    # The linked games are in the stats, and linking again adds nothing.
    laptop.get_by_test_id("link-show").click()
    again = laptop.get_by_test_id("link-code").inner_text()
    phone.get_by_test_id("link-code-input").fill(again)
    phone.get_by_test_id("link-enter").click()
    expect(phone.get_by_test_id("link-status")).to_contain_text("Linked: 0 new games here", timeout=20_000)
    expect(laptop.get_by_test_id("link-status")).to_contain_text("Linked: 0 new games here", timeout=20_000)
    assert stored_ids(phone) == {g.id for g in games[:3]}
