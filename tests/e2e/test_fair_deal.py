"""Whole 3- and 4-player games with friends in real browsers (games to 61), each hand's deal
verified: every guest's page shows each hand as "deal verified", no alarm, and keeps the game's
record with its commitments, contributions and reveals; every page ends on the host's scores.
Also: a fourth person is turned away from a full 3-player table, and 4 players sit in two
partnerships (partners opposite, a bot in a seat). axe-core checks the fair deal's marks."""

import json

import pytest
from harness import AXE, AXE_OPTIONS, screenshot, wait_ready, with_query
from playwright.sync_api import Page, expect
from test_friends import check_scores, host_session, host_table, join, play

pytestmark = pytest.mark.e2e


def check_every_hand_verified(host: Page, guests: list[Page]) -> None:
    session = host_session(host)
    hands = session.state.hand_no + 1
    assert session.state.phase == "over" and session.state.hand_seeds and len(session.state.hand_seeds) == hands
    for page in guests:
        marks = page.locator('[data-testid^="fair-hand-"]')
        expect(marks).to_have_count(hands, timeout=10_000)
        expect(page.locator('[data-testid^="fair-hand-"][data-verdict="verified"]')).to_have_count(hands)
        expect(page.get_by_test_id("fair-alarm")).to_have_count(0)
        records = json.loads(page.evaluate("localStorage.getItem('cribbage.profile.v2')"))["records"]
        fair = records[-1]["fair"]
        assert fair["alarms"] == [] and len(fair["rounds"]) == hands
        assert all(r["secret"] and r["commitment"] and len(r["contributions"]) == session.config.players
                   for r in fair["rounds"])
        assert records[-1]["hand_seeds"] == list(session.state.hand_seeds)


def fair_violations(page: Page) -> list[str]:
    """axe-core on the fair deal's own marks and panel (at desktop and phone size)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = []
    for width, height in ((1280, 800), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        found += page.evaluate("""(options) => axe.run({include: [['[data-testid="fair-deal"]'],
            ['[data-testid="fair-mark"]']]}, options).then(r => r.violations.map(v => v.id + ': ' + v.help))""",
                               AXE_OPTIONS)
    page.set_viewport_size({"width": 1280, "height": 800})
    return found


def look(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_test_id("fair-deal").scroll_into_view_if_needed()
    page.get_by_test_id("fair-deal").screenshot(path=f"test-artifacts/{name}-panel.png")


def test_three_friends_play_a_whole_game_and_see_every_deal_verified(people, site):
    host, gus, ivy = people(), people(), people()
    link = host_table(host, site, 3)
    join(gus, link, "Gus")
    join(ivy, link, "Ivy")
    late = people()
    late.goto(with_query(link, "speed=instant"))
    wait_ready(late)
    late.get_by_test_id("name").fill("Late")
    late.get_by_test_id("sit-down").click()
    expect(late.get_by_test_id("rejected")).to_contain_text("full", timeout=20_000)
    host.get_by_test_id("start-table").click()
    expect(gus.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    play([host, gus, ivy], moves=16)          # past the first show: hand 1 is checked
    expect(gus.get_by_test_id("fair-mark")).to_contain_text("verified", timeout=15_000)
    look(gus, "fair-guest-table")
    if AXE.exists():
        assert fair_violations(gus) == []
    play([host, gus, ivy])
    check_scores(host, [gus, ivy])
    check_every_hand_verified(host, [gus, ivy])


def test_four_players_in_partnerships_with_a_bot_see_every_deal_verified(people, site):
    host, gus, ivy = people(), people(), people()
    link = host_table(host, site, 4)
    join(gus, link, "Gus")
    expect(host.get_by_test_id("start-table")).to_be_disabled()
    join(ivy, link, "Ivy")
    host.get_by_test_id("bot-3-easy").click()
    expect(host.get_by_test_id("seats")).to_contain_text("team 2")
    expect(gus.get_by_test_id("seat-3")).to_contain_text("bot, easy")
    host.get_by_test_id("start-table").click()
    expect(ivy.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    expect(gus.locator('.seat[data-seat="3"] .badge.partner')).to_be_visible(timeout=10_000)   # partners opposite
    expect(host.locator('.seat[data-seat="2"] .badge.partner')).to_be_visible()
    screenshot(gus, "friends-four")
    gus.set_viewport_size({"width": 1280, "height": 800})
    expect(ivy.get_by_test_id("fair-bots")).to_contain_text("the bots'")   # the bot's share comes from the host
    play([host, gus, ivy])
    check_scores(host, [gus, ivy])
    check_every_hand_verified(host, [gus, ivy])
    look(ivy, "fair-guest-over")
    if AXE.exists():
        assert fair_violations(ivy) == []
