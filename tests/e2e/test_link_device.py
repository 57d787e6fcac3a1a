"""Link a device: two browsers (two devices) with different games swap profiles through a
short code, peer to peer, the relay of serve.py only introducing them."""

import json

import pytest
from harness import Network, screenshot, wait_ready
from playwright.sync_api import expect

from web.profile.model import Profile
from web.profile.records import record_game
from web.session import Session

pytestmark = pytest.mark.e2e
PROFILE_KEY = "cribbage.profile.v2"


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

    def make(profile: Profile):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
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


def stored_ids(page) -> set[str]:
    return {r["id"] for r in json.loads(page.evaluate(f"localStorage.getItem('{PROFILE_KEY}')"))["records"]}


def test_two_devices_swap_their_games_by_code(devices):
    games = [finished(seed) for seed in range(3)]
    phone = devices(Profile.new("Ann", now="2026-11-01T00:00:00Z", profile_id="phone")
                    .add_record(games[0]).add_record(games[1]))
    laptop = devices(Profile.new("Ann", now="2026-11-02T00:00:00Z", profile_id="laptop")
                     .add_record(games[2]))

    laptop.get_by_test_id("link-code-input").fill("K7MQ-2XR0")      # a typo is explained
    laptop.get_by_test_id("link-enter").click()
    expect(laptop.get_by_test_id("link-status")).to_contain_text("never has 0")

    phone.get_by_test_id("link-show").click()
    code = phone.get_by_test_id("link-code").inner_text()
    assert len(code) == 9 and code[4] == "-"
    screenshot(phone, "link-device-code")
    phone.set_viewport_size({"width": 1280, "height": 800})
    laptop.get_by_test_id("link-code-input").fill(code.lower().replace("-", " "))
    laptop.get_by_test_id("link-code-input").press("Enter")
    expect(laptop.get_by_test_id("link-status")).to_contain_text("Linked: 2 new games here", timeout=20_000)
    expect(phone.get_by_test_id("link-status")).to_contain_text("Linked: 1 new game here", timeout=20_000)
    assert stored_ids(phone) == stored_ids(laptop) == {g.id for g in games}
    screenshot(laptop, "link-device-done")
    laptop.set_viewport_size({"width": 1280, "height": 800})

    # The linked games are in the stats, and linking again adds nothing.
    laptop.get_by_test_id("link-show").click()
    again = laptop.get_by_test_id("link-code").inner_text()
    phone.get_by_test_id("link-code-input").fill(again)
    phone.get_by_test_id("link-enter").click()
    expect(phone.get_by_test_id("link-status")).to_contain_text("Linked: 0 new games here", timeout=20_000)
    expect(laptop.get_by_test_id("link-status")).to_contain_text("Linked: 0 new games here", timeout=20_000)
    assert stored_ids(phone) == {g.id for g in games}
