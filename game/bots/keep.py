"""What to keep, counting the play too: the show plus the kept four's pegging value.

`discard.expected_values` values a discard by the show alone (hand plus crib over every
starter). Hands that show alike can peg very differently (`peg_table`): as pone, aces to
fours answer and make the go; as dealer, every card up to the seven pays, the five most. In
two players `with_pegging` adds `WEIGHT` times the kept four's expected pegging
points (ours minus theirs, for our role) to each row and ranks the rows again. Elsewhere
the rows come back as they were: the table is fitted to two-player play.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> from game.bots import discard
>>> seen = view(new_game(Config(players=2), seed=3), 0)
>>> rows = discard.expected_values(seen)
>>> sorted(row[0] for row in with_pegging(seen, rows)) == sorted(row[0] for row in rows)
True
"""

from __future__ import annotations

from . import peg_table

WEIGHT = 1.0     # a pegged point against a shown one


def applies(view) -> bool:
    """Whether the pegging value enters this seat's discard."""
    return view.config.players == 2 and WEIGHT != 0


def with_pegging(view, rows):
    """``rows`` (as from `discard.expected_values`) with the kept four's pegging value added
    to each mean (the third field), best first."""
    if not applies(view):
        return rows
    role = "dealer" if view.my_crib else "pone"
    adjusted = [(row[0], row[1], row[2] + WEIGHT * peg_table.value([c.rank for c in row[1]], role),
                 row[3], row[4]) for row in rows]
    adjusted.sort(key=lambda row: -row[2])
    return adjusted
