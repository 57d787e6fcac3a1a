"""A finished game, hand by hand, for the replay viewer: every card dealt, discarded and played,
every point pegged, every show. Pure Python, built by replaying a `GameRecord`.

>>> from web.session import Session
>>> from web.profile.records import record_game
>>> session = Session.new(2, 61, ["Ann", "Bot"], ["easy", "easy"], seed=8)
>>> while session.state.phase != "over":
...     _ = session.bot_move()
>>> hands = replay_hands(record_game(session, 0, "2026-11-30T12:00:00Z"))
>>> len(hands[0].dealt[0]), hands[-1].scores == session.state.scores
(6, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.actions import Action
from game.cards import Card
from game.engine import apply
from game.events import Event

from .records import GameRecord


@dataclass
class ReplayHand:
    """One hand of a finished game, everything face up."""

    number: int
    dealer: int
    dealt: list[tuple[Card, ...]]                 # each seat's cards as dealt
    discards: list[tuple[Card, ...]] = field(default_factory=list)
    starter: Card | None = None
    lines: list[str] = field(default_factory=list)  # the play and the pegs, as the log says them
    shows: list[Event] = field(default_factory=list)   # the show and crib events, in counting order
    scores: tuple[int, ...] = ()                    # every side's score when the hand ended


def replay_hands(record: GameRecord) -> list[ReplayHand]:
    """Replay ``record`` and cut it into hands."""
    state = record.start()
    names = list(record.names)
    hands = [ReplayHand(1, state.dealer, list(state.hands))]
    scores = state.scores                        # as the pegs left them
    for text in record.actions:
        state, events = apply(state, Action.parse(text))
        for event in events:
            hand = hands[-1]
            if event.kind == "deal":
                assert event.seat is not None, "a deal names its dealer"
                hand.scores = scores
                hands.append(ReplayHand(len(hands) + 1, event.seat, list(state.hands)))
            elif event.kind == "starter":
                hand.starter = event.cards[0]
                hand.discards = [tuple(chosen or ()) for chosen in state.discards]   # all made by now
            elif event.kind in ("show", "crib"):
                hand.shows.append(event)
            elif event.kind not in ("discard", "reset") and not (event.kind == "peg" and hand.shows):
                hand.lines.append(event.describe(names))   # the show's pegs are in its own list
            if event.kind == "peg":
                scores = event.scores
            elif event.kind == "game_over":
                hand.scores, scores = event.scores, (0,) * len(event.scores)
    if not hands[-1].scores:
        hands[-1].scores = state.scores
    return hands
