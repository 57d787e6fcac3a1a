"""The bot game's path imports none of the parts web.lazy defers; each comes in on first use.
What the start leaves for after ready (web.lazy.AFTER_READY) comes in once the page is idle.

A whole 61-point game against the bot (start, discards, play, shows, verdict, the game kept in
the profile) runs without importing any module of `web.lazy.LAZY`; opening Statistics, a replay
and Settings then imports their views, and inviting friends the network, and each still works.
On the built site, the friends tables and the device link (web.lazy.LATER) come in their own
zip, web/app_later.zip, fetched only then (at the start for a table's link), once; when it cannot
be fetched the page says why and stays as it was.
"""

import io
import secrets
import zipfile

import pytest
from harness import LOADED_MODULES, wait_ready
from playwright.sync_api import Page, expect
from test_dist import DATACLASSES_MADE, PYTHON
from test_play_bot import open_table, play_game

from web.lazy import AFTER_READY, LATER, LAZY, STAMP

pytestmark = pytest.mark.e2e


def lazy_loaded(page: Page) -> set[str]:
    return set(page.evaluate(LOADED_MODULES)) & set(LAZY)


@pytest.fixture
def built(site_root) -> bool:
    """Whether the site is the built one, which ships web/app_later.zip (not the sources)."""
    return (site_root / "web" / "app_later.zip").is_file()


def count_later_fetches(page: Page) -> list[str]:
    """The page's own requests of web/app_later.zip from now on (not the service worker's, which
    fetches it from the network for the page the first time)."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url)
            if request.url.split("?")[0].endswith("/web/app_later.zip") else None)
    return fetched


def assert_later_from_its_zip(page: Page) -> None:
    """The page's LATER modules came from web/app_later.zip, their dataclasses' methods from its table."""
    files = page.evaluate(PYTHON, f"import sys\nresult = [sys.modules[n].__file__ for n in {list(LATER)!r} if n in sys.modules]")
    assert files and all("/app_later.zip/" in path for path in files), files
    made = page.evaluate(PYTHON, DATACLASSES_MADE)
    assert made["compiled here"] == 0, made


def later_zip(url: str) -> bool:
    """The later zip's address, with or without the query of a second try (web/main.py)."""
    return url.split("?")[0].endswith("/web/app_later.zip")


def other_build(site_root) -> bytes:
    """The site's web/app_later.zip as another build would have made it (another stamp)."""
    packed = io.BytesIO()
    with zipfile.ZipFile(site_root / "web" / "app_later.zip") as zin, zipfile.ZipFile(packed, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, b"another build" if info.filename == STAMP else zin.read(info))
    return packed.getvalue()


def test_a_bot_game_imports_no_lazy_part_until_it_is_used(page, site, built):
    fetched = count_later_fetches(page)
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
    assert fetched == []   # a bot game, its statistics, replays and settings
    page.get_by_test_id("link-show").click()   # the device link brings in the network
    expect(page.get_by_test_id("link-code")).to_be_visible()
    assert {"web.profile.device_link", "web.net.transport"} <= lazy_loaded(page)
    if built:
        assert len(fetched) == 1
        assert_later_from_its_zip(page)


def test_inviting_friends_imports_the_tables_on_first_use(page, site, built):
    fetched = count_later_fetches(page)
    page.goto(site)
    page.wait_for_selector('html[data-ready="true"]')
    assert lazy_loaded(page) == set()
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("invite-link")).to_be_visible()
    assert {"web.friends.host", "web.friends.host_controller", "web.net.transport"} <= lazy_loaded(page)
    if built:
        assert len(fetched) == 1
        assert_later_from_its_zip(page)


def test_a_table_link_brings_the_later_zip_in_with_the_start(page, site, built):
    fetched = count_later_fetches(page)
    page.goto(site + f"?table={secrets.token_urlsafe(16)}&speed=instant#h={'A' * 43}")
    wait_ready(page)
    expect(page.get_by_test_id("join")).to_be_visible()
    assert {"web.friends.guest", "web.net.transport"} <= lazy_loaded(page)
    if built:   # fetched once: by web/snapshot.mjs, with app.zip (web/main.py found it there)
        assert len(fetched) == 1
        assert_later_from_its_zip(page)


def test_inviting_friends_without_the_later_zip_says_why_and_changes_nothing(people, site, site_root, built):
    if not built:
        pytest.skip("the sources' page has every module: no web/app_later.zip to miss")
    page = people(allow=("app_later.zip", "status of 503"))
    # (the context's route: once the service worker serves the page, it is the one that fetches)
    page.context.route(later_zip, lambda route: route.fulfill(status=503, body="down"))
    page.goto(site)
    wait_ready(page)
    page.get_by_test_id("create-table").click()
    expect(page.locator(".notice")).to_contain_text("could not be loaded: the server answered 503")
    expect(page.get_by_test_id("start")).to_be_visible()
    assert "table=" not in page.url and lazy_loaded(page) == set()
    # A later zip of another build (a new version deployed while this page stayed open) is refused.
    page.context.unroute(later_zip)
    page.context.route(later_zip, lambda route: route.fulfill(status=200, body=other_build(site_root)))
    page.get_by_test_id("create-table").click()
    expect(page.locator(".notice")).to_contain_text("a new version of the game is out: reload the page")
    assert "table=" not in page.url and lazy_loaded(page) == set()
    page.context.unroute(later_zip)
    page.get_by_test_id("create-table").click()   # the network is back: the next try works
    expect(page.get_by_test_id("invite-link")).to_be_visible()
    assert "table=" in page.url


def test_the_coach_comes_in_once_the_table_is_ready_and_hints_work(page, site):
    page.goto(site + "?speed=instant")
    page.wait_for_selector('html[data-ready="true"]')
    page.wait_for_function(f"({LOADED_MODULES})().then((names) => names && {list(AFTER_READY)!r}"
                           ".every((name) => names.includes(name)))")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint")).to_be_visible()
