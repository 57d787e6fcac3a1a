"""A guest's table: what the host has sent, and what the guest's clicks send back.

`GuestController` is a `web.seat.SeatTable` like the bot table and the host's, drawn by the
same code; its seat's screen sees each view the host sends. It never decides anything about the
game: a move becomes an ``action`` message in ``outbox``, and the table changes only when the
host's next view arrives. Every message from the host goes to one handler, by its type
(`GuestController.receive`). Pure Python.

>>> from web.friends import protocol
>>> ctl = GuestController("room-0123456789", token_source=lambda: "t" * 22)
>>> ctl.command("join", {"name": "Bob"}); ctl.take_outbox()
['{"v":8,"type":"hello","name":"Bob","token":"tttttttttttttttttttttt"}']
>>> ctl.receive(protocol.welcome(1, "t" * 22)); ctl.seat, ctl.token == "t" * 22
(1, True)
>>> ctl.command("chat", {"text": "hi"}); ctl.take_outbox(), ctl.outgoing.pending_count
(['{"v":8,"type":"chat","text":"hi","n":1}'], 1)
>>> ctl.receive(protocol.ack(1)); ctl.outgoing.pending_count
0
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, cast

from game.actions import Action
from game.engine import OVER
from game.errors import ParseError
from game.fair import Round, audit

from . import protocol
from .blind_guest import BlindGuest
from .delivery import Outgoing
from .fair_guest import FairWatch
from .described import HostDescribed
from .protocol import ChatLine, Fields, Message, ProtocolError, SeatInfo, TableInfo, parse
from ..coach.follow import TableCoach
from ..profile.records import GameRecord, coach_figures, make_record
from ..session import clean_name

HELLO_AGAIN = 5.0     # seconds without a welcome or refusal before the hello goes again


class GuestController(BlindGuest, HostDescribed):
    """One guest's screen. ``screen``: join (the name form), lobby, table or rejected. At a blind
    table its hands are `web.friends.blind_guest.BlindGuest`'s (``blind_saved``: its keys after a reload)."""

    multiplayer = True

    def __init__(self, room: str, name: str = "", token: str | None = None, clock: Callable[[], str] = lambda: "",
                 ticker: Callable[[], float] = lambda: 0.0, last: int = 0,
                 token_source: Callable[[], str] = lambda: secrets.token_urlsafe(18), blind_saved: object = None) -> None:
        super().__init__({"name": name})
        self.room, self.token = room, token
        self.token_source = token_source  # () -> a fresh seat token to propose on sitting down
        self.pin: str | None = None       # the host's identity from the invite link (web.net.identity)
        self.key_pin: str | None = None   # ... and its relay path key's (web.net.relay_path)
        self.paths: dict[int, tuple[str, int | None]] = {}   # {own seat: (path, round trip ms)}, set by the glue
        self.utc_offset = 0               # the viewer's minutes from UTC, for the chat's times (set by the glue)
        self.clock = clock                # () -> the time now, ISO 8601, for game records
        self.ticker = ticker              # () -> seconds, for sending unacknowledged messages again
        self.outgoing = Outgoing(last)    # moves and chat lines until the host acknowledges them
        self.welcomed = False             # the host welcomed this connection: numbered messages may go
        self.screen = "join"
        self.link = ""                    # the connection's state, in words ("" when all is well)
        self.rejected = ""
        self.seat = None
        self.table: TableInfo | None = None
        self.chat: list[ChatLine] = []
        self.outbox: list[str] = []
        self.hello_text: str | None = None    # the hello last queued in the outbox
        self.drops: list[str] = []
        self.finished: GameRecord | None = None   # the record of the game that just ended
        self.answer_code = ""             # invited by code: the answer to send back to the host
        self.joining = False              # "Sit down" was pressed; no welcome or refusal yet
        self.was_seated = False           # the host has welcomed this token (here or before a reload)
        self.hello_at: float | None = None   # when the last hello went, until a welcome or refusal
        self.fair = FairWatch(room)       # the fair deal: this guest's shares, checks and verdicts
        self.coach: TableCoach = TableCoach(0)    # reviews from this seat's views (if the host allows it)
        self.blind_init(blind_saved)

    # -- what render reads --

    def seats(self) -> list[SeatInfo]:
        """The table's seats as this guest knows them. Cut off from the host (``link`` says why),
        it cannot know who else is there: the other people show as away until it reconnects."""
        seats = self.table["seats"] if self.table else []
        if not self.link:
            return seats
        return [{**info, "online": False} if n != self.seat and info["kind"] in ("person", "host") else info
                for n, info in enumerate(seats)]

    # -- the coach: fed the views as they come; it never sees another seat's cards --

    def coach_allowed(self) -> bool:
        return bool(self.table and self.table.get("coach"))

    def coach_follow(self) -> bool:
        return self.view() is not None

    @property
    def pending(self) -> bool:
        """A move is on its way to the host (sent, not acknowledged): no other until it is
        (at a blind table: chosen, not made yet)."""
        return self.outgoing.action_pending or self.blind_choice is not None or \
            self.blind_seat is not None and self.blind_seat.pending is not None

    @property
    def blind(self) -> bool:
        """The table's hands are dealt blind (its ``table`` message says so)."""
        return self.table is not None and self.table["blind"]

    # -- the outbox --

    def take_outbox(self) -> list[str]:
        out, self.outbox = self.outbox, []
        return out

    def resend_due(self) -> None:
        """Queue again what the host has not acknowledged for a while (it drops repeats): the
        numbered messages, or, before the welcome, the hello itself after `HELLO_AGAIN`
        seconds (one sent as a channel was replaced can be lost, and the seat would stay
        away until the next reconnection; a host that took it drops the repeat)."""
        now = self.ticker()
        if self.welcomed:
            self.outbox.extend(self.outgoing.due(now))
        elif self.hello_at is not None and now - self.hello_at >= HELLO_AGAIN:
            self.hello_at = now
            if not self.hello_queued:
                self._queue_hello()

    @property
    def hello_queued(self) -> bool:
        """The hello this guest queued waits in the outbox (not yet handed to the network)."""
        return self.hello_text is not None and self.hello_text in self.outbox

    def _queue_hello(self, alone: bool = False) -> None:
        """The hello that presents this guest's seat token (or its name) again; ``alone``: the
        only message to go (numbered ones wait for the welcome, which says which to send)."""
        self.hello_text = protocol.hello(self.prefs["name"] or "Guest", self.token)
        self.outbox = [self.hello_text] if alone else self.outbox + [self.hello_text]

    # -- messages from the host --

    def handlers(self) -> dict[str, Callable[[Message], None]]:
        """What each message from the host does, by its type (`web.friends.protocol`)."""
        return {"welcome": self.on_welcome, "reject": self.on_reject, "error": self.on_error, "ack": self.on_ack,
                "table": self.on_table, "chat": self.on_chat, "view": self.on_view,
                "fair_commit": self.on_fair_commit}

    def receive(self, text: object) -> bool:
        """Take one message from the host. True when it only waits in the blind work's queue
        (`blind_work` takes it, and the page repaints then): nothing on the screen changed yet."""
        try:
            message = parse(text, "host")
        except ProtocolError as bad:
            self.drop(str(bad))
            if bad.code == "version":    # the host (its channel is verified) speaks another version
                self.screen, self.rejected, self.joining = "rejected", protocol.REJECT_REASONS["version"], False
            return False
        if message.type == "blind" or message.type == "view" and self.blind:
            if not self.blind:
                self.drop("a blind message at a table that does not deal blind")
                return False
            self.queue_blind(message, text if isinstance(text, str) else "")
            return True
        handler = self.handlers().get(message.type)
        if handler is None:         # (a spectator's watch: never a seat's)
            self.drop(f"a spectator's {message.type} message")
            return False
        handler(message)
        return False

    def on_welcome(self, message: Message) -> None:
        self.seat, self.token = message["seat"], message["token"]
        self.fair.seat = self.seat
        self.fair.welcomed()              # shares not used yet go again on this connection
        self.welcomed = self.was_seated = True
        self.hello_at = None
        self.chat = []                    # the host sends the table's whole chat next, after every welcome
        self.outbox.extend(self.outgoing.welcome(message["last"]))     # what a drop may have lost
        self.joining = False
        self.link = ""
        self.blind_again = True           # a blind message the host never relayed goes again
        if self.screen in ("join", "rejected"):
            self.screen = "lobby"

    def on_reject(self, message: Message) -> None:
        self.screen, self.rejected = "rejected", message["text"]
        self.joining = False
        self.hello_at = None
        if not self.was_seated or message["reason"] == "removed":   # no seat is kept for this token
            self.token, self.was_seated = None, False

    def on_error(self, message: Message) -> None:
        self.error = message["text"]
        if self.blind_seat is not None:       # a blind message refused: the hand waits for another
            self.blind_seat.pending = None

    def on_ack(self, message: Message) -> None:
        self.outgoing.acked(message["n"])

    def on_table(self, message: Message) -> None:
        self.table = cast(TableInfo, message.fields)      # (`parse` checked each field)
        self.fair.kinds = tuple(seat["kind"] for seat in self.table["seats"])
        if self.screen == "lobby" and self.table["started"] and self.view() is not None:
            self.screen = "table"

    def on_view(self, message: Message) -> None:
        view, events = message["view"], message["events"]
        if view.seat != self.seat or self.table is None:
            return self.drop("a view for another seat")
        if view.hand_sizes[view.seat] != len(view.hand):
            return self.drop("a view without this seat's cards at a table that does not deal blind")
        self._share(self.fair.see(view, events, message["game"], message["rounds"], full=message["log"] is not None))
        self.seat_screen.see(view, events, self.names(), message["log"])
        self.coach.see(view, events)
        if self.table["started"]:
            self.screen = "table"
        if view.phase == OVER:
            self._finish(message["record"])
        elif message["record"] is not None:
            self.drop("a game record before the game is over")
        self._alarm_news()

    def table_shown(self) -> None:
        """A blind hand's view is on the table."""
        self.screen = "table"

    def _finish(self, recipe: Fields | None) -> None:
        """The game is over: its record must have come with the view that ended it. Replayed
        here and kept if it is this game; missing, or not this game, it is an alarm."""
        view, game = self.view(), self.fair.game
        assert view is not None and game is not None, "`on_view` has seen the view (FairWatch.see its game)"
        key = (game, view.hand_no)
        if recipe is None:
            return self.fair.alarm(key, "the game ended without its record")
        names = [clean_name(name, f"Seat {n + 1}") for n, name in enumerate(recipe["names"])]
        try:
            if len(names) != recipe["config"].players:
                raise ParseError("it does not name every seat")
            fair = self.fair.transcript(game) if recipe["hand_seeds"] else None
            if fair is not None:    # what the audit of the whole game finds is an alarm too
                fair = self._audited(recipe, fair)
            record = make_record(recipe["config"], recipe["seed"], recipe["actions"], view.seat,
                                 names, "friends", self.clock(), recipe["hand_seeds"], fair)
            if record.config != view.config or record.summary.scores != view.scores:
                raise ParseError("it is the record of another game")
        except ParseError as bad:
            return self.fair.alarm(key, f"the game's record does not replay to this game: {bad}")
        if fair is None:
            return self.fair.alarm(key, "the game's record has no fair deal")
        if self.finished is None or self.finished.id != record.id:
            review = self.finished_review()
            self.finished = record if review is None else replace(record, coach=coach_figures(review))
            assert record.fair is not None, "made with its fair deal"
            for alarm in record.fair["alarms"]:   # what only the whole record shows
                self.fair.alarm(key, alarm)

    @staticmethod
    def _audited(recipe: Fields, fair: dict[str, Any]) -> dict[str, Any]:
        rounds = [Round.from_json(r) for r in fair["rounds"]]
        found = audit(fair["table"], recipe["config"], recipe["seed"], recipe["hand_seeds"], rounds)
        return dict(fair, alarms=fair["alarms"] + [p for p in found if p not in fair["alarms"]])

    def on_fair_commit(self, message: Message) -> None:
        self._share(self.fair.commit(message["game"], message["hand"], message["commitment"]))
        self._alarm_news()

    def _share(self, shares: Iterable[tuple[int, int, str]]) -> None:
        """Send this guest's shares of the shuffle (`web.friends.fair_guest`), first in line."""
        self.outbox.extend(protocol.fair_contribute(game, hand, value) for game, hand, value in shares)

    def _alarm_news(self) -> None:
        if self.fair.alarms:
            self.seat_screen.announcement = "The deal check failed: " + self.fair.alarms[-1]

    # -- the guest's input --

    def commands(self) -> dict[str, Callable[[Any], None]]:
        return {**super().commands(), "join": self.join, "chat": self.say}

    def join(self, form: dict[str, Any] | None) -> None:
        form = form or {}
        self.prefs["name"] = clean_name(form.get("name"), "")
        if not self.prefs["name"]:
            raise ParseError("type your name to sit down")
        self.screen, self.rejected = "join", ""
        self.joining = True
        if self.token is None:      # proposed now, so a hello sent again finds the same seat
            self.token = self.token_source()
        self._queue_hello()
        self.hello_at = self.ticker()

    def rejoin(self) -> None:
        """After a (re)connection: present the seat token again, or the name again when the
        host never answered the first hello (it may have been lost with a replaced channel).
        Nothing before the player's first "Sit down"."""
        if self.token or self.seat is not None or self.joining:
            # Numbered messages wait for the welcome, which says which of them to send again.
            self.welcomed = False
            self._queue_hello(alone=True)
            self.hello_at = self.ticker()

    def say(self, form: object) -> None:
        text = (form or {}).get("text", "") if isinstance(form, dict) else str(form or "")
        text = "".join(ch for ch in text if ch.isprintable()).strip()[: protocol.MAX_CHAT]
        if text:
            self._number(lambda n: protocol.chat(text, n), "chat")

    def move(self, action: Action) -> None:
        if self.blind:
            return self.blind_move(action)
        view = self.view()
        assert view is not None, "a move is made on a view"
        state_id = view.state_id
        self._number(lambda n: protocol.action(state_id, action, n), "action")

    def _number(self, build: Callable[[int], str], kind: str) -> None:
        """Number a move or chat line and send it, or keep it for the welcome of the next
        connection (sent before it, the host would drop it, or take a later one first)."""
        text = self.outgoing.add(build, kind, self.ticker())
        if self.welcomed:
            self.outbox.append(text)
