"""Cheats at a blind table (issue 38) in real browsers, each a page whose Python is patched in
the browser (as a modified page would run it):

- a friend's page that plays a card it was not dealt (its proof is for the card it holds): every
  other page, the host's too, raises the red alarm naming that seat, and no other page shows the
  false card on the table; the cheat's page, whose own hand took the card, holds back its keys,
  and after the host's wait the hand is dealt again with a bot in its seat;
- a host's page that relays, in a friend's name, a discard that friend did not make: the
  friend's own page catches it (the others cannot: messages are not signed) and raises the alarm
  naming the host;
- a host's page that spoils its own shuffle (one value twice): every friend's page raises the
  alarm naming the host at once.
"""

from __future__ import annotations

import json
import re

import pytest
from blind_pages import probe, watch
from harness import RUN_PYTHON
from playwright.sync_api import Page, expect
from test_blind_tables import set_wait
from test_friends import host_table, join, step

pytestmark = pytest.mark.e2e

# A friend's page that plays, once, a card it was not dealt: one that fits the count and is not
# public, with the proof made for the card it holds at that position. Its page trusts its own
# messages (as a patched page would), so its own hand goes on as if the card were played.
PLAY_A_CARD_NOT_DEALT = """
import sys, types
from game.cards import DECK
from web.friends import blind_seat
from web.friends.blind_flow import due
_honest = blind_seat.BlindSeat.next_body
cheated = sys.modules.setdefault("blind_cheat", types.ModuleType("blind_cheat")).__dict__.setdefault("cards", [])

def _next_body(self, choose):
    playing = due(self.flow).step == "play"
    body = yield from _honest(self, choose)
    if body is not None and body.get("step") == "reveal" and playing and not cheated:
        public = self.flow.public
        shown = {card for card in self.flow.hand.cards if card is not None}
        card = next(c for c in DECK if c not in self.mine.values() and c not in shown and public.count + c.value <= 31)
        body = dict(body, card=str(card))
        self.pending = body
        cheated.append(str(card))
    return body

blind_seat.BlindSeat.next_body = _next_body
"""

# The host's page relays, as seat 2's, a discard of two other positions of seat 2's hand.
FORGE_A_DISCARD = """
import json, sys, types
from web.friends import blind_table
_honest = blind_table.BlindTable.receive
forged = sys.modules.setdefault("blind_cheat", types.ModuleType("blind_cheat")).__dict__.setdefault("bodies", [])

def _receive(self, seat, text):
    message = json.loads(text)
    body = message.get("body", {})
    if body.get("step") == "discard" and not forged:
        theirs = [j for j in self.setup.positions_of(seat) if j not in body["positions"]]
        body = dict(body, positions=theirs[:len(body["positions"])])
        forged.append(body)
        text = json.dumps(dict(message, body=body), separators=(",", ":"))
    return (yield from _honest(self, seat, text))

blind_table.BlindTable.receive = _receive
"""

# The host's page puts one value twice in its own shuffled deck (the first hand's).
SPOIL_THE_SHUFFLE = """
import sys, types
from web.friends import blind_seat
_honest = blind_seat.BlindSeat.next_body
spoiled = sys.modules.setdefault("blind_cheat", types.ModuleType("blind_cheat")).__dict__.setdefault("bodies", [])

def _next_body(self, choose):
    body = yield from _honest(self, choose)
    if body is not None and body.get("step") == "shuffle" and not spoiled:
        body = dict(body, deck=body["deck"][:1] * 2 + body["deck"][2:])
        self.pending = body
        spoiled.append(body["seat"])
    return body

blind_seat.BlindSeat.next_body = _next_body
"""


def alarm_names(page: Page, who: str) -> None:
    """The page says the deal check failed, and shows the red alarm naming ``who``."""
    expect(page.locator("body")).to_contain_text("deal check failed", timeout=30_000)
    alarm = page.get_by_test_id("fair-alarm")
    expect(alarm).to_be_visible(timeout=5_000)
    expect(alarm).to_contain_text(re.compile(who))


def two_at_a_table(people, site, cheat: str):
    """Hana hosts a 2-player table with ``cheat`` patched into her page's Python; Gus joins; the game starts."""
    host, gus = people(), people()
    link = host_table(host, site, 2, blind=True)
    join(gus, link, "Gus")
    for page in (host, gus):
        watch(page)
    host.evaluate(RUN_PYTHON, cheat)
    host.get_by_test_id("start-table").click()
    return host, gus


def test_a_host_that_relays_a_discard_its_friend_did_not_make_is_caught_by_that_friend(people, site):
    host, gus = two_at_a_table(people, site, FORGE_A_DISCARD)
    for _ in range(600):          # until Gus has discarded (the host relays its forgery)
        for page in (host, gus):
            step(page)
        if probe(gus).get("alarms") or gus.locator("body").inner_text().count("deal check failed"):
            break
        host.wait_for_timeout(50)
    alarm_names(gus, r"the host relayed, as seat 2's, a message this browser did not send")
    seen = probe(gus)
    assert seen["step"] == "discard" and len(seen["own"]) == 6      # Gus's hand never took the forged discard
    forged = json.loads(host.evaluate(RUN_PYTHON, "import json, sys\njson.dumps(sys.modules['blind_cheat'].bodies)"))
    assert forged and forged[0]["seat"] == 1


def test_a_host_that_spoils_its_shuffle_is_named_by_its_friends_page(people, site):
    host, gus = two_at_a_table(people, site, SPOIL_THE_SHUFFLE)
    alarm_names(gus, r"seat 1, shuffle: the deck holds a value twice")
    # Nothing was dealt from that deck: the hand is dealt again, in the open, and the game goes on.
    expect(gus.get_by_test_id("chat-lines")).to_contain_text("The hand is dealt again")
    expect(gus.get_by_test_id("hand").locator("[data-card]:not([data-card=back])")).to_have_count(6, timeout=60_000)
    assert probe(gus)["hand"] == [0, 1]
    record = json.loads(host.evaluate("localStorage.getItem('cribbage.host.v1')"))["blind_game"]["hands"]
    assert "twice" in record[0]["alarms"][0] and record[0]["deck"] is None


def pile(page: Page) -> list[str]:
    return page.get_by_test_id("pile").locator("[data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")


def test_a_friend_that_plays_a_card_it_was_not_dealt_is_named_on_every_other_page(people, site):
    host, gus, ivy = people(), people(), people()
    link = host_table(host, site, 3, blind=True)
    join(gus, link, "Gus")
    join(ivy, link, "Ivy")
    for page in (host, gus, ivy):
        watch(page)
    gus.evaluate(RUN_PYTHON, PLAY_A_CARD_NOT_DEALT)
    host.get_by_test_id("start-table").click()
    honest = [host, ivy]
    cheated: list[str] = []
    for _ in range(2000):         # each page plays its first choices until Gus has cheated
        for page in (host, gus, ivy):
            step(page)
        cheated = json.loads(gus.evaluate(RUN_PYTHON, "import json, sys\njson.dumps(sys.modules['blind_cheat'].cards)"))
        if cheated:
            break
        host.wait_for_timeout(50)
    assert cheated, "Gus never played"
    for page in honest:
        alarm_names(page, r"seat 2, reveal: position \d+: the proof that it is \w\w does not hold")
    # The false card is never on the honest pages' table, and their hand goes no further: it waits
    # for every seat's keys, so that the audit can say who cheated.
    for _ in range(20):
        for page in (host, gus, ivy):
            step(page)
        host.wait_for_timeout(100)
    for page in honest:
        seen = probe(page)
        assert cheated[0] not in pile(page) and cheated[0] not in seen["public"]
        assert seen["alarms"][0][:2] == [1, "reveal"] and seen["step"] == "keys", seen
    # Gus's page holds back its keys (its own hand took the false card): after the host's wait the
    # hand is dealt again, in the open, with a bot in his seat.
    set_wait(host, 2.0)
    for page in honest:
        expect(page.get_by_test_id("chat-lines")).to_contain_text("The hand is dealt again: a bot plays for Gus",
                                                                 timeout=30_000)
    record = json.loads(host.evaluate("localStorage.getItem('cribbage.host.v1')"))["blind_game"]["hands"]
    assert "does not hold" in record[0]["alarms"][0] and record[0]["deck"] is None
