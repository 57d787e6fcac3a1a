"""The blind deal's part of a guest's table (`web.friends.guest.GuestController`, which mixes it
in): at a table whose ``table`` message says ``"blind": true``, this browser holds a
`BlindSeat` a hand, with its own secret keys, and deals with every other seated browser
(docs/blind-deal.md).

The host's ``blind`` messages and its ``view``s wait in one queue (`blind_inbox`), in the
order they came, and `blind_work` takes one at a time: a relayed message is checked and
applied to the hand (`BlindSeat.take_text`), a view (the public one: the host does not know
this seat's cards) gets this browser's own cards (`with_cards`) before its screen sees it.
After each, the message this browser owes the hand, if any, goes out (`BlindSeat.next_body`:
its crypto, its screen's discard or card, a go when none fits). The page runs each step's
`Work` in slices; a CPython test runs them with `game.blind.alarms.finish`.

The next hand, dealt ahead while this one is played (`web.friends.blind_ahead`), is a second
`BlindSeat` (``blind_next``): this browser makes its deal's messages when it owes the current
hand nothing, and it becomes the current hand at its ``begin``, whose scores this browser checks
against the ones it saw the hand before end at.

After a reload the browser keeps its keys (`blind_save`, in `web.friends.guest_store` under the
table's room; the hand ahead's too): on its welcome the host sends the hand's messages again from the start, and the
seat is rebuilt from them (each checked again). A message relayed as this seat's that it did
not send is refused, as is anything the rules or the proofs refuse: an alarm on its screen.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from game.actions import Action
from game.blind.alarms import Work
from game.blind.seating import Keys, Setup
from game.errors import IllegalActionError, ParseError
from game.events import Event
from game.view import View

from .blind_flow import due, envelope
from .blind_seat import BlindSeat
from .blind_view import Waiting, screen_choose, with_cards
from .protocol import Message


def owes_ahead(ahead: BlindSeat | None, seat: int | None) -> bool:
    """Whether this browser (at ``seat``) owes the hand dealt ahead a message of its deal now."""
    if ahead is None or ahead.pending is not None or not ahead.flow.ahead:
        return False
    now = due(ahead.flow)
    return now.step in ("shuffle", "lock", "unlock") and seat in now.seats


def ended_at(seat: BlindSeat | None) -> tuple[int, ...] | None:
    """The scores the hand ``seat`` follows ended at, as this browser computed them (None: it is
    not over, or this browser did not follow it: rebuilt after a reload, it cannot check)."""
    if seat is None or due(seat.flow).step != "over" or seat.flow.stopped:
        return None
    return seat.flow.public.scores


if TYPE_CHECKING:
    from ..table.screen import SeatScreen
    from ..coach.follow import TableCoach


class BlindGuest:
    """The blind hands of `web.friends.guest.GuestController`; what they use of it is declared here."""

    seat: int | None
    outbox: list[str]
    seat_screen: SeatScreen
    coach: TableCoach

    if TYPE_CHECKING:
        def names(self) -> list[str]: ...
        def drop(self, reason: str) -> None: ...
        def table_shown(self) -> None: ...

    def blind_init(self, saved: object) -> None:
        self.blind_seat: BlindSeat | None = None
        self.blind_next: BlindSeat | None = None   # the next hand, dealt ahead while this one is played
        self.ahead_sent: str | None = None         # this browser's last text of the hand ahead, until relayed
        self.ahead_rebuilt = False
        self.blind_inbox: deque[tuple[Message, str]] = deque()
        self.blind_choice: Action | None = None
        self.blind_alarms: list[str] = []
        self.blind_sent: str | None = None        # this browser's last blind text, until relayed
        self.blind_again = False                  # a welcome: send it again if the host never relayed it
        self.blind_rebuilt = False                # the seat was rebuilt from saved keys (a reload)
        self.blind_base: View | None = None       # the host's latest view
        self.blind_events: tuple[Event, ...] = ()
        self.saved_keys: dict[str, Any] | None = saved if isinstance(saved, dict) else None

    # -- the queue --

    def blind_ready(self) -> bool:
        """Whether `blind_work` has something to do now."""
        return bool(self.blind_inbox) or self._owes()

    def _owes(self) -> bool:
        """Whether this browser owes the hand a message it can make now (not one its screen
        has to choose first): or one to send again after a welcome."""
        from .blind_flow import due

        if owes_ahead(self.blind_next, self.seat):
            return True
        seat = self.blind_seat
        if seat is None:
            return False
        if self.blind_again:
            return True
        if seat.pending is not None:
            return False
        if seat.faults and not seat.flow.stopped:
            return True
        now = due(seat.flow)
        if self.seat not in now.seats:
            return False
        if now.step == "discard":
            return self.blind_choice is not None
        if now.step == "play":
            public = seat.flow.public
            fits = any(public.count + card.value <= 31 for card in seat.cards_of(now.seats[0]).values())
            return self.blind_choice is not None or not fits
        return True

    def queue_blind(self, message: Message, text: str) -> None:
        self.blind_inbox.append((message, text))

    def blind_work(self) -> Work[bool]:
        """One step: the next message from the host, or this browser's own message. True when it did something."""
        if self.blind_inbox:
            message, text = self.blind_inbox.popleft()
            if message.type == "view":
                self._blind_view(message)
            else:
                yield from self._take(message, text)
            return True
        seat, ahead = self.blind_seat, self.blind_next
        if self.blind_again:
            self.blind_again = False
            again = [text for s, text in ((seat, self.blind_sent), (ahead, self.ahead_sent))
                     if s is not None and s.pending is not None and text is not None]
            self.outbox.extend(again)
            if again:
                return True
        if seat is not None:
            try:
                body = yield from seat.next_body(screen_choose(self._take_choice))
            except Waiting:
                body = None
            if body is not None:
                assert self.seat is not None, "a seat deals"
                self.blind_sent = envelope(seat.flow.setup.hand, seat.last + 1, self.seat, body)
                self.outbox.append(self.blind_sent)
                return True
        if ahead is None or not owes_ahead(ahead, self.seat):     # the hand ahead: its deal only
            return False
        body = yield from ahead.next_body(screen_choose(self._take_choice))
        if body is None:
            return False
        assert self.seat is not None, "a seat deals"
        self.ahead_sent = envelope(ahead.flow.setup.hand, ahead.last + 1, self.seat, body)
        self.outbox.append(self.ahead_sent)
        return True

    def _take_choice(self) -> Action | None:
        choice, self.blind_choice = self.blind_choice, None
        return choice

    def _take(self, message: Message, text: str) -> Work[None]:
        """A relayed message: the hand's start opens a seat; the rest are taken in order (one
        taken already, sent again after a reconnection, is skipped)."""
        hand, n = message["hand"], message["n"]
        seat, ahead = self.blind_seat, self.blind_next
        try:
            if n == 0:
                if any(s is not None and s.flow.setup.hand == hand and s.flow.bodies[0] == message["body"]
                       for s in (seat, ahead)):
                    return
                self._join(text)
                return
            if ahead is not None and ahead.flow.setup.hand == hand:
                if n <= ahead.last:
                    return
                ahead.before = ended_at(seat)
                yield from ahead.take_text(text, hand, replayed=self.ahead_rebuilt and ahead.pending is None)
                if not ahead.flow.ahead:       # begun: the current hand now
                    self.blind_seat, self.blind_next, self.blind_sent = ahead, None, self.ahead_sent
                    self.blind_rebuilt, self.blind_choice = self.ahead_rebuilt, None
                    self.saved_keys = self.blind_save()
                seat = ahead
            elif seat is None or seat.flow.setup.hand != hand or n <= seat.last:
                return
            else:
                yield from seat.take_text(text, hand, replayed=self.blind_rebuilt and seat.pending is None)
        except (IllegalActionError, ParseError) as refused:
            self.blind_alarm(f"the host relayed a message this browser refuses: {refused}")
            return
        if seat.flow.alarms:
            self.blind_alarm(str(seat.flow.alarms[0]))

    def _join(self, text: str) -> None:
        from .blind_flow import read_envelope

        body = read_envelope(text)[3]
        setup = body.get("setup") if isinstance(body, dict) else None
        saved = self.saved_keys
        keys = None
        for kept in (saved, saved.get("ahead") if saved is not None else None):
            if isinstance(kept, dict) and kept.get("setup") == setup:
                keys = Keys.from_json(kept.get("keys"), Setup.from_json(setup).used)
        assert self.seat is not None, "welcomed"
        ahead = isinstance(body, dict) and body.get("scores") is None
        try:
            joined: BlindSeat | None = BlindSeat.join(self.seat, text, keys)
        except IllegalActionError:          # a bot plays this seat for now
            joined = None
        if ahead:
            self.blind_next, self.ahead_rebuilt, self.ahead_sent = joined, keys is not None, None
        else:                               # a hand dealt afresh: any hand ahead was dropped
            self.blind_seat, self.blind_next = joined, None
            self.blind_rebuilt = keys is not None
            self.blind_choice, self.blind_sent = None, None
        self.saved_keys = self.blind_save()

    def blind_alarm(self, words: str) -> None:
        if words not in self.blind_alarms:
            self.blind_alarms.append(words)
        self.seat_screen.announcement = "The deal check failed: " + words

    def blind_save(self) -> dict[str, Any] | None:
        """What this browser keeps of the hand (`web.friends.guest_store`, under the table's
        room): the hand's setup and its secret keys, only ever read here."""
        seat, ahead = self.blind_seat, self.blind_next
        if seat is None and ahead is None:
            return self.saved_keys
        kept: dict[str, Any]
        if ahead is not None:
            kept = {"ahead": {"setup": ahead.flow.setup.to_json(), "keys": ahead.keys.to_json()}}
        else:       # rebuilt after a reload: the hand ahead's keys wait for its messages again
            kept = {"ahead": self.saved_keys.get("ahead") if self.blind_rebuilt and self.saved_keys else None}
        return kept if seat is None else {"setup": seat.flow.setup.to_json(), "keys": seat.keys.to_json(), **kept}

    # -- the screen --

    def _blind_view(self, message: Message) -> None:
        view = message["view"]
        if view.seat != self.seat:
            return self.drop("a view for another seat")
        self.blind_base = view
        seat = self.blind_seat
        if seat is not None and view.phase != "over" and view.hand_sizes[view.seat] != len(view.hand):
            view = with_cards(view, seat.flow, seat.mine)
        self.seat_screen.see(view, message["events"], self.names(), message["log"])
        self.coach.see(view, message["events"])
        self.table_shown()
        if self.blind_alarms:
            self.seat_screen.announcement = "The deal check failed: " + self.blind_alarms[-1]

    def blind_move(self, action: Action) -> None:
        """The screen's move: checked against this seat's view, made when the hand waits for it."""
        view = self.seat_screen.view
        if view is None or action not in view.legal:
            raise IllegalActionError("that move is not yours to make now")
        self.blind_choice = action

