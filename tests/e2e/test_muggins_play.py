"""Count it yourself, with muggins (issue #39, part 1), through the real page: Settings turns it
on, and a whole game against the hard bot is claimed chip by chip, some points left for the bot."""

import pytest
from harness import screenshot, violations, wait_ready
from playwright.sync_api import Page, expect
from test_play_bot import engine_session

from game.engine import OVER
from game.scoring import score_hand, score_play

pytestmark = pytest.mark.e2e

WAITING = ('[data-testid="verdict"], [data-testid="continue"], [data-testid="claim-bar"], '
           '[data-action="select"], [data-action="play"]')


def muggins_table(page: Page, site: str) -> None:
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.get_by_test_id("open-settings").click()
    page.locator('label.choice:has(input[data-pref="muggins"][value="true"])').click()
    page.reload()                     # (the table reads its settings as it starts)
    wait_ready(page)
    page.locator('label.choice:has(input[name="level"][value="hard"])').click()
    page.locator('label.choice:has(input[name="players"][value="2"])').click()
    page.locator('label.choice:has(input[name="target"][value="61"])').click()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()


def test_a_muggins_game_claimed_by_hand_to_the_end(page, site):
    muggins_table(page, site)
    assert engine_session(page).config.muggins
    claims = short = 0
    shot = False
    for _ in range(3000):
        page.wait_for_selector(WAITING, timeout=30_000)
        if page.get_by_test_id("verdict").count():
            break
        bar = page.get_by_test_id("claim-bar")
        if bar.count():
            session = engine_session(page)
            claim = session.view(0).claim
            assert claim is not None and claim.seat == 0 and claim.claimed is None
            starter = session.state.starter
            true = (score_play(claim.cards).total if claim.what == "play"
                    else score_hand(claim.cards, starter, crib=claim.what == "crib").total)
            if true and not shot:
                assert violations(page) == []            # the chips and what the table says, to axe
                screenshot(page, "muggins-claim")
                page.set_viewport_size({"width": 1280, "height": 800})
                shot = True
            if claim.what == "play" and true:    # an overclaim is refused and says so
                page.get_by_test_id(f"claim-{true + 1}").click()
                expect(page.get_by_role("alert")).to_contain_text("count again")
            said = true - 1 if true and claims % 2 == 0 else true     # every other score, one short
            short += said < true
            before = page.locator(".tabletop").get_attribute("data-state")
            if claims == 1:                              # the keyboard: Tab to a chip, Enter
                page.get_by_test_id(f"claim-{said}").focus()
                page.keyboard.press("Enter")
            else:
                page.get_by_test_id(f"claim-{said}").click()
            claims += 1
            expect(page.locator(".tabletop")).not_to_have_attribute("data-state", before)
            continue
        if page.get_by_test_id("continue").count():
            page.get_by_test_id("continue").click()
            continue
        selectable = page.locator('[data-action="select"]')
        if selectable.count():
            selectable.nth(0).click()
            selectable.nth(1).click()
            page.get_by_test_id("confirm-discard").click()
            continue
        playable = page.locator('[data-action="play"]')
        if playable.count():
            playable.first.click()
    else:
        raise AssertionError("the game did not finish")
    session = engine_session(page)
    assert session.state.phase == OVER and claims > 10 and short > 0
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("muggins!")          # the hard bot took what was missed
    expect(log).to_contain_text("missing")
