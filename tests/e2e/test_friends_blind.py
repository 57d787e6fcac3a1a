"""A table with friends dealt blind (docs/blind-deal.md) in real browsers: the host's and the
guest's pages shuffle and deal every hand together over WebRTC, and neither page ever holds the
other's cards. The smoke test of the wiring: a 2-player table plays two hands with the lobby's
switch "Nobody sees a card, not even the host" on (a new table's default; ``table-blind-on`` /
``table-blind-off`` are its buttons, ``table-blind-words`` its words on every page).
"""

import re
import time

import pytest
from playwright.sync_api import Page, expect
from test_friends import hand_of, host_table, join, step

pytestmark = pytest.mark.e2e


def scores(page: Page) -> tuple[str, str]:
    return page.get_by_test_id("score-0").inner_text(), page.get_by_test_id("score-1").inner_text()


def test_two_friends_play_two_hands_dealt_blind(people, site):
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
    # The host's page holds no card of the guest's: not in its save, not on its screen.
    mine = hand_of(guest)
    saved = host.evaluate("localStorage.getItem('cribbage.host.v1')") or ""
    assert not any(f'"{card}"' in saved for card in mine)
    assert not set(mine) & set(hand_of(host))
    for page in (host, guest):      # (a pointer left where "Start" was would hover a card up and down)
        page.mouse.move(1, 1)
    hands, deadline = 0, time.monotonic() + 240
    while hands < 2 and time.monotonic() < deadline:
        done = [step(page) for page in (host, guest)]
        hands += done[0] == "continue"      # the host's page moved past a show: a hand is over
        if not any(what in ("discard", "play", "continue") for what in done):
            host.wait_for_timeout(50)
    assert hands >= 2, "two hands were not played"
    expect(guest.get_by_test_id("score-0")).to_have_text(re.compile(r"\d+"))
    for _ in range(100):                    # both pages at the same scores once the hand's messages are in
        if scores(host) == scores(guest):
            break
        host.wait_for_timeout(100)
    assert scores(host) == scores(guest)
    print(f"the first hand dealt in {dealt:.1f} s")
