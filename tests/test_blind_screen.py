"""What a blind table's screens say while a hand is being dealt: every browser shuffles and
deals in turn (docs/blind-deal.md), so for a moment a seat has no cards yet; its screen says the
hand is being dealt, never "Choose 2 cards" with none to choose or "Sending your move"."""

from test_blind_wired import BlindWire

from web.render import render
from web.table.render import DEALING, status_text


def test_the_screens_say_the_hand_is_being_dealt_until_their_cards_are_read():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    seen = []
    for _ in range(8):
        wire.step(choose=False)
        for ctl in (wire.host, gus):
            view = ctl.seat_screen.view
            if view is None:
                continue
            page = render(ctl, False, False)
            words = status_text(ctl, view)
            seen.append((len(view.hand), words))
            if not view.hand:
                assert words == DEALING
                assert 'data-testid="confirm-discard"' not in page
            else:
                assert words.startswith("Choose 2 cards for"), words
                assert 'data-testid="confirm-discard"' in page
    assert {bool(n) for n, _ in seen} == {False, True}, seen     # both moments were seen, at both pages
