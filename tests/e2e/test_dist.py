"""dist/ on a plain static server: a whole game against the bot, then offline from the cache."""

import re
import subprocess
import sys

import pytest
from harness import Network, wait_ready
from playwright.sync_api import expect
from test_play_bot import open_table, play_game

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "scripts"))
import build_dist  # noqa: E402

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def dist_site(tmp_path_factory):
    """dist/ built into a temporary folder and served by Python's own http.server."""
    out = tmp_path_factory.mktemp("dist") / "site"
    build_dist.build(out)
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line).group(1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_dist_plays_a_whole_game_then_works_offline(browser, dist_site):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    watched = Network(context, dist_site)
    page = watched.page
    open_table(page, dist_site, players=2, level="easy")
    play_game(page, checks_every=8)
    # The service worker has cached every file once it is active.
    total = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        const names = await caches.keys();
        const cache = await caches.open(names.find((n) => n.startsWith("cribbage-")));
        return (await cache.keys()).length;
    }""")
    assert total > 40
    context.set_offline(True)
    page.goto(dist_site + "?speed=instant")
    wait_ready(page)
    expect(page.get_by_test_id("start")).to_be_visible()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)
    context.set_offline(False)
    context.close()
    assert watched.outside() == []
    assert not watched.errors, watched.errors
