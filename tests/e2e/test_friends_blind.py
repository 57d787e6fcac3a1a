"""A table with friends dealt blind (docs/blind-deal.md) in real browsers: the host's and the
guest's pages shuffle and deal every hand together over WebRTC, and neither page ever holds the
other's cards. A 2-player table plays a whole game to 61 with the lobby's
switch "Nobody sees a card, not even the host" on (a new table's default; ``table-blind-on`` /
``table-blind-off`` are its buttons, ``table-blind-words`` its words on every page).
"""

import json
import time

import pytest
from harness import wait_ready
from playwright.sync_api import Page, expect
from test_friends import hand_of, host_table, join, play

pytestmark = pytest.mark.e2e


def scores(page: Page) -> tuple[str, str]:
    return page.get_by_test_id("score-0").inner_text(), page.get_by_test_id("score-1").inner_text()


def test_two_friends_play_a_whole_game_dealt_blind_and_each_keeps_its_record(people, site):
    host, guest = people(), people()
    link = host_table(host, site, 2, blind=True)
    join(guest, link, "Gus")
    expect(host.get_by_test_id("table-blind-on")).to_have_attribute("aria-pressed", "true")
    expect(guest.get_by_test_id("table-blind-words")).to_contain_text("not even the host")
    host.get_by_test_id("start-table").click()
    started = time.monotonic()
    for page in (host, guest):
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6, timeout=90_000)
    dealt = time.monotonic() - started
    # The host's page holds no card of the guest's: not in what it keeps (its save and the
    # texts it relayed, each under a key of its own), not on its screen.
    mine = hand_of(guest)
    saved = host.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert "cribbage.host-text.v1." in saved
    assert not any(f'"{card}"' in saved for card in mine)
    assert not set(mine) & set(hand_of(host))
    for page in (host, guest):      # (a pointer left where "Start" was would hover a card up and down)
        page.mouse.move(1, 1)
    play([host, guest], timeout=300)          # to the end of the game (to 61)
    for _ in range(100):                    # both pages at the same scores once the hand's messages are in
        if scores(host) == scores(guest):
            break
        host.wait_for_timeout(100)
    assert scores(host) == scores(guest)
    # Each browser keeps its own record of the game, from the decks its own audits found: the
    # same game, seen from each seat, every hand audited, counted in Statistics.
    for page in (host, guest):            # (kept once the page is idle: after the last hand's checks)
        page.wait_for_function("() => (JSON.parse(localStorage.getItem('cribbage.profile.v2') || '{}')"
                               ".records || []).length > 0", timeout=20_000)
    records = [json.loads(page.evaluate("localStorage.getItem('cribbage.profile.v2')"))["records"]
               for page in (host, guest)]
    assert [(r["mode"], r["seat"]) for r in records[0]] == [("friends", 0)]
    assert [(r["mode"], r["seat"]) for r in records[1]] == [("friends", 1)]
    mine, theirs = records[0][0], records[1][0]
    assert mine["actions"] == theirs["actions"] and mine["blind"]["hands"] == theirs["blind"]["hands"]
    assert all(hand["deck"] and not hand["alarms"] for hand in mine["blind"]["hands"])
    guest.goto(site + "?speed=instant")
    wait_ready(guest)
    guest.get_by_test_id("open-stats").click()
    expect(guest.get_by_test_id("stats")).to_contain_text("Friends · 2 players")
    print(f"the first hand dealt in {dealt:.1f} s")
