"""Five-card cribbage and counting it yourself (muggins) at a table with friends, under CPython
over `test_host`'s pure host and scripted guests: the host's lobby choice reaches the guests
and the game; a whole five-card game is dealt fairly and leaks nothing; a guest's short claim
is taken by the other person's muggins (a guest's, through its outbox, or the host's), or
passed, or taken by a bot by its level; a guest cannot claim or call for another seat nor on
its own claim; a spectator of a muggins game sees no card or count before it is public."""

import json
import random

import pytest

from game.actions import MUGGINS, PASS, Action
from game.engine import OVER
from game.errors import ParseError
from test_host import Wire, check_secrecy, play_to_the_end
from test_watch import check_public, public_cards, watch, watched
from web.friends import protocol
from web.friends.host import HostTable
from web.friends.lobby import render_lobby
from web.friends.protocol import ProtocolError, parse
from web.render import render
from web.table.render import claim_text


def seated(wire, names=("Gus",), length=None, muggins=False):
    """The host chooses the game in the lobby, friends sit down, and the game begins."""
    if length is not None:
        wire.host.command("table-length", length)
    wire.host.command("table-muggins", "on" if muggins else "off")
    assert not wire.host.error, wire.host.error
    guests = [wire.join(f"conn-{n + 1}", name) for n, name in enumerate(names)]
    wire.host.command("start-table")
    wire.pump()
    assert wire.table.session is not None
    return guests


def fair_and_secret(wire, seed=11, claims=()):
    """Every message each guest received hid what it must (`test_host.check_secrecy`; a claim
    waiting shows the cards being counted, the crib too, as they are laid down, and hides what
    they make) and every hand was dealt fairly."""
    for log in wire.received.values():
        for before, after, seat, text in log:
            check_secrecy(before, after, seat, counted_aloud(after, text), seed)
    for guest in wire.guests.values():
        if guest.seat is not None:
            assert {verdict for _, verdict, _ in guest.fair.marks()} == {"verified"}, guest.fair.alarms


def counted_aloud(after, text):
    """``text`` without the cards of the claim waiting at ``after`` (laid down to be counted:
    public then), once checked that what they make is hidden until claimed."""
    data = json.loads(text)
    waiting = (data.get("view") or {}).get("claim")
    if waiting is None:
        return text
    assert after is not None and after.claim is not None
    assert waiting["cards"].split() == [str(card) for card in after.claim.cards]
    if waiting["claimed"] is None:
        assert waiting["breakdown"] == {"total": 0, "items": []}, "what the cards make is hidden until claimed"
    data["view"] = dict(data["view"], claim=dict(waiting, cards=""))
    return json.dumps(data)


def test_the_host_chooses_five_card_and_muggins_in_the_lobby_and_the_guests_read_it():
    wire = Wire(2)
    gus = wire.join("conn-1", "Gus")
    assert 'data-testid="table-length-five"' in render_lobby(wire.host)
    wire.host.command("table-length", "five")
    wire.host.command("table-muggins", "on")
    wire.pump()
    assert gus.table["variant"] == "five" and gus.table["target"] == 61 and gus.table["muggins"] is True
    lobby = render_lobby(gus)
    assert "five-card cribbage, game to 61" in lobby and "Count it yourself: on" in lobby
    assert any("muggins" in line["text"] for line in gus.chat)
    wire.host.command("table-length", "121")
    wire.pump()
    assert (gus.table["variant"], gus.table["target"]) == ("standard", 121)
    saved = HostTable.from_json(wire.table.to_json())
    assert (saved.variant, saved.target, saved.muggins) == ("standard", 121, True)
    older = {k: v for k, v in json.loads(wire.table.to_json()).items() if k not in ("variant", "muggins")}
    saved = HostTable.from_json(json.dumps(older))          # saved before five-card and muggins
    assert (saved.variant, saved.muggins) == ("standard", False)


def test_a_three_or_four_player_table_refuses_five_card_with_the_engine_s_words():
    engine = "five-card cribbage is played by 2 players to 61"
    with pytest.raises(ParseError, match=engine):
        HostTable("room-0123456789", 3, 61, "Ann", variant="five")
    wire = Wire(4)
    assert 'table-length-five' not in render_lobby(wire.host)
    before = wire.table.to_json()
    wire.host.command("table-length", "five")
    assert wire.host.error == engine and wire.table.to_json() == before
    wire.host.command("table-length", "99")
    assert "121 or 61" in wire.host.error and wire.table.to_json() == before
    # A host that says so anyway: the guest refuses the table message.
    seats = [{"name": "x", "kind": "host", "level": None, "online": True, "stand_in": None}] * 3
    with pytest.raises(ProtocolError, match=engine):
        parse(protocol.table(3, 61, False, seats, variant="five"), "host")
    for bad in ({"variant": "six"}, {"muggins": "yes"}):
        text = protocol.table(2, 61, False, seats[:2]).replace(
            '"variant":"standard"' if "variant" in bad else '"muggins":false', json.dumps(bad)[1:-1])
        with pytest.raises(ProtocolError):
            parse(text, "host")


def test_rules_change_only_in_the_lobby():
    wire = Wire(2)
    seated(wire)
    wire.host.command("table-muggins", "on")
    assert "in the lobby" in wire.host.error and not wire.table.muggins


def test_a_whole_five_card_game_with_a_friend_is_fair_and_leaks_nothing():
    wire = Wire(2, seed=3)
    seated(wire, length="five")
    assert wire.table.session.config.five_card
    play_to_the_end(wire, random.Random(3))
    fair_and_secret(wire, seed=3)
    gus = wire.guests["conn-1"]
    assert gus.view().phase == OVER and gus.finished.config.five_card
    assert max(wire.table.session.state.scores) >= 61


def claim_and_call(wire, rng, short, call, until=lambda wire: False):
    """Play on until the game ends (or ``until(wire)``): moves at random, exact claims except
    where ``short(claim)`` names fewer points; a rival's call is ``call(claim)`` (True:
    muggins). The host and the guests press their own buttons; bots play themselves."""
    for _ in range(5000):
        wire.pump()
        state = wire.table.session.state
        if state.phase == OVER or until(wire):
            return
        if wire.host.bot_waiting():
            wire.host_step()
            continue
        claim = state.claim
        if claim is None:
            play_to_the_end(wire, rng, until=lambda w: w.table.session.state.claim is not None or until(w))
            continue
        seat = claim.to_act
        page = wire.host if seat == 0 else next(g for g in wire.guests.values() if g.seat == seat)
        if claim.caller is None:
            points = short(claim)
            page.command("claim", str(claim.breakdown.total if points is None else points))
        else:
            page.command(MUGGINS if call(claim) else PASS)
        assert not page.error, page.error
        if seat == 0:
            wire.deliver(state)
    raise AssertionError("the game did not end")


def short_once_by(seat):
    """The first claim of ``seat`` worth something, one point short; every other claim exact."""
    done = []

    def short(claim):
        if claim.seat == seat and claim.breakdown.total and not done:
            done.append(claim)
            return claim.breakdown.total - 1
        return None
    return short, done


@pytest.mark.parametrize("called", [True, False])
def test_a_guest_claims_short_and_the_other_friend_calls_muggins_or_passes(called):
    wire = Wire(3, seed=5)
    gus, ivy = seated(wire, names=("Gus", "Ivy"), muggins=True)
    short, done = short_once_by(gus.seat)
    seen = []

    def call(claim):        # Ivy's page offers the call: its buttons, then pressed
        assert claim.caller == ivy.seat == 2
        page = render(ivy)
        assert 'data-testid="muggins"' in page and f"Muggins! (take {claim.missed})" in page
        assert 'data-testid="pass"' in page and 'data-testid="muggins"' not in render(gus)
        seen.append(claim)
        return called

    claim_and_call(wire, random.Random(5), short, call)
    assert done and seen and seen[0].seat == gus.seat
    log = wire.table.session.log
    assert any(line.startswith(f"Gus claims {seen[0].claimed}, missing 1") for line in log)
    assert any("Ivy: muggins! takes the 1 missed" in line for line in log) == called
    assert gus.seat_screen.log == log
    fair_and_secret(wire, seed=5)
    assert gus.view() == wire.table.session.view(gus.seat) and ivy.view().phase == OVER


def test_the_host_calls_muggins_on_a_guest_s_short_claim():
    wire = Wire(2, seed=7)
    (gus,) = seated(wire, muggins=True)
    short, done = short_once_by(gus.seat)
    before = []

    def call(claim):
        before.append(wire.table.session.state.scores[0])
        assert "Muggins! (take 1)" in render(wire.host)
        return True

    claim_and_call(wire, random.Random(7), short, call)
    assert done and before
    assert any("Hana: muggins! takes the 1 missed" in line for line in wire.table.session.log)


def test_a_bot_at_a_friends_table_calls_muggins_on_a_person_s_short_claim_by_its_level():
    wire = Wire(3, seed=9, bots=((2, "hard"),))
    (gus,) = seated(wire, muggins=True)
    short, done = short_once_by(gus.seat)
    claim_and_call(wire, random.Random(9), short, lambda claim: pytest.fail("the bot calls, not a person"))
    assert done
    assert any("(bot): muggins!" in line for line in wire.table.session.log)


def test_a_guest_cannot_claim_for_another_seat_nor_call_muggins_on_itself():
    wire = Wire(2, seed=13)
    (gus,) = seated(wire, muggins=True)
    table = wire.table

    def gus_counts_points(w):
        claim = w.table.session.state.claim
        return claim is not None and claim.seat == 1 and claim.breakdown.total > 0

    claim_and_call(wire, random.Random(13), lambda claim: None, lambda claim: False, until=gus_counts_points)
    state = table.session.state
    claim = state.claim

    def forged(action, refusal, now):
        """A modified page sends ``action`` as its own move: refused, nothing changes."""
        gus.move(action)
        wire.pump()
        assert table.session.state == now and refusal in table.drops[-1], table.drops[-1]
        assert refusal in gus.error and not gus.pending

    for action in (Action.claim(0, 0), Action(0, MUGGINS, ()), Action(0, PASS, ())):   # the host's seat
        forged(action, "your own seat", state)
    forged(Action.claim(1, claim.breakdown.total + 1), "count again", state)
    gus.command("muggins")                      # its own claim, not yet made: no call to make
    assert "no short claim" in gus.error and not gus.take_outbox()
    gus.command("claim", str(claim.breakdown.total - 1))
    wire.pump()
    after = table.session.state
    assert after.claim.claimed == claim.breakdown.total - 1 and after.claim.caller == 0
    for action in (Action(1, MUGGINS, ()), Action(1, PASS, ())):        # on its own short claim
        forged(action, "nothing for you to claim or call", after)
    assert 'data-testid="muggins"' not in render(gus) and "Hana may call muggins" in render(gus)
    wire.host.command("pass")
    assert table.session.state.state_id == after.state_id + 1 and not wire.host.error


def test_a_spectator_of_a_muggins_game_sees_nothing_before_it_is_public():
    wire = watched(2, seed=17)
    spectator = watch(wire, "w:1")
    (gus,) = seated(wire, muggins=True)
    assert spectator.table["muggins"] is True
    short_by_gus, done = short_once_by(gus.seat)
    asked = []

    def not_the_spectator_s(claim):      # the host's count or call: the spectator, at its place, has no button
        page = render(spectator)
        assert 'data-testid="muggins"' not in page and 'data-testid="claim-bar"' not in page
        words = claim_text(spectator.view(), spectator.names(), watching=True)
        assert words in ("Hana is counting", "Hana may call muggins"), words
        asked.append(claim.to_act)

    def short(claim):
        if claim.seat == 0:
            not_the_spectator_s(claim)
        return short_by_gus(claim)

    def call(claim):
        not_the_spectator_s(claim)
        return True

    claim_and_call(wire, random.Random(17), short, call)
    assert done and 0 in asked and len(asked) > 10
    ever, checked, pending = set(), 0, 0
    for conn, before, after, text in wire.timeline:
        if after is not None:
            ever |= public_cards(before, after)
        if conn == "w:1":
            data = json.loads(text)
            if data["type"] == "watch" and data["view"].get("claim"):
                pending += data["view"]["claim"]["claimed"] is None
                if after.claim is not None:
                    ever |= {str(card) for card in after.claim.cards}
            check_public(before, after, counted_aloud(after, text), ever, 17)
            checked += 1
    assert checked > 40 and pending > 10
