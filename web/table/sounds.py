"""What the table sounds like: which cues a change of the table plays (pure; `web.sound` plays
them in the browser, when the player turned sound on).

A cue is named, not synthesised, here: ``card`` (a card laid on the pile), ``peg`` (points
pegged), ``turn`` (the game waits for this player), ``win`` and ``loss`` (the game is over).
Each repaint compares what the table showed last with what it shows now, so a cue plays once
however many times the page repaints, and a page opened on a game in progress stays quiet.

>>> before = Heard(cards=0, points=3, waiting=False, winner=None)
>>> after = Heard(cards=1, points=5, waiting=True, winner=None)
>>> cues(before, after, my_side=0)
('card', 'peg', 'turn')
>>> cues(None, after, my_side=0)    # the first look at a table: nothing has just happened
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.view import View

CUES = ("card", "peg", "turn", "win", "loss")


@dataclass(frozen=True)
class Heard:
    """What of the table the sounds follow: cards laid this hand, points on the board, whether
    the game waits for this player, who won (a side, or None)."""

    cards: int
    points: int
    waiting: bool
    winner: int | None


def heard(view: View) -> Heard:
    """The part of a `game.view.View` the sounds follow."""
    laid = sum(1 for step in view.play if step.kind == "play")
    return Heard(laid, sum(view.scores), bool(view.legal), view.winner)


def cues(before: Heard | None, after: Heard, my_side: int) -> tuple[str, ...]:
    """The cues between two looks at the table, in the order they play.

    >>> won = Heard(cards=8, points=121, waiting=False, winner=1)
    >>> cues(Heard(8, 118, False, None), won, my_side=1), cues(Heard(8, 118, False, None), won, my_side=0)
    (('peg', 'win'), ('peg', 'loss'))
    """
    if before is None:
        return ()
    found: list[str] = []
    if after.cards > before.cards:
        found.append("card")
    if after.points > before.points:
        found.append("peg")
    if after.waiting and not before.waiting and after.winner is None:
        found.append("turn")
    if after.winner is not None and before.winner is None:
        found.append("win" if after.winner == my_side else "loss")
    return tuple(found)
