"""What to keep, counting the play too: the pegging value of the kept four and the thrown two.

`discard.expected_values` values a discard by the show alone (hand plus crib over every
starter). Hands that count alike can peg very differently: low cards and pairs answer and
trap, a lone five or a pair of tens feed the other side's fifteens. For the best few discards
by the show (within `WITHIN` points of the best), `think_keep` deals the other hand and the
starter at random from the unseen cards, the same deals for every candidate, plays each deal
out with the search's card counter for both seats (`pegging.playout`), and adds the average
of pegged points for us minus them. Two players only: elsewhere the rows come back as they were.

Measured, it does not pay yet, so `WEIGHT` is 0 (the rows come back as they were): in hand
duels against hard-v1 (``bench/hand_duel.py --deals 600``, weight 1, 24 playouts) the hard bot
kept hands that pegged a little better but showed less, -0.10 points per hand in all (95% CI
-0.30 to +0.09; hand -0.11, crib -0.05). Random fours for the other hand and a playout policy
weaker than the real play are the likely culprits; a smaller weight is untried.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> from game.bots import discard
>>> from game.bots import run
>>> import random
>>> seen = view(new_game(Config(players=2), seed=3), 0)
>>> rows = discard.expected_values(seen)
>>> len(run(think_keep(seen, rows, random.Random(1)))) == len(rows)
True
"""

from __future__ import annotations

from .pegging import playout

TOP = 4          # candidates weighed for the play
WITHIN = 2.0     # ... among those within this many show points of the best
SAMPLES = 24     # deals played out per candidate (shared by all of them)
WEIGHT = 0.0     # how much a pegged point counts against a shown one: off, see below
CLAMP = 20.0     # a playout that pegs out counts as this many points, not as a win


def think_keep(view, rows, rng):
    """``rows`` (as from `discard.expected_values`) re-ranked by show plus pegging value,
    the mean (third field) including the pegging; yields after each sampled deal."""
    if view.config.players != 2 or WEIGHT == 0:
        return rows
    best = rows[0][2]
    chosen = [row for row in rows[:TOP] if row[2] >= best - WITHIN]
    if len(chosen) < 2:
        return rows
    pool = list(view.unseen())
    other = 1 - view.seat
    totals = [0.0] * len(chosen)
    kept = [sorted(card.rank for card in row[1]) for row in chosen]
    for _ in range(SAMPLES):
        rng.shuffle(pool)
        starter, theirs = pool[0].rank, sorted(card.rank for card in pool[1:5])
        for i, mine in enumerate(kept):
            hands = [None, None]
            hands[view.seat], hands[other] = mine[:], theirs[:]
            value = playout(view, hands, starter)
            totals[i] += max(-CLAMP, min(CLAMP, value))
        yield None
    adjusted = [(row[0], row[1], row[2] + WEIGHT * total / SAMPLES, row[3], row[4])
                for row, total in zip(chosen, totals)]
    adjusted.sort(key=lambda row: -row[2])
    return adjusted + rows[len(chosen):]
