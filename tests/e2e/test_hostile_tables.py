"""Tables with friends against a hostile host or a misleading link (issue 35), in real browsers.

- A host whose page is patched to stack every hand, each under a new game number (the hostile
  tester's attack, which friends once saw as "verified"): the friend's own page raises the red
  alarm, and keeps it with the game.
- A seated friend who opens a link for the same table with someone else's host pin: its seat
  token never goes there (it sits down as a newcomer, warned), and the real link still finds
  its seat. The host removes a seated friend from the lobby, and that friend's token is refused.
"""

import json
import re

import pytest
from harness import RUN_PYTHON, screenshot, spied, wait_ready, with_query
from playwright.sync_api import expect
from test_friends import host_session, host_table, join, play
from test_secure_tables import room_of

from web.friends.host import HostTable

pytestmark = pytest.mark.e2e


# The cheat: from the second hand on, every round moves to a new game number and every deck is
# the host's pick of 64 (the best hand for seat 0), as the hostile tester's modified host did.
STACK_EVERY_HAND = """
from game.engine import deal_from, shuffled_deck
from game.fair import Round
from game.scoring import score_hand
from web.friends import host as H

def renumber(dealer, old, new):
    for store in (dealer.rounds, dealer.opened, dealer.fixed):
        for key in [key for key in store if key[0] == old]:
            value = store.pop(key)
            store[new, key[1]] = Round(**dict(value.to_json(), game=new)) if store is dealer.rounds else value
    dealer.revealed = {(new if g == old else g, h) for g, h in dealer.revealed}

honest_open, honest_seed = H.HostTable.open_round, H.HostTable.seed_for

def open_round(self, game, hand):
    if hand >= 1 and self.session is not None:
        renumber(self.fair, self.games, self.games + 1)
        self.games += 1
    honest_open(self, self.playing, hand)

def seed_for(self, hand):
    state = self.session.state
    dealer = (state.dealer + 1) % state.config.players
    def mine(seed):
        cards = deal_from(state.config, dealer, shuffled_deck(seed, hand))[0][0]
        return max(score_hand(cards[:4], cards[4]).total, 0)
    return max(range(honest_seed(self, hand), honest_seed(self, hand) + 64), key=mine) % 2**63

H.HostTable.open_round, H.HostTable.seed_for = open_round, seed_for
"""


def test_a_host_that_stacks_every_hand_sets_off_the_friends_alarm(people, site):
    host, guest = people(), people()
    link = host_table(host, site, 2)
    host.evaluate(RUN_PYTHON, STACK_EVERY_HAND)
    join(guest, link, "Gus")
    host.get_by_test_id("start-table").click()
    expect(guest.get_by_test_id("hand")).to_be_visible(timeout=15_000)
    play([host, guest], moves=10)                # past the first show: hand 2 is dealt, stacked
    alarm = guest.get_by_test_id("fair-alarm")
    expect(alarm).to_be_visible(timeout=15_000)
    expect(alarm).to_contain_text("The deal check failed")
    screenshot(guest, "fair-alarm-stacked")
    guest.set_viewport_size({"width": 1280, "height": 800})
    expect(guest.get_by_test_id("fair-mark")).to_have_count(0)      # no "verified" beside it
    assert host_session(host).state.hand_no >= 1


def test_a_link_with_another_hosts_pin_never_gets_the_seat_token(people, site):
    host, guest = people(), spied(people)
    link = host_table(host, site, 3)
    join(guest, link, "Gus")
    ivy = people()
    join(ivy, link, "Ivy")
    token = json.loads(guest.evaluate("localStorage.getItem('cribbage.guest.v1')"))["token"]

    # An impostor hosts the same table id from its own browser: its link has its own pin.
    impostor = spied(people)
    forged = HostTable(room_of(link), 3, 61, "Hana").to_json()
    impostor.context.add_init_script(f"if (location.protocol === 'http:' && !sessionStorage.getItem('once')) "
                                     f"{{ sessionStorage.setItem('once', '1'); "
                                     f"localStorage.setItem('cribbage.host.v1', {json.dumps(forged)}); }}")
    impostor.goto(with_query(link.split("#")[0], "speed=instant"))
    expect(impostor.get_by_test_id("lobby")).to_be_visible(timeout=20_000)
    expect(impostor.get_by_test_id("invite-link")).to_have_value(re.compile(r"#h=[\w-]{43}"))
    evil = impostor.get_by_test_id("invite-link").input_value()
    assert room_of(evil) == room_of(link) and evil.split("#")[1] != link.split("#")[1]

    guest.goto(with_query(evil, "speed=instant"))     # Gus opens the impostor's link for "his" table
    wait_ready(guest)
    expect(guest.get_by_test_id("join")).to_be_visible()
    expect(guest.locator(".notice")).to_contain_text("another host's key")
    guest.wait_for_timeout(1500)
    stolen = impostor.evaluate("localStorage.getItem('cribbage.host.v1')")
    assert token not in stolen and HostTable.from_json(stolen).seats[1].kind == "open"

    guest.goto(with_query(link, "speed=instant"))     # the real link: the seat is still Gus's
    expect(guest.get_by_test_id("lobby")).to_be_visible(timeout=20_000)
    expect(host.get_by_test_id("seat-1")).to_have_class("seat-row online", timeout=20_000)
    assert json.loads(guest.evaluate("localStorage.getItem('cribbage.guest.v1')"))["token"] == token

    host.get_by_test_id("remove-2").click()           # the host asks Ivy to leave
    expect(ivy.get_by_test_id("reject-reason")).to_contain_text("asked you to leave")
    expect(host.get_by_test_id("seat-2")).to_contain_text("Empty seat")
    ivy.reload()                                      # her page forgot the seat; the table keeps it free
    wait_ready(ivy)
    expect(ivy.get_by_test_id("join")).to_be_visible(timeout=20_000)
    expect(host.get_by_test_id("seat-2")).to_contain_text("Empty seat")
