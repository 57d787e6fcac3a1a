"""The page paints its shell at once, boots Python from our own origin and says it is ready."""

import pytest
from harness import BOOT_GATE, screenshot, wait_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_shell_paints_before_python_is_ready(page, site):
    page.add_init_script(BOOT_GATE)
    page.goto(site, wait_until="domcontentloaded")
    expect(page.get_by_test_id("title")).to_have_text("Cribbage")
    expect(page.get_by_test_id("loading")).to_have_text("Loading Python…")
    expect(page.get_by_test_id("loading")).to_be_visible()
    assert page.locator("html").get_attribute("data-ready") is None
    expect(page.get_by_test_id("boot-step")).to_contain_text("Downloading the game")
    screenshot(page, "boot-loading")
    page.evaluate("window.__releaseBoot()")
    wait_ready(page)
    expect(page.get_by_test_id("loading")).to_have_count(0)


def test_boots_from_our_origin_only(page, network, site):
    page.goto(site)
    wait_ready(page)
    paths = {url.removeprefix(site.rstrip("/")) for url in network.urls}
    for needed in ("/web/vendor/pyodide/pyodide.asm.wasm", "/game/__init__.py", "/web/main.py"):
        assert needed in paths
    assert network.outside() == []
    expect(page.get_by_test_id("title")).to_be_visible()
    screenshot(page, "boot-ready")
