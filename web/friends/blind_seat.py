"""A person's browser at one blind-dealt hand: its secret `Keys`, the hand as every seat
follows it (`web.friends.blind_flow.Flow`), the cards it alone can read, and the messages it
sends when the hand waits for it. The host's browser is one too (`web.friends.blind_table`
holds it), and reads its bots' cards as well.

Everything here is pure: the caller runs each `Work` in slices (`web.slices` in a browser,
`game.blind.alarms.finish` in CPython) and carries the texts. The choices (what to discard,
which card to play or a go) come from ``choose`` (the seat's screen, or a bot's):
``choose(flow, seat, cards)`` returns the positions of ``seat``'s cards in ``cards`` to put in
the crib or (one) to play, or ``()`` for a go.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from game.blind.alarms import Work
from game.blind.deck import deal_unlocks, keys_message, lock, own_cards, public_unlocks, reveal, shuffle
from game.blind.public import CUTTING
from game.blind.seating import Keys, new_keys
from game.blind.transcript import Message
from game.cards import Card
from game.errors import IllegalActionError, shown

from .blind_flow import Flow, actor, advance, due, read_envelope

Choose = Callable[[Flow, int, dict[int, Card]], tuple[int, ...]]


class BlindSeat:
    """``seat``'s browser at the hand ``flow`` opens (`Flow.open`): fresh ``keys`` unless a
    reload brings them back (`Keys.from_json`), its cards (``mine``, by position; with the
    bots' at the host) once dealt, and its ``pending`` message, sent and not yet relayed."""

    def __init__(self, seat: int, flow: Flow, keys: Keys | None = None, rng: random.Random | None = None) -> None:
        self.seat, self.flow, self.rng = seat, flow, rng
        self.keys = keys if keys is not None else new_keys(flow.setup, seat, rng)
        self.mine: dict[int, Card] = {}
        self.pending: Message | None = None
        self.faults: tuple[int, ...] = ()     # its positions that were not a card, or a card twice, once unlocked
        self.last = 0          # the number of the last message taken (0: the start)
        self.before: tuple[int, ...] | None = None   # the scores this browser saw the hand before end at

    @classmethod
    def join(cls, seat: int, text: str, keys: Keys | None = None, rng: random.Random | None = None) -> BlindSeat:
        """A guest's seat at the hand the host's first envelope (message 0, the start) opens;
        the guest's controller checks the table, game and hand numbers are the ones it expects.

        >>> from game.blind.seating import Setup
        >>> from .blind_flow import envelope, start_body
        >>> text = envelope(0, 0, 0, start_body(Setup("room", 0, 0, 3, 1, (0, 2), 0), 121, (0, 0, 0)))
        >>> BlindSeat.join(2, text).flow.setup.humans
        (0, 2)
        >>> BlindSeat.join(1, text)
        Traceback (most recent call last):
        game.errors.IllegalActionError: seat 2 holds no keys at this hand: a bot plays it
        """
        _, n, _, body = read_envelope(text)
        if n != 0:
            raise IllegalActionError("a hand opens with its message 0, the start")
        flow = Flow.open(body)
        if seat not in flow.setup.humans:
            raise IllegalActionError(f"seat {seat + 1} holds no keys at this hand: a bot plays it")
        return cls(seat, flow, keys, rng)

    @classmethod
    def rejoin(cls, seat: int, texts: list[str], keys: Keys, rng: random.Random | None = None) -> Work[BlindSeat]:
        """A browser back after a reload: its ``keys`` as it kept them (`Keys.to_json`) and the
        hand's relayed ``texts`` from message 0, as the host sends them again. Each is checked
        again, this browser's own too (a reload never trusts them ``made_here``)."""
        if not texts:
            raise IllegalActionError("a hand is rebuilt from its messages, the start first")
        me = cls.join(seat, texts[0], keys, rng)
        for text in texts[1:]:
            yield from me.take_text(text, me.flow.setup.hand, replayed=True)
        return me

    def take(self, sender: int, body: object, replayed: bool = False) -> Work[None]:
        """Take the host's next relayed ``body`` (sent by human seat ``sender``): its own, just
        made, without checking its proofs again. Reads its cards once they are dealt. A body
        relayed as this seat's that it did not just send is refused (a host forging its
        moves), unless ``replayed`` after a reload."""
        if sender == self.seat and not replayed and body != self.pending:
            raise IllegalActionError(f"the host relayed, as seat {self.seat + 1}'s, a message this browser did not send")
        made_here = sender == self.seat and body == self.pending
        if self.before is not None and isinstance(body, dict) and body.get("step") == "begin" \
                and body.get("scores") != list(self.before):
            raise IllegalActionError(f"the host begins this hand at {shown(body.get('scores'))}, but the hand "
                                     f"before ended at {list(self.before)}")
        self.flow = yield from advance(self.flow, body, sender, made_here)
        if sender == self.seat:
            self.pending = None
        if self.flow.hand.dealt and not self.mine and not self.flow.stopped:
            cards, alarms = yield from own_cards(self.flow.hand, self.keys)
            self.mine = cards
            self.faults = tuple(j for j in range(self.flow.setup.used)
                                if self.flow.setup.keyholder(j) == self.seat and j not in cards) if alarms else ()

    def take_text(self, text: str, hand: int, replayed: bool = False) -> Work[None]:
        """`take` the host's envelope text (`blind_flow.envelope`) of hand ``hand``, in order."""
        number, n, sender, body = read_envelope(text)
        if number != hand or n != self.last + 1:
            raise IllegalActionError(f"message {n} of hand {number} is out of order (expected {self.last + 1})")
        yield from self.take(sender, body, replayed)
        self.last = n

    def next_body(self, choose: Choose) -> Work[Message | None]:
        """The message this browser sends now, if the hand waits for it (for itself or, at the
        host, for a bot), else None. It is kept as ``pending`` until the host relays it."""
        if self.pending is not None:
            return None
        flow, now = self.flow, due(self.flow)
        if self.faults and not flow.stopped:      # only this browser can see it: it stops the hand for all
            self.pending = {"step": "stop", "seat": self.seat, "position": self.faults[0]}
            return self.pending
        mine = [s for s in now.seats if actor(flow.setup, s) == self.seat]
        if not mine:
            return None
        hand, keys, rng = flow.hand, self.keys, self.rng
        body: Message
        if now.step == "shuffle":
            body = yield from shuffle(hand, keys, rng)
        elif now.step == "lock":
            body = yield from lock(hand, keys, rng)
        elif now.step == "unlock" and not hand.dealt:
            body = yield from deal_unlocks(hand, keys, rng)
        elif now.step == "unlock":
            body = yield from public_unlocks(hand, keys, "starter" if flow.public.phase == CUTTING else "extra", rng)
        elif now.step == "reveal":
            crib = [j for chosen in flow.public.discarded for j in chosen or ()]
            j = next(j for j in crib if j in self.mine and hand.cards[j] is None)
            body = yield from reveal(hand, keys, j, self.mine[j], rng)
        elif now.step == "keys":
            body = keys_message(keys)
        elif now.step == "discard":
            seat = mine[0]
            body = {"step": "discard", "seat": seat, "positions": list(choose(flow, seat, self.cards_of(seat)))}
        elif now.step == "play":
            seat = mine[0]
            chosen = choose(flow, seat, self.cards_of(seat))
            if not chosen:
                body = {"step": "go", "seat": seat}
            else:
                body = yield from reveal(hand, keys, chosen[0], self.mine[chosen[0]], rng)
        else:
            return None
        self.pending = body
        return body

    def cards_of(self, seat: int) -> dict[int, Card]:
        """``seat``'s cards not yet played, by position (this browser's own, or a bot's at the host)."""
        return {j: self.mine[j] for j in self.flow.public.held[seat] if j in self.mine}

