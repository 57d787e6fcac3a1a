"""The host's side of a table with friends: seats, connections, seat tokens, bots, chat and
the one `Session` that holds the game. Pure Python: tested under CPython.

Guests' messages come in through `HostTable.receive(conn, text)`; everything to send goes to
`outbox` as ``(conn, text)`` pairs that the browser glue delivers. The seat of a message is
the seat bound to its connection, never anything the message says. Each guest gets only its
own `view` and the public events, so hidden cards and the seed stay in the host's browser
until the game is over; then each guest gets the game's `record` (config, seed, moves) for its
own history (a rematch deals from a fresh seed). Every hand is dealt fairly (`game.fair`,
`web.friends.fair_table`): the game begins once the guests have added to the first shuffle.
Spectators, while the host lets people watch, get the public view and the chat, and can do
nothing (`web.friends.watchers`).

>>> table = HostTable("room-0123456789", players=2, target=61, host_name="Ann",
...                   token_source=lambda: "t" * 22, clock=lambda: 0.0)
>>> table.connect("peer-1"); table.receive("peer-1", protocol.hello("Bob", None))
True
>>> [parse(text, "host").type for conn, text in table.take_outbox()]
['table', 'welcome', 'chat', 'chat', 'table']
>>> table.start(); table.session is None           # waiting for Bob's share of the shuffle
True
>>> table.receive("peer-1", protocol.fair_contribute(0, 0, "cd" * 32)); table.session.names
True
['Ann', 'Bob']
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Container, Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, cast

from game.actions import Action
from game.bots import BOT_LEVELS
from game.codec import loads
from game.engine import FIVE_CARD, OVER, STANDARD, Config, legal_actions
from game.errors import IllegalActionError, ParseError
from game.events import Event

from . import protocol
from .blind_host import BLIND_WAIT, BlindHands
from .fair_host import FairDealer
from .fair_table import FairRounds
from .limits import SLOW_DOWN, Flow
from .protocol import ChatLine, Message, ProtocolError, SeatInfo, parse, rules_words
from .watchers import WATCH_ONLY, Watchers
from ..session import Session, clean_name

if TYPE_CHECKING:
    from ..table.model import SeatKind

SCHEMA = 2          # 2: the fair deal's rounds kept by game and hand
MOVED_ON = "The table moved on before your move arrived: choose again."
CHAT_KEPT = 100
DROPS_KEPT = 200
REBINDS = 3            # hellos that may move a seat to a new channel within REBIND_WINDOW seconds
REBIND_WINDOW = 10.0   # (a reconnection takes one; a page flapping between channels, many)
REMOVED_KEPT = 50      # seat tokens of friends removed from the lobby, refused if they come back


@dataclass
class Seat:
    """``kind``: host (seat 0), person, bot or open. A person's seat may have a bot
    ``stand_in`` playing for them while they are away."""

    kind: SeatKind = "open"
    name: str = ""
    level: str | None = None       # a bot seat's level
    token: str | None = None       # a person's seat token
    stand_in: str | None = None    # the bot level playing a person's seat for now
    last_n: int = 0                # the last message number taken from this person (web.friends.delivery)


def unique_name(name: str, taken: Container[str]) -> str:
    """``name``, or with a number after it (cut to fit) if someone at the table has it already.

    >>> unique_name("Ann", {"Ann", "Ann 2"}), unique_name("x" * 24, {"x" * 24})
    ('Ann 3', 'xxxxxxxxxxxxxxxxxxxxxx 2')
    """
    base, number = name, 1
    while name in taken:           # ends: the table has at most four names
        number += 1
        suffix = f" {number}"
        name = base[: protocol.MAX_NAME - len(suffix)].rstrip() + suffix
    return name


class HostTable(BlindHands, FairRounds):
    """The table the host's browser runs. Connections are the network's ids for them (`web.net.host_net`'s).
    Its fair deal's rounds are `web.friends.fair_table.FairRounds`'; with ``blind`` on (and a table
    it applies to), its hands are dealt blind: `web.friends.blind_host.BlindHands`."""

    def __init__(self, room: str, players: int, target: int, host_name: str,
                 token_source: Callable[[], str] = lambda: secrets.token_urlsafe(18),
                 clock: Callable[[], float] = time.time, ticker: Callable[[], float] = time.monotonic,
                 variant: str = STANDARD, muggins: bool = False, blind: bool = False,
                 blind_wait: float = BLIND_WAIT) -> None:
        if players not in (2, 3, 4) or target not in (61, 121):
            raise ParseError("a table has 2, 3 or 4 seats and plays to 61 or 121")
        Config(players=players, target=target, variant=variant, muggins=muggins)   # the engine's refusals
        self.room, self.players, self.target = room, players, target
        self.variant, self.muggins = variant, muggins    # five-card; counting it yourself (set_rules)
        self.token_source, self.clock = token_source, clock
        self.ticker = ticker             # seconds, for the guests' rate limits
        self.seats = [Seat("host", clean_name(host_name, "Host"))] + [Seat() for _ in range(players - 1)]
        self.session: Session | None = None
        self.chat: list[ChatLine] = []
        self.seat_of: dict[str, int | None] = {}    # conn -> seat, or None before its hello
        self.flows: dict[str, Flow] = {}            # conn -> its rate limits (web.friends.limits)
        self.in_step: set[str] = set()              # conns whose numbered messages now come one by one
        self.outbox: list[tuple[str, str]] = []
        self.drops: list[str] = []       # why messages were dropped, newest last
        # called with each drop's line ("conn: reason") as it is kept
        self.on_drop: Callable[[str], object] | None = None
        # called with the events of every move (`act`): the host's screen
        self.on_change: Callable[[tuple[Event, ...]], object] | None = None
        self.on_begin: Callable[[], object] | None = None   # called when a game begins (its first hand is dealt)
        self.fair = FairDealer(room)     # the fair deal's rounds (web.friends.fair_host)
        self.games = 0                   # games begun at this table, numbering the fair deal's rounds
        self.starting = False            # start or rematch asked: waiting for the first hand's round
        self.coach = False               # the host lets each player's coach review their hands
        self.rebinds: dict[int, list[float]] = {}   # seat -> when hellos moved it to a new channel
        self.removed: list[str] = []     # seat tokens of friends the host removed from the lobby
        self.watchers = Watchers()       # spectators, never in seat_of (web.friends.watchers)
        self.blind_init(blind, blind_wait)

    # -- reading --

    @property
    def started(self) -> bool:
        return self.session is not None

    def conn_of(self, seat: int) -> str | None:
        for conn, bound in self.seat_of.items():
            if bound == seat:
                return conn
        return None

    def online(self, seat: int) -> bool:
        return self.seats[seat].kind in ("host", "bot") or self.conn_of(seat) is not None

    def seat_json(self, seat: int) -> SeatInfo:
        s = self.seats[seat]
        return {"name": s.name, "kind": s.kind, "level": s.level, "online": self.online(seat),
                "stand_in": s.stand_in}

    def open_seats(self) -> list[int]:
        return [seat for seat, s in enumerate(self.seats) if s.kind == "open"]

    def can_start(self) -> bool:
        return not self.started and not self.starting and not self.open_seats()

    def take_outbox(self) -> list[tuple[str, str]]:
        out, self.outbox = self.outbox, []
        return out

    # -- guests' messages --

    def connect(self, conn: str) -> None:
        """A new channel: it hears the table at once, so a guest on another protocol version
        learns it from the host (over the verified channel) before it even sits down."""
        self.seat_of[conn] = None
        self.flows[conn] = Flow()
        self.send(conn, self.table_message())

    def watch_connect(self, conn: str) -> None:
        """A new channel through the watch link's room: a spectator, if watching is on and
        the table has room for one more; else told why, and nothing it sends is taken."""
        refused = self.watchers.admit(conn)
        if refused is not None:
            self.send(conn, protocol.reject(refused))
            return self.drop(conn, f"a spectator refused: {refused}")
        self.flows[conn] = Flow()
        self.send_table()
        self.send(conn, protocol.chat_lines(self.chat))
        self.send_watch(conn, (), full=True)

    def set_watching(self, on: bool) -> None:
        """The host lets people watch (a fresh watch link each time) or stops it: every
        spectator is told, and the old link opens nothing any more."""
        if on == (self.watchers.room is not None):
            return
        if on:
            self.watchers.start(self.token_source())
            self.system("The host lets people watch this table (they see no one's hand)")
        else:
            for conn in self.watchers.stop():
                self.send(conn, protocol.reject("watch-closed"))
                self.flows.pop(conn, None)
            self.system("The host closed watching")
        self.send_table()

    def disconnect(self, conn: str) -> None:
        self.flows.pop(conn, None)
        if self.watchers.left(conn):
            return self.send_table()
        self.in_step.discard(conn)
        seat = self.seat_of.pop(conn, None)
        if seat is not None:
            self.system(f"{self.seats[seat].name} left")
            self.send_table()

    def close(self) -> None:
        """The host closes the table: every guest is told, then the glue hangs up."""
        for conn, seat in self.seat_of.items():
            if seat is not None:
                self.send(conn, protocol.reject("closed"))
        for conn in self.watchers.conns:
            self.send(conn, protocol.reject("closed"))

    def receive(self, conn: str, text: object) -> bool:
        """Handle one message from ``conn``; a bad one is dropped with a logged reason, and
        one over the sender's rate limit is dropped before any work (`web.friends.limits`).
        True when the message was taken (the host's screen may have changed)."""
        if conn in self.watchers:
            return self.from_watcher(conn, text)
        if conn not in self.seat_of:
            self.drop(conn, "not connected")
            return False
        blind = isinstance(text, str) and text.startswith(protocol.BLIND_PREFIX)
        # Counted before it is read (it may be 96 KiB); free when clocked (`web.friends.limits`).
        if blind and not self.admit(conn, "blind", self.blind_clocked(conn, cast(str, text))):
            return False
        try:
            message = parse(text, "guest")
        except ProtocolError as bad:
            if not self.admit(conn, "malformed"):
                return False
            if bad.code == "version":
                self.send(conn, protocol.reject("version"))
            self.drop(conn, str(bad))
            return False
        if message.type == "blind":
            if not blind:
                self.drop(conn, "a blind message not written as the protocol writes it")
                return False
            return self.take_blind(conn, cast(str, text))
        if not self.admit(conn, "repeat" if self.repeated(conn, message) else message.type):
            return False
        self.take(conn, message)
        return True

    def take_blind(self, conn: str, text: str) -> bool:
        """A seated friend's blind message, queued for `blind_work` (refused if no hand of its is on)."""
        seat = self.seat_of[conn]
        hand = self.blind_hand
        if seat is not None and self.dropped_ahead(text):     # sent before its browser knew: nothing to do
            return False
        if seat is None or hand is None or seat not in hand.setup.humans or seat == 0:
            self.drop(conn, "a blind message with no hand of its own on")
            return False
        self.blind_queue.append((seat, text))
        return True

    def from_watcher(self, conn: str, text: object) -> bool:
        """A spectator sent something: whatever it is, it is refused (within the channel's rate
        limits, checked first: a flood costs nothing) and changes nothing. Never taken: False."""
        if not self.admit(conn, "watching"):
            return False
        try:
            kind = parse(text, "guest").type
        except ProtocolError:
            kind = "malformed"
        self.send(conn, protocol.reject("watch-only") if kind == "hello" else protocol.error(WATCH_ONLY))
        self.drop(conn, f"a spectator's {kind} message")
        return False

    def repeated(self, conn: str, message: Message) -> bool:
        """A numbered message taken already (sent again after a drop): it costs only an ack,
        so it counts against the sender's overall limit but not its chat limit."""
        seat = self.seat_of.get(conn)
        if seat is None or "n" not in message.fields:
            return False
        n: int = message["n"]
        return n <= self.seats[seat].last_n

    def admit(self, conn: str, kind: str, clocked: bool = False) -> bool:
        """Whether ``conn`` is within its rate limits; the first drop of a burst sends the
        sender (only) one notice, the rest are dropped silently and never logged one by one."""
        verdict = self.flows.setdefault(conn, Flow()).admit(kind, self.ticker(), clocked)
        if verdict == "notice":
            self.drop(conn, "over the rate limit: dropping until it slows down")
            self.send(conn, protocol.chat_lines([self.chat_line("", SLOW_DOWN, True)]))
        return verdict == "ok"

    def penalize(self, seat: int) -> None:
        """A friend's blind message its hand refused draws on the sender's blind bucket."""
        conn = self.conn_of(seat)
        if conn is not None:
            self.flows.setdefault(conn, Flow()).penalize(self.ticker())

    def take(self, conn: str, message: Message) -> None:
        seat = self.seat_of[conn]
        if message.type == "hello":
            if seat is not None:
                return self.drop(conn, "already seated")
            return self.hello(conn, message["name"], message["token"])
        if seat is None:
            return self.drop(conn, f"{message.type} before hello")   # sent again after the welcome
        if message.type == "fair_contribute":
            return self.contribution(conn, seat, message)
        person, n = self.seats[seat], message["n"]
        if n <= person.last_n:      # sent again after a drop, but taken already: say so again
            self.drop(conn, f"message {n} again")
            return self.send(conn, protocol.ack(person.last_n))
        if n != person.last_n + 1 and conn in self.in_step:
            # One before it was dropped here (over the rate limit): the guest sends both
            # again, in order. Only the first after a welcome may skip numbers the guest
            # no longer holds (it reloaded with them unsent).
            return self.drop(conn, f"message {n} before {person.last_n + 1}")
        self.in_step.add(conn)
        person.last_n = n
        if message.type == "chat":
            self.say(seat, message["text"])
        else:
            self.guest_action(conn, seat, message["state_id"], message["action"])
        self.send(conn, protocol.ack(n))

    def hello(self, conn: str, name: str, token: str | None) -> None:
        seat = next((n for n, s in enumerate(self.seats) if token and s.kind == "person" and s.token == token), None)
        news = None
        if token is not None and token in self.removed:
            self.send(conn, protocol.reject("removed"))
            return self.drop(conn, "a seat token the host removed")
        if seat is not None:
            now = self.ticker()
            recent = [at for at in self.rebinds.get(seat, []) if now - at < REBIND_WINDOW]
            if len(recent) >= REBINDS:       # flapping between channels: the seat stays where it is
                return self.drop(conn, f"hello for seat {seat + 1} again within {REBIND_WINDOW:.0f} s")
            self.rebinds[seat] = recent + [now]
            old = self.conn_of(seat)
            if old is not None:              # the same player in a new tab or after a drop
                self.send(old, protocol.reject("replaced"))
                self.seat_of[old] = None
            else:
                news = f"{self.seats[seat].name} is back"
            self.seat_of[conn] = seat
        else:
            free = self.open_seats()
            if self.started or not free:
                self.send(conn, protocol.reject("full"))
                return self.drop(conn, "no free seat")
            seat = free[0]
            name = unique_name(clean_name(name, f"Player {seat + 1}"), {s.name for s in self.seats if s.kind != "open"})
            # The token the guest proposed (a hello sent again finds this seat), else a new one.
            self.seats[seat] = Seat("person", name, token=token or self.token_source())
            self.seat_of[conn] = seat
            news = f"{name} sat down"
        welcomed = self.seats[seat]
        assert welcomed.token is not None, "a person's seat has its token"
        self.send(conn, protocol.welcome(seat, welcomed.token, welcomed.last_n))
        self.send(conn, protocol.chat_lines(self.chat))
        if news:
            self.system(news)
        self.send_table()
        if self.started:
            self.blind_welcome(conn, seat)
            self.send_view(seat, (), full=True)
        self.send_first_round(conn)

    def guest_action(self, conn: str, seat: int, state_id: int, action: Action) -> None:
        if self.session is None:
            return self.drop(conn, "the game has not started")
        if self.seats[seat].stand_in is not None:
            self.send(conn, protocol.error("A bot is playing your seat for now: ask the host for it back."))
            return self.drop(conn, "a bot is playing this seat")
        state = self.session.state
        if state_id != state.state_id and action not in legal_actions(state, seat):
            # Chosen on a view the table has left behind (say, sent during a drop): show the
            # table as it is now. A move that still applies is taken: it is the same choice.
            self.drop(conn, f"state {state_id} is not the current state {state.state_id}")
            self.send(conn, protocol.error(MOVED_ON))
            return self.send_view(seat, (), full=False)
        try:
            self.act(seat, action)
        except (IllegalActionError, ParseError) as refused:
            self.send(conn, protocol.error(str(refused)))
            return self.drop(conn, str(refused))

    def act(self, seat: int, action: object) -> tuple[Event, ...]:
        """Every move at this table, whoever makes it (the host, a bot or a guest): applied to
        the one session, then each guest gets its view and the host's screen its events."""
        assert self.session is not None, "moves come once the game has begun"
        events = self.session.act(seat, action)
        self.changed(events)
        if self.on_change is not None:
            self.on_change(events)
        return events

    # -- the host's own commands --

    def set_seat(self, seat: int, level: str | None) -> None:
        """Lobby: put a bot of ``level`` in an open or bot seat, or (None) empty a bot seat."""
        if self.started or not 1 <= seat < self.players or self.seats[seat].kind not in ("open", "bot"):
            raise IllegalActionError("only an empty seat or a bot's seat can change before the game")
        if level is None:
            self.seats[seat] = Seat()
        elif level in BOT_LEVELS:
            names = ("Robin", "Sage", "Pip")
            self.seats[seat] = Seat("bot", f"{names[seat - 1]} (bot)", level=level)
        else:
            raise ParseError(f"bot levels are {', '.join(BOT_LEVELS)}")
        self.send_table()

    def remove(self, seat: int) -> None:
        """Lobby: the host asks a seated friend to leave. The friend is told, the seat is empty
        again, and its token is refused from then on (a reload does not bring them back)."""
        if self.started or self.starting or not 1 <= seat < self.players or self.seats[seat].kind != "person":
            raise IllegalActionError("only a friend's seat can be emptied, and only before the game")
        removed = self.seats[seat]
        conn = self.conn_of(seat)
        if conn is not None:
            self.send(conn, protocol.reject("removed"))
            self.seat_of[conn] = None
        if removed.token is not None:     # (a person's seat has one)
            self.removed = (self.removed + [removed.token])[-REMOVED_KEPT:]
        self.seats[seat] = Seat()
        self.rebinds.pop(seat, None)
        self.system(f"The host asked {removed.name} to leave")
        self.send_table()

    def set_blind(self, on: bool) -> None:
        """Lobby: whether nobody sees a card they should not, not even the host (the blind deal,
        docs/blind-deal.md); it applies to the standard game counted by the table, with a friend
        seated (`blind_why_not` says why not), and the lobby says so."""
        if self.started or self.starting:
            raise IllegalActionError("the deal is chosen in the lobby, before the game")
        if on != self.blind:
            self.blind = on
            self.system("Nobody sees a card they should not, not even the host: every browser deals "
                        "together (the host's browser still knows its bots' cards)." if on else
                        "The host's browser deals, fairly: it could see every card.")
            self.send_table()

    def tick(self) -> bool:
        """Every second (the glue): a game whose first shares are late begins
        (`web.friends.fair_table.FairRounds.tick`); a blind hand waiting for a friend who is
        away counts down, then is dealt again with a bot (True while it waits: the host's
        screen shows the countdown)."""
        self.blind_tick()
        return super().tick() or self.blind_left() is not None

    def set_coach(self, allowed: bool) -> None:
        """Lobby: whether each player may see the coach's review of their own hands after each
        show (their own cards only: `web.coach.follow`). Off unless the host allows it."""
        if self.started:
            raise IllegalActionError("the coach is set in the lobby, before the game")
        if allowed != self.coach:
            self.coach = allowed
            self.system("The coach is on: each player may review their own discards and pegging "
                        "after each hand." if allowed else "The coach is off at this table.")
            self.send_table()

    def set_rules(self, length: str | None = None, muggins: bool | None = None) -> None:
        """Lobby: the game's length (``"121"``, ``"61"`` or ``"five"``: five-card, to 61) and
        whether the players count their points themselves (muggins); what is not given stays.
        Refused as the engine refuses it (five-card is for two players), changing nothing.

        >>> table = HostTable("room-0123456789", 3, 121, "Ann")
        >>> table.set_rules("five")
        Traceback (most recent call last):
        ...
        game.errors.ParseError: five-card cribbage is played by 2 players to 61
        >>> table.set_rules("61", muggins=True); table.target, table.variant, table.muggins
        (61, 'standard', True)
        """
        if self.started or self.starting:
            raise IllegalActionError("the game's rules are set in the lobby, before the game")
        target, variant = self.target, self.variant
        if length is not None:
            if length not in ("121", "61", FIVE_CARD):
                raise ParseError(f"a game is to 121 or 61, or five-card, not {str(length)[:8]!r}")
            target, variant = (61, FIVE_CARD) if length == FIVE_CARD else (int(length), STANDARD)
        muggins = self.muggins if muggins is None else muggins
        Config(players=self.players, target=target, variant=variant, muggins=muggins)
        if (target, variant, muggins) == (self.target, self.variant, self.muggins):
            return
        if muggins != self.muggins:
            self.system("Count it yourself: each player claims their own points, and a rival may call "
                        "muggins on points missed." if muggins else "The table counts everyone's points.")
        if (target, variant) != (self.target, self.variant):
            self.system(f"The host chose: {rules_words(variant, target)}.")
        self.target, self.variant, self.muggins = target, variant, muggins
        self.send_table()

    def start(self) -> None:
        """Ask the guests for their share of the first shuffle; the game begins when all have
        sent it, or after `web.friends.fair_host.WAIT` seconds (see `tick`)."""
        if not self.can_start():
            raise IllegalActionError("fill the empty seats (a friend or a bot) before starting")
        self.begin_round()

    def rematch(self) -> None:
        if self.starting:
            raise IllegalActionError("the new game is being shuffled")
        self.games += 1
        self.begin_round()

    def begin_round(self) -> None:
        if self.blind_on:
            return self.begin_blind()
        self.blind_game = False
        self.starting = True
        self.open_round(self.games, 0)
        self.maybe_begin()

    def maybe_begin(self) -> bool:
        game = self.games
        if not self.starting or not (self.fair.ready(game, 0) or (game, 0) in self.fair.due(self.ticker())):
            return False
        seed = self.fix(game, 0)
        self.starting = False
        self.fair.keep_only(game)
        if self.session is None:
            names = [s.name for s in self.seats]
            bots = [s.level if s.kind == "bot" else None for s in self.seats]
            self.session = Session.new(self.players, self.target, names, bots, seed=seed, hand_seeds=(seed,),
                                       variant=self.variant, muggins=self.muggins)
            self.system("The game begins")
            self.send_table()
        else:
            self.session.rematch(seed, hand_seeds=(seed,))
            self.system("A new game at the same table")
        self.session.seed_for = self.seed_for
        self.open_round(game, 1)            # its commitment rides with the first deal
        self.broadcast_views((), full=True)
        if self.on_begin is not None:
            self.on_begin()
        return True

    def stand_in(self, seat: int, level: str) -> None:
        """Hand an away player's seat to a bot for now."""
        s = self.seats[seat]
        if s.kind != "person" or level not in BOT_LEVELS or not self.started:
            raise IllegalActionError("a bot can sit in for a player who is away, once the game is on")
        assert self.session is not None, "the game is on"
        s.stand_in = self.stand_in_level = level      # (the level for a blind hand's friend away too)
        self.session.bots[seat] = level
        self.system(f"A bot plays for {s.name} for now")
        self.send_table()

    def give_back(self, seat: int) -> None:
        s = self.seats[seat]
        if s.stand_in is None:
            raise IllegalActionError("no bot is sitting in there")
        assert self.session is not None, "a bot sits in only once the game is on"
        s.stand_in = None
        self.session.bots[seat] = None
        self.system(f"{s.name} has their seat back")
        self.send_table()

    def say(self, seat: int, text: str) -> None:
        text = "".join(ch for ch in str(text) if ch.isprintable()).strip()[: protocol.MAX_CHAT]
        if text:
            self.add_chat(self.seats[seat].name, text, False)

    def system(self, text: str) -> None:
        self.add_chat("", text, True)

    def chat_line(self, name: str, text: str, system: bool) -> ChatLine:
        return {"at": round(self.clock(), 3), "name": name, "text": text, "system": system}

    def add_chat(self, name: str, text: str, system: bool) -> None:
        line = self.chat_line(name, text, system)
        self.chat = (self.chat + [line])[-CHAT_KEPT:]
        self.tell_everyone(protocol.chat_lines([line]))

    # -- after a move (a guest's, the host's or a bot's) --

    def changed(self, events: tuple[Event, ...]) -> None:
        """Send every guest its view after ``events`` (the hand history carries the goes and
        scores; the chat says only who won, beside what people say)."""
        assert self.session is not None, "a move was made"
        names = self.session.names
        for event in events:
            if event.kind in ("game_over", "match_over"):
                self.system(event.describe(names))
        self.reveal_due(events)
        state = self.session.state
        if state.phase != OVER and any(event.kind == "deal" for event in events):
            self.open_round(self.playing, state.hand_no + 1)    # its commitment rides with this deal
        self.broadcast_views(events, full=False)

    def seed_for(self, hand: int) -> int:
        """The seed of ``hand``, the next to deal (`web.session.Session.seed_for`): its round, fixed."""
        return self.fix(self.playing, hand)

    def broadcast_views(self, events: Iterable[Event], full: bool) -> None:
        for seat in self.seat_of.values():
            if seat is not None:
                self.send_view(seat, events, full)
        for conn in self.watchers.conns:
            self.send_watch(conn, events, full)

    def send_watch(self, conn: str, events: Iterable[Event], full: bool) -> None:
        """A spectator's public view, from the host's place (`web.friends.protocol.watch`): no
        fair deal's round and no record, which only the seated need."""
        if self.blind_hand is not None:
            self.send(conn, protocol.watch(self.blind_view(0), events, self.session.log if full and self.session else None))
        elif self.blind_game and self.session is not None and self.session.state.phase != OVER:
            return      # a saved hand not rebuilt yet: nothing to show
        elif self.session is not None:
            self.send(conn, protocol.watch(self.session.view(0), events, self.session.log if full else None))

    def send_view(self, seat: int, events: Iterable[Event], full: bool) -> None:
        """A seat's view with the fair deal's rounds it must know by now and, once the game is
        over, the game's record (its recipe is the guest's too then)."""
        conn = self.conn_of(seat)
        if conn is not None and self.session is not None and self.blind_game:
            if self.blind_hand is not None:
                self.send(conn, protocol.view(self.blind_view(seat), events, self.session.log if full else None,
                                              self.games))
            elif self.session.state.phase == OVER:
                self.send(conn, protocol.view(self.session.view(seat), events, self.session.log if full else None,
                                              self.games))
        elif conn is not None and self.session is not None:
            log = self.session.log if full else None
            state = self.session.state
            record = protocol.record(state.config, state.seed, state.actions, self.session.names,
                                     state.hand_seeds) if state.phase == OVER else None
            self.send(conn, protocol.view(self.session.view(seat), events, log, self.playing,
                                          self.view_rounds(full), record))

    def table_message(self) -> str:
        return protocol.table(self.players, self.target, self.started,
                              [self.seat_json(seat) for seat in range(self.players)], self.coach, len(self.watchers),
                              self.variant, self.muggins, self.blind_game if self.started else self.blind_on)

    def send_table(self) -> None:
        self.tell_everyone(self.table_message())

    def broadcast(self, text: str) -> None:
        """To every seated guest (the fair deal's rounds too: never to a spectator)."""
        for conn, seat in self.seat_of.items():
            if seat is not None:
                self.send(conn, text)

    def tell_everyone(self, text: str) -> None:
        """To every seated guest and every spectator: the table and the chat."""
        self.broadcast(text)
        for conn in self.watchers.conns:
            self.send(conn, text)

    def send(self, conn: str, text: str) -> None:
        self.outbox.append((conn, text))

    def drop(self, conn: str, reason: str) -> None:
        line = f"{conn}: {reason}"
        self.drops = (self.drops + [line])[-DROPS_KEPT:]
        if self.on_drop is not None:
            self.on_drop(line)

    # -- saving (the host's own browser only: it holds the seed and every card) --

    def to_json(self) -> str:
        return json.dumps({"v": SCHEMA, "room": self.room, "players": self.players, "target": self.target,
                           "seats": [asdict(s) for s in self.seats], "chat": self.chat,
                           "fair": dict(self.fair.to_json(), games=self.games, starting=self.starting),
                           "coach": self.coach, "removed": self.removed, "variant": self.variant,
                           "muggins": self.muggins, "watch": self.watchers.room,
                           "blind": self.blind, "blind_game": self.blind_json(), "stand_in_level": self.stand_in_level,
                           "session": self.session.to_json() if self.session else None})

    @classmethod
    def from_json(cls, text: str, token_source: Callable[[], str] | None = None,
                  clock: Callable[[], float] = time.time,
                  texts: Callable[[str], str | None] = lambda name: None) -> HostTable:
        """Rebuild a saved table (connections start empty) and the texts its blind hands
        relayed, each read by its name from ``texts`` (`saved_texts`); damage raises `ParseError`."""
        try:
            data = loads(text, "the saved table")
            if data.get("v") != SCHEMA:
                raise ParseError("the saved table is from another version")
            # (tables saved before five-card and muggins: standard, counted by the table)
            table = cls(data["room"], data["players"], data["target"], "Host",
                        token_source or (lambda: secrets.token_urlsafe(18)), clock,
                        variant=data.get("variant", STANDARD), muggins=data.get("muggins", False))
            seats = [Seat(**{k: s[k] for k in ("kind", "name", "level", "token", "stand_in")},
                          last_n=s.get("last_n", 0)) for s in data["seats"]]
            if not all(isinstance(s.last_n, int) and not isinstance(s.last_n, bool) for s in seats):
                raise ParseError("the saved table's message numbers are damaged")
            if len(seats) != table.players or seats[0].kind != "host":
                raise ParseError("the saved table's seats are damaged")
            table.seats = seats
            # (the host's own save: its lines as it kept them)
            table.chat = cast("list[ChatLine]", [line for line in data["chat"] if isinstance(line, dict)][-CHAT_KEPT:])
            table.coach = data.get("coach", False) is True     # tables saved before it: off
            table.removed = [t for t in data.get("removed", []) if isinstance(t, str)][-REMOVED_KEPT:]
            watch = data.get("watch")           # tables saved before spectators: not watched
            if isinstance(watch, str) and protocol.TOKEN.fullmatch(watch):
                table.watchers.start(watch)
            if data["session"] is not None:
                table.session = Session.from_json(data["session"])
            fair = data.get("fair")
            if fair is not None:
                table.fair.load(fair, table.ticker())
                table.games, table.starting = int(fair["games"]), fair["starting"] is True
            if table.session is not None:
                table.session.seed_for = table.seed_for
            table.blind = data.get("blind", False) is True        # tables saved before it: off
            level = data.get("stand_in_level")
            table.stand_in_level = level if level in BOT_LEVELS else None
            table.blind_load(data.get("blind_game"), texts)
        except (TypeError, KeyError, ValueError, AttributeError) as damaged:
            if isinstance(damaged, ParseError):
                raise
            raise ParseError(f"the saved table is damaged ({type(damaged).__name__})") from None
        return table
