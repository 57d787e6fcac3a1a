"""The host's side of a blind-dealt hand (docs/blind-deal.md, "Wiring it into the table"): it
takes each seated friend's message, checks it is due from that seat and holds (the same
`web.friends.blind_flow.advance` every browser runs), numbers it and relays it to every other
seated person (never to a spectator); it makes its own seat's and its bots' messages with its
own `web.friends.blind_seat.BlindSeat`, and keeps the hand's messages, which are its save.

It holds no friend's card: it reads only what its own keys open (its cards and its bots'),
and what every seat makes public. `tests/test_blind_table.py` scans everything it holds and
every text it handled for the friends' unplayed cards.

After each hand's audit, `Ledger` brings the host's engine state up to date by replaying the
game's moves with the decks the audits recovered (`game.engine.replay`'s ``stacked`` decks):
the engine needs no change, and the engine's own rules check the hand once more.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from game.blind.alarms import Work
from game.blind.public import Public
from game.blind.seating import Keys, Setup
from game.blind.transcript import Message
from game.cards import Card
from game.actions import Action
from game.engine import OVER, Config, State, replay
from game.errors import IllegalActionError, ParseError

from . import protocol
from .blind_flow import Flow, begin_body, envelope, read_envelope, start_body
from .blind_seat import BlindSeat, Choose


class BlindTable:
    """One hand at the host: ``setup`` (the host's seat is ``setup.host``), the game's
    ``target`` and the sides' ``scores`` before the hand. ``choose_own`` makes the host's own
    choices, ``choose_bot`` its bots'. ``outbox`` collects (seat, text) for the network;
    ``relayed`` is the hand's numbered messages (what the host saves, and sends again to a
    friend who comes back), ``received`` every text a friend sent; ``refused`` the reasons it
    gave for what it refused."""

    def __init__(self, own: BlindSeat, choose_own: Choose, choose_bot: Choose, relayed: list[str]) -> None:
        self.own, self.choose_own, self.choose_bot = own, choose_own, choose_bot
        self.relayed = relayed
        self.n = len(relayed) - 1
        self.outbox: list[tuple[int, str]] = []
        self.received: list[str] = []
        self.refused: list[tuple[int, str]] = []

    @classmethod
    def open(cls, setup: Setup, target: int, scores: tuple[int, ...] | None, choose_own: Choose, choose_bot: Choose,
             keys: Keys | None = None, rng: random.Random | None = None) -> BlindTable:
        """A new hand: fresh keys for the host (unless given), and the start sent to every friend.
        With ``scores`` None, the hand is dealt ahead (while the one before it is played): its
        discards wait for `begin`."""
        start = start_body(setup, target, scores)
        table = cls(BlindSeat(setup.host, Flow.open(start), keys, rng), choose_own, choose_bot, [])
        table._relay(setup.host, start)
        return table

    @classmethod
    def restore(cls, seat: int, relayed: list[str], keys: Keys, choose_own: Choose, choose_bot: Choose,
                rng: random.Random | None = None) -> Work[BlindTable]:
        """The host's hand after a reload, from what it saved: its ``keys`` and the ``relayed``
        texts (each checked again: `BlindSeat.rejoin`). It sends nothing until a friend asks."""
        own = yield from BlindSeat.rejoin(seat, relayed, keys, rng)
        return cls(own, choose_own, choose_bot, list(relayed))

    def without(self, away: int, hand: int, keys: Keys | None = None, rng: random.Random | None = None) -> BlindTable:
        """The hand dealt again, as new hand number ``hand`` (so no proof of this one can be
        replayed into it), with a bot in the seat of the friend who is ``away``, from the
        scores before this hand: what the host does when a friend does not come back in time
        (the screens announce it). This hand's ``relayed`` messages stay in the record.

        >>> from game.blind.alarms import finish
        >>> first = lambda flow, seat, cards: tuple(sorted(cards))[:2]
        >>> table = BlindTable.open(Setup("room", 0, 0, 2, 1, (0, 1), 0), 121, (0, 0), first, first)
        >>> again = table.without(1, hand=1)
        >>> again.setup.humans, again.setup.hand, again.flow.public.scores, len(again.outbox)
        ((0,), 1, (0, 0), 0)
        """
        setup = self.setup
        if away == setup.host or away not in setup.humans:
            raise IllegalActionError(f"seat {away + 1} is no friend's seat at this hand")
        humans = tuple(seat for seat in setup.humans if seat != away)
        again = Setup(setup.table, setup.game, hand, setup.players, setup.dealer, humans, setup.host)
        return BlindTable.open(again, self.flow.public.config.target, self.flow.public.before, self.choose_own,
                               self.choose_bot, keys, rng)

    def begin(self, scores: tuple[int, ...]) -> Work[None]:
        """Make the hand dealt ahead the current one, at the ``scores`` the hand before ended at.

        >>> from game.blind.alarms import finish
        >>> first = lambda flow, seat, cards: tuple(sorted(cards))[:2]
        >>> table = BlindTable.open(Setup("room", 0, 1, 2, 0, (0, 1), 0), 121, None, first, first)
        >>> table.flow.ahead, finish(table.begin((5, 7))), table.flow.ahead, table.flow.public.scores
        (True, None, False, (5, 7))
        """
        body = begin_body(self.setup, scores)
        self.own.pending = body
        yield from self.own.take(self.setup.host, body)
        self._relay(self.setup.host, body)

    @property
    def flow(self) -> Flow:
        return self.own.flow

    @property
    def setup(self) -> Setup:
        return self.own.flow.setup

    def receive(self, seat: int, text: object) -> Work[bool]:
        """A seated friend's message (``seat`` from its connection, never from the text): checked,
        then relayed to every seated person; refused with a reason to ``seat`` alone, changing
        nothing, when it is malformed, not due from ``seat``, or not this hand's."""
        self.received.append(text if isinstance(text, str) else repr(text)[:200])
        try:
            hand, _, _, body = read_envelope(text)
            if hand != self.setup.hand:
                raise IllegalActionError(f"this is hand {self.setup.hand}, not {hand}")
            if seat not in self.setup.humans or seat == self.setup.host:
                raise IllegalActionError(f"seat {seat + 1} is no friend's seat at this hand")
            yield from self.own.take(seat, body)
        except (ParseError, IllegalActionError) as refused:
            self.refused.append((seat, str(refused)))
            self.outbox.append((seat, protocol.error(str(refused))))
            return False
        self._relay(seat, body)
        return True

    def run(self) -> Work[bool]:
        """Make and relay the next message of the host's seat or one of its bots, if the hand
        waits for one: True if it did."""
        host = self.setup.host
        body = yield from self.own.next_body(lambda flow, seat, cards: (self.choose_own if seat == host
                                                                        else self.choose_bot)(flow, seat, cards))
        if body is None:
            return False
        yield from self.own.take(host, body)
        self._relay(host, body)
        return True

    def _relay(self, sender: int, body: Message) -> None:
        self.n += 1
        text = envelope(self.setup.hand, self.n, sender, body)
        self.relayed.append(text)
        self.outbox.extend((seat, text) for seat in self.setup.humans if seat != self.setup.host)


class Ledger:
    """The host's engine state of a game dealt blind from its first hand: each audited hand's
    ``deck`` and public moves are added (`add`), and the engine replays the game with those
    decks stacked (a go is the engine's own: it is not an action). The engine's scores then
    match the public play's, and any move the engine refuses is a bug or a cheat the audit
    should have caught.

    >>> Ledger(Config(players=2), first_dealer=1).state.dealer
    1
    """

    def __init__(self, config: Config, first_dealer: int, seed: int = 0) -> None:
        self.config, self.first_dealer, self.seed = config, first_dealer, seed
        self.decks: list[tuple[Card, ...]] = []
        self.actions: list[Action] = []
        self.state: State = self.blank(replay(config, seed, [], first_dealer=first_dealer))

    @staticmethod
    def blank(state: State) -> State:
        """``state`` without the next hand's placeholder deal (from the seed, never played: the
        hand is dealt blind), so the host holds no card that could be taken for a friend's."""
        if state.phase == OVER:
            return state
        players = state.config.players
        return replace(state, hands=((),) * players, kept=(), undealt=(), crib=(),
                       discards=(None,) * players)

    def restore(self, decks: Sequence[Sequence[Card]], actions: Sequence[Action]) -> State:
        """The state after the hands of ``decks`` and their ``actions``, as `add` made them (a reload)."""
        self.decks, self.actions = [tuple(deck) for deck in decks], list(actions)
        self.state = self.blank(replay(self.config, self.seed, self.actions, stacked=self.decks,
                                       first_dealer=self.first_dealer))
        return self.state

    def add(self, public: Public, deck: Sequence[Card]) -> State:
        """The engine state after the hand ``public`` followed, dealt from ``deck``."""
        self.actions += hand_actions(public, deck)
        return self.restore(self.decks + [tuple(deck)], self.actions)


def hand_actions(public: Public, deck: Sequence[Card]) -> list[Action]:
    """The engine's actions of the hand ``public`` followed, dealt from ``deck`` (a go is the
    engine's own: it is not an action). A guest's record of the game is made of them too."""
    actions = []
    for kind, seat, positions in public.moves:
        if kind == "discard":
            actions.append(Action.discard(seat, [deck[j] for j in positions]))
        elif kind == "play":
            actions.append(Action.play(seat, deck[positions[0]]))
    return actions
