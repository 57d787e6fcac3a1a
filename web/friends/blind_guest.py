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
After a reload too: the SHA-256 of each message it sent this hand (and the hand ahead) is kept
with its keys, and a message in its name whose hash it does not know is refused.

The game's record is this browser's own (`web.profile.records.check_blind`): each hand as it
audited it (the deck, the public moves as the engine's actions, its alarms, the SHA-256 of the
hand's relayed messages), kept with its keys across a reload; at the game's end it replays
them and keeps the record (`finished`) if they end at the scores the host's view shows. The
host sends no record of a blind game: this browser needs none.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from game.actions import Action
from game.blind.alarms import Work
from game.engine import OVER
from game.blind.seating import Keys, Setup
from game.errors import IllegalActionError, ParseError
from game.events import Event
from game.view import View

from .blind_flow import due, envelope, read_envelope
from .blind_seat import BlindSeat
from .blind_table import hand_actions
from .blind_view import Waiting, screen_choose, with_cards
from .protocol import Message

if TYPE_CHECKING:
    from ..table.screen import SeatScreen
    from ..coach.follow import TableCoach
    from ..profile.records import GameRecord

HANDS_KEPT = 200     # a game's hands this browser keeps for its record (a game has about 30)


def kept_hand(hand: object) -> bool:
    """Whether ``hand`` is a hand as `BlindGuest` keeps it for the game's record (a damaged
    save's are dropped: the record is checked again when it is made).

    >>> kept_hand({"game": 0, "hand": 0, "dealer": 1, "deck": None, "alarms": [], "sha256": "", "actions": []})
    True
    >>> kept_hand({"game": 0, "hand": 0, "dealer": 1, "deck": None, "alarms": "no"})
    False
    """
    kinds = {"game": int, "hand": int, "dealer": int, "alarms": list, "sha256": str, "actions": list}
    return isinstance(hand, dict) and all(isinstance(hand.get(key), kind) for key, kind in kinds.items()) and \
        (hand.get("deck") is None or isinstance(hand.get("deck"), list)) and \
        all(isinstance(text, str) for key in ("alarms", "actions") for text in hand[key])


def body_hash(body: object) -> str:
    """The SHA-256 of a hand's message body, however a relay spaces or orders its JSON.

    >>> body_hash({"step": "go", "seat": 1}) == body_hash({"seat": 1, "step": "go"})
    True
    """
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

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
    finished: GameRecord | None
    clock: Any

    if TYPE_CHECKING:
        def names(self) -> list[str]: ...
        def drop(self, reason: str) -> None: ...
        def table_shown(self) -> None: ...
        def finished_review(self) -> Any: ...

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
        self.loaded_keys = self.saved_keys       # as the page loaded them: both open hands' (a reload)
        self.blind_sent_hashes: list[str] = []    # this hand's messages sent from here (kept across a reload)
        self.blind_texts: list[str] = []          # this hand's relayed messages, in order
        self.ahead_sent_hashes: list[str] = []    # the same, of the hand dealt ahead
        self.ahead_texts: list[str] = []
        self.hand_alarms: list[str] = []          # this hand's alarms
        self.hand_kept = False                    # this hand is in `blind_kept`
        kept = self.saved_keys.get("hands") if self.saved_keys is not None else None
        self.blind_kept: list[dict[str, Any]] = [h for h in kept if kept_hand(h)][-HANDS_KEPT:] \
            if isinstance(kept, list) else []     # the game's hands as this browser audited them

    # -- the queue --

    def blind_ready(self) -> bool:
        """Whether `blind_work` has something to do now."""
        return bool(self.blind_inbox) or self._owes()

    def _owes(self) -> bool:
        """Whether this browser owes the hand a message it can make now (not one its screen
        has to choose first): or one to send again after a welcome."""
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
                self.blind_sent_hashes.append(body_hash(body))
                self.outbox.append(self.blind_sent)
                return True
        if ahead is None or not owes_ahead(ahead, self.seat):     # the hand ahead: its deal only
            return False
        body = yield from ahead.next_body(screen_choose(self._take_choice))
        if body is None:
            return False
        assert self.seat is not None, "a seat deals"
        self.ahead_sent = envelope(ahead.flow.setup.hand, ahead.last + 1, self.seat, body)
        self.ahead_sent_hashes.append(body_hash(body))
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
                replayed = self.ahead_rebuilt and ahead.pending is None
                self._check_own(text, replayed, self.ahead_sent_hashes)
                yield from ahead.take_text(text, hand, replayed=replayed)
                self.ahead_texts.append(text)
                if not ahead.flow.ahead:       # begun: the current hand now
                    if seat is not None and not self.hand_kept:
                        self._keep_hand(None)
                    self.blind_seat, self.blind_next, self.blind_sent = ahead, None, self.ahead_sent
                    self.blind_rebuilt, self.blind_choice = self.ahead_rebuilt, None
                    self.blind_sent_hashes, self.blind_texts = self.ahead_sent_hashes, self.ahead_texts
                    self.ahead_sent_hashes, self.ahead_texts = [], []
                    self.hand_alarms, self.hand_kept = [], False
                    self.saved_keys = self.blind_save()
                seat = ahead
            elif seat is None or seat.flow.setup.hand != hand or n <= seat.last:
                return
            else:
                replayed = self.blind_rebuilt and seat.pending is None
                self._check_own(text, replayed, self.blind_sent_hashes)
                yield from seat.take_text(text, hand, replayed=replayed)
                self.blind_texts.append(text)
        except (IllegalActionError, ParseError) as refused:
            self.blind_alarm(f"the host relayed a message this browser refuses: {refused}")
            return
        if seat.flow.alarms:
            self.blind_alarm(str(seat.flow.alarms[0]))
        if seat is self.blind_seat and due(seat.flow).step == "over" and not self.hand_kept:
            self._keep_hand(None)

    def _check_own(self, text: str, replayed: bool, sent: list[str]) -> None:
        """After a reload this browser's own messages come back unchecked (``replayed``): one in
        its name whose hash it did not keep, it never sent."""
        sender, body = read_envelope(text)[2:]
        if replayed and sender == self.seat and body_hash(body) not in sent:
            raise IllegalActionError(f"the host relayed, as seat {sender + 1}'s, a message this browser did not send")

    def _join(self, text: str) -> None:
        body = read_envelope(text)[3]
        setup = body.get("setup") if isinstance(body, dict) else None
        saved = self.saved_keys
        keys, sent = None, []
        # (the save as loaded too: rejoining the current hand, dealt ahead, rewrites saved_keys
        # before the hand ahead of it comes back)
        loaded = self.loaded_keys
        for kept in (saved, saved.get("ahead") if saved is not None else None,
                     loaded, loaded.get("ahead") if loaded is not None else None):
            if isinstance(kept, dict) and kept.get("setup") == setup:
                keys = Keys.from_json(kept.get("keys"), Setup.from_json(setup).used)
                hashes = kept.get("sent")
                sent = [h for h in hashes if isinstance(h, str)][:100] if isinstance(hashes, list) else []
        assert self.seat is not None, "welcomed"
        ahead = isinstance(body, dict) and body.get("scores") is None
        if not ahead and self.blind_seat is not None and not self.hand_kept:     # the hand before was dealt again
            self._keep_hand("dealt again")
        try:
            joined: BlindSeat | None = BlindSeat.join(self.seat, text, keys)
        except IllegalActionError:          # a bot plays this seat for now
            joined = None
        if ahead:
            self.blind_next, self.ahead_rebuilt, self.ahead_sent = joined, keys is not None, None
            self.ahead_sent_hashes, self.ahead_texts = sent, [text]
        else:                               # a hand dealt afresh: any hand ahead was dropped
            self.blind_seat, self.blind_next = joined, None
            self.blind_rebuilt = keys is not None
            self.blind_choice, self.blind_sent = None, None
            self.blind_sent_hashes, self.blind_texts, self.hand_alarms, self.hand_kept = sent, [text], [], False
            if joined is not None:          # a new game: a new record
                self.blind_kept = [h for h in self.blind_kept if h.get("game") == joined.flow.setup.game]
        self.saved_keys = self.blind_save()

    def _keep_hand(self, abandoned: str | None) -> None:
        """The hand as this browser audited it, for the game's record: its deck and moves if
        it ended with its audit, its alarms, the SHA-256 of its relayed messages."""
        seat = self.blind_seat
        assert seat is not None, "a hand is on"
        flow, self.hand_kept = seat.flow, True
        deck = flow.audit.deck if flow.audit is not None and abandoned is None else None
        entry: dict[str, Any] = {
            "game": flow.setup.game, "hand": flow.setup.hand, "dealer": flow.setup.dealer,
            "deck": None if deck is None else [str(card) for card in deck], "alarms": list(self.hand_alarms),
            "sha256": hashlib.sha256("\n".join(self.blind_texts).encode()).hexdigest(),
            "actions": [] if deck is None else [str(action) for action in hand_actions(flow.public, deck)]}
        if abandoned is not None:
            entry["abandoned"] = abandoned
        again = [h for h in self.blind_kept if (h.get("game"), h.get("hand")) != (entry["game"], entry["hand"])]
        self.blind_kept = (again + [entry])[-HANDS_KEPT:]      # (a hand rebuilt after a reload: once)

    def blind_finish(self, view: View) -> None:
        """The game is over: its record, replayed from this browser's own audits of its hands,
        kept (``finished``) if it ends at the scores of the host's view; else an alarm (or,
        when this browser did not deal every hand, a bot in its seat, no record: it says so)."""
        from ..profile.records import coach_figures, make_record

        hands = self.blind_kept
        if not hands:
            return
        blind = {"first_dealer": hands[0]["dealer"],
                 "hands": [{key: hand[key] for key in ("hand", "deck", "alarms", "sha256", "abandoned") if key in hand}
                           for hand in hands]}
        actions = [action for hand in hands if hand["deck"] is not None and not hand["alarms"]
                   for action in hand["actions"]]
        try:
            record = make_record(view.config, 0, actions, view.seat, self.names(), "friends", self.clock(),
                                 blind=blind)
        except (ParseError, KeyError, TypeError) as bad:
            return self.drop(f"this game is not kept in your profile: {bad}")
        if record.summary.scores != view.scores:
            return self.blind_alarm("the host's scores are not those of the hands this browser audited")
        if self.finished is None or self.finished.id != record.id:
            review = self.finished_review()
            self.finished = record if review is None else replace(record, coach=coach_figures(review))

    def blind_alarm(self, words: str) -> None:
        if words not in self.blind_alarms:
            self.blind_alarms.append(words)
        if words not in self.hand_alarms:
            self.hand_alarms.append(words)
        self.seat_screen.announcement = "The deal check failed: " + words

    def blind_save(self) -> dict[str, Any] | None:
        """What this browser keeps of the hand (`web.friends.guest_store`, under the table's
        room): the hand's setup and its secret keys, only ever read here, the hashes of the
        messages it sent (the same of the hand dealt ahead), and the game's hands it audited (its record)."""
        seat, ahead = self.blind_seat, self.blind_next
        hands = {"hands": self.blind_kept}
        if seat is None and ahead is None:
            return None if self.saved_keys is None and not self.blind_kept else {**(self.saved_keys or {}), **hands}
        kept: dict[str, Any]
        if ahead is not None:
            kept = {"ahead": {"setup": ahead.flow.setup.to_json(), "keys": ahead.keys.to_json(),
                              "sent": self.ahead_sent_hashes}}
        else:       # rebuilt after a reload: the hand ahead's keys wait for its messages again
            kept = {"ahead": self.saved_keys.get("ahead") if self.blind_rebuilt and self.saved_keys else None}
        if seat is None:
            return {**kept, **hands}
        return {"setup": seat.flow.setup.to_json(), "keys": seat.keys.to_json(), "sent": self.blind_sent_hashes,
                **kept, **hands}

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
        if view.phase == OVER:
            self.blind_finish(view)
        if self.blind_alarms:
            self.seat_screen.announcement = "The deal check failed: " + self.blind_alarms[-1]

    def blind_move(self, action: Action) -> None:
        """The screen's move: checked against this seat's view, made when the hand waits for it."""
        view = self.seat_screen.view
        if view is None or action not in view.legal:
            raise IllegalActionError("that move is not yours to make now")
        self.blind_choice = action

