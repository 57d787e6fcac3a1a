"""The three bot levels, each a function ``choose(view, rng) -> Action``.

- **easy**, a casual beginner: keeps cards that look good on their own (not always the best
  of them), takes the obvious points of the play (fifteen, thirty-one, a pair), otherwise
  plays a card at random.
- **medium**: keeps the hand worth most on average over all 46 starters (the crib is ignored);
  pegs greedily for immediate points, minus the obvious dangers (leaving the count at 5 or 21,
  a card easy to pair).
- **hard**: hand plus crib, exactly over every starter, with the crib table, plus the
  kept four's pegging value for its seat (`keep`, `peg_table`); pegs by a
  search over sampled hidden hands in which the rivals do not see our cards (`pegging`);
  near the target plays for the game (`board`). It thinks in slices and says why
  (`hard_think`, `Thought`: each candidate's value).
- **hard-v1** (arena only): the hard bot before issue 15, frozen in `game.bots.v1`.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> import random
>>> v = view(new_game(Config(), seed=5), 0)
>>> all(LEVELS[level](v, random.Random(1)) in v.legal for level in LEVELS)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..actions import Action
from . import Thinking, board, discard, keep, pegging, run
from .common import peg_points, play_action

if TYPE_CHECKING:
    from ..view import View


def _pick_best(scored: Sequence[tuple[float, Action]], rng: random.Random) -> Action:
    """The action with the highest score; ties broken by ``rng`` (scored: [(score, action)])."""
    top = max(score for score, _ in scored)
    best = [action for score, action in scored if score >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def _immediate(view: View, action: Action) -> int:
    pile = tuple(card.rank for card in view.pile) + (action.card.rank,)
    return peg_points(pile, view.count + action.card.value)


# ---- easy -----------------------------------------------------------------------------------

def easy(view: View, rng: random.Random) -> Action:
    if view.phase == "discard":
        # A beginner keeps what looks good, but does not weigh close calls: any kept hand
        # within 2 points of the best visible score will do, and the crib is not considered.
        scored = [(discard.beginner_value(kept), action) for action, kept, _ in discard.options(view)]
        top = max(score for score, _ in scored)
        return rng.choice([action for score, action in scored if score >= top - 2])
    # Obvious points only (a fifteen, thirty-one, a pair); runs and traps go unnoticed.
    scored = [(_obvious(view, action), action) for action in view.legal]
    if max(score for score, _ in scored) > 0:
        return _pick_best(scored, rng)
    return rng.choice(view.legal)


def _obvious(view: View, action: Action) -> int:
    count = view.count + action.card.value
    points = 2 if count in (15, 31) else 0
    if view.pile and view.pile[-1].rank == action.card.rank:
        points += 2
    return points


# ---- medium ---------------------------------------------------------------------------------

def medium(view: View, rng: random.Random) -> Action:
    if view.phase == "discard":
        rows = discard.expected_values(view, with_crib=False)
        return _pick_best([(row[2], row[0]) for row in rows], rng)
    return _pick_best([(_immediate(view, action) - _danger(view, action), action)
                       for action in view.legal], rng)


def _danger(view: View, action: Action) -> float:
    """The obvious dangers of a card, in expected points given away: leaving the count at 5
    or 21 (any ten-card answers for 2) and inviting a pair (likelier when more cards of that
    rank are unseen)."""
    count = view.count + action.card.value
    if count == 31:
        return 0.0
    unseen = view.unseen()
    nxt = (view.seat + 1) % view.config.players
    held = view.hand_sizes[nxt]
    if not unseen or not held:
        return 0.0
    tens = sum(1 for card in unseen if card.value == 10)
    same = sum(1 for card in unseen if card.rank == action.card.rank)
    danger = 0.0
    if count in (5, 21):
        danger += 2 * min(1.0, tens * held / len(unseen))
    if count + action.card.value <= 31:
        danger += 2 * min(1.0, same * held / len(unseen))
    return danger


# ---- hard -----------------------------------------------------------------------------------

def hard(view: View, rng: random.Random) -> Action:
    return run(hard_think(view, rng)).action


def hard_think(view: View, rng: random.Random) -> Thinking[Thought]:
    """The hard bot's decision as a generator: it yields ``None`` at points where the caller
    may pause (the page, to stay responsive) and returns a `Thought`."""
    if view.phase == "discard":
        rows = yield from discard.think_values(view)
        if board.near_end(view):
            chances = yield from board.think_discard(view, rows)
            ranked = sorted(chances, key=lambda pair: -pair[1])
            return Thought(ranked[0][0], tuple(ranked), "chance of winning")
        measure = "hand, crib and pegging points expected" if keep.applies(view) else \
            "hand and crib points expected"
        rows = keep.with_pegging(view, rows)
        return Thought(rows[0][0], tuple((row[0], row[2]) for row in rows), measure)
    ranks = {action.card.rank for action in view.legal}
    if len(ranks) == 1:
        return Thought(view.legal[0], (), "")
    values = yield from pegging.think(view, rng)
    rank = pegging.best_rank(values)
    by_value = sorted(values.items(), key=lambda item: (-item[1], item[0]))
    return Thought(play_action(view, rank),
                   tuple((play_action(view, r), value) for r, value in by_value),
                   "pegging points for us minus them, to the end of the play")


class Thought(NamedTuple):
    """A decision with its reasons: ``values`` pairs each candidate action with its value
    (best first), in the unit ``measure`` names; empty when the bot weighed nothing."""

    action: Action
    values: tuple[tuple[Action, float], ...] = ()
    measure: str = ""


def think(level: str, view: View, rng: random.Random) -> Thinking[Thought]:
    """``level``'s decision as a generator returning a `Thought` (sliceable for `hard`; the
    other levels decide in one step)."""
    if level == "hard":
        return (yield from hard_think(view, rng))
    return Thought(LEVELS[level](view, rng))


# ---- hard-v1 (arena only) ----------------------------------------------------------------

def hard_v1(view: View, rng: random.Random) -> Action:
    """The hard bot before issue 15, frozen (`game.bots.v1`): the arena's yardstick."""
    from .v1 import hard_v1 as frozen  # imported on first use: the page never seats it

    return frozen(view, rng)


LEVELS = {"easy": easy, "medium": medium, "hard": hard, "hard-v1": hard_v1}
