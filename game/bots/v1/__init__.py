"""``hard-v1``: the hard bot as it stood before issue 15, frozen for the arena.

A verbatim copy of ``common``, ``pegging``, ``board`` and ``discard`` at that time (imports adjusted), so
later work on the hard bot is always measured against the same opponent. Arena only: the page
never offers it. Do not change its play.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> import random
>>> v = view(new_game(Config(), seed=5), 0)
>>> hard_v1(v, random.Random(1)) in v.legal
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import board, discard, pegging

if TYPE_CHECKING:
    from ...actions import Action
    from ...view import View


def hard_v1(view: View, rng: random.Random) -> Action:
    """The hard bot's choice before issue 15."""
    if view.phase == "discard":
        rows = discard.expected_values(view, with_crib=True)
        if board.near_end(view):
            return board.choose_discard(view, rows)
        return rows[0][0]
    return pegging.choose_play(view, rng)
