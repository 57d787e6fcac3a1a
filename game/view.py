"""What one seat may know: `view(state, seat)`, the only thing that leaves the engine.

A view goes to the UI, to a bot and over the network. It holds the seat's own cards and
discards, and of everyone else only what the table has shown: cards played, how many cards
each holds, the starter once cut, and hands once counted.

>>> from game.engine import Config, new_game
>>> v = view(new_game(Config(players=3), seed=1), 2)
>>> len(v.hand), v.hand_sizes, v.crib_size, v.starter
(5, (5, 5, 5), 1, None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Action
from .cards import DECK, Card
from .engine import Claim, Config, PlayStep, State, legal_actions
from .events import Show
from .scoring import Breakdown


@dataclass(frozen=True)
class View:
    """The table as ``seat`` sees it. Field meanings follow `State`."""

    seat: int
    config: Config
    state_id: int
    phase: str
    game_no: int
    hand_no: int
    dealer: int
    cut: tuple[Card, ...]
    wins: tuple[int, ...]
    scores: tuple[int, ...]
    previous: tuple[int, ...]
    hand: tuple[Card, ...]            # this seat's cards now
    kept: tuple[Card, ...]            # this seat's four cards for the show (after discarding)
    discarded: tuple[Card, ...]       # this seat's crib cards, once chosen
    has_discarded: tuple[bool, ...]   # per seat
    hand_sizes: tuple[int, ...]       # cards each seat holds
    crib_size: int
    starter: Card | None
    pile: tuple[Card, ...]
    count: int
    turn: int | None
    said_go: tuple[int, ...]
    play: tuple[PlayStep, ...]
    shows: tuple[Show, ...]
    winner: int | None
    verdicts: tuple[str, ...]
    legal: tuple[Action, ...]
    claim: Claim | None = None    # muggins tables: the points waiting (what they make hidden till claimed)

    @property
    def side(self) -> int:
        return self.config.side_of(self.seat)

    @property
    def my_crib(self) -> bool:
        """Whether this seat's side owns the crib this hand."""
        return self.config.side_of(self.dealer) == self.side

    def unseen(self) -> tuple[Card, ...]:
        """Cards this seat has not seen this hand: what others may hold, the crib, the deck."""
        seen = set(self.hand) | set(self.discarded) | {s.card for s in self.play if s.card}
        if self.starter is not None:
            seen.add(self.starter)
        return tuple(card for card in DECK if card not in seen)


def _seen(claim: Claim | None) -> Claim | None:
    """A claim as the table sees it: what the cards make stays hidden until it is claimed."""
    if claim is None or claim.claimed is not None:
        return claim
    return replace(claim, breakdown=Breakdown())


def view(state: State, seat: int) -> View:
    """What ``seat`` may know of ``state``; a seat not at the table is refused as
    `Config.check_seat` says."""
    state.config.check_seat(seat)
    chosen = state.discards[seat] if state.discards else None
    discarded = chosen if chosen else ()
    crib_size = len(state.crib) + (0 if state.starter else
                                   sum(len(d) for d in state.discards if d is not None))
    return View(
        seat=seat, config=state.config, state_id=state.state_id, phase=state.phase,
        game_no=state.game_no, hand_no=state.hand_no, dealer=state.dealer, cut=state.cut,
        wins=state.wins, scores=state.scores, previous=state.previous,
        hand=state.hands[seat], kept=state.kept[seat] if state.kept else (),
        discarded=discarded,
        has_discarded=tuple(d is not None for d in state.discards),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        crib_size=crib_size, starter=state.starter, pile=state.pile, count=state.count,
        turn=state.turn, said_go=tuple(sorted(state.said_go)), play=state.play,
        shows=state.shows, winner=state.winner, verdicts=state.verdicts,
        legal=legal_actions(state, seat),
        claim=_seen(state.claim),
    )
