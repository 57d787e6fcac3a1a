"""Hostile input where a page reads it (issue 35, finding 9), in Chromium: JSON nested 30,000
deep in a ``#record=`` link (about 120 characters), in a profile file and in this browser's
saved profile. Each was "Pyodide has suffered a fatal error" (the WebAssembly stack runs out
inside ``json.loads`` before any RecursionError); now each is refused with a message, and the
page goes on to deal a game. The sealed relay path's batches are attacked in
tests/e2e/test_relay_path.py."""

import base64
import json
import zlib

import pytest
from harness import wait_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

DEEP = "[" * 30_000 + "]" * 30_000


def link_code(text: str) -> str:
    """``text`` packed as a ``#record=`` link packs a game (`web.profile.records`)."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def still_plays(page) -> None:
    """Python is alive: the start screen deals a game."""
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6, timeout=15_000)


def test_a_deeply_nested_game_link_is_refused_and_the_page_lives(page, site):
    code = link_code(DEEP)
    assert len(code) < 200
    page.goto(f"{site}#record={code}")
    wait_ready(page)
    expect(page.locator(".notice")).to_contain_text("nested more than 32 deep")
    still_plays(page)


def test_a_deeply_nested_profile_file_or_save_is_refused_and_the_page_lives(page, site, tmp_path):
    page.context.add_init_script(f"if (!sessionStorage.getItem('once')) {{ sessionStorage.setItem('once', '1'); "
                                 f"localStorage.setItem('cribbage.profile.v2', {json.dumps(DEEP)}); }}")
    page.goto(site)
    wait_ready(page)
    expect(page.locator(".notice")).to_contain_text("could not be read")
    page.get_by_test_id("open-settings").click()
    deep = tmp_path / "profile.json"
    deep.write_text('{"format": ' + DEEP + "}")
    page.get_by_test_id("import-profile").set_input_files(str(deep))
    expect(page.get_by_test_id("settings")).to_contain_text("nested more than 32 deep")
    page.get_by_role("button", name="Done").click()
    still_plays(page)
