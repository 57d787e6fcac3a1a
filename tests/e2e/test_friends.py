"""Tables with friends in real browsers: one host context and guest contexts joined through the
invite link over WebRTC, the relay served by serve.py. A complete 2-player game with chat (the
3- and 4-player games, each hand's deal verified, are in test_fair_deal.py); a guest's reload, a
relay restart and a host's reload in the middle of a game.

Every context is watched like the `page` fixture: no request may leave the origin and no page
may log an error (the relay-restart test allows only Chromium's own line about the refused
WebSocket while the relay is down).
"""

import json
import re
import secrets
import socket
import time
from pathlib import Path

import pytest
from harness import check_sizes, screenshot, wait_ready, with_query
from playwright.sync_api import Page, expect

import serve
from game.coach import review_game, walk
from game.engine import new_game
from web.friends.host import HostTable
from web.profile.records import coach_figures

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e

ACTIONABLE = ('[data-testid="verdict"], [data-testid="show"], [data-action="select"]:not([disabled]), '
              '[data-action="play"]:not([disabled])')


def host_table(page: Page, base: str, players: int, name="Hana", target=61, opened=False, blind=False) -> str:
    """Create a table on ``page`` (``opened``: the page already shows the site, ready), dealt
    by the host's browser (the fair deal) unless ``blind`` (a new table's default: the blind
    deal, tests/e2e/test_friends_blind.py)."""
    if not opened:
        page.goto(base + "?speed=instant")
        wait_ready(page)
    page.get_by_test_id("name").fill(name)
    page.locator(f'label.choice:has(input[name="players"][value="{players}"])').click()
    page.locator(f'label.choice:has(input[name="target"][value="{target}"])').click()
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    if not blind:
        page.get_by_test_id("table-blind-off").click()
        expect(page.get_by_test_id("table-blind-off")).to_have_attribute("aria-pressed", "true")
    invite = page.get_by_test_id("invite-link")
    expect(invite).to_have_value(re.compile(r"\?table=[\w-]{20,}#h=[\w-]{43}&k=[\w-]{43}$"))   # the host's pins: web.net.identity
    return invite.input_value()


def join(page: Page, link: str, name: str) -> None:
    page.goto(with_query(link, "speed=instant"))
    wait_ready(page)
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("sit-down").click()
    expect(page.get_by_test_id("lobby")).to_be_visible(timeout=20_000)


def host_session(page: Page):
    return HostTable.from_json(page.evaluate("localStorage.getItem('cribbage.host.v1')")).session


def step(page: Page) -> str:
    """Do one thing this page can do now; returns what it did ("" for nothing)."""
    try:
        if page.get_by_test_id("verdict").count():
            return "over"
        if page.get_by_test_id("show").count():
            page.get_by_test_id("continue").click(timeout=2000)
            return "continue"
        selectable = page.locator('[data-action="select"]:not([disabled])')
        count = selectable.count()
        if count:
            need = 2 if count == 6 else 1
            for index in range(need):
                selectable.nth(index).click(timeout=2000)
            page.get_by_test_id("confirm-discard").click(timeout=2000)
            return "discard"
        playable = page.locator('[data-action="play"]:not([disabled])')
        if playable.count():
            playable.first.click(timeout=2000)
            return "play"
    except Exception:   # the page repainted under the click: look again next round
        return "retry"
    return ""


def play(pages: list[Page], moves: int | None = None, timeout: float = 240) -> int:
    """Play every page's seat until all show the verdict (or ``moves`` moves were made)."""
    made, deadline = 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [step(page) for page in pages]
        made += sum(what in ("discard", "play") for what in done)
        if moves is not None and made >= moves:
            return made
        if all(what == "over" for what in done):
            return made
        if not any(done) or all(what in ("over", "") for what in done):
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the game did not finish ({made} moves)")


def check_scores(host: Page, guests: list[Page]) -> None:
    session = host_session(host)
    for page in [host, *guests]:
        for side, score in enumerate(session.state.scores):   # a winner's stops at the game hole
            shown = min(score, session.state.config.target)
            expect(page.get_by_test_id(f"score-{side}")).to_have_text(str(shown))


def back_at_the_table(host: Page, guest: Page, seat: int) -> None:
    """A reloaded guest's page shows the table again (its hand may be played out: the scores) and
    the host's players list has the seat online."""
    expect(guest.get_by_test_id("score-0")).to_be_visible(timeout=30_000)
    expect(host.get_by_test_id(f"seat-{seat}")).to_have_class("seat-row online", timeout=20_000)


def chat(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def test_two_friends_play_a_whole_game_with_chat(people, site):
    host, guest = people(), people()
    link = host_table(host, site, 2)
    screenshot(host, "friends-invite")
    host.set_viewport_size({"width": 1280, "height": 800})
    join(guest, link, "Gus <b>")
    expect(host.get_by_test_id("seat-1")).to_contain_text("Gus <b>")
    expect(host.get_by_test_id("seat-1")).to_have_class("seat-row online")
    expect(guest.get_by_test_id("await-start")).to_be_visible()
    chat(guest, "hi <i>Hana</i>")
    expect(host.get_by_test_id("chat-lines")).to_contain_text("hi <i>Hana</i>")
    expect(guest.get_by_test_id("table-coach")).to_contain_text("coach off")
    host.get_by_test_id("table-coach-on").click()        # off unless the host allows it
    expect(guest.get_by_test_id("table-coach")).to_contain_text("allows the coach")
    screenshot(host, "friends-lobby")
    host.set_viewport_size({"width": 1280, "height": 800})
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
    chat(host, "good luck")
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("good luck")
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("Gus <b> sat down")
    screenshot(guest, "friends-guest-table")
    guest.set_viewport_size({"width": 1280, "height": 800})
    play([host, guest])
    check_scores(host, [guest])
    session = host_session(host)
    assert session.state.phase == "over" and session.names == ["Hana", "Gus <b>"]
    expect(guest.get_by_test_id("verdict")).to_be_visible()
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("wins the game")
    # The chat keeps to what people say (the goes and pegs are in the hand history) ...
    assert "pegs" not in guest.get_by_test_id("chat-lines").inner_text()
    # ... and a long one scrolls, showing its latest line: the list is at its bottom.
    for n in range(14):       # (a guest's chat is limited to a burst of five lines)
        chat(guest if n in (4, 9, 13) else host, f"good game, line {n}")
    expect(host.get_by_test_id("chat-lines")).to_contain_text("good game, line 13")
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("good game, line 13")
    for page in (host, guest):
        page.wait_for_function("""() => { const list = document.querySelector('[data-testid="chat-lines"]');
            return list.scrollHeight > list.clientHeight + 20
                && list.scrollTop + list.clientHeight >= list.scrollHeight - 2; }""", timeout=5000)
    # The list takes the keyboard focus (axe: scrollable-region-focusable).
    problems: list[str] = []
    for page, who in ((host, "host"), (guest, "guest")):
        check_sizes(page, f"the {who}'s game over", problems)
    assert not problems, "\n".join(problems)
    # The guest's own profile keeps the game (the host sent its record at the end): the same
    # moves as the host's, seen from seat 1.
    stored = guest.evaluate("localStorage.getItem('cribbage.profile.v2')")
    records = json.loads(stored)["records"]
    assert [(r["mode"], r["seat"]) for r in records] == [("friends", 1)]
    assert records[0]["actions"] == [str(a) for a in session.state.actions]
    # The host allowed the coach: each one's review comes from their own seat's views only, and
    # its discard figures are exactly those of the engine's walk of the whole game for that seat.
    # (The pegging's search is seeded alike, but the two interpreters may order a set's cards
    # differently, so only its presence is checked.)
    expect(guest.get_by_test_id("coach-summary")).to_be_visible()
    expect(guest.get_by_test_id("coach-review").locator(".coach-table tbody tr")).to_have_count(15)
    start = new_game(session.state.config, session.state.seed, hand_seeds=session.state.hand_seeds)
    host_records = json.loads(host.evaluate("localStorage.getItem('cribbage.profile.v2')"))["records"]
    for seat, record in ((1, records[0]), (0, host_records[0])):
        expected = coach_figures(review_game(walk(start, session.state.actions, seat), pegging=False))
        assert [discard for discard, _ in record["coach"]] == [discard for discard, _ in expected]
    screenshot(guest, "friends-guest-coach")
    guest.set_viewport_size({"width": 1280, "height": 800})
    host.get_by_test_id("new-game").click()                  # rematch: the same two, a new deal
    expect(guest.get_by_test_id("score-0")).to_have_text("0", timeout=10_000)
    expect(guest.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)


def hand_of(page: Page) -> list[str]:
    return sorted(page.get_by_test_id("hand").locator("[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"))


def test_a_guest_reloads_mid_hand_and_keeps_its_seat(people, site):
    host, guest = people(), people()
    link = host_table(host, site, 3)
    join(guest, link, "Gus")
    host.get_by_test_id("bot-2-medium").click()
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
    play([host, guest], moves=3)
    guest.wait_for_timeout(200)
    before = hand_of(guest)
    chat(guest, "brb")
    expect(host.get_by_test_id("chat-lines")).to_contain_text("brb")
    guest.reload()
    wait_ready(guest)
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=20_000)
    assert hand_of(guest) == before
    expect(guest.get_by_test_id("chat-lines")).to_contain_text("brb")
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus is back")
    assert host_session(host).names[1] == "Gus"
    play([host, guest])
    check_scores(host, [guest])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_game_goes_on_when_the_relay_restarts(people, tmp_path):
    port = free_port()
    refused = ("WebSocket connection to",)   # Chromium's own line while the relay is down
    with serve.spawn(port=port) as base:
        host, guest = people(base, refused), people(base, refused)
        link = host_table(host, base, 2)
        join(guest, link, "Gus")
        host.get_by_test_id("start-table").click()
        expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
        play([host, guest], moves=2)
    play([host, guest], moves=6)          # no relay at all: the data channel carries the game
    chat(guest, "still here")
    expect(host.get_by_test_id("chat-lines")).to_contain_text("still here")
    with serve.spawn(port=port):
        play([host, guest])
        check_scores(host, [guest])


def two_at_the_table(people, site):
    """Hana hosts a 2-player game, Gus joins, the game starts: (host, guest, invite link)."""
    host, guest = people(), people()
    link = host_table(host, site, 2)
    join(guest, link, "Gus")
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=10_000)
    return host, guest, link


def test_the_host_reloads_and_the_game_resumes(people, site):
    host, guest, link = two_at_the_table(people, site)
    play([host, guest], moves=4)
    host.wait_for_timeout(200)
    before = host_session(host).state
    host.reload()
    wait_ready(host)
    expect(host.get_by_test_id("hand")).to_be_visible()
    assert host_session(host).state == before
    expect(host.get_by_test_id("seat-1")).to_have_class("seat-row online", timeout=20_000)
    expect(guest.get_by_test_id("link-status")).to_have_count(0, timeout=20_000)
    play([host, guest])
    check_scores(host, [guest])


def test_a_stale_link_says_so(people, site):
    page = people()
    page.goto(site + f"?table={secrets.token_urlsafe(16)}&speed=instant#h={'A' * 43}")
    wait_ready(page)
    expect(page.get_by_test_id("link-status")).to_contain_text("stale", timeout=10_000)
    expect(page.get_by_test_id("join")).to_be_visible()


def test_a_link_without_the_hosts_key_connects_to_no_one(people, site):
    page = people()
    page.goto(site + f"?table={secrets.token_urlsafe(16)}&speed=instant")
    wait_ready(page)
    expect(page.get_by_test_id("reject-reason")).to_contain_text("the host's key) is missing")


def test_the_host_closes_the_table_and_the_guest_is_told(people, site):
    host, guest = people(), people()
    link = host_table(host, site, 2)
    join(guest, link, "Gus")
    expect(host.get_by_test_id("seat-1")).to_contain_text("Gus")
    host.get_by_test_id("close-table").click()
    expect(host.get_by_test_id("start")).to_be_visible()
    assert "table=" not in host.url
    expect(guest.get_by_test_id("reject-reason")).to_have_text("The host has closed this table.")


def test_a_guest_leaves_mid_game_after_confirming(people, site):
    host, guest, link = two_at_the_table(people, site)
    guest.once("dialog", lambda dialog: dialog.dismiss())       # "no": stays at the table
    guest.get_by_test_id("leave-game").click()
    expect(guest.get_by_test_id("hand")).to_be_visible()
    guest.once("dialog", lambda dialog: dialog.accept())
    guest.get_by_test_id("leave-game").click()
    expect(guest.get_by_test_id("start")).to_be_visible()
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus left", timeout=10_000)
    expect(host.get_by_test_id("stand-in-1")).to_be_visible()


def test_a_bot_sits_in_for_an_away_guest_then_hands_the_seat_back(people, site):
    host, guest, link = two_at_the_table(people, site)
    guest.goto("about:blank")                      # the tab is gone, the seat token stays
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus left", timeout=15_000)
    host.get_by_test_id("stand-in-1").click()
    expect(host.get_by_test_id("chat-lines")).to_contain_text("A bot plays for Gus")
    play([host], moves=6)                          # the bot plays Gus's cards meanwhile
    guest.goto(with_query(link, "speed=instant"))
    wait_ready(guest)
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=20_000)
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus is back")
    host.get_by_test_id("give-back-1").click()
    expect(host.get_by_test_id("chat-lines")).to_contain_text("Gus has their seat back")
    assert host_session(host).bots == [None, None]
    play([host, guest])
    check_scores(host, [guest])


def test_a_guest_on_another_protocol_version_is_told_to_reload(people, source_site):
    host, guest = people(source_site), people(source_site)
    link = host_table(host, source_site, 2)
    source = (ROOT / "web" / "friends" / "protocol.py").read_text()
    current = int(re.search(r"\nVERSION = (\d+)\n", source)[1])
    newer = source.replace(f"\nVERSION = {current}\n", f"\nVERSION = {current + 1}\n")
    guest.route("**/web/friends/protocol.py", lambda route: route.fulfill(body=newer, content_type="text/x-python"))
    guest.goto(with_query(link, "speed=instant"))
    wait_ready(guest)
    expect(guest.get_by_test_id("reject-reason")).to_contain_text("another version", timeout=15_000)
    expect(host.get_by_test_id("seat-1")).to_contain_text("Empty seat")


def test_copying_the_invite_says_so_and_then_goes(people, site):
    """'Invite link copied' is a passing word (a polite status that fades), not an alarm; where
    the browser refuses the clipboard, the same place says to copy the selected text."""
    host = people()
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = host_table(host, site, 2)
    host.get_by_test_id("copy-link").click()
    toast = host.locator(".toast")
    expect(toast).to_have_text("Invite link copied: paste it to your friends.")
    assert toast.get_attribute("role") == "status" and host.locator(".notice").count() == 0
    assert host.evaluate("navigator.clipboard.readText()") == link
    expect(toast).to_have_count(0, timeout=8000)
