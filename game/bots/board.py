"""Knowing the board: near the target the hard bot plays for the game, not for points.

`win_probability` is a race model: the tables solved from hard self-play (`win_table`: the
play, then each show in its order), for two players and for four (partnerships). Without
them (`TABLE_ENDGAME` off) each side's points per hand are taken as normal with the mean and
spread of good play, and the side that needs fewer hands wins; when both get there in the
same hand, the pone (who counts first) usually does.

`choose_discard` uses it when somebody is close: every discard is valued by the chance of
winning over all the starters, following the order of the hand (pegging, pone's hand,
dealer's hand, crib). That is what makes the bot keep a hand that surely counts out as pone,
or throw the crib something harmless when the opponent will count out anyway. Four players
count four hands in turn round the table (`_think_discard_4p`): our partner's show can
count us out after ours, or the other side's come first.

The pegging search (`pegging`) already knows that reaching the target ends the game and
counts the sampled shows in their order, so there is nothing extra for the play here.

>>> round(win_probability(60, 60, dealing=True), 2) > 0.5 > round(win_probability(60, 60, False), 2)
True
>>> win_probability(5, 100, dealing=False) > 0.95
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import erf, sqrt
from typing import TYPE_CHECKING

from . import Thinking, run, win_table
from .win_table import Shares

if TYPE_CHECKING:
    from ..actions import Action
    from ..view import View
    from .discard import Row

# Points per hand for a side (pegging + hand + crib when dealing), mean and standard
# deviation, measured with the arena in hard self-play; four players are partnerships.
PER_HAND = {2: {"dealer": (16.2, 7.0), "pone": (10.2, 5.5)},
            4: {"dealer": (24.0, 8.5), "pone": (18.4, 7.5)}}
PEGGING = {2: {"dealer": 3.5, "pone": 2.2}, 4: {"dealer": 6.0, "pone": 5.4}}
OPP_HAND = {2: (8.0, 4.5), 4: (13.0, 6.0)}   # what the other side's hand(s) will show
CRIB = (4.6, 3.5)
TABLE_ENDGAME = {2: True, 4: True}  # by players: the self-play tables (`win_table`), not normals
NEAR = 36            # board play starts when a side needs this many points or fewer
PONE_FIRST = 0.6     # chance the pone wins a hand in which both sides reach the target


def _at_least(mean: float, sd: float, need: float) -> float:
    """P(normal(mean, sd) >= need), with a continuity correction for whole points."""
    if sd <= 0:
        return 1.0 if mean >= need else 0.0
    return 0.5 * (1.0 - erf((need - 0.5 - mean) / (sd * sqrt(2.0))))


@lru_cache(maxsize=65536)  # at most 121 x 121 x 2 x 2 positions: computed once each
def win_probability(need: int, their_need: int, dealing: bool, players: int = 2) -> float:
    """Chance our side wins from the start of a hand, needing ``need`` points against
    ``their_need``, dealing this hand or not."""
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    if TABLE_ENDGAME.get(players):
        return win_table.win_probability(need, their_need, dealing, players)
    table = PER_HAND[4 if players == 4 else 2]

    def reached_by(k: int, first_dealer: bool, points: int) -> float:
        # After k hands, starting as dealer or pone: the roles alternate.
        deals = (k + 1) // 2 if first_dealer else k // 2
        mean = deals * table["dealer"][0] + (k - deals) * table["pone"][0]
        var = deals * table["dealer"][1] ** 2 + (k - deals) * table["pone"][1] ** 2
        return _at_least(mean, sqrt(var), points)

    win, mine_before, theirs_before = 0.0, 0.0, 0.0
    for k in range(1, 40):
        mine = reached_by(k, dealing, need)
        theirs = reached_by(k, not dealing, their_need)
        first = mine - mine_before            # P(we get there in hand k exactly)
        their_first = theirs - theirs_before
        # We win in hand k if they had not got there before, sharing the hand when both do.
        share = 1.0 - PONE_FIRST if dealing == (k % 2 == 1) else PONE_FIRST
        win += first * ((1.0 - theirs) + their_first * share)
        mine_before, theirs_before = mine, theirs
        if mine > 0.9999 and theirs > 0.9999:
            break
    return min(1.0, max(0.0, win))


def near_end(view: View) -> bool:
    """Whether a side is close enough to the target for the board to change the discard."""
    if view.config.players == 3:
        return False  # three rivals: the points rule stays (the search still races to 121)
    if view.config.five_card:
        return False  # the race tables are six-card play's: the points rule stays
    target = view.config.target
    return min(target - score for score in view.scores) <= NEAR


@lru_cache(maxsize=256)
def _distribution(mean: float, sd: float, top: int = 40) -> list[tuple[int, float]]:
    """A whole-point distribution (value, probability) approximating a normal."""
    weights = [_at_least(mean, sd, x) - _at_least(mean, sd, x + 1) for x in range(top)]
    weights[0] += 1.0 - _at_least(mean, sd, 0)
    total = sum(weights)
    return [(x, w / total) for x, w in enumerate(weights) if w > 1e-4]


def _their_show(big: int, their_crib: float, dealing: bool) -> list[tuple[int, float]]:
    """What the other side will show this hand: [(points, probability)]. Two players: as
    seen in self-play (`win_data`), the dealer's crib moved by what we throw to it."""
    if big == 2 and TABLE_ENDGAME[2]:
        return win_table.their_show(dealing, their_crib - CRIB[0] if their_crib else 0.0)
    mean, sd = OPP_HAND[big]
    if their_crib:
        mean, sd = mean + their_crib, sqrt(sd * sd + CRIB[1] ** 2)
    return _distribution(mean, sd)


def choose_discard(view: View, rows: list[Row]) -> Action:
    """The discard with the best chance of winning; ``rows`` as from
    `discard.expected_values` (per-starter hand and crib values)."""
    chances = run(think_discard(view, rows))
    best: Action | None = None
    best_value = -1.0
    for action, chance in chances:
        if chance > best_value + 1e-9:  # rows come best-for-points first: ties keep that
            best, best_value = action, chance
    assert best is not None   # a row for every legal discard: there is one at least
    return best


def think_discard(view: View, rows: list[Row]) -> Thinking[list[tuple[Action, float]]]:
    """``[(action, chance of winning)]`` for each row (in the rows' order), yielding after
    each (see `levels.think`)."""
    players, target = view.config.players, view.config.target
    if players == 4 and TABLE_ENDGAME[4]:
        return (yield from _think_discard_4p(view, rows))
    big = 4 if players == 4 else 2
    me, them = view.side, 1 - view.side
    need, their_need = target - view.scores[me], target - view.scores[them]
    dealer = view.my_crib
    my_peg = PEGGING[big]["dealer" if dealer else "pone"]
    their_peg = PEGGING[big]["pone" if dealer else "dealer"]
    cache: dict[tuple[int, int], float] = {}

    def after_show(mine: int, their_crib: int) -> float:
        """P(win) with ``mine`` points shown by us this hand, the other side showing its hand
        plus a crib of ``their_crib`` on average; the pone counts first."""
        key = (mine, their_crib)
        if key in cache:
            return cache[key]
        left = need - my_peg - mine
        total = 0.0
        for points, p in _their_show(big, their_crib, dealer):
            their_left = their_need - their_peg - points
            first_out = left <= 0 if not dealer else their_left > 0 and left <= 0
            if first_out:
                value = 1.0
            elif their_left <= 0:
                value = 0.0
            else:  # nobody out: the next hand, with the deal passing to the other side
                value = win_probability(round(left), round(their_left), not dealer, players)
            total += p * value
        cache[key] = total
        return total

    chances: list[tuple[Action, float]] = []
    for action, _kept, _mean, hands, cribs in rows:
        if dealer:
            chance = sum(after_show(round(h + c), 0) for h, c in zip(hands, cribs))
        else:
            crib = round(sum(cribs) / len(cribs)) if cribs else 0
            chance = sum(after_show(h, crib) for h in hands)
        chances.append((action, chance / len(hands)))
        yield None
    return chances


CRIB_4P = 4.5  # the average crib in four players (hard self-play), which the table's shows hold
ROUND = win_table.counting_order(4)  # who shows, in order, in seats from the dealer


def _think_discard_4p(view: View, rows: list[Row]) -> Thinking[list[tuple[Action, float]]]:
    """Four players: `think_discard` by the whole hand in its counting order. The play's
    points are taken at their means; each show but ours is drawn from self-play
    (`win_table.show_steps`, the dealer's moved by what our throw adds to an average crib),
    ours is exact for every starter, and with nobody out the next hand is the table's."""
    target = view.config.target
    me, them = view.side, 1 - view.side
    dealing = view.my_crib
    my_peg = PEGGING[4]["dealer" if dealing else "pone"]
    their_peg = PEGGING[4]["pone" if dealing else "dealer"]
    won, start = _after_play(round(target - view.scores[me] - my_peg),
                             round(target - view.scores[them] - their_peg), dealing)
    position = (view.seat - view.dealer) % 4
    mine = ROUND.index(position)
    ours = [(seat % 2 == 0) == dealing for seat in ROUND]  # seats 0 and 2: the dealer's side
    by_shift: dict[int, Callable[[int], float]] = {}
    chances: list[tuple[Action, float]] = []
    for action, _kept, _mean, hands, cribs in rows:
        if position == 0:  # our show is our hand and the crib
            shows, shift = [round(h + c) for h, c in zip(hands, cribs)], 0
        else:
            shows, shift = hands, round(sum(cribs) / len(cribs) - CRIB_4P) if cribs else 0
        if shift not in by_shift:
            steps = list(win_table.show_steps())
            steps[-1] = tuple((max(0, x + shift), p) for x, p in steps[-1])
            by_shift[shift] = _chance_by_our_show(won, start, mine, ours, steps, not dealing)
        chance_of = by_shift[shift]
        total = 0.0
        for i, x in enumerate(shows):
            total += chance_of(x)
            if i % 16 == 15:  # a new show value may walk many positions: let the page breathe
                yield None
        chances.append((action, total / len(shows)))
        yield None
    return chances


def _after_play(need: int, their_need: int, dealing: bool) -> tuple[float, dict[tuple[int, int], float]]:
    """``(chance we won in the play, {(need, their need): chance} with nobody out)``, the
    needs already less the play's mean points: one position, or the play decides."""
    if need > 0 and their_need > 0:
        return 0.0, {(need, their_need): 1.0}
    if need > 0 or their_need > 0:
        return (1.0 if need <= 0 else 0.0), {}
    return (1.0 - PONE_FIRST if dealing else PONE_FIRST), {}  # both: the pone pegs first


def _chance_by_our_show(won: float, start: dict[tuple[int, int], float], mine: int, ours: Sequence[bool],
                        steps: Sequence[Shares], deal_next: bool) -> Callable[[int], float]:
    """``f(x)``: our side's chance of winning when our own show is ``x`` points. ``won``,
    ``start``: as `_after_play` gives; the other shows of the hand are drawn from ``steps``
    (``ours[k]``: whether show ``k`` is our side's, ``mine`` is ours); ``deal_next``: whether
    our side deals the next hand."""
    last = len(steps)
    states = dict(start)
    for k in range(mine):  # the shows before ours: our partner may count us out
        after: dict[tuple[int, int], float] = {}
        for (n, t), p in states.items():
            for points, q in steps[k]:
                if ours[k]:
                    if points >= n:
                        won += p * q
                    else:
                        after[n - points, t] = after.get((n - points, t), 0.0) + p * q
                elif points < t:
                    after[n, t - points] = after.get((n, t - points), 0.0) + p * q
        states = after
    memo: dict[tuple[int, int, int], float] = {}

    def value(k: int, n: int, t: int) -> float:
        """P(we win) before show ``k`` with needs ``n``, ``t`` (nobody out yet)."""
        if k == last:
            return win_probability(n, t, deal_next, 4)
        key = (k, n, t)
        found = memo.get(key)
        if found is None:
            found = 0.0
            for points, q in steps[k]:
                if ours[k]:
                    found += q * (1.0 if points >= n else value(k + 1, n - points, t))
                elif points < t:
                    found += q * value(k + 1, n, t - points)
            memo[key] = found
        return found

    by_show: dict[int, float] = {}

    def chance_of(x: int) -> float:
        found = by_show.get(x)
        if found is None:
            found = won + sum(p * (1.0 if x >= n else value(mine + 1, n - x, t))
                              for (n, t), p in states.items())
            by_show[x] = found
        return found

    return chance_of
