"""The blind deal wired into the friends table (docs/blind-deal.md, "Wiring it into the table"):
a `HostTable(blind=True)` and `GuestController`s exchanging the real protocol texts, the work
of each side run to its end (`game.blind.alarms.finish`) as the page runs it in slices, the
people choosing on their screens' views and the bots (real levels) on theirs.

What it checks: whole games end with every browser at the same scores and the host's engine
(`Ledger`) there too; each guest's screen holds exactly its own cards; a spectator gets only
public views and no blind message; the host object and its save never hold a friend's card
not yet public; a guest and the host reload mid-hand and the hand goes on; a friend away is
replaced by a bot (of the host's level) after the (injected) wait and the hand is dealt again;
every hand after a game's first is dealt one hand ahead (each friend reads its cards before it
takes the hand before's last message) and the game's last hand ahead is dropped, its keys never
sent; a hostile guest's blind messages (malformed, out of turn, oversized, deeply nested, a
flood) are refused and change nothing; a host that forges a guest's move after its reload is
caught; each browser keeps the finished game's record (`test_blind_record.assert_records`).
"""

import json
import random
from collections import Counter

import pytest

from game.blind.alarms import finish
from game.blind.group import card_element, element_text
from game.cards import DECK, Card
from game.errors import ParseError
from web.friends import protocol
from web.friends.blind_flow import due, envelope, read_envelope
from web.friends.guest import GuestController
from web.friends.host import HostTable
from web.friends.host_controller import HostController
from web.friends.spectator import SpectatorController
from web.shelf import Shelf

from test_blind_record import assert_records
from test_blind_table import walk

ROOM = "room-0123456789"


class BlindWire:
    """A blind table: the host, its guests (and spectators) joined by lists; the clock moves
    half a second a round, and every message is kept."""

    def __init__(self, players, bots=(), target=61, wait=60.0, seed=1, dt=0.5):
        self.now, self.dt = 0.0, dt          # dt: seconds a round (people who play as fast as they can: small)
        self.rng = random.Random(seed)
        self.tokens = iter(f"token-{n:016d}" for n in range(1000))
        self.table = HostTable(ROOM, players, target, "Hana", token_source=lambda: next(self.tokens),
                               clock=lambda: 1_700_000_000.0, ticker=lambda: self.now, blind=True, blind_wait=wait)
        self.host = HostController(self.table, seed_source=lambda: 5)
        self.guests = {}
        self.watchers = {}
        self.sent = []          # every text the host sent: (conn, text)
        self.tamper = lambda conn, text: text     # a patched page's change to what it sends
        for seat, level in bots:
            self.host.command("seat", f"{seat}:{level}")

    def join(self, conn, name, guest=None, choose=True):
        guest = guest or GuestController(ROOM, name=name, token_source=lambda: next(self.tokens))
        self.guests[conn] = guest
        self.table.connect(conn)
        if guest.token:
            guest.rejoin()
        else:
            guest.command("join", {"name": name})
        self.pump(choose)
        return guest

    def deliver(self):
        for conn, text in self.table.take_outbox():
            self.sent.append((conn, text))
            if conn in self.guests:
                self.guests[conn].receive(text)
            elif conn in self.watchers:
                self.watchers[conn].receive(text)

    def pump(self, choose=True, until=None, rounds=20_000):
        """Every side works and delivers until quiet (people choosing when ``choose``), or ``until``."""
        for _ in range(rounds):
            moved = self.step(choose)
            if until is not None and until():
                return
            if until is None and not moved and not self.table.outbox:
                return
        raise AssertionError("the table never went quiet" if until is None else "it never came")

    def step(self, choose=True):
        """One round: the clock moves, each side works and sends; True if anything moved."""
        self.now += self.dt
        self.table.tick()
        moved = False
        for conn, guest in list(self.guests.items()):
            for text in guest.take_outbox():
                moved = True
                if conn in self.table.seat_of:
                    self.table.receive(conn, self.tamper(conn, text))
        while self.table.blind_ready():
            moved = finish(self.table.blind_work()) or moved
            self.deliver()
        self.deliver()
        for guest in self.guests.values():
            while guest.blind_ready():
                moved = finish(guest.blind_work()) or moved
        if choose:
            moved = self.choose() or moved
        return moved

    def choose(self):
        moved = False
        for ctl in [self.host, *self.guests.values()]:
            view = ctl.seat_screen.view
            if view is not None and view.legal and not ctl.pending and view.phase != "over":
                ctl.move(self.rng.choice(view.legal))
                moved = True
        return moved


def secret_cards(wire):
    """The friends' cards not yet public in the hand and in the hand dealt ahead (two decks: a
    card public in one, or the host's own in one, is left out of both)."""
    secret, known = set(), set()
    for hand, seat_of in ((wire.table.blind_hand, lambda g: g.blind_seat), (wire.table.blind_next, lambda g: g.blind_next)):
        if hand is None:
            continue
        known |= {card for card in hand.flow.hand.cards if card is not None} | set(hand.own.mine.values())
        secret |= {card for guest in wire.guests.values() if seat_of(guest) is not None
                   and seat_of(guest).flow.setup.hand == hand.setup.hand
                   for card in seat_of(guest).mine.values()}
    return secret - known


def assert_blind(wire):
    """Nothing the host object holds, nor its save, holds a friend's card not yet public: as a
    group element (a number, or its text) in any hand; as a `Card` or its code, in the first
    hand of a game (later, the audited decks of the hands before hold every card)."""
    secret = secret_cards(wire)
    if not secret:
        return
    held = list(walk(wire.table))
    elements = {card_element(card) for card in secret}
    first = not wire.table.ledger.decks
    assert not elements & {x for x in held if isinstance(x, int)}
    needles = [element_text(e) for e in elements] + ([f'"{card}"' for card in secret] if first else [])
    if first:
        assert not secret & {x for x in held if isinstance(x, Card)}
    for text in [x for x in held if isinstance(x, str)] + [wire.table.to_json(), *wire.table.saved_texts().values()]:
        assert not any(needle in text for needle in needles), text[:120]


def watch_ahead(wire):
    """Note, for each guest, the hands it read its cards of while the hand before was not over
    at its browser (that hand's last message not yet taken); and every hand dealt ahead."""
    for conn, guest in wire.guests.items():
        now, ahead = guest.blind_seat, guest.blind_next
        if now is not None and ahead is not None and ahead.mine and due(now.flow).step != "over":
            wire.read_ahead.add((conn, ahead.flow.setup.hand))
    if wire.table.blind_next is not None:
        wire.dealt_ahead.add(wire.table.blind_next.setup.hand)


def hand_bodies(wire, hand):
    """The bodies of the blind texts the host sent for ``hand``."""
    texts = [text for _, text in wire.sent if '"type":"blind"' in text]
    return [read_envelope(text)[3] for text in texts if read_envelope(text)[0] == hand]


def play_game(players, humans, bots, scan_every=0, dt=0.5):
    wire = BlindWire(players, bots=bots, dt=dt)
    for n, seat in enumerate(humans):
        wire.join(f"c{seat}", ["Gus", "Ivy", "Jo"][n])
    wire.host.command("start-table")
    rounds, wire.read_ahead, wire.dealt_ahead = 0, set(), set()
    while wire.table.session.state.phase != "over":
        wire.step()
        watch_ahead(wire)
        rounds += 1
        if scan_every and rounds % scan_every == 0 and wire.table.blind_hand is not None \
                and not wire.table.blind_hand.flow.hand.keys:
            assert_blind(wire)
        assert rounds < 20_000
    return wire


@pytest.mark.parametrize("players, humans, bots", [(2, (1,), ()), (3, (2,), ((1, "easy"),)),
                                                   (4, (1, 3), ((2, "easy"),))])
def test_a_whole_game_dealt_blind_with_bots_and_friends(players, humans, bots):
    wire = play_game(players, humans, bots, scan_every=7)
    table, state = wire.table, wire.table.session.state
    assert state.phase == "over" and max(state.scores) >= 61
    assert table.blind_alarms == [] and all(not h["alarms"] for h in table.blind_hands)
    assert len(table.ledger.decks) == len(table.blind_hands)
    for guest in wire.guests.values():
        view = guest.seat_screen.view
        assert view.phase == "over" and view.scores == state.scores and guest.blind_alarms == []
    assert wire.host.seat_screen.view.scores == state.scores
    assert_records(wire)
    played = [record["hand"] for record in table.blind_hands]       # every hand after the first dealt ahead
    assert played == list(range(len(played))) and len(played) >= 2
    for conn in wire.guests:
        assert {hand for c, hand in wire.read_ahead if c == conn} >= set(played[1:])
    assert table.blind_next is None and wire.dealt_ahead - set(played) == {played[-1] + 1}   # the last: dropped
    bodies = hand_bodies(wire, played[-1] + 1)
    assert bodies and all(body["step"] in ("start", "shuffle", "lock", "unlock") for body in bodies)   # no keys
    late = envelope(played[-1] + 1, len(bodies), humans[0], {"step": "go", "seat": humans[0]})
    drops = list(table.drops)
    assert not table.receive(f"c{humans[0]}", late) and table.drops == drops   # sent before it knew: nothing


@pytest.mark.parametrize("players", [2, 4])
def test_friends_who_play_as_fast_as_they_can_are_never_over_the_rate_limit(players):
    # An honest browser sends a hand's next message only once the host relayed its last (one
    # open a hand: two with the hand dealt ahead): self-clocked, never a flood, however fast the
    # people click. (A whole game in 20 ms rounds: the rate limit dropped a message after about
    # 12 s of it, and the hand waited for it for ever.)
    wire = play_game(players, tuple(range(1, players)), (), dt=0.02)
    assert wire.table.session.state.phase == "over"
    assert not [line for line in wire.table.drops if "rate limit" in line]


def test_a_guest_says_which_texts_only_wait_for_its_blind_work_and_those_change_no_screen():
    # The page repaints after a text only when `receive` says it did not just queue it (a
    # 4-player hand brings a friend about 50 blind texts, up to 57 KB each: a repaint and a save
    # after each one were most of the page's long tasks at CPU x4).
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    said = []
    receive = gus.receive

    def watched(text):
        before = (gus.seat_screen.view, list(gus.chat), gus.table)
        queued = receive(text)
        said.append((json.loads(text)["type"], queued, before == (gus.seat_screen.view, list(gus.chat), gus.table)))
        return queued

    gus.receive = watched
    wire.host.command("start-table")
    wire.pump(until=lambda: gus.seat_screen.view is not None and gus.seat_screen.view.phase == "play")
    kinds = {kind for kind, queued, _ in said if queued}
    assert kinds == {"blind", "view"} and all(same for _, queued, same in said if queued)
    assert {kind for kind, queued, _ in said if not queued} >= {"table", "chat"}
    assert not any(queued for kind, queued, _ in said if kind not in ("blind", "view"))


def test_every_text_a_guest_gets_is_the_protocol_s_and_only_its_own_cards_show():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: gus.seat_screen.view is not None and gus.seat_screen.view.phase == "play")
    seat = gus.blind_seat
    assert sorted(gus.seat_screen.view.hand + gus.seat_screen.view.discarded) == \
        sorted(card for j, card in seat.mine.items() if j in seat.flow.public.dealt[1])
    for _, text in wire.sent:
        message = protocol.parse(text, "host")
        if message.type == "view":
            view = message["view"]
            assert view.hand == () and view.legal == ()        # the host knows no friend's card
    assert_blind(wire)


def test_a_spectator_gets_public_views_and_no_blind_message():
    wire = BlindWire(2)
    wire.join("c1", "Gus")
    wire.host.command("watching", "on")
    spectator = SpectatorController(ROOM)
    wire.watchers["w1"] = spectator
    wire.table.watch_connect("w1")
    wire.deliver()
    wire.host.command("start-table")
    wire.pump(until=lambda: wire.table.blind_hand is not None and due(wire.table.blind_hand.flow).step == "play")
    texts = [text for conn, text in wire.sent if conn == "w1"]
    assert texts and not any('"type":"blind"' in text for text in texts)
    assert spectator.view() is not None and spectator.view().hand == ()
    assert any(json.loads(text)["type"] == "watch" for text in texts)


def test_a_guest_reloads_mid_deal_and_mid_play_and_the_game_goes_on():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    for step in ("lock", "play"):
        wire.pump(until=lambda step=step: due(wire.table.blind_hand.flow).step == step)
        saved, token = gus.blind_save(), gus.token
        wire.table.disconnect("c1")
        del wire.guests["c1"]
        gus = GuestController(ROOM, name="Gus", token=token, blind_saved=json.loads(json.dumps(saved)))
        wire.join("c1", "Gus", gus, choose=False)
        assert gus.blind_seat is not None and gus.blind_rebuilt
    hand = wire.table.blind_hand.setup.hand
    wire.pump(until=lambda: wire.table.blind_hand is None or wire.table.blind_hand.setup.hand != hand)
    assert wire.table.blind_hands[0]["alarms"] == [] and wire.table.blind_hands[0]["deck"] is not None
    assert gus.blind_alarms == []
    (kept,) = gus.blind_kept            # the hand as Gus audited it (rebuilt twice): the host's deck and digest
    assert (kept["deck"], kept["sha256"]) == (wire.table.blind_hands[0]["deck"], wire.table.blind_hands[0]["sha256"])
    again = GuestController(ROOM, name="Gus", token=gus.token, blind_saved=json.loads(json.dumps(gus.blind_save())))
    assert again.blind_kept == gus.blind_kept           # kept for the game's record across a reload


def test_the_host_reloads_mid_hand_and_the_hand_goes_on():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: due(wire.table.blind_hand.flow).step == "play")
    flow = wire.table.blind_hand.flow
    saved = wire.table.to_json()
    assert_blind(wire)
    table = HostTable.from_json(saved, token_source=lambda: next(wire.tokens), texts=wire.table.saved_texts().get)
    assert table.to_json() == saved and table.saved_texts() == wire.table.saved_texts()   # (saved as loaded, until rebuilt)
    table.ticker = lambda: wire.now
    wire.table, wire.host = table, HostController(table, seed_source=lambda: 5)
    finish(table.blind_work())                       # the saved hand rebuilt, every message checked again
    assert table.blind_hand.flow.bodies == flow.bodies and table.blind_hand.flow.public == flow.public
    wire.join("c1", "Gus", gus, choose=False)
    hand = table.blind_hand.setup.hand
    wire.pump(until=lambda: table.blind_hand is None or table.blind_hand.setup.hand != hand)
    assert table.blind_hands[-1]["alarms"] == [] and gus.blind_alarms == []


def test_the_host_keeps_each_relayed_text_once_beside_a_small_save_that_names_them():
    """As the page keeps it (`web.keeper.Keeper.save_host`): after every step, the new texts,
    then the save, then the texts no save names any more (a hand that ended)."""
    wire = BlindWire(3)
    wire.join("c1", "Gus")
    wire.join("c2", "Ivy")
    wire.host.command("start-table")
    kept, written, saves = {}, Counter(), []

    def write(name, text):
        if text is None:
            del kept[name]
        else:
            kept[name], written[name] = text, written[name] + 1

    shelf = Shelf(write, [])
    while len(wire.table.blind_hands) < 3:
        wire.step()
        shelf.keep(wire.table.saved_texts(), lambda: saves.append(wire.table.to_json()))
        if len(saves) == 60:        # mid-hand: the save and the texts kept rebuild the hand
            again = HostTable.from_json(saves[-1], texts=kept.get)
            finish(again.blind_work())
            assert again.blind_hand.flow.bodies == wire.table.blind_hand.flow.bodies
    assert set(written.values()) == {1} and len(written) > 100      # every text written once
    assert kept == wire.table.saved_texts()                         # those of ended hands forgotten
    texts = sum(len(text) for text in kept.values())
    assert texts > 200_000 and max(len(save) for save in saves) < 20_000, (texts, max(map(len, saves)))


def test_a_host_save_missing_a_text_or_with_a_damaged_name_is_refused():
    table = at_discard().table
    saved, texts = table.to_json(), table.saved_texts()
    with pytest.raises(ParseError, match="misses some of its messages"):
        HostTable.from_json(saved, texts=lambda name: None if name == min(texts) else texts.get(name))
    damaged = json.loads(saved)
    damaged["blind_game"]["texts"][0] = 7
    with pytest.raises(ParseError, match="blind hand is damaged"):
        HostTable.from_json(json.dumps(damaged), texts=texts.get)
    older = json.loads(saved)          # saved before the texts had keys of their own: inside
    for hand in (older["blind_game"], older["blind_game"]["ahead"] or {"texts": []}):
        hand["relayed"] = [texts[name] for name in hand.pop("texts")]
    again = HostTable.from_json(json.dumps(older))
    finish(again.blind_work())
    assert again.blind_hand.relayed == table.blind_hand.relayed


def test_a_friend_away_is_dealt_out_after_the_wait_and_gets_the_seat_back_at_the_next_hand():
    wire = BlindWire(2, wait=5.0)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: due(wire.table.blind_hand.flow).step == "discard")
    before = wire.table.blind_hand.flow.public.before
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    first = wire.table.blind_hand.setup.hand
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand != first, rounds=100)
    again = wire.table.blind_hand
    assert again.setup.humans == (0,) and again.flow.public.before == before
    chat = [line["text"] for line in wire.table.chat]
    assert any("Waiting for Gus" in line for line in chat)
    assert "The hand is dealt again: a bot plays for Gus" in chat
    assert wire.table.blind_hands[-1]["abandoned"] == "Gus was away"
    wire.join("c1", "Gus", gus, choose=False)
    wire.host.command("give-back", "1")
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand != again.setup.hand)
    assert wire.table.blind_hand.setup.humans == (0, 1)


def test_a_friend_who_plays_a_card_it_was_not_dealt_is_caught_and_the_hand_dealt_again():
    wire = BlindWire(2, wait=5.0)
    gus = wire.join("c1", "Gus")

    def tamper(conn, text):
        """Gus's patched page plays a card it was not dealt (and trusts its own message)."""
        message = json.loads(text)
        seat, body = gus.blind_seat, message["body"]
        if body.get("step") != "reveal" or seat.flow.public.phase != "play":
            return text
        public = seat.flow.public
        taken = set(seat.mine.values()) | set(public.cards.values())
        body["card"] = str(min((card for card in DECK if card not in taken), key=lambda card: card.value))
        seat.pending = body
        return envelope(message["hand"], message["n"], message["from"], body)

    wire.tamper = tamper
    wire.host.command("start-table")
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand != 0, rounds=3000)
    chat = [line["text"] for line in wire.table.chat]
    assert any(line.startswith("The deal check failed: seat 2, reveal") for line in chat), chat
    # The cheat's page, whose own play it took unchecked, may or may not publish its keys after the
    # alarm (that depends on the deal): either the audit ends the hand, or the host deals Gus out.
    if "The hand is dealt again: a bot plays for Gus" in chat:
        assert wire.table.blind_hand.setup.humans == (0,)
    else:
        assert any(line.startswith("The audit: seat 2, reveal") for line in chat), chat
        assert wire.table.blind_hand.setup.humans == (0, 1)
    assert wire.table.blind_hands[0]["alarms"]
    assert wire.table.blind_alarms[0].startswith("seat 2, reveal")


HOSTILE = {
    "malformed": lambda hand: protocol.BLIND_PREFIX + '"hand":' + str(hand) + ',"n":1,"body":{"step":"shuffle"},"from":1}',
    "out of turn": lambda hand: envelope(hand, 1, 1, {"step": "go", "seat": 1}),
    "for the host": lambda hand: envelope(hand, 1, 0, {"step": "discard", "seat": 0, "positions": [0, 2]}),
    "oversized": lambda hand: protocol.BLIND_PREFIX + '"hand":0,"n":1,"from":1,"body":{"x":"' + "a" * 100_000 + '"}}',
    "deeply nested": lambda hand: protocol.BLIND_PREFIX + '"hand":0,"n":1,"from":1,"body":' + "[" * 60_000,
    "not the prefix": lambda hand: envelope(hand, 1, 1, {"step": "go", "seat": 1}).replace('"v":8,', '"v": 8,'),
    "another hand": lambda hand: envelope(hand + 5, 1, 1, {"step": "go", "seat": 1}),
}


AT_DISCARD = {}


def table_at_discard():
    """A 2-player table with Gus, dealt and waiting for the discards."""
    wire = BlindWire(2)
    wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: due(wire.table.blind_hand.flow).step == "discard", choose=False)
    return wire


def at_discard():
    """`table_at_discard`, shared by the attacks (each changes nothing)."""
    if not AT_DISCARD:
        AT_DISCARD["wire"] = table_at_discard()
    return AT_DISCARD["wire"]


@pytest.mark.parametrize("attack", sorted(HOSTILE))
def test_a_hostile_guest_s_blind_message_is_refused_and_changes_nothing(attack):
    wire = at_discard()
    wire.now += 60.0                # (its limits refilled)
    hand = wire.table.blind_hand
    flow, relayed = hand.flow, len(hand.relayed)
    wire.table.receive("c1", HOSTILE[attack](hand.setup.hand))
    while wire.table.blind_ready() and wire.table.blind_queue:
        finish(wire.table.blind_work())
    assert hand.flow is flow and len(hand.relayed) == relayed
    assert wire.table.blind_hand is hand


def out_of_turn_at_discard():
    """A fresh `table_at_discard` and a go from Gus (refused there)."""
    wire = table_at_discard()
    return wire, envelope(wire.table.blind_hand.setup.hand, 1, 1, {"step": "go", "seat": 1})


def test_a_flood_of_blind_messages_is_refused_before_it_is_read():
    wire, text = out_of_turn_at_discard()
    taken = [wire.table.receive("c1", text) for _ in range(200)]
    assert sum(taken) <= 30 and len(wire.table.blind_queue) <= 30
    assert wire.table.drops[-1].endswith("over the rate limit: dropping until it slows down") or \
        any("rate limit" in line for line in wire.table.drops)


def test_refused_blind_messages_sent_one_at_a_time_are_a_flood_too():
    # Clocked messages cost no token (one at a time, each taken before the next), but each
    # one the hand refuses does: a guest that sends refused messages one by one is dropped
    # before they are read once its blind bucket is empty.
    wire, text = out_of_turn_at_discard()
    refused_before = len(wire.table.blind_hand.refused)
    taken = []
    for _ in range(100):
        taken.append(wire.table.receive("c1", text))
        while wire.table.blind_ready():
            finish(wire.table.blind_work())
    assert 20 <= sum(taken) <= 30 and not wire.table.blind_queue
    assert len(wire.table.blind_hand.refused) - refused_before == sum(taken)
    assert any("rate limit" in line for line in wire.table.drops)
    wire.now += 10                                    # it slowed down: it is read again
    assert wire.table.receive("c1", text)


def test_a_guest_refuses_a_public_view_at_a_table_that_does_not_deal_blind():
    table = HostTable(ROOM, 2, 61, "Hana", token_source=lambda: "t" * 22, blind=False)
    guest = GuestController(ROOM, name="Gus", token_source=lambda: "u" * 22)
    table.connect("c1")
    guest.command("join", {"name": "Gus"})
    for text in guest.take_outbox():
        table.receive("c1", text)
    for _, text in table.take_outbox():
        guest.receive(text)
    assert guest.table["blind"] is False
    from game.engine import Config, new_game
    from game.view import view
    public = protocol.public_view(view(new_game(Config(), seed=1), 1))
    guest.receive(protocol.view(public, ()))
    assert guest.view() is None and "does not deal blind" in guest.drops[-1]


def test_the_lobby_s_switch_is_on_for_a_new_table_and_says_why_where_it_does_not_apply():
    from web.friends.lobby import render_lobby

    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    assert 'data-testid="table-blind-on" aria-pressed="true"' in render_lobby(wire.host)
    assert "not even the host" in render_lobby(gus) and gus.table["blind"] is True
    wire.host.command("table-length", "five")          # five-card keeps the fair deal, and says why
    assert "Not at this table: five-card cribbage keeps the fair deal." in render_lobby(wire.host)
    wire.pump()
    assert gus.table["blind"] is False and "could see every card" in render_lobby(gus)
    wire.host.command("start-table")
    assert not wire.table.blind_game and wire.table.starting       # the fair deal's first round
    wire.host.command("table-blind", "off")
    assert "the deal is chosen in the lobby" in wire.host.error


def test_a_table_of_bots_only_keeps_the_fair_deal():
    wire = BlindWire(2, bots=((1, "easy"),))
    assert wire.table.blind_why_not() == "a table with bots only keeps the fair deal"
    wire.host.command("start-table")
    assert not wire.table.blind_game


@pytest.mark.parametrize("chosen, default, level", [(None, "hard", "hard"), ("easy", "hard", "easy")])
def test_a_friend_away_gets_the_bot_level_the_host_chose_else_the_table_s(chosen, default, level):
    wire = BlindWire(2, wait=5.0)
    wire.join("c1", "Gus")
    wire.table.stand_in_level, wire.table.default_level = chosen, default
    wire.host.command("start-table")
    wire.pump(until=lambda: due(wire.table.blind_hand.flow).step == "discard")
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    first = wire.table.blind_hand.setup.hand
    wire.pump(until=lambda: wire.table.blind_hand.setup.hand != first, rounds=100)
    assert wire.table.seats[1].stand_in == level and wire.table.session.bots[1] == level
    assert HostTable.from_json(wire.table.to_json(), texts=wire.table.saved_texts().get).stand_in_level == chosen


def test_the_host_s_level_is_the_table_s_default_and_a_stand_in_it_chose_is_kept():
    table = HostTable(ROOM, 2, 61, "Hana", token_source=lambda: "t" * 22, blind=True)
    HostController(table, seed_source=lambda: 5, prefs={"level": "hard"})
    assert table.default_level == "hard" and table.stand_in_level is None


def test_a_host_that_forges_a_guest_s_discard_after_its_reload_is_caught():
    wire = BlindWire(2)
    gus = wire.join("c1", "Gus")
    wire.host.command("start-table")
    wire.pump(until=lambda: due(wire.table.blind_hand.flow).step == "discard", choose=False)
    saved, token = gus.blind_save(), gus.token
    wire.table.disconnect("c1")
    del wire.guests["c1"]
    gus = GuestController(ROOM, name="Gus", token=token, blind_saved=json.loads(json.dumps(saved)))
    wire.join("c1", "Gus", gus, choose=False)
    assert gus.blind_rebuilt and gus.blind_alarms == []
    hand = wire.table.blind_hand
    forged = envelope(hand.setup.hand, hand.n + 1, 1, {"step": "discard", "seat": 1,
                                                        "positions": list(hand.flow.public.dealt[1][:2])})
    gus.receive(forged)                       # the host's patched page relays it in Gus's name
    while gus.blind_ready():
        finish(gus.blind_work())
    assert gus.blind_alarms and "a message this browser did not send" in gus.blind_alarms[0]
    assert gus.blind_seat.flow.public.discarded[1] is None
    from web.friends.fair_view import fair_panel, fair_strip
    assert 'data-testid="fair-alarm"' in fair_strip(gus) and "Blind deal: check failed" in fair_panel(gus)
