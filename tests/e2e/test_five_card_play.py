"""Five-card cribbage (issue #39, part 4) through the real page: a whole game against the hard
bot, checked against the engine as tests/e2e/test_play_bot.py checks the standard game."""

import pytest
from harness import screenshot, wait_ready
from playwright.sync_api import Page, expect
from test_play_bot import ACTIONABLE, check_against_engine, engine_session

from game.engine import OVER

pytestmark = pytest.mark.e2e


def open_five_card_table(page: Page, site: str, level: str = "hard") -> None:
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.get_by_test_id("name").fill("Tester")
    page.locator(f'label.choice:has(input[name="level"][value="{level}"])').click()
    page.locator('label.choice:has(input[name="players"][value="2"])').click()
    page.locator('label.choice:has(input[name="target"][value="five"])').click()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()


def test_a_five_card_game_against_the_hard_bot_to_the_end(page, site):
    open_five_card_table(page, site)
    session = engine_session(page)
    assert session.config.variant == "five" and sum(session.state.scores) == 3
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    expect(page.get_by_test_id("log")).to_contain_text("three for last: 3")
    shown_show = shot = False
    for _ in range(2000):
        page.wait_for_selector(ACTIONABLE, timeout=30_000)
        if page.get_by_test_id("verdict").count():
            break
        if page.get_by_test_id("show").count():
            session = check_against_engine(page)
            if not shown_show:
                # each hand shows its three cards and the starter; the crib its four and the starter
                for kind, cards in (("show", 3), ("crib", 4)):
                    expect(page.locator(f'.shown[data-kind="{kind}"]').first.locator(
                        ".cards [data-card]")).to_have_count(cards + 1)
                screenshot(page, "five-card-show")
                page.set_viewport_size({"width": 1280, "height": 800})
                shown_show = True
            page.get_by_test_id("continue").click()
            continue
        selectable = page.locator('[data-action="select"]')
        if selectable.count():
            assert selectable.count() == 5
            selectable.nth(0).click()
            selectable.nth(1).click()
            page.get_by_test_id("confirm-discard").click()
            page.wait_for_selector(ACTIONABLE, timeout=30_000)
            if not page.get_by_test_id("show").count() and not page.get_by_test_id("verdict").count():
                expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(3)
            continue
        playable = page.locator('[data-action="play"]')
        if playable.count():
            if not shot and page.get_by_test_id("pile").locator("[data-card]").count():
                screenshot(page, "five-card-play")
                page.set_viewport_size({"width": 1280, "height": 800})
                shot = True
            playable.first.click()
    else:
        raise AssertionError("the game did not finish")
    session = check_against_engine(page)
    assert session.state.phase == OVER and max(session.state.scores) >= 61
    assert shown_show
    expect(page.get_by_test_id("verdict")).to_be_visible()


def test_the_start_form_offers_five_card_for_two_only_at_the_bot_table_and_with_friends(page, site):
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.locator('label.choice:has(input[name="target"][value="five"])').click()
    page.locator('label.choice:has(input[name="players"][value="3"])').click()
    page.get_by_test_id("create-table").click()            # (two friends: tests/e2e/test_friends_five_muggins.py)
    expect(page.get_by_test_id("start-error")).to_have_text("five-card cribbage is played by 2 players to 61")
    expect(page.get_by_test_id("lobby")).to_have_count(0)
    page.get_by_test_id("start-error").evaluate("node => node.remove()")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("start-error")).to_have_text("five-card cribbage is played by 2 players to 61")
