"""The page paints its shell at once, boots Python from our own origin and says it is ready."""

import re

import pytest
from harness import BOOT_GATE, screenshot, wait_ready
from playwright.sync_api import expect

import serve

pytestmark = pytest.mark.e2e


def test_shell_paints_before_python_is_ready(page, site):
    page.add_init_script(BOOT_GATE)
    page.goto(site, wait_until="domcontentloaded")
    expect(page.get_by_test_id("title")).to_have_text("Cribbage")
    expect(page.get_by_test_id("loading")).to_have_text("Loading Python…")
    expect(page.get_by_test_id("loading")).to_be_visible()
    assert page.locator("html").get_attribute("data-ready") is None
    # The built site preloads every file from the page head: its downloads may be done already.
    expect(page.get_by_test_id("boot-step")).to_contain_text(re.compile("Downloading the game|Starting Python"))
    screenshot(page, "boot-loading")
    page.evaluate("window.__releaseBoot()")
    wait_ready(page)
    expect(page.get_by_test_id("loading")).to_have_count(0)


def test_boots_from_our_origin_only(page, network, site, site_root):
    page.goto(site)
    wait_ready(page)
    paths = {url.removeprefix(site.rstrip("/")) for url in network.urls}
    ours = "/game/__init__.py" if site_root == serve.ROOT else "/web/app.zip"   # the sources, or dist/
    for needed in ("/web/vendor/pyodide/pyodide.asm.wasm", ours, "/web/main.py"):
        assert needed in paths
    assert network.outside() == []
    expect(page.get_by_test_id("title")).to_be_visible()
    screenshot(page, "boot-ready")
