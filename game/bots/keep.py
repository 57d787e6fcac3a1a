"""What to keep, counting the play too: the show plus the kept four's pegging value.

`discard.expected_values` values a discard by the show alone (hand plus crib over every
starter). Hands that show alike can peg very differently (`peg_table`): as pone, aces to
fours answer and make the go; as dealer, every card up to the seven pays, the five most.
`with_pegging` adds `WEIGHT` times the kept four's expected pegging points (our side's minus
the others', for our seat this hand) to each row and ranks the rows again, at every table
size the table was fitted for (`peg_table.fitted`).

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> from game.bots import discard
>>> seen = view(new_game(Config(players=2), seed=3), 0)
>>> rows = discard.expected_values(seen)
>>> sorted(row[0] for row in with_pegging(seen, rows)) == sorted(row[0] for row in rows)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import peg_table

if TYPE_CHECKING:
    from ..view import View
    from .discard import Row

WEIGHT = 1.0     # a pegged point against a shown one


def applies(view: View) -> bool:
    """Whether the pegging value enters this seat's discard: the table was fitted to kept
    fours, so not in five-card cribbage (three kept)."""
    return WEIGHT != 0 and peg_table.fitted(view.config.players) and not view.config.five_card


def with_pegging(view: View, rows: list[Row]) -> list[Row]:
    """``rows`` (as from `discard.expected_values`) with the kept four's pegging value added
    to each mean (the third field), best first."""
    if not applies(view):
        return rows
    players = view.config.players
    role = peg_table.role(players, view.dealer, view.seat)
    adjusted = [(row[0], row[1],
                 row[2] + WEIGHT * peg_table.value([c.rank for c in row[1]], role, players),
                 row[3], row[4]) for row in rows]
    adjusted.sort(key=lambda row: -row[2])
    return adjusted
