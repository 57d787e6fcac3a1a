"""Counting at a muggins table (`Config.muggins`): every bot claims exactly what its cards make;
calling muggins on a rival's miss depends on the level.

- **easy** never calls muggins (a beginner does not count the others' cards),
- **medium** calls it half the time (its seeded generator decides),
- **hard** always does.

>>> from game.engine import Config, new_game, apply, stack_deck
>>> from game.cards import parse_cards, Card
>>> from game.view import view
>>> import random
>>> config = Config(muggins=True)
>>> deck = stack_deck(config, 0, [parse_cards("KH QH 2C 3C 4D 5S"),
...                               parse_cards("TD 5C 7H 8H 9S AS")], Card.parse("6D"))
>>> s = new_game(config, seed=1, stacked=[deck], first_dealer=0)
>>> s, _ = apply(s, "0 discard KH QH")
>>> s, _ = apply(s, "1 discard 7H 8H")
>>> s, _ = apply(s, "1 play TD")
>>> s, _ = apply(s, "1 claim 0")
>>> s, _ = apply(s, "0 play 5S")
>>> str(decide("easy", view(s, 0), random.Random(1)))   # fifteen for 2
'0 claim 2'
>>> s, _ = apply(s, "0 claim 1")                         # one point short
>>> [str(decide(level, view(s, 1), random.Random(1))) for level in ("easy", "hard")]
['1 pass', '1 muggins']
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..actions import MUGGINS, PASS, Action
from ..scoring import score_hand, score_play

if TYPE_CHECKING:
    from ..view import View

CALLS = {"easy": 0.0, "medium": 0.5, "hard": 1.0, "hard-v1": 1.0}   # chance of calling muggins


def decide(level: str, view: View, rng: random.Random) -> Action | None:
    """The bot's claim, or its answer to a rival's short claim; None when no claim waits on it."""
    claim = view.claim
    if claim is None or not view.legal or view.legal[0].kind not in ("claim", MUGGINS):
        return None
    if claim.claimed is not None:
        call = rng.random() < CALLS.get(level, 0.0)
        return Action._trusted(view.seat, MUGGINS if call else PASS, ())
    if claim.what == "play":
        points = score_play(claim.cards).total
    else:
        assert view.starter is not None   # a show has its starter
        points = score_hand(claim.cards, view.starter, crib=claim.what == "crib").total
    return Action.claim(view.seat, points)
