"""axe-core on the table's screens, light and dark, at desktop and phone size: no violations.

axe-core is pinned in package.json (a dev dependency) and put into the page by the test as an
inline script: it is never served by the site, never in dist/, and no request leaves the origin.
"""

import pytest
from harness import AXE, Network, check_sizes
from tables import load, play_until, saves

pytestmark = pytest.mark.e2e

@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_table_screens_have_no_axe_violations(browser, site, theme):
    context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800})
    watched = Network(context, site)     # as the `page` fixture: nothing leaves the origin
    page = watched.page
    problems: list[str] = []
    try:
        page.goto(site)
        page.wait_for_selector('html[data-ready="true"]', state="attached", timeout=60_000)
        check_sizes(page, "start", problems)
        tables = saves(4 if theme == "dark" else 3)
        load(page, site, tables["discard"])
        check_sizes(page, "deal", problems)
        load(page, site, tables["play"])
        check_sizes(page, "play", problems)
        page.set_viewport_size({"width": 1280, "height": 800})
        play_until(page, "show")
        check_sizes(page, "show", problems)
        load(page, site, saves(2)["over"])
        play_until(page, "verdict")
        check_sizes(page, "verdict", problems)
    finally:
        outside, errors = watched.outside(), list(watched.errors)
        context.close()
    assert not problems, "\n".join(problems)
    assert not outside and not errors, (outside, errors)


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_friends_table_has_no_axe_violations(browser, site, theme):
    """The host's lobby, a guest's table with the chat, and the guest's table once the host is
    gone (the connection's trouble in the bar under the scores; the host away)."""
    from playwright.sync_api import expect
    from test_friends import host_table, join
    contexts = [browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800}) for _ in range(2)]
    watched = [Network(context, site) for context in contexts]
    host, guest = (w.page for w in watched)
    problems: list[str] = []
    try:
        join(guest, host_table(host, site, 2), "Gus")
        check_sizes(host, "lobby", problems)
        host.get_by_test_id("start-table").click()
        expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
        check_sizes(guest, "friends table", problems)
        host.close()
        expect(guest.get_by_test_id("away-0")).to_be_attached(timeout=20_000)
        check_sizes(guest, "friends table, host gone", problems)
    finally:
        errors = list(watched[1].errors)
        for context in contexts:
            context.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors
