"""A guest's table: what the host has sent, and what the guest's clicks send back.

`GuestController` offers `web.render` the same small interface as the single-player
`Controller` (``view()``, ``names()``, ``side_names()``, ``levels()``, ``log()``,
``can_resume()`` and the screen fields), so the guest's table is drawn by the same code.
It never decides anything about the game: a move becomes an ``action`` message in
``outbox``, and the table changes only when the host's next view arrives. Pure Python.

>>> from web.friends import protocol
>>> ctl = GuestController("room-0123456789", token_source=lambda: "t" * 22)
>>> ctl.command("join", {"name": "Bob"}); ctl.take_outbox()
['{"v":5,"type":"hello","name":"Bob","token":"tttttttttttttttttttttt"}']
>>> ctl.receive(protocol.welcome(1, "t" * 22)); ctl.seat, ctl.token == "t" * 22
(1, True)
>>> ctl.command("chat", {"text": "hi"}); ctl.take_outbox(), ctl.outgoing.pending_count
(['{"v":5,"type":"chat","text":"hi","n":1}'], 1)
>>> ctl.receive(protocol.ack(1)); ctl.outgoing.pending_count
0
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from game.actions import Action
from game.cards import Card
from game.engine import DISCARDING, OVER, PLAYING
from game.errors import ParseError
from game.events import side_name
from game.fair import Round, audit

from . import protocol
from .delivery import Outgoing
from .fair_guest import FairWatch
from .protocol import ProtocolError, parse
from ..coach.follow import TableCoach
from ..coach.seat import CoachedSeat
from ..controller import clean_prefs, key_command, toggle_selection
from ..profile.records import coach_figures, make_record
from ..session import clean_name
from ..table.play_end import ShowAfterPlay, pegs_of

CHAT_SHOWN = 200
HELLO_AGAIN = 5.0     # seconds without a welcome or refusal before the hello goes again


class GuestController(ShowAfterPlay, CoachedSeat):
    """One guest's screen. ``screen``: join (the name form), lobby, table or rejected."""

    multiplayer = True
    hosting = False

    def __init__(self, room: str, name: str = "", token: str | None = None, clock=lambda: "",
                 ticker=lambda: 0.0, last: int = 0, token_source=lambda: secrets.token_urlsafe(18)):
        self.room, self.token = room, token
        self.token_source = token_source  # () -> a fresh seat token to propose on sitting down
        self.pin: str | None = None       # the host's identity from the invite link (web.net.identity)
        self.key_pin: str | None = None   # ... and its relay path key's (web.net.relay_path)
        self.paths: dict[int, tuple] = {}   # {own seat: (path, round trip ms)}, set by the glue
        self.clock = clock                # () -> the time now, ISO 8601, for game records
        self.ticker = ticker              # () -> seconds, for sending unacknowledged messages again
        self.outgoing = Outgoing(last)    # moves and chat lines until the host acknowledges them
        self.welcomed = False             # the host welcomed this connection: numbered messages may go
        self.prefs = clean_prefs({"name": name})
        self.screen = "join"
        self.link = ""                    # the connection's state, in words ("" when all is well)
        self.rejected = ""
        self.seat: int | None = None
        self.table: dict | None = None
        self.current = None               # the latest View from the host
        self.log_lines: list[str] = []
        self.chat: list[dict] = []
        self.outbox: list[str] = []
        self.drops: list[str] = []
        self.selected: set[Card] = set()
        self.show = ()
        self.show_starter = None
        self.show_intro: tuple[str, ...] = ()   # how the play ended (last card, go) before the show
        self.last_pegs: dict[int, str] = {}
        self.announcement = ""
        self.error = ""
        self.finished = None              # the GameRecord of the game that just ended
        self.answer_code = ""             # invited by code: the answer to send back to the host
        self.joining = False              # "Sit down" was pressed; no welcome or refusal yet
        self.was_seated = False           # the host has welcomed this token (here or before a reload)
        self.hello_at: float | None = None   # when the last hello went, until a welcome or refusal
        self.fair = FairWatch(room)       # the fair deal: this guest's shares, checks and verdicts
        self.coach = TableCoach(0)        # reviews from this seat's views (if the host allows it)

    # -- what render reads --

    def view(self):
        return self.current

    def names(self) -> list[str]:
        return [seat["name"] or f"Seat {n + 1}" for n, seat in enumerate(self.table["seats"])]

    def side_names(self) -> list[str]:
        names = self.names()
        return [side_name(names, side) for side in range(self.current.config.sides)]

    def levels(self) -> list[str | None]:
        return [seat["level"] or seat["stand_in"] for seat in self.table["seats"]]

    def known_seats(self) -> list[dict]:
        """The table's seats as this guest knows them. Cut off from the host (``link`` says why),
        it cannot know who else is there: the other people show as away until it reconnects."""
        seats = self.table["seats"] if self.table else []
        if not self.link:
            return seats
        return [dict(info, online=False) if n != self.seat and info["kind"] in ("person", "host") else info
                for n, info in enumerate(seats)]

    def presence(self) -> list[bool]:
        return [seat["online"] for seat in self.known_seats()]

    def log(self) -> list[str]:
        return self.log_lines

    def can_resume(self) -> bool:
        return False

    def bot_waiting(self) -> bool:
        return False

    def is_over(self) -> bool:
        return self.current is not None and self.current.phase == "over"

    # -- the coach: fed the views as they come (_on_view); it never sees another seat's cards --

    def coach_allowed(self) -> bool:
        return bool(self.table and self.table.get("coach"))

    def coach_follow(self) -> bool:
        return self.current is not None

    def take_outbox(self) -> list[str]:
        out, self.outbox = self.outbox, []
        return out

    @property
    def pending(self) -> bool:
        """A move is on its way to the host (sent, not acknowledged): no other until it is."""
        return self.outgoing.action_pending

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
                self.outbox.append(self._hello())

    @property
    def hello_queued(self) -> bool:
        """A hello waits in the outbox (not yet handed to the network)."""
        return any('"type":"hello"' in text for text in self.outbox)

    def _hello(self) -> str:
        """The hello that presents this guest's seat token (or its name) again."""
        return protocol.hello(self.prefs["name"] or "Guest", self.token)

    # -- messages from the host --

    def receive(self, text) -> None:
        try:
            message = parse(text, "host")
        except ProtocolError as bad:
            self.drops = (self.drops + [str(bad)])[-100:]
            if bad.code == "version":    # the host (its channel is verified) speaks another version
                self.screen, self.rejected, self.joining = "rejected", protocol.REJECT_REASONS["version"], False
            return
        getattr(self, f"_on_{message.type}")(message)

    def _on_welcome(self, message) -> None:
        self.seat, self.token = message["seat"], message["token"]
        self.fair.seat = self.seat
        self.fair.welcomed()              # shares not used yet go again on this connection
        self.welcomed = self.was_seated = True
        self.hello_at = None
        self.chat = []                    # the host sends the table's whole chat next, after every welcome
        self.outbox.extend(self.outgoing.welcome(message["last"]))     # what a drop may have lost
        self.joining = False
        self.link = ""
        if self.screen in ("join", "rejected"):
            self.screen = "lobby"

    def _on_reject(self, message) -> None:
        self.screen, self.rejected = "rejected", message["text"]
        self.joining = False
        self.hello_at = None
        if not self.was_seated or message["reason"] == "removed":   # no seat is kept for this token
            self.token, self.was_seated = None, False

    def _on_error(self, message) -> None:
        self.error = message["text"]

    def _on_ack(self, message) -> None:
        self.outgoing.acked(message["n"])

    def _on_table(self, message) -> None:
        self.table = message.fields
        self.fair.kinds = tuple(seat["kind"] for seat in self.table["seats"])
        if self.screen == "lobby" and self.table["started"] and self.current is not None:
            self.screen = "table"

    def _on_chat(self, message) -> None:
        self.chat = (self.chat + message["lines"])[-CHAT_SHOWN:]
        if message["lines"]:
            last = message["lines"][-1]
            self.announcement = last["text"] if last["system"] else f"{last['name']}: {last['text']}"

    def _on_view(self, message) -> None:
        before = self.current
        view, events = message["view"], message["events"]
        if view.seat != self.seat or self.table is None:
            self.drops.append("a view for another seat")
            return
        self.current = view
        self._share(self.fair.see(view, events, message["game"], message["rounds"], full=message["log"] is not None))
        self.coach.see(view, events)
        names = self.names()
        if message["log"] is not None:
            self.log_lines = list(message["log"])
        else:
            self.log_lines = (self.log_lines + [e.describe(names) for e in events if e.kind != "deal"])[-400:]

        def said(part) -> str:
            return ". ".join([e.describe(names) for e in part if e.kind not in ("deal", "discard")][-4:])
        if not self.bring_show(events, before, view.state_id, names, said):
            self.last_pegs.update(pegs_of(events))
            self.announcement = said(events) or self.announcement
        if before is None or before.game_no != view.game_no or before.hand_no > view.hand_no:
            self.last_pegs = {}
        self.selected = {card for card in self.selected if card in view.hand} \
            if view.phase == DISCARDING and not view.has_discarded[view.seat] else set()
        if self.table["started"]:
            self.screen = "table"
        if view.phase == OVER:
            self._finish(message["record"])
        self._alarm_news()

    def _finish(self, recipe) -> None:
        """The game is over: its record must have come with the view that ended it. Replayed
        here and kept if it is this game; missing, or not this game, it is an alarm."""
        view, key = self.current, (self.fair.game, self.current.hand_no)
        if recipe is None:
            return self.fair.alarm(key, "the game ended without its record")
        names = [clean_name(name, f"Seat {n + 1}") for n, name in enumerate(recipe["names"])]
        try:
            if len(names) != recipe["config"].players:
                raise ParseError("it does not name every seat")
            fair = self.fair.transcript(self.fair.game) if recipe["hand_seeds"] else None
            if fair is not None:    # what the audit of the whole game finds is an alarm too
                fair = self._audited(recipe, fair)
            record = make_record(recipe["config"], recipe["seed"], recipe["actions"], self.seat,
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
            for alarm in record.fair["alarms"]:   # what only the whole record shows
                self.fair.alarm(key, alarm)

    @staticmethod
    def _audited(recipe, fair: dict) -> dict:
        rounds = [Round.from_json(r) for r in fair["rounds"]]
        found = audit(fair["table"], recipe["config"], recipe["seed"], recipe["hand_seeds"], rounds)
        return dict(fair, alarms=fair["alarms"] + [p for p in found if p not in fair["alarms"]])

    def _on_fair_commit(self, message) -> None:
        self._share(self.fair.commit(message["game"], message["hand"], message["commitment"]))
        self._alarm_news()

    def _share(self, shares) -> None:
        """Send this guest's shares of the shuffle (`web.friends.fair_guest`), first in line."""
        self.outbox.extend(protocol.fair_contribute(game, hand, value) for game, hand, value in shares)

    def _alarm_news(self) -> None:
        if self.fair.alarms:
            self.announcement = "The deal check failed: " + self.fair.alarms[-1]

    # -- the guest's input --

    def command(self, name: str, arg=None) -> None:
        self.error = ""
        handler = getattr(self, f"_do_{name.replace('-', '_')}", None)
        if handler is None:
            return
        try:
            handler(arg)
        except ValueError as refused:
            self.error = str(refused)

    def _do_join(self, form) -> None:
        form = form or {}
        self.prefs["name"] = clean_name(form.get("name"), "")
        if not self.prefs["name"]:
            raise ValueError("type your name to sit down")
        self.screen, self.rejected = "join", ""
        self.joining = True
        if self.token is None:      # proposed now, so a hello sent again finds the same seat
            self.token = self.token_source()
        self.outbox.append(protocol.hello(self.prefs["name"], self.token))
        self.hello_at = self.ticker()

    def rejoin(self) -> None:
        """After a (re)connection: present the seat token again, or the name again when the
        host never answered the first hello (it may have been lost with a replaced channel).
        Nothing before the player's first "Sit down"."""
        if self.token or self.seat is not None or self.joining:
            # Numbered messages wait for the welcome, which says which of them to send again.
            self.welcomed = False
            self.outbox = [self._hello()]
            self.hello_at = self.ticker()

    def _do_chat(self, form) -> None:
        text = (form or {}).get("text", "") if isinstance(form, dict) else str(form or "")
        text = "".join(ch for ch in text if ch.isprintable()).strip()[: protocol.MAX_CHAT]
        if text:
            self._number(lambda n: protocol.chat(text, n), "chat")

    def _mine(self):
        view = self.current
        if view is None or self.show or self.pending:
            return None
        return view

    def _do_select(self, text) -> None:
        card, view = Card.parse(text), self._mine()
        if view is not None:
            self.selected = toggle_selection(self.selected, card, view)

    def _do_confirm_discard(self, _=None) -> None:
        view = self._mine()
        if view is None or len(self.selected) != view.config.to_crib:
            return
        self._send(Action.discard(view.seat, self.selected))
        self.selected = set()

    def _do_play(self, text) -> None:
        view, card = self._mine(), Card.parse(text)
        if view is None:
            return
        if view.phase != PLAYING or view.turn != view.seat:
            raise ValueError("it is not your turn to play")
        if card.value + view.count > 31:
            raise ValueError(f"{card} would take the count past 31 (it is {view.count})")
        self._send(Action.play(view.seat, card))

    def _send(self, action: Action) -> None:
        state_id = self.current.state_id
        self._number(lambda n: protocol.action(state_id, action, n), "action")

    def _number(self, build, kind: str) -> None:
        """Number a move or chat line and send it, or keep it for the welcome of the next
        connection (sent before it, the host would drop it, or take a later one first)."""
        text = self.outgoing.add(build, kind, self.ticker())
        if self.welcomed:
            self.outbox.append(text)

    def _do_key(self, key: str) -> None:
        view = self.current if self.screen == "table" else None
        meaning = key_command(key, view, self.selected, bool(self.show), self.prefs["sort"])
        if meaning:
            getattr(self, "_do_" + meaning[0].replace("-", "_"))(meaning[1])

    def _do_hint(self, _=None) -> None:
        raise ParseError("hints are for games against the bots")

    def _do_continue(self, _=None) -> None:
        """Past the show; in the beat before it (the play's end on the table), to the show."""
        if self.play_end is not None:
            self.open_show()
        else:
            self.show = ()
