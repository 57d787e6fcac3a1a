"""A hint: the coach's suggestion for the decision a seat faces now, and which decision that is.

The figures are the review's before the choice (`review_discard` without an action,
`plays.think_values` for the cards); the table shows a hint only while its decision lasts
(`decision_of`). `web.coach.follow` makes hints; here, below the browser's table, the table's
model can name their type.

>>> from game.cards import Card
>>> hint = Hint(("play", 7), "play", values=((5, 1.5), (10, -0.25)), suits=(Card.parse("KH"), Card.parse("5S")))
>>> hint.best_card(), hint.words()
(Card.parse('5S'), 'play the five of spades, +1.5 points by the estimate')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card

if TYPE_CHECKING:
    from ..view import View
    from .discards import DiscardReview

Decision = tuple[object, ...]   # what a hint answers (`decision_of`)


@dataclass(frozen=True)
class Hint:
    """The suggestion for ``decision`` (`decision_of` a view): a discard review (every option,
    none chosen) or the estimate of each playable rank, best first."""

    decision: Decision
    kind: str                                  # "discard", "play", or "only" (one rank can be played)
    discard: DiscardReview | None = None
    values: tuple[tuple[int, float], ...] = ()
    suits: tuple[Card, ...] = ()               # the seat's playable cards, to name the rank's card

    def best_card(self) -> Card:
        """A play hint's best card: the first playable card of its best rank."""
        rank = self.values[0][0]
        return next(card for card in self.suits if card.rank == rank)

    def words(self) -> str:
        """The hint in words, for the table's announcement (a screen reader says it)."""
        if self.kind == "only":
            return f"only the {self.suits[0].name} can be played"
        if self.kind == "discard":
            assert self.discard is not None      # (a discard hint always has its review)
            best = self.discard.best
            return f"throw {' '.join(c.name for c in sorted(best.thrown))}, {float(best.value):.1f} points expected"
        return f"play the {self.best_card().name}, {self.values[0][1]:+.1f} points by the estimate"


def decision_of(view: View) -> Decision:
    """What a hint answers: a discard is the same choice until the seat has made it (the
    others' discards, hidden from it, change nothing); a play, only in the view it was asked in.

    >>> from game.engine import Config, apply, legal_actions, new_game
    >>> from game.view import view
    >>> state = new_game(Config(players=4), seed=3)
    >>> after, _ = apply(state, legal_actions(state, 1)[0])      # another seat discards
    >>> decision_of(view(state, 0)) == decision_of(view(after, 0)), state.state_id == after.state_id
    (True, False)
    """
    if view.phase == "discard" and not view.has_discarded[view.seat]:
        return ("discard", view.game_no, view.hand_no, tuple(sorted(view.hand)))
    return ("play", view.state_id)
