"""Pass and play through the real page (web.passplay): whole games between people at one device,
a cover between two of them, and the page read after every move for a card nobody may see.

The page saves its table after every move; the test rebuilds it under CPython and holds the page
to it: under a cover no card at all is in the DOM; otherwise every face-up card is public (the
pile, the cards played, the starter, the hands counted at the show) or in the hand of the seat
on screen, which is the person the game waited for.
"""

import pytest
from harness import AXE, check_sizes, screenshot, wait_ready
from playwright.sync_api import Page, expect
from tables import load, pass_and_play

from game.engine import OVER
from web import passplay
from web.session import Session

pytestmark = pytest.mark.e2e

COVER = '[data-testid="cover"]'

WAITING = ('[data-testid="cover"], [data-testid="verdict"], [data-testid="show"], '
           '[data-action="select"], [data-action="play"]:not([disabled])')
# Each face-up card in the page, and where it lies: in the hand on screen, in a public place, or elsewhere.
CARDS = """() => [...document.querySelectorAll('[data-card]:not([data-card="back"])')].map(card => [
    card.dataset.card,
    card.closest('[data-testid="hand"]') ? 'hand'
        : card.closest('.shown, .played, [data-testid="pile"], [data-testid="starter"]') ? 'public' : 'other'])"""


def saved(page: Page) -> Session:
    return Session.from_json(page.evaluate("localStorage.getItem('cribbage.table.v1')"))


def check_the_page(page: Page) -> str | None:
    """Hold the page to its save (see the module's docstring); the cover's name, if one is up."""
    session, cards = saved(page), page.evaluate(CARDS)
    if page.get_by_test_id("cover").count():
        assert cards == [], cards
        expect(page.locator(".tabletop")).to_have_count(0)
        return page.get_by_test_id("cover-name").inner_text().removeprefix("Pass to ")
    assert [card for card, where in cards if where == "other"] == []
    seat = int(page.locator(".tabletop").get_attribute("data-seat"))
    assert session.bots[seat] is None, "a person's table is on screen"
    in_hand = sorted(card for card, where in cards if where == "hand")
    if page.get_by_test_id("show").count():
        assert in_hand == []                   # the next hand waits, off the page
    else:
        assert in_hand == sorted(map(str, session.view(seat).hand))
    return None


def play_out(page: Page, keyboard: bool = False) -> list[tuple[str, int]]:
    """Play every person's seat with the first cards until the verdict; the covers met, each
    with the seat whose table was on screen before it (-1: none yet)."""
    covers, last_seat = [], -1
    for _ in range(1500):
        page.wait_for_selector(WAITING, timeout=30_000)
        name = check_the_page(page)
        if name is not None:
            session = saved(page)
            assert name == session.names[passplay.due(session)]
            covers.append((name, last_seat))
            if keyboard:
                expect(page.get_by_test_id("reveal")).to_be_focused()
                page.keyboard.press("Enter" if len(covers) % 2 else " ")
            else:
                page.get_by_test_id("reveal").click()
            expect(page.get_by_test_id("cover")).to_have_count(0)
            continue
        last_seat = int(page.locator(".tabletop").get_attribute("data-seat"))
        if page.get_by_test_id("verdict").count():
            return covers
        if page.get_by_test_id("show").count():
            page.get_by_test_id("continue").click()
            continue
        moves = len(saved(page).state.actions)
        selectable = page.locator('[data-action="select"]')
        if selectable.count():
            for index in range(2 if selectable.count() == 6 else 1):
                selectable.nth(index).click()
            page.get_by_test_id("confirm-discard").click()
        else:
            page.locator('[data-action="play"]:not([disabled])').first.click()
        page.wait_for_function("(n) => JSON.parse(JSON.parse(localStorage.getItem('cribbage.table.v1'))"
                               ".state).actions.length > n", arg=moves)
    raise AssertionError("the game did not finish")


def test_two_people_play_a_whole_game_on_one_device(page, site):
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.get_by_test_id("name").fill("Ann")
    page.locator('label.choice:has(input[name="players"][value="2"])').click()
    page.locator('label.choice:has(input[name="target"][value="61"])').click()
    page.locator('[data-testid="passplay"] summary').click()
    page.get_by_test_id("seat-name-1").fill("Sage")
    page.get_by_test_id("start-passplay").click()
    expect(page.get_by_test_id("cover")).to_be_visible()
    covers = play_out(page, keyboard=True)
    session = saved(page)
    assert session.state.phase == OVER and session.names == ["Ann", "Sage"]
    assert {name for name, _ in covers} == {"Ann", "Sage"}
    people_swapped = [name for name, before in covers if before >= 0 and session.names[before] != name]
    assert len(people_swapped) >= 4            # between the two people, hand after hand
    page.reload()                              # (a finished game: the start screen)
    wait_ready(page)
    page.get_by_test_id("open-stats").click()
    expect(page.get_by_test_id("stats")).to_contain_text("Pass-and-play · 2 players")


def test_three_people_and_a_bot_finish_a_resumed_game(page, site):
    load(page, site, pass_and_play(["bot", "person", "person"]), ready=COVER)    # resumed behind a cover
    covers = play_out(page)
    session = saved(page)
    assert session.state.phase == OVER
    assert {name for name, _ in covers} <= {"Ann", "P3", "P4"} and len({name for name, _ in covers}) >= 2


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)")
def test_the_cover_has_no_axe_violations_and_is_pictured(page, site):
    save, problems = pass_and_play(["person"], seed=5), []
    for theme in ("dark", "light"):
        page.emulate_media(color_scheme=theme)
        load(page, site, save, ready=COVER)
        expect(page.get_by_test_id("reveal")).to_be_focused()
        check_sizes(page, f"cover ({theme})", problems)
    assert not problems, "\n".join(problems)
    screenshot(page, "passplay-cover")
    page.get_by_test_id("reveal").click()
    screenshot(page, "passplay-table")


def test_the_start_form_refuses_two_people_of_one_name(page, site):
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.get_by_test_id("name").fill("Ann")
    page.locator('label.choice:has(input[name="players"][value="2"])').click()
    page.locator('[data-testid="passplay"] summary').click()
    page.get_by_test_id("seat-name-1").fill(" ann ")
    page.get_by_test_id("start-passplay").click()
    expect(page.get_by_test_id("start")).to_contain_text("two seats are named ann")
    assert page.evaluate("localStorage.getItem('cribbage.table.v1')") is None

