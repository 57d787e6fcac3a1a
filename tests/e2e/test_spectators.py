"""Spectators in real browsers (the CPython side is tests/test_watch.py; this file is named apart from it: pytest imports tests by their base name): the host lets people
watch, a spectator opens the watch link and watches a game to the end, the players list says
how many watch, a watch link with its ``w=1`` cut off seats no one, a patched spectator page's
messages over its own channel change nothing, and the host's switch sends every spectator away."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from harness import check_sizes, screenshot, spied, wait_ready, with_query
from playwright.sync_api import expect
from test_friends import chat, check_scores, host_session, host_table, join, play

pytestmark = pytest.mark.e2e

# What a patched spectator page sends over its channel: a seat, a move, a chat line, a share.
FORGED = """() => {
  const channel = window.__channels.find((c) => c.readyState === "open");
  for (const message of [
      {v: 6, type: "action", state_id: 0, action: {seat: 0, type: "discard", cards: []}, n: 1},
      {v: 6, type: "chat", text: "from the stands", n: 2},
      {v: 6, type: "fair_contribute", game: 0, hand: 1, value: "cd".repeat(32)}]) {
    channel.send(JSON.stringify(message));
  }
}"""


def room_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["table"][0]


def test_a_spectator_watches_a_game_to_the_end_and_can_do_nothing_else(people, site):
    host, guest, spectator = people(), people(), spied(people)
    link = host_table(host, site, 2)
    host.get_by_test_id("watching-on").click()
    field = host.get_by_test_id("watch-link")
    expect(field).to_have_value(re.compile(r"\?table=[\w-]{20,}#h=[\w-]{43}&k=[\w-]{43}&w=1$"))
    watch_link = field.input_value()
    assert room_of(watch_link) != room_of(link)      # the invite link's room is not in it
    join(guest, link, "Gus")
    spectator.goto(with_query(watch_link, "speed=instant"))
    wait_ready(spectator)
    expect(spectator.get_by_test_id("await-start")).to_contain_text("You are watching", timeout=20_000)
    for page in (host, guest, spectator):
        expect(page.get_by_test_id("watching")).to_have_text("1 watching")
    expect(spectator.get_by_test_id("seat-1")).to_contain_text("Gus")

    # The watch link with its w=1 cut off: the page asks for a seat, and the host refuses it.
    editor = people()
    editor.goto(with_query(watch_link.replace("&w=1", ""), "speed=instant"))
    wait_ready(editor)
    editor.get_by_test_id("name").fill("Mallory")
    editor.get_by_test_id("sit-down").click()
    expect(editor.get_by_test_id("reject-reason")).to_contain_text("link to watch the table", timeout=20_000)
    editor.close()
    expect(host.get_by_test_id("watching")).to_have_text("1 watching", timeout=10_000)
    assert [s.name for s in host_session_seats(host)] == ["Hana", "Gus"]

    host.get_by_test_id("start-table").click()
    expect(spectator.get_by_test_id("hand").locator('[data-card="back"]')).to_have_count(6, timeout=10_000)
    expect(spectator.get_by_test_id("status")).to_contain_text("The players choose their crib cards")
    assert spectator.locator('[data-action="select"], [data-action="play"], [data-testid="chat-input"]').count() == 0
    chat(guest, "hello watchers")
    expect(spectator.get_by_test_id("chat-lines")).to_contain_text("hello watchers")

    play([host, guest], moves=3)
    screenshot(spectator, "watch-table")
    problems: list[str] = []
    check_sizes(spectator, "a spectator's table", problems)
    assert not problems, "\n".join(problems)
    spectator.set_viewport_size({"width": 1280, "height": 800})
    before = host_session(host).state
    spectator.evaluate(FORGED)
    expect(spectator.get_by_role("alert")).to_contain_text("a spectator cannot sit down, play, chat")
    host.wait_for_timeout(300)
    assert host_session(host).state == before
    assert "from the stands" not in host.get_by_test_id("chat-lines").inner_text()

    play([host, guest])
    verdict = spectator.get_by_test_id("verdict")
    for _ in range(100):         # the spectator reads the last shows on, like a player
        if verdict.count():
            break
        if spectator.get_by_test_id("continue").count():
            spectator.get_by_test_id("continue").click(timeout=2000)
        else:
            spectator.wait_for_timeout(50)
    expect(verdict).to_be_visible()
    check_scores(host, [spectator])
    expect(verdict.locator("h2")).not_to_contain_text("You")
    assert spectator.get_by_test_id("hand").locator("[data-card]").evaluate_all(
        "cards => cards.every((c) => c.dataset.card === 'back')")

    host.locator("details.watch-panel summary").click()
    host.get_by_test_id("watching-off").click()
    expect(spectator.get_by_test_id("reject-reason")).to_contain_text("The host closed watching", timeout=10_000)
    expect(host.get_by_test_id("watching")).to_have_count(0)
    expect(guest.get_by_test_id("watching")).to_have_count(0)
    saved = json.loads(host.evaluate("localStorage.getItem('cribbage.host.v1')"))
    assert saved["watch"] is None


def host_session_seats(page):
    from web.friends.host import HostTable
    return HostTable.from_json(page.evaluate("localStorage.getItem('cribbage.host.v1')")).seats
