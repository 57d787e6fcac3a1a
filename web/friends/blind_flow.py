"""One blind-dealt hand at a table with friends, as every seated browser follows it: whose
message is due next (`due`), and what a message does to the hand (`advance`). The host
(`web.friends.blind_table`) and each person (`web.friends.blind_seat`) run the same rules on
the same numbered messages, so every browser holds the same `Flow` (its own cards apart).

A message's ``body`` is one of `game.blind`'s (``shuffle``, ``lock``, ``unlock``, ``reveal``,
``keys``: `game.blind.transcript.accept` checks it), or one of the table's own:

- ``{"step": "start", "setup": Setup.to_json(), "target": 121, "scores": [0, 0]}``: the host
  opens the hand (message 0); with ``"scores": null`` it opens the hand *dealt ahead*, while
  the hand before it is played: its shuffles, locks and deal unlocks run at once, but its
  discards wait for its ``begin``;
- ``{"step": "begin", "seat": host, "scores": [...]}``: the host makes a hand dealt ahead the
  current one, with the scores the hand before it ended at (every browser computed them from
  that hand's public play: each one checks them, `web.friends.blind_seat.BlindSeat.before`);
  due, or accepted earlier, at any point of its deal, once;
- ``{"step": "discard", "seat": s, "positions": [j, k]}``: seat ``s`` puts those positions in
  the crib (`game.blind.public.Public.discard`);
- ``{"step": "go", "seat": s}``: seat ``s`` claims it cannot play (the audit checks it);
- ``{"step": "stop", "seat": s, "position": j}``: the human seat ``s`` found that its position
  ``j`` is not a card once unlocked (or a card dealt twice), which only its browser can see: the
  hand stops, every seat publishes its keys, and the audit names the cheat (or ``s``, if every
  position was a card).

A ``reveal`` in the play is the turn's seat playing that card; in the show, a crib card shown.
The seat that sends a bot's messages is the host's (`actor`): its browser holds the bot's cards.
The hand's order (docs/blind-deal.md, "Wiring it into the table"): every shuffle, every lock
and every deal unlock in seat order; the discards (any order); the starter's unlocks; the play;
the crib's reveals and the 3-player crib card's unlocks; the show; everyone's keys; the audit.

>>> from game.blind.alarms import finish
>>> setup = Setup("room", 0, 0, players=2, dealer=1, humans=(0, 1), host=0)
>>> flow = Flow.open(start_body(setup, 121, (0, 0)))
>>> due(flow)
Due(step='shuffle', seats=(0,))
>>> flow = finish(advance(flow, {"step": "go", "seat": 0}, sender=0))
Traceback (most recent call last):
game.errors.IllegalActionError: seat 1 cannot go now: shuffle is due from seat 1
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from game.blind.alarms import Alarm, Work
from game.blind.audit import Audit, audit, check_moves
from game.blind.public import CUTTING, DONE, OVER, PLAYING, SHOWING, Public
from game.blind.seating import Setup
from game.blind.transcript import Hand, Message, accept
from game.cards import Card
from game.engine import Config
from game.errors import IllegalActionError, ParseError, shown
from game.events import Event

from . import protocol

BLIND_STEPS = ("shuffle", "lock", "unlock", "reveal", "keys")
TABLE_STEPS = {"start": {"step", "setup", "target", "scores"}, "begin": {"step", "seat", "scores"},
               "discard": {"step", "seat", "positions"},
               "go": {"step", "seat"}, "stop": {"step", "seat", "position"}}


@dataclass(frozen=True)
class Due:
    """What the hand waits for: a ``step`` (shuffle, lock, unlock, discard, play, reveal, keys,
    audit, or over) and the ``seats`` whose message it may be (several for the discards)."""

    step: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Flow:
    """A hand as every seated browser follows it: the ``setup``, the blind deal's transcript
    (``hand``), the public play (``public``) and its ``events`` so far (the engine's kinds: what
    the screens show), the ``bodies`` accepted in order (what a browser saves to rebuild it), the ``alarms`` (the first one stops the hand: every seat then
    publishes its keys) and, once every key is in, the ``audit``."""

    setup: Setup
    hand: Hand
    public: Public
    events: tuple[Event, ...] = ()
    bodies: tuple[Message, ...] = ()
    alarms: tuple[Alarm, ...] = ()
    audit: Audit | None = None
    begun: bool = True

    @property
    def ahead(self) -> bool:
        """Whether this is a hand dealt ahead that its ``begin`` has not made the current one."""
        return not self.begun

    @classmethod
    def open(cls, body: object) -> Flow:
        """The hand the host's ``start`` body opens; anything else raises `ParseError`."""
        if not isinstance(body, dict) or set(body) != TABLE_STEPS["start"] or body["step"] != "start":
            raise ParseError("a hand opens with its start: setup, target and scores")
        setup = Setup.from_json(body["setup"])
        target = body["target"]
        config = Config(players=setup.players, target=target) if type(target) is int else None
        if config is None:
            raise ParseError(f"a game's target is 61 or 121, not {shown(target)}")
        scores = body["scores"]
        begun = scores is not None
        public = Public.start(config, setup.dealer, _scores(scores) if begun else (0,) * config.sides)
        return cls(setup, Hand(setup), public, bodies=(body,), begun=begun)

    @property
    def stopped(self) -> bool:
        return bool(self.alarms)


def _scores(scores: object) -> tuple[int, ...]:
    if not isinstance(scores, list) or len(scores) > 4:
        raise ParseError("a hand's scores are a list, one a side")
    return tuple(scores)


def start_body(setup: Setup, target: int, scores: tuple[int, ...] | None) -> Message:
    """The host's first message of a hand (``scores`` None: a hand dealt ahead)."""
    return {"step": "start", "setup": setup.to_json(), "target": target,
            "scores": None if scores is None else list(scores)}


def begin_body(setup: Setup, scores: tuple[int, ...]) -> Message:
    """The host's message that makes a hand dealt ahead the current one."""
    return {"step": "begin", "seat": setup.host, "scores": list(scores)}


def actor(setup: Setup, seat: int) -> int:
    """The human seat whose browser sends ``seat``'s moves: itself, or the host for a bot."""
    return seat if seat in setup.humans else setup.host


def due(flow: Flow) -> Due:
    """What the hand waits for now (see the module's docstring for the order)."""
    setup, hand, public = flow.setup, flow.hand, flow.public
    humans = setup.humans
    if flow.audit is not None:
        return Due("over", ())
    waiting_keys = tuple(s for s in humans if all(k.seat != s for k in hand.keys))
    if flow.alarms or public.phase in (DONE, OVER):
        if len(hand.locked) < len(humans):          # no key was used yet: nothing to audit
            return Due("over", ())
        return Due("keys", waiting_keys[:1]) if waiting_keys else Due("audit", ())
    if len(hand.decks) < len(humans):
        return Due("shuffle", (humans[len(hand.decks)],))
    if len(hand.locked) < len(humans):
        return Due("lock", (humans[len(hand.locked)],))
    if not hand.dealt:
        return Due("unlock", (min(_waiting(hand, [j for j in range(setup.used) if setup.keyholder(j) is not None])),))
    if flow.ahead:
        return Due("begin", (setup.host,))
    if public.phase == CUTTING:
        return Due("unlock", (min(_waiting(hand, [setup.starter])),))
    if public.phase == PLAYING:
        assert public.turn is not None
        return Due("play", (public.turn,))
    if public.phase == SHOWING:
        hidden = [j for j in _crib_positions(public) if hand.cards[j] is None and setup.keyholder(j) is not None]
        if hidden:
            return Due("reveal", (_holder(setup, hidden[0]),))
        return Due("unlock", (min(_waiting(hand, [setup.extra] if setup.extra is not None else [])),))
    return Due("discard", tuple(s for s in range(setup.players) if public.discarded[s] is None))


def advance(flow: Flow, body: object, sender: int, made_here: bool = False) -> Work[Flow]:
    """``flow`` after ``body``, sent by the human seat ``sender``. A body that is malformed
    (`ParseError`) or not due from ``sender`` (`IllegalActionError`) changes nothing; one
    whose contents `accept` finds wrong comes back with the alarm, which stops the hand.
    ``made_here``: the body is this browser's own, just made (its proofs are not checked)."""
    if not isinstance(body, dict) or not isinstance(body.get("step"), str):
        raise ParseError("a hand's message has a step")
    step, now = str(body["step"]), due(flow)
    seat = body.get("seat")
    if step not in BLIND_STEPS and step not in TABLE_STEPS or step == "start":
        raise ParseError(f"no hand's message has the step {shown(step)}")
    if step in TABLE_STEPS and set(body) != TABLE_STEPS[step]:
        raise ParseError(f"a {step} message has {', '.join(sorted(TABLE_STEPS[step]))}")
    if type(seat) is not int or not 0 <= seat < flow.setup.players:
        raise ParseError(f"a seat is one of the table's, not {shown(seat)}")
    if step == "stop":
        return _stop(flow, now, seat, sender, body)
    if step == "begin":
        return _begin(flow, seat, sender, body)
    _check_due(flow, now, step, seat, sender, body)
    if step in TABLE_STEPS:
        public, events = _table_move(flow.public, step, seat, body)
        return replace(flow, public=public, events=flow.events + events, bodies=flow.bodies + (body,))
    public, events = _tentative_reveal(flow, body) if step == "reveal" and now.step == "play" else (flow.public, ())
    if step == "reveal" and now.step == "reveal" and body.get("position") not in _crib_positions(flow.public):
        raise IllegalActionError("only the crib's cards are shown now")
    hand, alarms = yield from accept(flow.hand, body, made_here)
    if alarms:       # relayed all the same: every browser sees the alarm for itself
        return replace(flow, alarms=alarms, bodies=flow.bodies + (body,))
    flow = replace(flow, hand=hand, public=public, events=flow.events + events, bodies=flow.bodies + (body,))
    return (yield from _after(flow))


def _after(flow: Flow) -> Work[Flow]:
    """What follows a blind message by itself: the cut, the show, the audit."""
    setup, hand, public, events = flow.setup, flow.hand, flow.public, flow.events
    starter = hand.cards[setup.starter] if hand.cards else None
    if public.phase == CUTTING and starter is not None:
        public, cut = public.cut(starter)
        events += cut
    crib = {j: hand.cards[j] for j in _crib_positions(public)} if public.phase == SHOWING else {}
    if crib and all(card is not None for card in crib.values()):
        public, shown_ = public.show({j: card for j, card in crib.items() if card is not None})
        events += shown_
    flow = replace(flow, public=public, events=events)
    if due(flow).step == "audit":
        result = yield from audit(hand)
        alarms = result.alarms
        if result.deck is not None and not flow.alarms:
            alarms += check_moves(public, result.deck)
        stopper = next((body["seat"] for body in flow.bodies if body["step"] == "stop"), None)
        if type(stopper) is int and not alarms:
            alarms = (Alarm(stopper, "stop", "it stopped the hand, but every position is a card"),)
        flow = replace(flow, audit=result, alarms=flow.alarms + alarms)
    return flow


def _stop(flow: Flow, now: Due, seat: int, sender: int, body: Message) -> Flow:
    position = body["position"]
    if seat != sender or not flow.hand.dealt or flow.stopped or now.step in ("keys", "audit", "over") \
            or type(position) is not int or not 0 <= position < flow.setup.used \
            or flow.setup.keyholder(position) != seat:
        raise IllegalActionError(f"seat {sender + 1} cannot stop the hand now, for position {shown(position)}")
    alarm = Alarm(None, "deal", f"seat {seat + 1} found position {position} is not a card once unlocked")
    return replace(flow, alarms=(alarm,), bodies=flow.bodies + (body,))


def _begin(flow: Flow, seat: int, sender: int, body: Message) -> Flow:
    host = flow.setup.host
    if not flow.ahead or seat != host or sender != host:
        raise IllegalActionError(f"seat {sender + 1} cannot begin this hand: "
                                 + ("it is not dealt ahead" if not flow.ahead else "only the host begins a hand"))
    public = Public.start(flow.public.config, flow.setup.dealer, _scores(body["scores"]))
    return replace(flow, public=public, bodies=flow.bodies + (body,), begun=True)


def _check_due(flow: Flow, now: Due, step: str, seat: int, sender: int, body: Message) -> None:
    """Refuse ``body`` unless its step is due, from a seat it is due from, sent by that seat's
    browser (a bot's by the host's). A blind message's seat is its sender's."""
    if now.step == "play" and step in ("reveal", "go"):
        mover = _owner(flow, body) if step == "reveal" else seat
    elif step == now.step:
        mover = seat
    else:
        mover = None
    if mover not in now.seats or (step in BLIND_STEPS and seat != sender) \
            or actor(flow.setup, mover if mover is not None else seat) != sender:
        raise IllegalActionError(f"seat {sender + 1} cannot {step} now: {now.step} is due from "
                                 f"{' or '.join(f'seat {s + 1}' for s in now.seats) or 'no one'}")


def _table_move(public: Public, step: str, seat: int, body: Message) -> tuple[Public, tuple[Event, ...]]:
    if step == "go":
        return public.go(seat)
    positions = body["positions"]
    if not isinstance(positions, list) or any(type(j) is not int for j in positions):
        raise ParseError("a discard's positions are whole numbers")
    return public.discard(seat, tuple(positions))


def _owner(flow: Flow, body: Message) -> int | None:
    """The seat a played position was dealt to."""
    position = body.get("position")
    return flow.setup.dealt_to(position) if type(position) is int and 0 <= position < flow.setup.used else None


def _tentative_reveal(flow: Flow, body: Message) -> tuple[Public, tuple[Event, ...]]:
    """The public play after the card a ``reveal`` plays (its proof is checked next)."""
    position, owner = body.get("position"), _owner(flow, body)
    if owner is None or type(position) is not int:
        raise IllegalActionError(f"position {shown(position)} holds no seat's card")
    card = Card.parse(body.get("card"))   # type: ignore[arg-type]   # Card.parse refuses what is not text
    return flow.public.play(owner, position, card)


def _crib_positions(public: Public) -> list[int]:
    crib = [j for chosen in public.discarded for j in chosen or ()]
    return crib + ([public.extra] if public.extra is not None else [])


def _waiting(hand: Hand, positions: list[int]) -> list[int]:
    seats = [hand.waiting_for(j) for j in positions]
    return [s for s in seats if s is not None]


def _holder(setup: Setup, position: int) -> int:
    seat = setup.keyholder(position)
    assert seat is not None
    return seat


# ---- the envelope ---------------------------------------------------------------------------

def envelope(hand: int, n: int, sender: int, body: Message) -> str:
    """``body`` as message ``n`` of hand ``hand`` from seat ``sender``: `protocol.blind`'s text
    (a guest's, or the host's relay of one, docs/blind-deal.md).

    >>> read_envelope(envelope(3, 0, 1, {"step": "go", "seat": 1}))
    (3, 0, 1, {'step': 'go', 'seat': 1})
    """
    return protocol.blind(hand, n, sender, body)


def read_envelope(text: object) -> tuple[int, int, int, Any]:
    """(hand, n, sender, body) from `envelope`'s text; anything else (too long, nested too deep,
    not a blind message) raises `ParseError` before any of it is used.

    >>> read_envelope('{"v":8,"type":"blind",' + "[" * 60_000)
    Traceback (most recent call last):
    game.errors.ParseError: a hand's message: a message is not valid JSON: nested more than 32 deep
    """
    try:
        message = protocol.parse(text, "guest")
    except protocol.ProtocolError as bad:
        raise ParseError(f"a hand's message: {bad}") from None
    if message.type != "blind":
        raise ParseError("a hand's message has type blind, a hand, a number, a sender and a body")
    return message["hand"], message["n"], message["from"], message["body"]
