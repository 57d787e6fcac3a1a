"""The pegging review: for each card the seat laid with a real choice, the bot's estimate of
every card it could have laid, and how much the one it laid gave away.

The estimate is the hard bot's own (`game.bots.pegging.think`): pegged points for the seat's
side minus the others', to the end of the play, averaged over hidden hands dealt at random from
the cards the seat had not seen (consistent with the goes it heard). It is an estimate, not an
exact value: a play is called a mistake only when it gave away at least `MIN_LOST` points.
The search's generator is seeded from the position alone, so a review is the same every time.

Near the end of the game the search values reaching the target far above any points
(`pegging.WIN`). A play that turns a sure win into less, or something into a sure loss, is
``decisive`` and counts as `CAP` points given away; between two cards with the same sure
outcome nothing is lost.

>>> from game.engine import Config, new_game, apply, stack_deck
>>> from game.cards import parse_cards, Card
>>> from game.view import view
>>> from game.actions import Action
>>> deck = stack_deck(Config(), 0, [parse_cards("KH QH 2C 3C 4D 5S"),
...                                 parse_cards("TD 5C 7H 8H 9S AS")], Card.parse("6D"))
>>> s = new_game(Config(), seed=1, stacked=[deck], first_dealer=0)
>>> s, _ = apply(s, "0 discard KH QH")
>>> s, _ = apply(s, "1 discard 7H 8H")
>>> s, _ = apply(s, "1 play TD")
>>> review = review_play(view(s, 0), Action.parse("0 play 2C"))
>>> review.best_rank, review.lost >= 2, review.mistake   # the 5 made fifteen for 2
(5, True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..bots import Thinking, pegging
from ..bots import run
from ..cards import Card

if TYPE_CHECKING:
    from ..actions import Action
    from ..view import View

MIN_LOST = 0.5      # points: a smaller gap is within the estimate's noise
CAP = 10.0          # points: what a play that changes who wins counts for in the totals
RACE = pegging.WIN / 10   # an estimate this far from 0 weighs the game's end: no play pegs that much
BUDGET = 900        # search nodes per reviewed play (the hard bot uses `pegging.NODE_BUDGET`)


@dataclass(frozen=True)
class PlayReview:
    """One card the seat laid: ``values`` pairs each playable rank with its estimate (best
    first), ``played`` the card laid, ``count`` the count before it."""

    played: Card
    count: int
    values: tuple[tuple[int, float], ...]

    @property
    def best_rank(self) -> int:
        return self.values[0][0]

    @property
    def decisive(self) -> bool:
        """Whether the card laid changed the game's sure outcome by the search (see above)."""
        return _outcome(self.values[0][1]) != _outcome(dict(self.values)[self.played.rank])

    @property
    def lost(self) -> float:
        """Estimated points the card laid gave away against the best one (at most `CAP`)."""
        best, chosen = self.values[0][1], dict(self.values)[self.played.rank]
        if self.decisive:
            return CAP
        if _outcome(best):       # the same sure win (or loss) either way
            return 0.0
        return min(CAP, best - chosen)

    @property
    def mistake(self) -> bool:
        return self.lost >= MIN_LOST

    @property
    def racing(self) -> bool:
        """Whether the estimates weigh reaching the target (some sampled deals end the game in
        this play): they are then a blend of `pegging.WIN` and points, not points to say.

        >>> PlayReview(Card.parse("2D"), 0, ((3, 354.8), (2, -459.3))).racing
        True
        >>> PlayReview(Card.parse("2D"), 0, ((3, 2.5), (2, -1.0))).racing
        False
        """
        return any(abs(value) >= RACE for _, value in self.values)


def has_choice(view: View) -> bool:
    """Whether the seat has more than one rank to choose from (suits never matter in play;
    a card's claim at a muggins table is no choice of card)."""
    return (view.phase == "play" and view.claim is None
            and len({action.card.rank for action in view.legal}) > 1)


def think_play(view: View, action: Action, budget: int = BUDGET) -> Thinking[PlayReview]:
    """`review_play` as a generator that yields between searched samples (a page runs it in
    slices); returns the `PlayReview`."""
    if action not in view.legal:
        raise ValueError(f"{action} is not a legal play here")
    ranked = yield from think_values(view, budget)
    return PlayReview(action.card, view.count, ranked)


def _outcome(value: float) -> int:
    """1 for a sure win by the search, -1 for a sure loss, 0 for points."""
    return 1 if value >= pegging.WIN / 2 else -1 if value <= -pegging.WIN / 2 else 0


def think_values(view: View, budget: int = BUDGET) -> Thinking[tuple[tuple[int, float], ...]]:
    """The estimate of every playable rank, best first (ties: the lower rank), as a generator
    (see `think_play`); what a hint shows during the play."""
    if not has_choice(view):
        raise ValueError("a play review needs a turn with a choice of cards")
    rng = random.Random(f"coach/{view.game_no}/{view.hand_no}/{view.state_id}/{view.seat}")
    values = yield from pegging.think(view, rng, budget)
    return tuple(sorted(values.items(), key=lambda item: (-item[1], item[0])))


def review_play(view: View, action: Action, budget: int = BUDGET) -> PlayReview:
    """The review of ``action``, a card ``view``'s seat laid with a choice of ranks."""
    return run(think_play(view, action, budget))
