"""Complete games against the bot through the real page, checked against the engine.

The page saves its table in localStorage after every move; the test reads that save, replays
it with the engine under CPython, and compares every number the page shows with the engine's.
"""

import json
import re

import pytest
from harness import screenshot, wait_ready
from tables import load, saves, thirty_one
from playwright.sync_api import Page, expect

from game.engine import OVER
from web.session import Session
from web.table.motion import MORPH_JS

pytestmark = pytest.mark.e2e

ACTIONABLE = ('[data-testid="verdict"], [data-testid="show"], '
              '[data-action="select"], [data-action="play"]')


def open_table(page: Page, site: str, players: int, level: str, target: int = 61, name="Tester"):
    page.goto(site + "?speed=instant")
    wait_ready(page)
    page.get_by_test_id("name").fill(name)
    page.locator(f'label.choice:has(input[name="level"][value="{level}"])').click()
    page.locator(f'label.choice:has(input[name="players"][value="{players}"])').click()
    page.locator(f'label.choice:has(input[name="target"][value="{target}"])').click()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()


def engine_session(page: Page) -> Session:
    """The page's saved table, rebuilt (and so validated) by the engine under CPython."""
    return Session.from_json(page.evaluate("localStorage.getItem('cribbage.table.v1')"))


def check_against_engine(page: Page) -> Session:
    session = engine_session(page)
    view = session.view(0)
    for side, score in enumerate(view.scores):   # a winner's score stops at the game hole
        expect(page.get_by_test_id(f"score-{side}")).to_have_text(str(min(score, view.config.target)))
    if not page.get_by_test_id("show").count():
        if view.phase == "play":
            expect(page.get_by_test_id("count")).to_have_text(str(view.count))
        else:                # (no count to say while the crib is chosen, nor once the game is over)
            expect(page.get_by_test_id("count")).to_have_count(0)
        shown = page.get_by_test_id("hand").locator("[data-card]")
        assert sorted(shown.evaluate_all("cards => cards.map(c => c.dataset.card)")) == \
            sorted(map(str, view.hand))
        if view.starter:
            expect(page.get_by_test_id("starter").locator("[data-card]")).to_have_attribute(
                "data-card", str(view.starter))
    return session


def try_an_unplayable_card(page: Page) -> bool:
    """Click a dimmed card by force: nothing may change. True if there was one."""
    dimmed = page.get_by_test_id("hand").locator("button.dim")
    if not dimmed.count():
        return False
    before = engine_session(page).state
    expect(dimmed.first).to_be_disabled()
    dimmed.first.click(force=True)
    assert engine_session(page).state == before
    return True


def play_game(page: Page, checks_every: int = 1, shots: bool = False) -> Session:
    """Play the player's seat until the verdict; returns the engine's final session.
    With ``shots``, the first show is saved as a screenshot."""
    moves = 0
    for _ in range(3000):
        page.wait_for_selector(ACTIONABLE, timeout=30_000)
        if page.get_by_test_id("verdict").count():
            return check_against_engine(page)
        if page.get_by_test_id("show").count():
            check_against_engine(page)
            if shots:
                screenshot(page, "show")
                page.set_viewport_size({"width": 1280, "height": 800})
                shots = False
            page.get_by_test_id("continue").click()
            continue
        selectable = page.locator('[data-action="select"]')
        if selectable.count():
            need = 2 if selectable.count() == 6 else 1
            for index in range(need):
                selectable.nth(index).click()
            page.get_by_test_id("confirm-discard").click()
        else:
            try_an_unplayable_card(page)
            playable = page.locator('[data-action="play"]')
            if not playable.count():
                continue
            playable.first.click()
        moves += 1
        if moves % checks_every == 0:
            page.wait_for_selector(ACTIONABLE, timeout=30_000)
            check_against_engine(page)
    raise AssertionError("the game did not finish")


# Every level at the 2-player table, and the hard bot (the heaviest search) at 3 and 4: each bot
# at every table size plays legal whole games under CPython (tests/test_bots.py, test_random_games.py).
@pytest.mark.parametrize("players, level", [
    (2, "easy"), (2, "medium"), (2, "hard"),
    (3, "hard"),
    (4, "hard"),
])
def test_a_complete_game_against_the_bot(page, site, players, level):
    open_table(page, site, players, level)
    session = play_game(page, checks_every=1 if level == "medium" else 4,
                        shots=(players, level) == (2, "medium"))
    assert session.state.phase == OVER
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_be_visible()
    winner = session.side_names()[session.state.winner]
    verb = "win" if players == 4 else "wins"     # partners win together
    expect(verdict).to_contain_text("You win!" if session.state.winner == 0 else f"{winner} {verb}")
    if players == 2 and level == "medium":
        screenshot(page, "verdict")
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("score-0")).to_have_text("0")


def test_screens_at_desktop_and_phone_size(page, site):
    open_table(page, site, 4, "easy")
    screenshot(page, "table-discard")
    page.locator('[data-action="select"]').first.click()
    screenshot(page, "table-selected")
    page.get_by_test_id("confirm-discard").click()
    page.wait_for_selector('[data-action="play"], [data-testid="show"]')
    page.wait_for_timeout(50)
    screenshot(page, "table-play")
    page.goto(site)
    wait_ready(page)
    screenshot(page, "table-resumed")


def test_a_reload_resumes_the_game_in_progress(page, site):
    open_table(page, site, 2, "easy", target=121)
    selectable = page.locator('[data-action="select"]')
    selectable.nth(0).click()
    selectable.nth(1).click()
    page.get_by_test_id("confirm-discard").click()
    page.wait_for_selector('[data-action="play"], [data-testid="show"]')
    before = engine_session(page).state
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("hand")).to_be_visible()
    assert engine_session(page).state == before
    check_against_engine(page)


def test_keyboard_only_discard_and_play(page, site):
    open_table(page, site, 2, "easy")
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(page.locator('[data-action="select"][aria-pressed="true"]')).to_have_count(2)
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-action="play"]:not([disabled]), [data-testid="show"]')
    if page.locator('[data-action="play"]').count():
        before = len(engine_session(page).state.actions)
        page.keyboard.press("1")
        page.wait_for_function(
            f"JSON.parse(localStorage.getItem('cribbage.table.v1')).state.length > 0 && "
            f"JSON.parse(JSON.parse(localStorage.getItem('cribbage.table.v1')).state).actions.length > {before}")


def test_a_damaged_save_is_refused_with_a_message(page, site):
    page.goto(site)
    wait_ready(page)
    page.evaluate("localStorage.setItem('cribbage.table.v1', '{\"v\": 1, \"state\": \"{}\"}')")
    page.reload()
    wait_ready(page)
    expect(page.get_by_role("alert")).to_contain_text("could not be restored")
    expect(page.get_by_test_id("start")).to_be_visible()
    assert json.loads(page.evaluate("JSON.stringify(localStorage.getItem('cribbage.table.v1'))")) is None


def test_a_played_card_travels_from_the_hand_to_the_pile(page, site):
    """At the normal pace the card the player plays is the same element in the pile (keyed by
    card, web.table.motion), moving there with a Web Animation rather than appearing."""
    load(page, site, saves(2)["play"])       # (saved at the instant pace; this page plays at normal)
    page.goto(site)
    wait_ready(page)
    card = page.locator('[data-action="play"]:not([disabled])').first
    key = card.get_attribute("data-key")
    was = card.bounding_box()
    card.click()
    page.wait_for_function("""(key) => {
        const el = document.querySelector(`[data-key="${key}"]`);
        return el !== null && el.closest('[data-testid="pile"]') !== null && el.getAnimations().length > 0;
    }""", arg=key, polling="raf", timeout=5000)
    # It sets off from the hand: its new place, moved by the first keyframe's offset, is the old one.
    start, now = page.evaluate("""(key) => {
        const el = document.querySelector(`[data-key="${key}"]`);
        const [animation] = el.getAnimations();
        const start = animation.effect.getKeyframes()[0].transform;
        animation.finish();
        const box = el.getBoundingClientRect();
        return [start, { x: box.x, y: box.y, width: box.width, height: box.height }];
    }""", key)
    dx, dy = (float(n) for n in re.match(r"translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\)", start).groups())
    assert abs(now["x"] + now["width"] / 2 + dx - (was["x"] + was["width"] / 2)) < 2
    assert abs(now["y"] + now["height"] / 2 + dy - (was["y"] + was["height"] / 2)) < 2
    assert abs(dy) > 20, "the pile is above the hand"


def test_a_peg_moves_by_a_transform(page, site):
    """A peg that moves glides by a transition of its transform, which the browser runs on its
    compositor (a transition of cx would restyle and repaint the board every frame)."""
    load(page, site, saves(2)["play"])       # (the bot pairs the card played here)
    page.goto(site)
    wait_ready(page)
    page.locator('[data-action="play"]:not([disabled])').first.click()
    page.wait_for_function("""() => [...document.querySelectorAll('.pegboard .peg')].some((peg) =>
        peg.getAnimations().some((a) => a.transitionProperty === "transform" && a.playState === "running"))""",
        polling="raf", timeout=10000)
    assert page.evaluate("document.querySelectorAll('.pegboard .peg[cx], .pegboard .peg[cy]').length") == 0


def test_the_cards_left_in_the_hand_stay_where_they_are_in_the_page(page, site):
    """Playing the first card of the hand takes that card out and leaves the others be: a card
    taken out and put back (moved) would have its drawing built anew (web.table.motion)."""
    load(page, site, saves(2)["play"])
    keys = page.locator('[data-testid="hand"] [data-action="play"]').evaluate_all("cards => cards.map(c => c.dataset.key)")
    page.evaluate("""() => {
        window.__handChanges = [];
        new MutationObserver((records) => records.forEach((r) => r.removedNodes.forEach(
            (n) => window.__handChanges.push(n.dataset?.key)))).observe(
            document.querySelector('[data-testid="hand"]'), { childList: true });
    }""")
    page.locator(f'[data-key="{keys[0]}"]').click()
    expect(page.locator(f'[data-testid="pile"] [data-key="{keys[0]}"]')).to_have_count(1)
    assert page.evaluate("window.__handChanges") == [keys[0]]
    # By key, not by playability: while the bot answers, the cards left are not playable.
    assert page.locator('[data-testid="hand"] [data-key^="card-"]').evaluate_all(
        "cards => cards.map(c => c.dataset.key)") == keys[1:]


def test_the_page_gets_every_card_face_while_it_is_idle(page, site):
    """Soon after the page is up, its sprite holds all 52 faces, once each: a show or a deal
    then brings cards whose faces are already there (web.table.motion.Morph.add_faces_ahead)."""
    load(page, site, saves(2)["play"])
    page.wait_for_function("document.querySelectorAll('.card-sprite symbol[id^=\"face-\"]').length >= 52",
                           timeout=10000)
    ids = page.evaluate("[...document.querySelectorAll('.card-sprite symbol[id^=\"face-\"]')].map((s) => s.id)")
    assert len(ids) == len(set(ids)) == 52


def test_the_hand_history_is_drawn_when_opened(page, site):
    """Beside the table on a wide screen the history starts open; on a phone, under the table,
    closed. Closed, it carries no lines (each move would change every line on the page); opened,
    by mouse or keyboard, it shows them newest first and keeps up with the game."""
    page.set_viewport_size({"width": 390, "height": 844})
    load(page, site, saves(2)["play"])
    history = page.get_by_test_id("log")
    assert history.locator("li").count() == 0 and not history.evaluate("(el) => el.open")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    page.wait_for_selector('[data-testid="hand"]')
    expect(history.locator("li").first).to_be_visible()
    history.locator("summary").click()
    expect(history.locator("li")).to_have_count(0)
    history.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(history.locator("li").first).to_be_visible()
    lines = history.locator("li").count()
    session = engine_session(page)
    assert history.locator("li").first.inner_text() == session.log[-1] and lines == min(120, len(session.log))
    page.locator('[data-action="play"]:not([disabled])').first.click()
    expect(history.locator("li")).not_to_have_count(lines)      # the play's line, on top
    page.wait_for_selector('[data-action="play"]:not([disabled]), [data-testid="show"]')
    page.wait_for_timeout(300)                                   # (the bot's reply drawn too)
    shown = history.locator("li").all_inner_texts()
    assert shown == list(reversed(engine_session(page).log[-120:])) and len(shown) > lines
    history.locator("summary").click()
    expect(history.locator("li")).to_have_count(0)


def test_the_last_card_stays_on_the_pile_for_a_beat_before_the_show(page, site):
    """At the normal pace, the move that ends the play leaves the table as the play ended for a
    beat: the last card on the pile, its point said in the status, no show yet. The show then
    opens by itself (web.table.screen)."""
    load(page, site, saves(2)["play"])
    page.goto(site)                          # (the normal pace)
    wait_ready(page)
    status = page.get_by_test_id("status")
    for _ in range(12):
        page.wait_for_function("""() => document.querySelector('[data-action="play"]:not([disabled])')
            || document.querySelector('[data-testid="status"]').textContent.includes('The show is next')""", timeout=10_000)
        if "The show is next" in status.text_content():
            break
        page.locator('[data-action="play"]:not([disabled])').first.click()
    last = engine_session(page).state.actions[-1].card     # (the engine has dealt the next hand)
    expect(page.get_by_test_id("pile").locator(f'[data-card="{last}"]')).to_have_count(1)
    expect(status).to_contain_text(re.compile(r"(last card|thirty-one) for \d"))
    assert page.get_by_test_id("show").count() == 0
    expect(page.get_by_test_id("show")).to_be_visible(timeout=5000)
    expect(page.get_by_test_id("announce")).to_contain_text("The show:")


def test_a_31_stays_on_the_pile_for_a_beat_with_its_count_then_the_pile_clears(page, site):
    """Issue 37: the 31st card went to the pile and the pile cleared in the same repaint (the
    count 30 -> 0, the card never seen there). Now the count's end is held for a beat: the card
    on the pile, the count 31, 'thirty-one for 2' by the pile; then a fresh count."""
    save, card = thirty_one(2)
    load(page, site, save)
    page.goto(site)                          # (the normal pace)
    wait_ready(page)
    page.locator(f'[data-action="play"][data-arg="{card}"]').click()
    pile, count = page.get_by_test_id("pile"), page.get_by_test_id("count")
    expect(pile.locator(f'[data-card="{card}"]')).to_have_count(1)
    expect(count).to_have_text("31")
    expect(page.get_by_test_id("pile-callout")).to_contain_text("thirty-one for 2")
    expect(pile.locator(f'[data-card="{card}"]')).to_have_count(0, timeout=5000)
    assert int(count.text_content()) < 31     # (the bot may have led the next count by now)


def test_a_four_player_hint_stays_while_the_bots_discard_and_the_hand_stays_playable(page, site):
    """Issue 37's blocker: at 4 players (at the normal pace, so the bots discard after the
    Hint) the hint vanished as each bot's discard moved the table on, and the repaint that took
    it away rebuilt the hand from stubs: five blank, dead buttons."""
    page.goto(site)
    wait_ready(page)
    page.locator('label.choice:has(input[name="players"][value="4"])').click()
    page.get_by_test_id("start-game").click()
    page.get_by_test_id("hint-button").click()
    expect(page.get_by_test_id("hint-line")).to_be_visible()
    expect(page.locator(".seat .badge.done")).to_have_count(3, timeout=10_000)     # the three bots discarded
    expect(page.get_by_test_id("hint-line")).to_be_visible()
    cards = page.get_by_test_id("hand").locator('[data-action="select"]')
    expect(cards).to_have_count(5)
    assert all(box["width"] > 30 for box in cards.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().toJSON())"))
    cards.first.click()
    page.get_by_test_id("confirm-discard").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(4)
    # The morph itself: a part built anew (its place shifted) takes the page's own elements
    # for the stubs inside it, instead of leaving the stubs as blank buttons.
    kept = page.evaluate("""(morphJs) => {
        const morph = eval(morphJs), root = document.createElement("div");
        morph(root, '<section><p>hint</p><div class="hand"><button data-key="k1">7♣</button></div></section>', 0, "");
        const button = root.querySelector('[data-key="k1"]');
        morph(root, '<section><div class="hand"><button data-key="k1" data-same></button></div></section>', 0, "");
        const now = root.querySelector('[data-key="k1"]');
        return [now === button, now.textContent, root.querySelectorAll("[data-same]").length];
    }""", MORPH_JS)
    assert kept == [True, "7♣", 0]


TONES = """() => { window.tones = [];
  const set = AudioParam.prototype.setValueAtTime;
  AudioParam.prototype.setValueAtTime = function (value, when) { window.tones.push(value); return set.call(this, value, when); };
}"""


def test_the_table_is_heard_once_the_sound_is_on(page, site):
    """Off at first (a page should be quiet); the speaker turns it on, with a tock to say so;
    then a card laid, points pegged and the player's turn each play their tones (web/sound.py's
    VOICES: 320 Hz a card, 1250 a peg, 660 then 880 the turn). Off again, the table is silent."""
    page.add_init_script(f"({TONES})()")
    load(page, site, saves(2)["play"])
    assert page.evaluate("window.tones.length") == 0
    page.get_by_test_id("sound").click()
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "true")
    assert 1250 in page.evaluate("window.tones")
    page.evaluate("window.tones = []")
    page.locator('[data-action="play"]:not([disabled])').first.click()
    page.wait_for_selector('[data-action="play"]:not([disabled]), [data-testid="show"]')
    heard = page.evaluate("window.tones")
    assert 320 in heard, heard                       # my card, and the bot's
    if page.locator('[data-action="play"]:not([disabled])').count():
        assert 660 in heard and 880 in heard, heard  # my turn again
    page.get_by_test_id("sound").click()
    expect(page.get_by_test_id("sound")).to_have_attribute("aria-pressed", "false")
    page.evaluate("window.tones = []")
    if page.locator('[data-action="play"]:not([disabled])').count():
        page.locator('[data-action="play"]:not([disabled])').first.click()
        page.wait_for_timeout(300)
    assert page.evaluate("window.tones") == []


def test_the_table_menu_opens_with_esc_and_leads_everywhere(page, site):
    """Issue 37: a menu in every phase (Esc or the Menu button): the rules, the settings and the
    statistics, a new game (asked to confirm mid-game), and Leave, after which the start screen
    offers the game back."""
    open_table(page, site, 2, "easy")
    menu = page.get_by_test_id("menu")
    page.keyboard.press("Escape")
    expect(menu).to_be_visible()
    for item in ("menu-new-game", "menu-settings", "menu-stats", "menu-rules", "menu-leave", "menu-close"):
        expect(page.get_by_test_id(item)).to_be_visible()
    page.keyboard.press("Escape")                       # Esc closes it too
    expect(menu).to_have_count(0)
    page.get_by_test_id("menu-open").click()
    page.get_by_test_id("menu-rules").click()
    expect(page.get_by_test_id("rules")).to_contain_text("15 or 31 for 2")
    page.get_by_test_id("menu-close").click()
    expect(page.get_by_test_id("rules")).to_have_count(0)
    expect(page.get_by_test_id("hand")).to_be_visible()
    page.get_by_test_id("menu-open").click()
    page.get_by_test_id("menu-settings").click()
    expect(page.get_by_test_id("settings")).to_be_visible()
    page.keyboard.press("Escape")                       # (the settings' own keys: not the table's menu)
    expect(menu).to_have_count(0)
    page.locator('[data-action="close-screen"]').first.click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    page.get_by_test_id("menu-open").click()
    page.get_by_test_id("menu-stats").click()
    expect(page.get_by_test_id("stats")).to_be_visible()
    page.locator('[data-action="close-screen"]').first.click()
    dealt = engine_session(page).state.seed
    page.get_by_test_id("menu-open").click()
    page.once("dialog", lambda dialog: dialog.dismiss())     # mid-game: asked, and declined
    page.get_by_test_id("menu-new-game").click()
    assert engine_session(page).state.seed == dealt
    expect(menu).to_be_visible()                        # (declined: the menu stays open)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("menu-new-game").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    page.wait_for_function("(seed) => JSON.parse(localStorage.getItem('cribbage.table.v1')).seed !== seed", arg=dealt)
    page.get_by_test_id("menu-open").click()
    page.get_by_test_id("menu-leave").click()
    expect(page.get_by_test_id("start")).to_be_visible()
    page.locator('[data-action="resume"]').click()           # the game waits: "Back to the game"
    expect(page.get_by_test_id("hand")).to_be_visible()
