"""Friends without a relay: the site on a files-only server (``serve.py --no-relay``, as on any
static host). The host's lobby says the relay cannot be reached and offers invites by code;
the invite link carries the host's offer, the friend's page shows an answer code, the host
pastes it, and the two play a whole game over WebRTC with no server in between."""

import json
import re

import pytest
from harness import Network, screenshot, wait_ready, with_query
from playwright.sync_api import Page, expect
from test_friends import check_scores, host_session, host_table, play

import serve

pytestmark = pytest.mark.e2e
RELAY_FAILS = ("/relay", "WebSocket")     # the page tries the relay first: that failure is expected


@pytest.fixture(scope="module")
def static_site():
    with serve.spawn(args=("--no-relay",)) as url:
        yield url


@pytest.fixture
def people(browser, static_site):
    made = []

    def make():
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=static_site.rstrip("/"))
        watched = Network(context, static_site)
        made.append((context, watched))
        return watched.page

    yield make
    problems = []
    for context, watched in made:
        problems += [f"left the origin: {url}" for url in watched.outside()]
        problems += [e for e in watched.errors if not any(a in e for a in RELAY_FAILS)]
        context.close()
    assert not problems, problems


def code_invite(host: Page) -> str:
    host.get_by_test_id("make-code-invite").click()
    link = host.get_by_test_id("code-invite-link")
    expect(link).to_be_visible(timeout=10_000)
    value = link.input_value()
    assert "?table=" in value and re.search(r"#h=[\w-]{43}&k=[\w-]{43}&offer=O1", value), value
    return value


def answer(guest: Page, link: str, name: str) -> str:
    guest.goto(with_query(link, "speed=instant"))
    wait_ready(guest)
    assert "offer=" not in guest.url and "#h=" in guest.url   # used once: a reload must not answer it again
    guest.get_by_test_id("name").fill(name)
    guest.get_by_test_id("sit-down").click()
    code = guest.get_by_test_id("answer-code")
    expect(code).to_be_visible(timeout=10_000)
    value = code.input_value()
    assert value.startswith("A1") and len(value) < 600, value
    return value


def test_two_friends_play_without_a_relay(people, static_site):
    host, guest = people(), people()
    host_table(host, static_site, 2)
    expect(host.get_by_test_id("relay-down")).to_be_visible(timeout=10_000)
    expect(host.get_by_test_id("code-invite")).to_have_attribute("open", "")
    link = code_invite(host)
    code = answer(guest, link, "Gus")
    screenshot(guest, "code-invite-answer")
    guest.set_viewport_size({"width": 1280, "height": 800})

    # A wrong paste is refused with a reason and changes nothing.
    host.get_by_test_id("answer-input").fill(link.partition("offer=")[2])
    host.get_by_test_id("answer-connect").click()
    expect(host.get_by_test_id("code-note")).to_contain_text("invite code")
    host.get_by_test_id("answer-input").fill(code[:-10])
    host.get_by_test_id("answer-connect").click()
    expect(host.get_by_test_id("code-note")).to_contain_text("damaged")

    host.get_by_test_id("answer-input").fill(code)
    host.get_by_test_id("answer-connect").click()
    expect(host.get_by_test_id("seat-1")).to_contain_text("Gus", timeout=15_000)
    expect(guest.get_by_test_id("await-start")).to_be_visible()
    expect(host.get_by_test_id("code-note")).to_contain_text("Make a new invite link for the next friend")
    expect(host.get_by_test_id("code-invite-link")).to_have_count(0)     # that invite is used up
    screenshot(host, "code-invite-lobby")
    host.set_viewport_size({"width": 1280, "height": 800})
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
    # A re-invite made during the game stays open through the repaints of every move.
    host.locator('[data-testid="code-invite"] summary').click()
    host.get_by_test_id("make-code-invite").click()
    expect(host.get_by_test_id("code-invite-link")).to_be_visible(timeout=10_000)
    play([host, guest], moves=3)
    expect(host.get_by_test_id("code-invite-link")).to_be_visible()
    play([host, guest])
    check_scores(host, [guest])
    assert host_session(host).state.phase == "over"
    expect(guest.get_by_test_id("verdict")).to_be_visible()


def test_a_guest_on_a_plain_link_without_relay_is_told_what_to_do(people, static_site):
    host, guest = people(), people()
    link = host_table(host, static_site, 2)
    guest.goto(link)
    wait_ready(guest)
    expect(guest.get_by_test_id("link-status")).to_contain_text("invite by code", timeout=10_000)


def test_a_used_code_link_says_so_and_a_new_one_pasted_in_the_tab_is_followed(people, static_site):
    host, guest = people(), people()
    host_table(host, static_site, 2)
    first = code_invite(host)
    used = answer(guest, first, "Gus")
    guest.goto(with_query(first, "speed=instant"))          # the same link again, in the same browser
    expect(guest.get_by_test_id("reject-reason")).to_contain_text("used this invite link already")
    host.get_by_test_id("make-code-invite").click()
    expect(host.get_by_test_id("code-invite-link")).not_to_have_value(first, timeout=10_000)
    second = host.get_by_test_id("code-invite-link").input_value()
    guest.evaluate(f"location.hash = {json.dumps('#' + second.partition('#')[2])}")   # only the fragment changes
    guest.get_by_test_id("name").fill("Gus")
    guest.get_by_test_id("sit-down").click()
    code = guest.get_by_test_id("answer-code")
    expect(code).to_be_visible(timeout=10_000)
    assert code.input_value() != used
    host.get_by_test_id("answer-input").fill(code.input_value())
    host.get_by_test_id("answer-connect").click()
    expect(host.get_by_test_id("seat-1")).to_contain_text("Gus", timeout=15_000)
