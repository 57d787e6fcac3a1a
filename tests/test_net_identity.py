"""The host's pinned identity and the offer book, under CPython (`web.net.identity`, `web.net.offers`)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from web.net import identity
from web.net.offers import MAX_PENDING, PENDING_FOR, RETRY_AFTER, OfferBook

OFFER = json.loads((Path(__file__).parent / "data" / "chromium_sdp.json").read_text())["offer"]
HOST_PRINT = identity.fingerprints(OFFER)[0][1]
HOST_PIN = identity.pin_from_hex(HOST_PRINT)


def test_a_real_chromium_offer_matches_its_own_pin_only():
    assert identity.offer_matches(OFFER, HOST_PIN)
    other = identity.pin_from_hex("00:" * 31 + "00")
    assert not identity.offer_matches(OFFER, other)


def test_an_impostors_offer_is_refused_however_it_names_its_certificate():
    impostor = OFFER.replace(HOST_PRINT, "11:" * 31 + "11")
    assert not identity.offer_matches(impostor, HOST_PIN)
    # Naming the host's fingerprint beside its own, or another algorithm, is no way in either.
    both = impostor.replace("a=setup:", f"a=fingerprint:sha-256 {HOST_PRINT}\r\na=setup:")
    assert not identity.offer_matches(both, HOST_PIN)
    sha1 = OFFER.replace("a=fingerprint:sha-256", "a=fingerprint:sha-1")
    assert not identity.offer_matches(sha1, HOST_PIN)
    assert not identity.offer_matches(OFFER.replace("a=fingerprint", "a=fingerprinx"), HOST_PIN)


@given(st.text(max_size=300))
def test_any_text_is_an_answer_never_an_exception(sdp):
    assert identity.offer_matches(sdp, HOST_PIN) in (True, False)
    assert identity.clean_pin(sdp) in (None, sdp)


def test_the_fragment_carries_pin_and_offer():
    assert identity.fragment_params(f"#h={HOST_PIN}&offer=O1abc") == {"h": HOST_PIN, "offer": "O1abc"}
    assert identity.clean_pin(identity.fragment_params("#h=short").get("h")) is None


def test_one_pending_offer_per_member_and_a_total_cap():
    """Issue 11 (4): six members asking 20 times a second for 10 s get at most one live offer
    each; the total never passes the cap; offers given up free their place."""
    book, made = OfferBook(), 0
    for tick in range(200):
        now = tick / 20
        for member in range(6):
            if book.ask(f"m{member}", now) in ("new", "replace"):
                made += 1
        assert book.pending_count(now) <= 6
    assert made <= 6 * (1 + int(10 / RETRY_AFTER))
    crowd = OfferBook()
    verdicts = [crowd.ask(f"m{n}", 0.0) for n in range(MAX_PENDING + 5)]
    assert verdicts.count("new") == MAX_PENDING and verdicts.count("full") == 5
    assert crowd.ask("late", PENDING_FOR) == "new"      # the old ones were given up


@pytest.mark.parametrize("event", ["connected", "forget"])
def test_a_connected_or_departed_member_frees_its_place(event):
    book = OfferBook(max_pending=1)
    assert book.ask("a", 0.0) == "new"
    getattr(book, event)("a")
    assert book.ask("b", 0.1) == "new"
