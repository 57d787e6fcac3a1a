"""The start screen is there at the first paint and usable while Python loads.

Each test holds Python back (the harness's BOOT_GATE keeps Pyodide's wasm download waiting)
so it can use the static start form from index.html with certainty before the page is ready,
then lets Python start and checks that it took over what the player did.
"""

import json
import re

import pytest
from harness import ARTIFACTS, BOOT_GATE, wait_ready
from playwright.sync_api import Page, expect

from web.profile.model import Profile
from web.session import Session

pytestmark = pytest.mark.e2e

STARTING = "Starting as soon as the game has loaded…"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def open_gated(page: Page, url: str, storage: dict | None = None) -> None:
    """Open ``url`` with Python held back, after putting ``storage`` in localStorage."""
    if storage:
        page.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                             "if (!sessionStorage.getItem('seeded')) localStorage.setItem(k, v);"
                             "sessionStorage.setItem('seeded', '1');")
    page.add_init_script(BOOT_GATE)
    page.goto(url, wait_until="domcontentloaded")


def not_ready(page: Page) -> None:
    assert page.locator("html").get_attribute("data-ready") is None


def release(page: Page) -> None:
    page.evaluate("window.__releaseBoot()")
    wait_ready(page)


def choose(page: Page, name: str, value) -> None:
    page.locator(f'label.choice:has(input[name="{name}"][value="{value}"])').click()


def saved_table(page: Page) -> Session:
    return Session.from_json(page.evaluate("localStorage.getItem('cribbage.table.v1')"))


def shots(page: Page, name: str) -> None:
    """test-artifacts/<name>-desktop.png (1280x800) and <name>-phone.png (390x844)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=ARTIFACTS / f"{name}-{size}.png")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_deal_pressed_before_python_starts_that_game(page, site):
    open_gated(page, site + "?speed=instant")
    form = page.get_by_test_id("start")
    expect(form).to_be_visible()
    expect(page.get_by_test_id("loading")).to_be_visible()
    not_ready(page)
    page.get_by_test_id("name").fill("Early Bird")
    choose(page, "level", "hard")
    choose(page, "players", 3)
    expect(page.locator('input[name="players"][value="3"]')).to_be_checked()
    shots(page, "shell-early")
    deal = page.get_by_test_id("start-game")
    deal.click()
    expect(deal).to_have_text(STARTING)
    expect(deal).to_have_attribute("aria-busy", "true")
    deal.click()                                   # a second press changes nothing
    page.get_by_test_id("name").press("Enter")     # nor does Enter in the name field
    expect(form).to_have_attribute("data-pending", "start-game")
    expect(page.get_by_test_id("start-game")).to_have_count(1)
    shots(page, "shell-early-pending")
    not_ready(page)

    release(page)
    expect(page.get_by_test_id("hand")).to_be_visible()
    session = saved_table(page)
    assert session.names[0] == "Early Bird"
    assert session.config.players == 3
    assert session.bots == [None, "hard", "hard"]


def test_what_is_typed_but_not_submitted_survives_the_hand_over(page, site):
    open_gated(page, site)
    name = page.get_by_test_id("name")
    choose(page, "players", 4)
    choose(page, "target", 61)
    name.fill("Half typed")
    name.press("ArrowLeft")                        # the caret inside the word, not at the end
    not_ready(page)
    release(page)
    expect(page.get_by_test_id("start")).to_be_visible()
    expect(page.locator("#shell")).to_have_count(0)        # Python's own form replaced the static one
    expect(name).to_have_value("Half typed")
    expect(name).to_be_focused()
    assert page.evaluate("document.activeElement.selectionStart") == len("Half typed") - 1
    expect(page.locator('input[name="players"][value="4"]')).to_be_checked()
    expect(page.locator('input[name="target"][value="61"]')).to_be_checked()
    expect(page.get_by_test_id("hand")).to_have_count(0)
    name.type("!")
    expect(name).to_have_value("Half type!d")


def test_the_profile_fills_the_early_form_and_settings_wait_for_python(page, site):
    profile = Profile.new("Robin Hood", now="2026-01-01T00:00:00Z").with_prefs(
        "2026-01-02T00:00:00Z", level="easy", players=4, target=61, theme="light")
    open_gated(page, site, {"cribbage.profile.v2": profile.to_json()})
    expect(page.get_by_test_id("name")).to_have_value("Robin Hood")
    for name, value in (("level", "easy"), ("players", 4), ("target", 61)):
        expect(page.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    settings = page.get_by_test_id("open-settings")
    page.get_by_test_id("open-stats").click()
    settings.click()                                # a change of mind: the last press counts
    expect(settings).to_contain_text("as soon as the game has loaded")
    expect(page.get_by_test_id("open-stats")).to_have_text("Statistics")
    not_ready(page)
    release(page)
    expect(page.get_by_test_id("settings")).to_be_visible()
    expect(page.get_by_test_id("nickname")).to_have_value("Robin Hood")


def test_a_damaged_profile_leaves_the_defaults(page, site):
    open_gated(page, site, {"cribbage.profile.v2": '{"format": "cribbage-profile", "prefs": [1'})
    expect(page.get_by_test_id("name")).to_have_value("")
    expect(page.locator('input[name="players"][value="2"]')).to_be_checked()
    release(page)
    expect(page.get_by_role("alert")).to_contain_text("could not be read")
    expect(page.get_by_test_id("start")).to_be_visible()


@pytest.mark.parametrize("route", ["?table=AbCdEfGhIjKlMnOpQrStUv", "#record=abc"])
def test_a_link_shows_only_the_progress(page, site, route):
    open_gated(page, site + route)
    expect(page.get_by_test_id("loading")).to_be_visible()
    expect(page.get_by_test_id("start")).to_be_hidden()
    not_ready(page)


def test_a_game_in_progress_resumes_without_the_form(page, site):
    game = Session.new(2, 121, ["Ann", "Bot"], [None, "easy"], seed=7)
    open_gated(page, site, {"cribbage.table.v1": game.to_json()})
    expect(page.get_by_test_id("loading")).to_be_visible()
    expect(page.get_by_test_id("start")).to_be_hidden()
    release(page)
    expect(page.get_by_test_id("hand")).to_be_visible()


def test_invite_friends_pressed_before_python_opens_the_table(page, site):
    open_gated(page, site)
    page.get_by_test_id("name").fill("Hostess")
    choose(page, "players", 3)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("create-table")).to_have_text(STARTING)
    expect(page.get_by_test_id("start-game")).to_have_text("Deal")
    release(page)
    expect(page.get_by_test_id("invite-link")).to_have_value(re.compile(r"\?table=[\w-]{20,}#h=[\w-]{43}&k=[\w-]{43}$"))
    assert "?table=" in page.url
    expect(page.locator(".seat-row")).to_have_count(3)
    expect(page.locator(".seat-row").first).to_contain_text("Hostess")


def test_a_tap_pressed_as_python_takes_over_still_counts(page, site):
    """Pressed on the static form, released once Python has imported what it shows: Python's
    form, which replaces the static one, waits for the release, so the tap makes its click."""
    open_gated(page, site)
    box = page.locator('label.choice:has(input[name="players"][value="3"])').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("window.__releaseBoot()")
    page.wait_for_function("performance.getEntriesByName('py:imported').length > 0", timeout=60_000)
    not_ready(page)
    page.mouse.up()
    wait_ready(page)
    expect(page.locator('input[name="players"][value="3"]')).to_be_checked()
