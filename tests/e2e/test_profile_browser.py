"""The local profile in the browser: preferences that stick, games in the stats, and a profile
moved to another browser (another device) through a file."""

import pytest
from harness import screenshot, wait_ready
from playwright.sync_api import expect
from test_play_bot import open_table, play_game

pytestmark = pytest.mark.e2e


def open_settings(page):
    page.get_by_test_id("open-settings").click()
    expect(page.get_by_test_id("settings")).to_be_visible()


def choose(page, pref, value):
    page.locator(f'label.choice:has(input[data-pref="{pref}"][value="{value}"])').click()


def test_preferences_apply_at_once_and_survive_a_reload(page, site):
    page.goto(site)
    wait_ready(page)
    open_settings(page)
    choose(page, "theme", "light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    choose(page, "four_colour", "true")
    choose(page, "sort", "suit")
    choose(page, "card_size", "large")
    page.get_by_test_id("nickname").fill("Robin Hood")
    page.get_by_test_id("nickname").press("Tab")
    screenshot(page, "settings")
    page.reload()
    wait_ready(page)
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "light")
    expect(html).to_have_attribute("data-four-colour", "true")
    expect(html).to_have_attribute("data-card-size", "large")
    expect(page.get_by_test_id("name")).to_have_value("Robin Hood")
    open_settings(page)
    expect(page.locator('input[data-pref="sort"][value="suit"]')).to_be_checked()


def test_a_finished_game_is_in_the_stats_and_moves_to_another_device(browser, page, site, tmp_path):
    open_table(page, site, players=2, level="easy")
    play_game(page, checks_every=10)
    page.get_by_role("button", name="Change table").click()
    page.get_by_test_id("open-stats").click()
    stats = page.get_by_test_id("stats")
    expect(stats.locator('tr[data-group="all"] td').first).to_have_text("1")
    expect(stats.locator(".games li")).to_have_count(1)
    screenshot(page, "stats")
    stats.get_by_role("button", name="Replay").click()
    expect(page.get_by_test_id("replay")).to_contain_text("hand 1 of")
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay")).to_contain_text("hand 2 of")
    screenshot(page, "replay")
    page.get_by_role("button", name="Back to statistics").click()
    page.get_by_role("button", name="Back").click()
    open_settings(page)
    with page.expect_download() as download:
        page.get_by_test_id("export-profile").click()
    saved = tmp_path / "profile.json"
    download.value.save_as(saved)

    other = browser.new_context()
    second = other.new_page()
    second.goto(site)
    wait_ready(second)
    open_settings(second)
    for expected in ("1 new game", "0 new games"):       # a second import counts nothing twice
        second.get_by_test_id("import-profile").set_input_files(str(saved))
        expect(second.get_by_test_id("settings")).to_contain_text(f"Profile loaded: {expected}")
    damaged = tmp_path / "damaged.json"
    damaged.write_text(saved.read_text()[:-40])
    second.get_by_test_id("import-profile").set_input_files(str(damaged))
    expect(second.get_by_test_id("settings")).to_contain_text("damaged")
    second.get_by_role("button", name="Done").click()
    second.get_by_test_id("open-stats").click()
    expect(second.get_by_test_id("stats").locator(".games li")).to_have_count(1)
    other.close()
