"""The coach: what the best discard and play were, and how many points each choice gave away.

Pure functions of what one seat knew (its `game.view.View`s, plus what the show made public):

- `discards`: every possible discard ranked by expected hand plus or minus crib over every
  starter (the model is stated there), the choice marked, the points it gave away.
- `plays`: the pegging review, each card laid against the others by the hard bot's estimate.
- `hands`: a game replayed into hands as one seat saw them (from the whole game, or from the
  seat's views alone, as a guest gets them); the review of a hand and a game.

A hint during a decision (`hints`) is the same figures before the choice: `review_discard`
without an action, `plays.think_values` for the cards.
"""

from .discards import DiscardOption, DiscardReview, rank_discards, review_discard
from .hands import GameReview, HandReview, HandSeen, SeatWalker, Walker, review_game, review_hand, think_hand, walk
from .hints import Decision, Hint, decision_of
from .plays import PlayReview, has_choice, review_play, think_play, think_values

__all__ = ["Decision", "DiscardOption", "DiscardReview", "GameReview", "HandReview", "HandSeen", "Hint", "PlayReview",
           "SeatWalker", "Walker", "decision_of", "has_choice", "rank_discards", "review_discard", "review_game",
           "review_hand", "review_play", "think_hand", "think_play", "think_values", "walk"]
