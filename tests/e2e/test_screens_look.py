"""Issue 13's "also found" list, checked in the real page so a regression shows: statistics and
settings pass axe (light and dark, desktop and phone) and the statistics table is not clipped at
1280 px and scrolls by keyboard; settings list the bot levels in the start screen's order;
"Invite friends instead" is quieter than Deal; the keyboard focus ring is not a selected card.
"""

import pytest
from harness import AXE, violations, wait_ready
from tables import load, saves

from web.profile.model import Profile
from web.profile.records import record_game
from web.session import Session

pytestmark = pytest.mark.e2e

PROFILE_KEY = "cribbage.profile.v2"
SIZES = {"desktop": (1280, 800), "phone": (360, 640)}


def profile_with_games() -> str:
    profile = Profile.new("Ann", now="2026-11-01T12:00:00Z")
    for seed in range(5):
        players = 2 + seed % 3
        session = Session.new(players, 61, ["Ann", "Bot", "Robin", "Pip"][:players],
                              [None] + ["easy"] * (players - 1), seed=seed)
        while session.state.phase != "over":
            session.bot_move() if session.bot_to_move() is not None else session.act(0, session.view(0).legal[0])
        profile = profile.add_record(record_game(session, seat=0, finished=f"2026-11-{10 + seed:02d}T12:00:00Z"))
    return profile.to_json()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_statistics_and_settings_read_well(browser, site, theme):
    context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    problems: list[str] = []
    try:
        page.goto(site)
        wait_ready(page)
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [PROFILE_KEY, profile_with_games()])
        page.reload()
        wait_ready(page)
        start_levels = page.locator('.start input[name="level"]').evaluate_all("xs => xs.map(x => x.value)")
        # Deal is the loud button; inviting friends is a quiet one
        deal, invite = (page.get_by_test_id(name).evaluate("b => getComputedStyle(b).backgroundColor")
                        for name in ("start-game", "create-table"))
        assert deal != invite and invite in ("rgba(0, 0, 0, 0)", "transparent"), (deal, invite)

        page.get_by_test_id("open-stats").click()
        scroller = page.locator(".table-scroll")
        assert scroller.get_attribute("tabindex") == "0"
        width = scroller.evaluate("s => [s.scrollWidth, s.clientWidth]")
        assert width[0] <= width[1] + 1, f"the statistics table is clipped at 1280 px: {width}"
        text = page.get_by_test_id("stats").inner_text()
        assert "bot-" not in text and "Bot, easy" in text and " won)" in text
        assert page.locator(".chart .axis").count() == 2
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            problems += [f"statistics at {size}: {line}" for line in violations(page)]
        page.set_viewport_size({"width": 1280, "height": 800})
        page.get_by_role("button", name="Back").click()

        page.get_by_test_id("open-settings").click()
        settings_levels = page.locator('.settings input[name="level"]').evaluate_all("xs => xs.map(x => x.value)")
        assert settings_levels == start_levels
        for size, (w, h) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            problems += [f"settings at {size}: {line}" for line in violations(page)]
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def test_the_focus_ring_is_not_a_selected_card(page, site):
    load(page, site, saves(2)["discard"])
    page.keyboard.press("1")                       # the first card is chosen...
    first = page.locator('[data-action="select"]').first
    second = page.locator('[data-action="select"]').nth(1)
    second.focus()                                 # ...the second has the keyboard's focus
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    look = "b => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineColor, s.transform, s.boxShadow]; }"
    chosen, focused = first.evaluate(look), second.evaluate(look)
    assert first.get_attribute("aria-pressed") == "true" and second.get_attribute("aria-pressed") == "false"
    assert chosen[0] == "none" and focused[0] != "none", (chosen, focused)
    assert focused[1] not in chosen[3], "the ring is not in the chosen card's colour"
    assert focused[2] == "none" or focused[2] != chosen[2], "a focused card is not raised like a chosen one"
