"""The blind deal's part of the host's table (`web.friends.host.HostTable`, which mixes it in):
with the table's ``blind`` switch on, every hand is dealt by the seated people's browsers
together (docs/blind-deal.md), and the host's browser knows no friend's card.

- A game begins at once (no fair deal's round): the `Session` holds the engine state that
  `web.friends.blind_table.Ledger` replays after each hand's audit; during a hand it deals
  nothing anyone sees (`Ledger` keeps no placeholder cards).
- Each hand opens a `BlindTable`; a friend's ``blind`` message waits in a queue
  (`blind_queue`) and `blind_work` takes one step at a time: one message received, or one of
  the host's or its bots' messages made, or the hand's end. The page runs each step's `Work`
  in slices (`web.friends.glue`); a CPython test runs them with `game.blind.alarms.finish`.
- Once a hand is dealt, the next one is dealt ahead in the gaps of its play (``blind_next``,
  `web.friends.blind_ahead`), and begun when the hand ends.
- Every seat and spectator gets the public view (`web.friends.blind_view.public_view`): a
  guest adds its own cards. The host's screen makes its moves with `blind_choose`; its bots
  choose with `Bot.choose` on their views.
- A friend away while the hand waits for it: after `BLIND_WAIT` seconds (``blind_wait``) the
  hand is dealt again with a bot in the seat, from the scores before it (`BlindTable.without`),
  and the chat says so; the friend gets the seat back at the next hand (`give_back`).
- A hand's alarm (a cheat caught: a proof that fails, the audit) goes to every browser, into
  the game's `blind_hands` record, and the hand is dealt again.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from game.actions import Action
from game.blind.alarms import Work
from game.blind.seating import Keys, Setup
from game.bots import Bot, make_bot
from game.cards import Card
from game.engine import OVER, STANDARD
from game.errors import IllegalActionError, ParseError
from game.events import Event
from game.view import View

from .blind_ahead import ahead_ready, ahead_work, drop_ahead, guess_hand, promote, take_for
from .blind_flow import Flow, actor, due, read_envelope
from .blind_table import BlindTable, Ledger
from .blind_view import Waiting, bot_choose, public_view, screen_choose, with_cards

if TYPE_CHECKING:
    from .host import Seat
    from ..session import Session

STAND_IN = "medium"   # the table's default bot for a friend who did not come back in time
BLIND_WAIT = 60.0     # seconds a hand waits for a friend who is away before a bot takes the seat
HANDS_KEPT = 200      # the record's hands (a game has at most about 30)


class BlindHands:
    """The blind hands of `web.friends.host.HostTable`; what they use of the table is declared here."""

    room: str
    players: int
    target: int
    variant: str
    muggins: bool
    seats: list[Seat]
    seat_of: dict[str, int | None]
    session: Session | None
    games: int
    ticker: Callable[[], float]
    on_change: Callable[[tuple[Event, ...]], object] | None
    on_begin: Callable[[], object] | None

    if TYPE_CHECKING:     # the table's own (web.friends.host.HostTable)
        def conn_of(self, seat: int) -> str | None: ...
        def send(self, conn: str, text: str) -> None: ...
        def system(self, text: str) -> None: ...
        def send_table(self) -> None: ...
        def broadcast_views(self, events: Iterable[Event], full: bool) -> None: ...
        def penalize(self, seat: int) -> None: ...

    def blind_init(self, blind: bool, wait: float) -> None:
        self.blind = blind                       # the lobby's switch (it applies: `blind_fits`)
        self.blind_wait = wait
        self.blind_game = False                  # the game on the table is dealt blind
        self.blind_hand: BlindTable | None = None
        self.blind_next: BlindTable | None = None  # the next hand, dealt ahead (`web.friends.blind_ahead`)
        self.blind_dropped: set[int] = set()       # this game's hands dealt ahead and dropped
        self.ledger: Ledger | None = None
        self.blind_queue: deque[tuple[int, str]] = deque()    # friends' blind texts, by seat, in order
        self.blind_count = 0                     # hands opened in this game (each `Setup.hand`)
        self.blind_choice: Action | None = None  # the host's screen's move, until its seat is due
        self.waiting_since: float | None = None  # when the hand began to wait for a friend who is away
        self.blind_hands: list[dict[str, Any]] = []   # the game's record: each hand's deck, alarms, digest
        self.blind_alarms: list[str] = []
        self.bots: dict[int, Bot] = {}
        self.alarmed: set[int] = set()           # the hands whose alarm the chat has said
        self.blind_saved: dict[str, Any] | None = None   # a saved hand, rebuilt by the first `blind_work`
        self.stand_in_level: str | None = None   # the level the host last chose for a bot sitting in
        self.default_level = STAND_IN            # the table's (the host's preferred level: its controller sets it)

    # -- the lobby --

    def blind_why_not(self) -> str | None:
        """Why the blind deal does not apply to this table now (None: it does)."""
        if self.variant != STANDARD:
            return "five-card cribbage keeps the fair deal"
        if self.muggins:
            return "counting it yourself keeps the fair deal"
        if not any(s.kind == "person" for s in self.seats):
            return "a table with bots only keeps the fair deal"
        return None

    @property
    def blind_on(self) -> bool:
        """Whether the next game is dealt blind: the switch is on and it applies."""
        return self.blind and self.blind_why_not() is None

    # -- a game, and its hands --

    def begin_blind(self) -> None:
        """A game dealt blind begins (a rematch too): its first hand opens at once."""
        seed = secrets.randbits(62)
        self.blind_game = True                   # (the table message says so from now on)
        names = [s.name for s in self.seats]
        levels = [s.level if s.kind == "bot" else None for s in self.seats]
        if self.session is None:
            from ..session import Session

            self.session = Session.new(self.players, self.target, names, levels, seed=seed)
            self.system("The game begins: every card is dealt by your browsers together")
            self.send_table()
        else:
            self.session.rematch(seed)
            self.system("A new game at the same table")
        state = self.session.state
        self.ledger = Ledger(state.config, first_dealer=state.dealer, seed=seed)
        self.blind_count, self.blind_hands, self.blind_dropped = 0, [], set()
        self.session.state = self.ledger.state
        if self.on_begin is not None:      # (the host's screen takes the session first)
            self.on_begin()
        self.open_hand()

    def humans(self) -> tuple[int, ...]:
        """The seats whose browsers deal: the host's and every friend's with no bot standing in."""
        return tuple(seat for seat, s in enumerate(self.seats)
                     if s.kind == "host" or (s.kind == "person" and s.stand_in is None))

    def open_hand(self, hand: BlindTable | None = None, again: bool = True) -> None:
        """Open the next hand (or ``hand``: one dealt again, or the hand dealt ahead when not
        ``again``), tell every seat, show it."""
        assert self.session is not None and self.ledger is not None, "a game is on"
        state = self.ledger.state
        if hand is None:
            setup = Setup(self.room, self.games, self.blind_count, self.players, state.dealer, self.humans(), 0)
            hand = BlindTable.open(setup, self.target, state.scores, self.choose_own, self.choose_bot)
            again = True
        if again:
            self.blind_count += 1
        self.blind_hand, self.blind_choice, self.waiting_since = hand, None, None
        self.bots = {seat: make_bot(level, seed=self.ledger.seed + seat)
                     for seat, level in enumerate(self.session.bots) if level is not None}
        self.flush()
        self.shown((Event("deal", seat=state.dealer, count=state.config.dealt),))

    def choose_own(self, flow: Flow, seat: int, held: dict[int, Card]) -> tuple[int, ...]:
        """The host's screen's move for its seat (`screen_choose`)."""
        return screen_choose(self.take_choice)(flow, seat, held)

    def take_choice(self) -> Action | None:
        choice, self.blind_choice = self.blind_choice, None
        return choice

    def choose_bot(self, flow: Flow, seat: int, held: dict[int, Card]) -> tuple[int, ...]:
        hand = self.blind_hand
        assert hand is not None and self.ledger is not None, "a hand is on"
        ledger = self.ledger
        return bot_choose(self.bots, lambda: ledger.state, lambda: hand.own.mine)(flow, seat, held)

    def blind_choose(self, action: Action) -> None:
        """The host's screen chose ``action`` (checked when its seat is due: `choose_own`)."""
        if self.blind_hand is None:
            raise IllegalActionError("no hand is being played")
        view = self.own_view()
        if action not in view.legal:
            raise IllegalActionError("that move is not yours to make now")
        self.blind_choice = action

    # -- the work, one step at a time --

    def blind_ready(self) -> bool:
        """Whether `blind_work` has something to do now (the page runs it until it has not): a
        friend's message, the hand's end, or a message of the host's browser (its seat's move
        waits for its screen, but a go when no card fits)."""
        if self.blind_saved is not None:
            return True
        hand = self.blind_hand
        if hand is None:
            return False
        if ahead_ready(self):
            return True
        now = due(hand.flow)
        ahead = self.blind_next.setup.hand if self.blind_next is not None else None
        if any(guess_hand(text) != ahead for _, text in self.blind_queue) or now.step == "over":
            return True
        mine = [seat for seat in now.seats if actor(hand.setup, seat) == 0]
        if not mine or hand.own.pending is not None:
            return False
        if mine[0] != 0 or now.step not in ("discard", "play") or self.blind_choice is not None:
            return True
        public = hand.flow.public
        return now.step == "play" and all(public.count + card.value > 31 for card in hand.own.cards_of(0).values())

    def blind_work(self) -> Work[bool]:
        """One step of the hand: a friend's message taken, or the host's (or a bot's) made, or
        the hand's end. True when it did something."""
        if self.blind_saved is not None:
            saved, self.blind_saved = self.blind_saved, None
            yield from self.blind_restore(saved)
            return True
        hand = self.blind_hand
        if hand is None:
            return False
        before = len(hand.flow.events)
        item = take_for(self.blind_queue, None, self.blind_next.setup.hand if self.blind_next is not None else None)
        if item is not None:
            if not (yield from hand.receive(*item)):
                self.penalize(item[0])
        elif due(hand.flow).step == "over":
            self.end_hand(hand)
            return True
        else:
            try:
                ran = yield from hand.run()
            except Waiting:
                ran = False
            if not ran:        # the current hand waits for someone else: the hand ahead's turn
                done = yield from ahead_work(self)
                self.flush()
                return done
        self.flush()
        if hand.flow.alarms and hand.setup.hand not in self.alarmed:     # a cheat caught: said at once
            self.alarmed.add(hand.setup.hand)
            self.blind_alarms.append(str(hand.flow.alarms[0]))
            self.system(f"The deal check failed: {hand.flow.alarms[0]}. The hand stops: every browser "
                        "shows its keys, and the audit names the cheat.")
        self.shown(hand.flow.events[before:])
        return True

    def flush(self) -> None:
        """The hand's texts to each friend seated and online (one away gets them on its welcome)."""
        hand = self.blind_hand
        assert hand is not None, "a hand is on"
        for table in (hand, self.blind_next) if self.blind_next is not None else (hand,):
            for seat, text in table.outbox:
                conn = self.conn_of(seat)
                if conn is not None:
                    self.send(conn, text)
            table.outbox.clear()

    def shown(self, events: Iterable[Event]) -> None:
        """Every seat and the host's screen see the hand after ``events``; the log keeps them."""
        events = tuple(events)
        assert self.session is not None, "a game is on"
        self.session.record(events)
        for event in events:
            if event.kind == "game_over":
                self.system(event.describe(self.session.names))
        self.broadcast_views(events, full=False)
        if self.on_change is not None:
            self.on_change(events)

    def end_hand(self, hand: BlindTable) -> None:
        """The hand is over (audited): its record kept; the engine brought up to date by `Ledger`;
        the next hand opened, or the game over. A hand with an alarm is dealt again."""
        assert self.session is not None and self.ledger is not None, "a game is on"
        flow = hand.flow
        deck = flow.audit.deck if flow.audit is not None else None
        alarms = [str(alarm) for alarm in flow.alarms]
        digest = hashlib.sha256("\n".join(hand.relayed).encode()).hexdigest()
        self.blind_hands = (self.blind_hands + [{"hand": hand.setup.hand, "deck": None if deck is None else
                                                 [str(card) for card in deck], "alarms": alarms,
                                                 "sha256": digest}])[-HANDS_KEPT:]
        self.blind_hand = None
        if alarms or deck is None:
            drop_ahead(self)                 # dealt for this hand's seating: dropped, its keys never sent
            self.blind_alarms += [alarm for alarm in alarms or ["a hand ended without its audit"]
                                  if alarm not in self.blind_alarms]
            self.system(f"The audit: {'; '.join(alarms) or 'no audit'}. The hand is dealt again.")
            return self.open_hand()
        self.session.state = self.ledger.add(flow.public, deck)
        if self.session.state.phase == OVER:
            self.blind_game = False
            drop_ahead(self)                 # its keys never sent: its cards stay hidden
            self.broadcast_views((), full=False)
            return None
        return self.open_hand(promote(self), again=False)

    def blind_clocked(self, conn: str, text: str) -> bool:
        """Whether ``conn``'s blind ``text`` comes with none of its hand from the same seat still
        waiting here: an honest browser's way (it sends a hand's next message once its last is
        relayed), so it is clocked by the host's own pace (`web.friends.limits.Flow.admit`)."""
        seat = self.seat_of.get(conn)
        hand = guess_hand(text)
        return seat is not None and not any(s == seat and guess_hand(t) == hand for s, t in self.blind_queue)

    def dropped_ahead(self, text: str) -> bool:
        """Whether ``text`` is a friend's message of a hand dealt ahead and dropped (its browser
        sent it before it knew): taken as nothing, not as a fault."""
        return guess_hand(text) in self.blind_dropped

    # -- a friend away, and coming back --

    def blind_tick(self) -> None:
        """A hand that waits for a friend who is away: after `BLIND_WAIT` seconds, dealt again
        with a bot in the seat, from the scores before it."""
        hand = self.blind_hand
        away = self.blind_waits_for()
        if hand is None or away is None:
            self.waiting_since = None
            return
        now = self.ticker()
        if self.waiting_since is None:
            self.waiting_since = now
            self.system(f"Waiting for {self.seats[away].name}{'' if hand.flow.stopped else ', who is away'}: "
                        f"in {self.blind_wait:.0f} s the hand is dealt again with a bot in their seat")
        if now - self.waiting_since < self.blind_wait:
            return
        seat = self.seats[away]
        seat.stand_in = self.stand_in_level or self.default_level
        assert self.session is not None, "a game is on"
        self.session.bots[away] = seat.stand_in
        self.system(f"The hand is dealt again: a bot plays for {seat.name}")
        self.blind_hands.append({"hand": hand.setup.hand, "deck": None, "alarms": [str(a) for a in hand.flow.alarms],
                                 "sha256": hashlib.sha256("\n".join(hand.relayed).encode()).hexdigest(),
                                 "abandoned": f"{seat.name} {'held back its keys' if hand.flow.stopped else 'was away'}"})
        self.blind_queue = deque((s, t) for s, t in self.blind_queue if s != away)
        drop_ahead(self)                     # dealt for the old seating: dealt afresh later
        self.open_hand(hand.without(away, self.blind_count))
        self.send_table()

    def blind_waits_for(self) -> int | None:
        """The friend's seat the hand waits for while it is away, if any; or, once an alarm
        stopped the hand, while it holds back its keys (a cheat's page need not send them)."""
        hand = self.blind_hand
        if hand is None:
            return None
        for seat in due(hand.flow).seats:
            if seat in hand.setup.humans and seat != 0 and (self.conn_of(seat) is None or hand.flow.stopped):
                return seat
        return None

    def blind_left(self) -> float | None:
        """Seconds before the hand is dealt again without the friend it waits for (None: it waits for no one away)."""
        if self.waiting_since is None or self.blind_waits_for() is None:
            return None
        return max(0.0, self.blind_wait - (self.ticker() - self.waiting_since))

    def blind_welcome(self, conn: str, seat: int) -> None:
        """A friend back (or new) at a hand it deals: the hand's messages again, from the start
        (its browser skips those it has, or rebuilds the hand from them after a reload)."""
        hand = self.blind_hand
        for table in (hand, self.blind_next):
            if table is not None and seat in table.setup.humans:
                for text in table.relayed:
                    self.send(conn, text)

    # -- views --

    def blind_view(self, seat: int) -> View:
        """``seat``'s view for the wire: the public view (its browser adds its cards)."""
        hand = self.blind_hand
        assert self.ledger is not None and hand is not None, "a hand is on"
        return public_view(hand.flow, self.ledger.state, seat)

    def own_view(self) -> View:
        """The host's screen: the public view and its own cards."""
        hand = self.blind_hand
        assert hand is not None, "a hand is on"
        return with_cards(self.blind_view(0), hand.flow, hand.own.mine)

    # -- the record --

    def blind_record(self) -> dict[str, Any] | None:
        """The finished game's blind hands for the host's own record (`web.profile.records.check_blind`):
        the first dealer and each hand as this browser audited it; None if the game on the table
        was not dealt blind."""
        ledger, session = self.ledger, self.session
        if ledger is None or session is None or session.state.seed != ledger.seed or \
                session.state.stacked != tuple(ledger.decks):
            return None
        return {"first_dealer": ledger.first_dealer, "hands": [dict(hand) for hand in self.blind_hands]}

    # -- saving --
    # The save names each relayed text (`text_names`) and `saved_texts` holds them: the page
    # keeps each once, under a key of its own (`web.shelf`). Kept inside the save they
    # were about 1 MB at 4 players, written whole after every step (20-70 ms of a blocked page).

    def kept_hands(self) -> tuple[KeptHand | None, KeptHand | None]:
        """The hand on and the hand dealt ahead as the save keeps them: the relayed texts and the
        host's keys (as JSON); a hand loaded and not yet rebuilt, as it was loaded."""
        saved = self.blind_saved
        if saved is not None:
            ahead = saved.get("ahead")
            return ((saved["relayed"], saved["keys"]),
                    (ahead["relayed"], ahead["keys"]) if isinstance(ahead, dict) else None)
        now, ahead = self.blind_hand, self.blind_next
        return (None if now is None else (now.relayed, now.own.keys.to_json()),
                None if ahead is None else (ahead.relayed, ahead.own.keys.to_json()))

    def blind_json(self) -> dict[str, Any] | None:
        """What the host saves of the blind game: the audited decks, the hand's setup comes with
        its relayed texts (named: `saved_texts`), its own keys (which open its bots' cards), the record."""
        if not self.blind_game or self.ledger is None:
            return None
        now, ahead = self.kept_hands()
        return {"seed": self.ledger.seed, "first_dealer": self.ledger.first_dealer,
                "decks": [[str(card) for card in deck] for deck in self.ledger.decks],
                "actions": [str(action) for action in self.ledger.actions], "count": self.blind_count,
                "texts": None if now is None else text_names(now[0]), "keys": None if now is None else now[1],
                "ahead": None if ahead is None else {"texts": text_names(ahead[0]), "keys": ahead[1]},
                "hands": self.blind_hands, "alarms": self.blind_alarms, "dropped": sorted(self.blind_dropped)}

    def saved_texts(self) -> dict[str, str]:
        """The relayed texts the save names, by name."""
        return {name: text for hand in self.kept_hands() if hand is not None
                for name, text in zip(text_names(hand[0]), hand[0], strict=True)}

    def blind_load(self, data: object, texts: Callable[[str], str | None]) -> None:
        """The blind game `blind_json` saved: the engine state at once; its hand is rebuilt by
        the first `blind_work` (each relayed message, read by its name from ``texts``, checked
        again, in slices)."""
        if data is None:
            return
        if not isinstance(data, dict) or self.session is None:
            raise ParseError("the saved table's blind deal is damaged")
        config = self.session.config
        ledger = Ledger(config, first_dealer=data["first_dealer"], seed=data["seed"])
        decks = [tuple(Card.parse(text) for text in deck) for deck in data["decks"]]
        actions = [Action.parse(text) for text in data["actions"]]
        ledger.restore(decks, actions)
        self.ledger, self.blind_game = ledger, True
        self.session.state = ledger.state
        self.blind_count = int(data["count"])
        self.blind_hands = [h for h in data["hands"] if isinstance(h, dict)][-HANDS_KEPT:]
        self.blind_alarms = [a for a in data["alarms"] if isinstance(a, str)]
        self.blind_dropped = {n for n in data.get("dropped", []) if type(n) is int}
        hands = [part for part in (data, data.get("ahead")) if isinstance(part, dict)]
        for part in hands:          # (saved before the texts had keys of their own: in the save)
            part["relayed"] = read_texts(part["texts"], texts) if "texts" in part else part.get("relayed")
        if data["relayed"] is not None:
            self.blind_saved = data

    def blind_restore(self, data: dict[str, Any]) -> Work[None]:
        assert self.session is not None and self.ledger is not None, "a game is on"
        self.blind_hand = yield from self.restore_table(data)
        ahead = data.get("ahead")
        self.blind_next = None if not isinstance(ahead, dict) else (yield from self.restore_table(ahead))
        self.bots = {seat: make_bot(level, seed=self.ledger.seed + seat)
                     for seat, level in enumerate(self.session.bots) if level is not None}
        self.broadcast_views((), full=True)
        if self.on_change is not None:
            self.on_change(())

    def restore_table(self, data: dict[str, Any]) -> Work[BlindTable]:
        """A hand `blind_json` saved (its relayed texts and the host's keys), each text checked again."""
        relayed = [text for text in data["relayed"] if isinstance(text, str)]
        start = read_envelope(relayed[0])[3] if relayed else None
        if not isinstance(start, dict):
            raise ParseError("a saved hand starts with its start")
        keys = Keys.from_json(data["keys"], Setup.from_json(start.get("setup")).used)
        return (yield from BlindTable.restore(0, relayed, keys, self.choose_own, self.choose_bot))


KeptHand = tuple[list[str], Any]     # a hand as the save keeps it: its relayed texts, the host's keys


def text_names(relayed: list[str]) -> list[str]:
    """The names the host's save gives a hand's relayed texts: the hand's own (a digest of its
    first text, the start) and each text's number.

    >>> text_names(["start", "deal"])
    ['cced28c6dc3f99c2.0', 'cced28c6dc3f99c2.1']
    """
    hand = hashlib.sha256(relayed[0].encode()).hexdigest()[:16] if relayed else ""
    return [f"{hand}.{n}" for n in range(len(relayed))]


def read_texts(names: object, texts: Callable[[str], str | None]) -> list[str]:
    """The saved texts ``names`` names, from ``texts``; a damaged name or a missing text raises
    `ParseError`."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ParseError("the saved table's blind hand is damaged")
    found = [texts(name) for name in names]
    if not all(isinstance(text, str) for text in found):
        raise ParseError("the saved table's blind hand misses some of its messages")
    return cast("list[str]", found)
