"""Spectators under CPython, over the pure host and guests of `test_host`: a spectator's
channel watches whole games and receives no card before it is public (every message scanned),
and everything it sends is refused without a change; the limit, the toggle, the watch link's
room, the count in the players list, and the spectator's screen (the seat screen, no hand)."""

import hashlib
import itertools
import json
import random

import pytest

from game.engine import OVER
from test_host import BIG_SEED, Wire, cards_in, play_to_the_end
from web.friends import protocol
from web.friends.guest import GuestController
from web.friends.host import HostTable
from web.friends.lobby import render_lobby, table_parts
from web.friends.spectator import SpectatorController
from web.friends.watchers import MAX_WATCHERS, WATCH_ONLY
from web.render import render


class WatchWire(Wire):
    """`test_host`'s wire, with every delivery kept in the order it happened (``timeline``:
    conn, state before, state after, text), so each spectator's message is checked against
    what was public at that moment."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.timeline = []
        # The fair deal's secret and shares fixed by the seed, so each game is the same game
        # every run (from `secrets`, a game to 61 could end before a spectator came mid-game).
        counter = itertools.count()
        self.secret = lambda: hashlib.sha256(f"{kwargs.get('seed')}/{next(counter)}".encode()).hexdigest()
        self.table.fair.secret_source = self.secret

    def join(self, conn, name):
        """A guest's page opens the table and sits down (its fair deal's shares fixed too)."""
        guest = GuestController("room-0123456789", name=name)
        guest.fair.value_source = self.secret
        self.guests[conn] = guest
        self.received.setdefault(conn, [])
        self.table.connect(conn)
        guest.command("join", {"name": name})
        self.pump()
        return guest

    def deliver(self, before):
        after = self.table.session.state if self.table.session else None
        self.timeline += [(conn, before, after, text) for conn, text in self.table.outbox]
        super().deliver(before)


def watch(wire, conn):
    """A spectator's page opens the watch link: the host takes its channel as a spectator's
    (the glue does so for every channel through the watch room)."""
    spectator = SpectatorController("watch-room-0123")
    wire.guests[conn] = spectator        # (it sends nothing: the wire only delivers to it)
    wire.received.setdefault(conn, [])
    wire.table.watch_connect(conn)
    wire.pump()
    return spectator


def watched(players=2, bots=(), seed=11):
    wire = WatchWire(players, seed=seed, bots=bots)
    wire.host.command("watching", "on")
    return wire


def shown(state):
    """The hands the engine counted last, with their starter (in the breakdown's items)."""
    return {card for show in state.shows for card in show.cards + tuple(
        card for item in show.breakdown.items for card in item.cards)}


def public_cards(before, after, events=()):
    """Cards everyone may know once ``events`` have happened (the move from ``before`` to
    ``after``): this hand's play, its starter and the cut, the cards just played, and the
    hands just counted (checked against the engine's own)."""
    cards = set(after.cut) | {step.card for step in after.play if step.card} | shown(after)
    if after.starter is not None:
        cards.add(after.starter)
    if before is not None:
        cards |= {step.card for step in before.play if step.card}
        cards |= shown(before)
        if before.starter is not None:
            cards.add(before.starter)
        if after.game_no == before.game_no and after.actions[:len(before.actions)] == before.actions:
            cards |= {action.card for action in after.actions[len(before.actions):] if action.kind == "play"}
        for event in events:
            if event["kind"] in ("show", "crib"):
                true = before.crib if event["kind"] == "crib" else before.kept[event["seat"]]
                assert sorted(event["cards"].split()) == sorted(map(str, true)), "a show shows the real cards"
                cards |= set(true)
    return {str(card) for card in cards}


def check_public(before, after, text, ever, seed):
    """One message to a spectator: a table, the chat or the public view, with no card that is
    not public at that moment (``ever``: every card made public in the game so far, which the
    hand history may name)."""
    data = json.loads(text)
    assert data["type"] in ("table", "chat", "watch", "reject", "error"), data["type"]
    assert '"seed"' not in text and str(BIG_SEED + seed) not in text
    assert after is None or str(after.seed) not in text
    if data["type"] != "watch":
        assert not list(cards_in(data)), text
        return
    seen = data["view"]
    assert seen["hand"] == seen["kept"] == seen["discarded"] == "" and seen["legal"] == []
    assert seen["hand_sizes"] == [len(hand) for hand in after.hands]
    now = public_cards(before, after, data["events"])
    ever = ever | now
    for path, card in cards_in(data):
        if path[:1] == ("log",):
            assert card in ever, f"the hand history names {card} before it was public"
        else:
            assert card in now, f"a spectator received {card} at {path} before it was public"


@pytest.mark.parametrize("players, bots, seed", [(2, (), 1), (3, ((2, "easy"),), 4), (4, ((3, "hard"),), 6)])
def test_a_spectator_watches_whole_games_and_never_sees_a_hidden_card(players, bots, seed):
    wire = watched(players, bots, seed)
    early = watch(wire, "w:1")                  # from the lobby
    free = [seat for seat in range(1, players) if seat not in dict(bots)]
    for n, seat in enumerate(free):
        wire.join(f"conn-{seat}", wire.names[n])
    wire.host.command("start-table")
    wire.pump()

    def one_more_mid_game(w):
        if w.table.session.state.hand_no >= 2 and "w:2" not in w.guests:
            watch(w, "w:2")
        return False

    play_to_the_end(wire, random.Random(seed), until=one_more_mid_game)
    late = wire.guests["w:2"]
    ever, checked = set(), {"w:1": 0, "w:2": 0}
    for conn, before, after, text in wire.timeline:     # in the order it all happened
        if after is not None:
            ever |= {str(card) for card in public_cards(before, after)}
        if conn in checked:
            check_public(before, after, text, ever, seed)
            checked[conn] += json.loads(text)["type"] == "watch"
    assert min(checked.values()) > 20
    assert all(seat is None for conn in checked for _, _, seat, _ in wire.received[conn])   # never seated
    state = wire.table.session.state
    for spectator in (early, late):
        assert spectator.screen == "table" and spectator.view().phase == OVER
        assert spectator.view() == protocol.public_view(wire.table.session.view(0))
        assert spectator.seat_screen.log == wire.table.session.log
        assert spectator.view().scores == state.scores and not spectator.drops
    assert wire.table.seat_of.keys() == {f"conn-{seat}" for seat in free}    # spectators hold no seat


def test_the_checker_catches_a_hidden_card():
    wire = watched()
    watch(wire, "w:1")
    wire.join("a", "Gus")
    wire.host.command("start-table")
    wire.pump()
    state = wire.table.session.state
    leak = protocol.view(wire.table.session.view(0), ())      # the host's own view, sent to a spectator
    with pytest.raises(AssertionError):
        check_public(state, state, leak, set(), 11)
    stolen = json.loads(protocol.watch(wire.table.session.view(0), ()))
    stolen["log"] = [f"Hana holds {state.hands[0][0]}"]
    with pytest.raises(AssertionError, match="hand history"):
        check_public(state, state, json.dumps(stolen), set(), 11)


def started_with_a_spectator(players=2):
    wire = watched(players)
    gus = wire.join("a", "Gus")
    spectator = watch(wire, "w:1")
    wire.host.command("start-table")
    wire.pump()
    return wire, gus, spectator


def replies(table, conn):
    return [json.loads(text) for c, text in table.take_outbox() if c == conn]


def test_everything_a_spectator_sends_is_refused_and_changes_nothing():
    wire, gus, _ = started_with_a_spectator()
    table = wire.table
    table.take_outbox()
    saved, chat, seats = table.to_json(), list(table.chat), [dict(vars(s)) for s in table.seats]
    state = table.session.state
    own = table.session.view(0)
    forged = [
        protocol.hello("Mallory", None),                          # sit down
        protocol.hello("Gus", gus.token),                         # take Gus's seat with his token
        protocol.action(state.state_id, table.session.view(1).legal[0], 1),   # Gus's move
        protocol.action(state.state_id, own.legal[0], 1),          # the host's move
        protocol.chat("hello from the stands", 1),
        protocol.fair_contribute(0, 1, "cd" * 32),                 # a share of the next shuffle
        '{"v": 8, "type": "welcome", "seat": 1, "token": "' + "a" * 20 + '", "last": 0}',
        "not json",
    ]
    for text in forged:
        assert table.receive("w:1", text) is False
    answers = replies(table, "w:1")
    assert [a["type"] for a in answers] == ["reject", "reject"] + ["error"] * 6
    assert {a["reason"] for a in answers if a["type"] == "reject"} == {"watch-only"}
    assert {a["text"] for a in answers if a["type"] == "error"} == {WATCH_ONLY}
    assert table.session.state == state and table.chat == chat and table.to_json() == saved
    assert [dict(vars(s)) for s in table.seats] == seats and table.seat_of == {"a": 1}
    assert table.conn_of(1) == "a" and "w:1" in table.watchers
    assert all("spectator" in line for line in table.drops[-len(forged):])


def test_a_spectator_s_flood_costs_the_host_nothing():
    wire, _, _ = started_with_a_spectator()
    table = wire.table
    table.take_outbox()
    state, chat = table.session.state, list(table.chat)
    for n in range(1, 2001):                # 2000 chat lines in the same second
        table.ticker = lambda: 5000.0
        table.receive("w:1", protocol.chat(f"flood {n}", n))
    answers = replies(table, "w:1")
    assert len(answers) <= 40               # the burst's answers and one notice, then silence
    assert sum("too fast" in json.dumps(a) for a in answers) == 1
    assert table.session.state == state and table.chat == chat
    assert not [c for c, _ in table.take_outbox()]


def test_at_most_max_watchers_watch_and_the_next_is_told():
    wire = watched()
    wire.join("a", "Gus")
    spectators = [watch(wire, f"w:{n}") for n in range(MAX_WATCHERS)]
    assert all(s.screen == "lobby" and s.table["watching"] == MAX_WATCHERS for s in spectators)
    late = watch(wire, "w:late")
    assert late.screen == "rejected" and "As many people as the host allows" in late.rejected
    assert len(wire.table.watchers) == MAX_WATCHERS and "w:late" not in wire.table.watchers
    wire.table.receive("w:late", protocol.hello("Late", None))          # and it cannot sit either
    assert wire.table.seat_of == {"a": 1} and "not connected" in wire.table.drops[-1]
    wire.table.disconnect("w:0")                                        # one leaves: room for the next
    again = watch(wire, "w:again")
    assert again.screen == "lobby" and wire.guests["a"].table["watching"] == MAX_WATCHERS


def test_the_host_s_toggle_closes_watching_and_drops_every_spectator():
    wire, gus, spectator = started_with_a_spectator()
    other = watch(wire, "w:2")
    first = wire.table.watchers.room
    assert gus.table["watching"] == 2 and first is not None
    wire.host.command("watching", "off")
    wire.pump()
    for s in (spectator, other):
        assert s.screen == "rejected" and s.rejected == "The host closed watching: this table has no spectators now."
    assert len(wire.table.watchers) == 0 and wire.table.watchers.room is None and gus.table["watching"] == 0
    assert any(line["text"] == "The host closed watching" for line in gus.chat)
    late = watch(wire, "w:3")                       # a channel through the old room, if it were still open
    assert late.screen == "rejected" and "closed watching" in late.rejected and len(wire.table.watchers) == 0
    state = wire.table.session.state
    wire.table.receive("w:1", protocol.action(state.state_id, wire.table.session.view(1).legal[0], 1))
    assert wire.table.session.state == state        # a dropped spectator's channel is nobody's
    wire.host.command("watching", "on")             # on again: a fresh room, so the old link stays closed
    assert wire.table.watchers.room not in (None, first)


def test_the_watch_room_is_kept_with_the_table_and_is_not_the_table_s():
    wire, _, _ = started_with_a_spectator()
    room = wire.table.watchers.room
    assert room != wire.table.room and protocol.TOKEN.fullmatch(room)
    again = HostTable.from_json(wire.table.to_json())
    assert again.watchers.room == room and len(again.watchers) == 0     # spectators reconnect
    wire.host.command("watching", "off")
    assert HostTable.from_json(wire.table.to_json()).watchers.room is None
    # What a spectator receives never names the table's own room (an invite link's).
    assert not any(wire.table.room in text for *_, text in wire.received["w:1"])


def test_the_players_list_says_how_many_watch():
    wire = watched()
    gus = wire.join("a", "Gus")
    assert 'data-testid="watching"' not in render_lobby(gus)
    watch(wire, "w:1")
    spectator = watch(wire, "w:2")
    for ctl in (wire.host, gus, spectator):
        assert '<p class="watching-count" data-testid="watching">2 watching</p>' in render_lobby(ctl)
    wire.host.watch_link = "https://example.org/?table=" + wire.table.watchers.room + "#h=x&w=1"
    assert 'data-testid="watch-link"' in render_lobby(wire.host)
    assert 'data-testid="watch-link"' not in render_lobby(gus) + render_lobby(spectator)


def test_a_spectator_s_screen_is_the_seat_screen_with_no_hand_of_its_own():
    wire, _, spectator = started_with_a_spectator()
    html = render(spectator)
    sizes = wire.table.session.view(0).hand_sizes
    assert spectator.screen == "table" and html.count('data-card="back"') >= sum(sizes)
    hand = html[html.index('data-testid="hand"'):].split("</div>")[0]
    assert hand.count('data-card="back"') == sizes[0] and 'data-action="select"' not in html
    assert "Your hand" not in html and "(you)" not in html and "Hana’s hand" in html
    assert 'data-testid="chat-input"' not in html and 'data-testid="watch-note"' in html
    assert 'data-testid="fair' not in html and "Watching from Hana’s place" in table_parts(spectator)["under_scores"]
    assert "The players choose their crib cards" in html
    spectator.command("select", str(wire.table.session.view(0).hand[0]))      # nothing to choose
    spectator.command("confirm-discard")
    spectator.command("play", "5H")
    assert spectator.take_outbox() == [] and spectator.seat_screen.selected == set()


def test_a_spectator_drops_a_seat_s_messages_and_a_view_with_cards():
    wire, _, spectator = started_with_a_spectator()
    before = spectator.view()
    seat_view = wire.table.session.view(1)
    spectator.receive(protocol.view(seat_view, ()))                  # a seat's view: not a spectator's
    spectator.receive(protocol.welcome(1, "t" * 22))
    assert spectator.view() == before and spectator.seat is None
    text = json.loads(protocol.watch(seat_view, ()))
    text["view"]["hand"] = " ".join(map(str, seat_view.hand))         # a watch message with a hand
    spectator.receive(json.dumps(text))
    assert spectator.view() == before and "no seat's own cards" in spectator.drops[-1]


def test_a_host_without_watching_refuses_a_channel_it_never_opened():
    wire = Wire(2)
    wire.join("a", "Gus")
    refused = watch(wire, "w:1")
    assert refused.screen == "rejected" and len(wire.table.watchers) == 0
    assert wire.table.table_message().endswith('"watching":0}')


def test_a_guest_drops_a_spectator_s_message():
    wire, gus, _ = started_with_a_spectator()
    before = gus.view()
    gus.receive(protocol.watch(wire.table.session.view(0), ()))
    assert gus.view() == before and gus.drops[-1] == "a spectator's watch message"
