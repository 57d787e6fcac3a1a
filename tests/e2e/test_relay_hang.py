"""A relay that takes the connection and never lets the page into its room, as a relay stuck
on its shared rooms or a proxy that swallows the upgrade can: the page gives up on that
socket after `web.net.relay_socket.JOIN_WAIT` seconds, says the relay cannot be reached (so the
host offers a code invite), and tries again. A relay that refuses the join says why, and the
page says so in words: the relay is up.
"""

import json
import re
import time
from pathlib import Path

import pytest
from harness import Network
from playwright.sync_api import WebSocketRoute, expect
from test_friends import host_table

pytestmark = pytest.mark.e2e
# The page's web.net.relay_socket.JOIN_WAIT, read from its source (importing it needs the browser).
RELAY_SOCKET = Path(__file__).resolve().parents[2] / "web" / "net" / "relay_socket.py"
JOIN_WAIT = float(re.search(r"^JOIN_WAIT = ([\d.]+)", RELAY_SOCKET.read_text(), re.M).group(1))


def test_a_relay_that_never_lets_the_page_in_is_given_up_and_tried_again(browser, site):
    sockets: list[tuple[float, list[str]]] = []   # (opened at, what the page sent on it)

    def silent(socket: WebSocketRoute) -> None:   # never connects to serve.py, never answers
        heard: list[str] = []
        sockets.append((time.monotonic(), heard))
        socket.on_message(lambda message: heard.append(message))

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        watched = Network(context, site)
        page = watched.page
        page.route_web_socket(re.compile(r"/relay$"), silent)
        host_table(page, site, 2)
        expect(page.get_by_test_id("relay-down")).to_be_visible(timeout=(JOIN_WAIT + 5) * 1000)
        expect(page.get_by_test_id("code-invite")).to_be_visible()
        assert len(sockets) >= 1 and '"type": "join"' in sockets[0][1][0], sockets
        deadline = time.monotonic() + 5   # the next attempt comes after a short backoff
        while len(sockets) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(250)
        assert len(sockets) >= 2, "the page never tried the relay again"
        waited = sockets[1][0] - sockets[0][0]
        assert JOIN_WAIT <= waited < JOIN_WAIT + 5, f"tried again after {waited:.1f} s"
        assert not watched.errors, watched.errors
    finally:
        context.close()


def test_a_relay_that_refuses_the_join_is_not_taken_for_one_that_is_down(browser, site):
    """The relay counts the joins from one address (too-many-joins), and closes a socket that has
    not joined in time: the page says the relay's reason, before and after that close, and
    tries again, never saying the relay cannot be reached."""
    why = "one address may join at most 60 rooms a minute: try again in a minute"
    sockets: list[WebSocketRoute] = []

    def refusing(socket: WebSocketRoute) -> None:   # never connects to serve.py
        sockets.append(socket)

        def heard(message: str | bytes) -> None:
            if '"join"' in str(message):
                socket.send(json.dumps({"type": "error", "code": "too-many-joins", "reason": why}))
                socket.close()      # as the relay does once its join timeout has passed
        socket.on_message(heard)

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        watched = Network(context, site)
        page = watched.page
        page.route_web_socket(re.compile(r"/relay$"), refusing)
        host_table(page, site, 2)
        status = page.get_by_test_id("link-status")
        expect(status).to_contain_text(why)
        deadline = time.monotonic() + 5   # closed at once: the next attempt comes after a short backoff
        while len(sockets) < 3 and time.monotonic() < deadline:
            page.wait_for_timeout(250)
        assert len(sockets) >= 3, "the page did not try the relay again"
        expect(status).to_contain_text(why)
        expect(page.get_by_test_id("relay-down")).to_have_count(0)
        assert not watched.errors, watched.errors
    finally:
        context.close()
