"""dist/ on a plain static server: a whole game against the bot, with our modules from the
precompiled web/app.zip (no source fetched), then offline from the cache."""

import re
import subprocess
import sys

import pytest
from harness import Network, wait_ready
from playwright.sync_api import expect
from test_play_bot import open_table, play_game

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "scripts"))
import build_dist  # noqa: E402
import serve  # noqa: E402

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
    paths = {url.removeprefix(dist_site.rstrip("/")).split("?")[0] for url in watched.urls}
    assert "/web/app.zip" in paths and "/web/vendor/pyodide/pyodide.asm.wasm" in paths
    assert not [path for path in paths if path.endswith(".py") and path != "/web/main.py"], paths
    # The service worker has cached every file once it is active.
    cached = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        const names = await caches.keys();
        const cache = await caches.open(names.find((n) => n.startsWith("cribbage-")));
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }""")
    assert {"/web/app.zip", "/web/main.py", "/pyscript.toml", "/web/vendor/pyodide/pyodide.asm.wasm"} <= set(cached)
    assert len(cached) > 20
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


def test_dist_worker_steps_aside_when_the_address_serves_the_sources(browser, tmp_path_factory):
    """`scripts/play` (dist/) then `scripts/play --dev` (sources) on the same port: the dist
    worker must not go on answering with its cached build; the page ends up on the sources."""
    out = tmp_path_factory.mktemp("dist-then-dev") / "site"
    build_dist.build(out)
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        wait_ready(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    finally:
        server.terminate()
        server.wait(timeout=10)
    with serve.spawn(port=port) as url:   # the repository itself, on the same address
        page.goto(url)   # answered from the old cache one last time; the worker then steps aside
        checker = context.new_page()
        checker.goto(url + "web/style.css")
        left = None
        for _ in range(150):   # up to 30 s
            left = checker.evaluate("""async () => [
                (await navigator.serviceWorker.getRegistrations()).length,
                (await caches.keys()).filter((name) => name.startsWith("cribbage-")).length]""")
            if left == [0, 0]:
                break
            checker.wait_for_timeout(200)
        assert left == [0, 0], f"registrations and caches left: {left}"
        fresh = context.new_page()
        fresh.goto(url)
        wait_ready(fresh)
        assert fresh.evaluate("""() => !navigator.serviceWorker.controller
            && !document.querySelector('link[rel="manifest"]')""")
    context.close()
