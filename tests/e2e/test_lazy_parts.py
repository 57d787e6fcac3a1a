"""The bot game's path imports none of the parts web.lazy defers; each comes in on first use.
What the start leaves for after ready (web.lazy.AFTER_READY) comes in once the page is idle.

A whole 61-point game against the bot (start, discards, play, shows, verdict, the game kept in
the profile) runs without importing any module of `web.lazy.LAZY`; opening Statistics, a replay
and Settings then imports their views, and inviting friends the network, and each still works.
"""

import pytest
from harness import LOADED_MODULES
from playwright.sync_api import Page, expect
from test_play_bot import open_table, play_game

from web.lazy import AFTER_READY, LAZY

pytestmark = pytest.mark.e2e


def lazy_loaded(page: Page) -> set[str]:
    return set(page.evaluate(LOADED_MODULES)) & set(LAZY)


def test_a_bot_game_imports_no_lazy_part_until_it_is_used(page, site):
    open_table(page, site, 2, "easy")
    assert lazy_loaded(page) == set(), "starting a bot game imported parts web.lazy defers"
    play_game(page, checks_every=8)
    assert lazy_loaded(page) == set(), "playing a bot game imported parts web.lazy defers"

    page.goto(site)   # the start screen, the finished game in the profile
    page.wait_for_selector('html[data-ready="true"]')
    page.get_by_test_id("open-stats").click()
    expect(page.get_by_test_id("stats")).to_be_visible()
    assert {"web.profile.view", "web.profile.stats", "web.profile.replay"} <= lazy_loaded(page)
    assert "web.net.transport" not in lazy_loaded(page)
    page.locator('[data-action="replay"]').first.click()
    expect(page.get_by_test_id("replay")).to_be_visible()
    page.locator('[data-action="stats"]').first.click()
    page.locator('[data-action="close-screen"]').first.click()

    page.get_by_test_id("open-settings").click()
    expect(page.get_by_test_id("link-show")).to_be_visible()
    page.get_by_test_id("link-show").click()   # the device link brings in the network
    expect(page.get_by_test_id("link-code")).to_be_visible()
    assert {"web.profile.device_link", "web.net.transport"} <= lazy_loaded(page)


def test_inviting_friends_imports_the_tables_on_first_use(page, site):
    page.goto(site)
    page.wait_for_selector('html[data-ready="true"]')
    assert lazy_loaded(page) == set()
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("invite-link")).to_be_visible()
    assert {"web.friends.host", "web.friends.host_controller", "web.net.transport"} <= lazy_loaded(page)


def test_the_coach_comes_in_once_the_table_is_ready_and_hints_work(page, site):
    page.goto(site + "?speed=instant")
    page.wait_for_selector('html[data-ready="true"]')
    page.wait_for_function(f"({LOADED_MODULES})().then((names) => names && {list(AFTER_READY)!r}"
                           ".every((name) => names.includes(name)))")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
