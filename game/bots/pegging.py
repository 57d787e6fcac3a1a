"""Pegging search for the hard bot: determinized search in which the rivals do not see our cards.

For each of a number of *samples*, the hidden hands are dealt at random from the cards this
seat has not seen, keeping to what the goes revealed (`common.HiddenSampler`). In each sample
our side's choices are searched exhaustively to the end of the play (or `DEPTH` cards in four
players), but a rival's choice is *not* the perfect-information minimum, which would let the
sampled rival see our cards and dodge every trap. A rival instead plays like a card counter
that knows only its own hand and the table (`_Blind`): its points now, minus the points the
next player can expect back, reckoned over the cards *it* has not seen. So the value of a
trap (leading a card that invites a reply we can punish) shows in the search as it does at the
table. Every candidate rank gets the average of its values over the samples, each sample
weighed by how plausible its hidden fours are (players keep cards that count: `_plausible`).

Four players are the exception (`RIVALS_SEE`): there the rivals are searched as if they saw
every hand, as hard-v1 does, one round (4 cards) ahead. With two rivals and a partner between
our cards the one-card blind rule misjudged the play: hard won 46.4% of games against hard-v1
with it, 49.8% with seeing rivals (49.3% with another seed; on the same games +3.4 and +2.8
points, both 95% intervals above zero). Searching 6 cards ahead (48.7%) or a partner playing
blind as well (48.8%) did not help (bench/bot_strength.md).

Searching all samples together, so that our later cards too are chosen without seeing the
rivals' hands (an information-set search, commit 90c721f), bought no points of games against
hard-v1 and cost 2-3 times the time: it was removed (bench/bot_strength.md, sixth session).

Measured in hand duels against hard-v1's search (``bench/hand_duel.py --discard-by hard-v1``,
600 deals from both seats): +0.13 pegging points per hand (95% CI +0.03 to +0.24); +0.08
with unweighted samples, +0.09 when our later cards are played by the card counter's rule
too (`ROLLOUT`) rather than searched.

The value is pegged points for our side minus the others' (in three players each rival counts
half); reaching the target is worth far more than any points. When somebody is close to the
target the search also counts each sampled show in its order (pone first, dealer, crib), and
in two and four players a hand that leaves nobody out is worth our side's chance of winning
from the next one (`RACE`, `win_table`), not its points: in two players +1.1 points of games
against hard-v1 on the same 2,000 games (+0.1 to +2.2), while the points per deal fell by
0.010; in four, with the four-player table and discard, +0.5 on 2,000 (bench/bot_strength.md).

Work is measured in nodes, never in time, and `think` yields between samples so the caller can
slice a decision (the page stays responsive); the same view and seed always give the same card.

>>> from game.engine import Config, new_game, apply, stack_deck
>>> from game.cards import parse_cards, Card
>>> from game.view import view
>>> deck = stack_deck(Config(), 0, [parse_cards("KH QH 2C 3C 4D 5S"),
...                                 parse_cards("TD 5C 7H 8H 9S AS")], Card.parse("6D"))
>>> s = new_game(Config(), seed=1, stacked=[deck], first_dealer=0)
>>> s, _ = apply(s, "0 discard KH QH")
>>> s, _ = apply(s, "1 discard 7H 8H")
>>> s, _ = apply(s, "1 play TD")
>>> import random
>>> str(choose_play(view(s, 0), random.Random(1)).card)   # take the fifteen
'5S'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import exp
from typing import TYPE_CHECKING

from ..cards import Card
from ..scoring import score_hand
from . import Thinking
from .common import VALUE, HiddenSampler, hand_points, peg_points, play_action
from .board import win_probability

if TYPE_CHECKING:
    from ..actions import Action
    from ..view import View

WIN = 1000.0          # reaching the target, in points: far above anything the play can peg
NODE_BUDGET = 4000    # work per decision (nodes); see `evaluate` (1500 until 2026-12-03: bench/bot_strength.md)
MIN_SAMPLES, MAX_SAMPLES = 8, 96
NEAR = 45             # points from the target at which the show order enters the search
DEPTH = {2: 8, 3: 9, 4: 4}  # look-ahead in cards, by players (8 in two: the whole play)
ROLLOUT = False       # our later cards too by the card counter's rule (a rollout), not searched
PLAUSIBLE = 0.25      # weight of a sample: exp(this x the points its hidden fours show alone)
PARTNER_BLIND = False  # four players: the partner plays by the card counter's rule as well
RIVALS_SEE = {2: False, 3: False, 4: True}  # by players: rivals take the searched minimum (they see all)
RACE = {2: True, 3: False, 4: True}  # by players, near the target: a play that ends with
                      # nobody out is worth our chance of winning from the next hand, not its points

# At most this many piles are remembered: in Pyodide (Python 3.14's incremental garbage
# collector) a larger memory made single collections of 60-124 ms in three players, which
# blocked the page (bench/bot_browser.py); the search is no slower under CPython.
POINTS_KEPT, REPLIES_KEPT = 20_000, 5_000
# pile -> ((points, rank), ...) of every scoring reply, best first
_REPLIES: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
# pile -> points for its last card (the pile since the reset fixes the count)
_POINTS: dict[tuple[int, ...], int] = {}

Lay = Callable[[int, int, int, tuple[int, ...], int, float], float]
"""``lay(seat, i, count, pile, depth, acc)``: see `_searcher`."""


def points_of(pile: tuple[int, ...], count: int) -> int:
    """`peg_points`, remembered: the same piles come up again and again in a search."""
    found = _POINTS.get(pile)
    if found is None:
        if len(_POINTS) > POINTS_KEPT:
            _POINTS.clear()
        found = _POINTS[pile] = peg_points(pile, count)
    return found


def replies(count: int, pile: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The scoring replies to ``pile`` at ``count``: ``((points, rank), ...)``, best first."""
    found = _REPLIES.get(pile)
    if found is None:
        scoring = []
        for rank in range(1, 14):
            if count + VALUE[rank] <= 31 and pile.count(rank) < 4:
                points = peg_points(pile + (rank,), count + VALUE[rank])
                if points:
                    scoring.append((points, rank))
        scoring.sort(reverse=True)
        found = tuple(scoring)  # a tuple of int pairs: the collector stops tracking it
        if len(_REPLIES) > REPLIES_KEPT:
            _REPLIES.clear()
        _REPLIES[pile] = found
    return found


def _searcher(view: View, hands: list[list[int]], shows: list[tuple[int, int]] | None,
              public: list[int]) -> tuple[Lay, list[int], Callable[[int, int, float], float]]:
    """One determinised play: returns ``lay(seat, i, count, pile, depth, acc)``, the value for
    our side of ``seat`` playing ``hands[seat][i]``, and a node counter.

    ``public[rank]`` counts the cards of each rank the table has seen (played, the starter);
    a rival's choice uses only it, its own hand and the hand sizes. Closures over local
    lists, not methods: attribute look-ups are a large part of a node's cost in CPython.
    ``hands``, ``scores`` and ``public`` are mutated and restored.
    """
    config = view.config
    n, target = config.players, config.target
    side = [config.side_of(seat) for seat in range(n)]
    me = config.side_of(view.seat)
    rivals = config.sides - 1
    weight = [1.0 if s == me else -1.0 / rivals for s in range(config.sides)]
    scores = list(view.scores)
    seats_after = [[(last + k) % n for k in range(1, n + 1)] for last in range(n)]
    nodes = [0]
    race = RACE[n] and shows is not None and not config.five_card  # the tables are six-card's
    once = config.five_card  # five-card cribbage: the play ends at the first 31 or go
    deal_next = not view.my_crib  # the deal passes to the other side
    # Seats whose choices are searched (our side's best): the partner too, unless it is taken
    # to play blind, like the rivals (it cannot see our cards either).
    searched = [not ROLLOUT and side[seat] == me
                and (seat == view.seat or not PARTNER_BLIND) for seat in range(n)]
    # How each seat chooses: 1 our side's best, -1 a rival that sees every hand (`RIVALS_SEE`)
    # and takes our worst, 0 the blind card counter's rule.
    sign_of = [1.0 if searched[seat] else -1.0 if side[seat] != me and RIVALS_SEE[n] else 0.0
               for seat in range(n)]

    def blind(seat: int, count: int, pile: tuple[int, ...]) -> int:
        """The index of the card a rival at ``seat`` plays, knowing only its own hand."""
        hand = hands[seat]
        room = 31 - count
        nxt = seats_after[seat][0]
        held = len(hands[nxt])
        unknown = 52 - sum(public) - len(hand)
        s = side[seat]
        best, best_i, previous = -1e9, 0, 0
        for i in range(len(hand)):
            rank = hand[i]
            if rank == previous or VALUE[rank] > room:
                continue
            previous = rank
            new = count + VALUE[rank]
            line = pile + (rank,)
            points = points_of(line, new)
            value = points + (WIN if scores[s] + points >= target else 0.0)
            if held and unknown > 0 and new < 31:
                # The next player's best reply, expected over the cards this rival has not seen.
                none_better = 1.0
                for reply, r in replies(new, line):
                    k = 4 - public[r] - hand.count(r)  # rank-r cards it has not seen
                    if k <= 0:
                        continue
                    p = 1.0 - (1.0 - k / unknown) ** held
                    value -= none_better * p * reply
                    none_better *= 1.0 - p
            if value > best:
                best, best_i = value, i
        return best_i

    def node(seat: int, count: int, pile: tuple[int, ...], depth: int, acc: float) -> float:
        nodes[0] += 1
        hand = hands[seat]
        sign = sign_of[seat]
        if not sign:
            return lay(seat, blind(seat, count, pile), count, pile, depth, acc)
        room, previous = 31 - count, 0
        best = -4 * WIN    # for the seat's side: ours maximises our value, a seeing rival minimises it
        for i in range(len(hand)):
            rank = hand[i]
            if rank == previous or VALUE[rank] > room:
                continue
            previous = rank
            value = sign * lay(seat, i, count, pile, depth, acc)
            if value > best:
                best = value
        return sign * best

    def lay(seat: int, i: int, count: int, pile: tuple[int, ...], depth: int, acc: float) -> float:
        hand = hands[seat]
        rank = hand.pop(i)
        public[rank] += 1
        count += VALUE[rank]
        pile += (rank,)
        points = points_of(pile, count)
        if points:
            s = side[seat]
            scores[s] += points
            if scores[s] >= target:  # sooner is better: a sure win now beats one later
                value = WIN + depth if s == me else -WIN - depth
            else:
                value = after(seat, count, pile, depth - 1, acc + points * weight[s])
            scores[s] -= points
        else:
            value = after(seat, count, pile, depth - 1, acc)
        public[rank] -= 1
        hand.insert(i, rank)
        return value

    def after(last: int, count: int, pile: tuple[int, ...], depth: int, acc: float) -> float:
        """After ``last`` laid a card: the next player, a go, or a reset."""
        if count < 31:
            room = 31 - count
            for seat in seats_after[last]:
                hand = hands[seat]
                if hand and VALUE[hand[0]] <= room:  # sorted: the first card is the lowest
                    if depth <= 0:
                        return acc
                    return node(seat, count, pile, depth, acc)
            s = side[last]  # nobody can play: a go (or the last card) for ``last``
            scores[s] += 1
            if scores[s] >= target:
                value = WIN + depth if s == me else -WIN - depth
            else:
                value = lead(last, depth, acc + weight[s])
            scores[s] -= 1
            return value
        return lead(last, depth, acc)

    def lead(last: int, depth: int, acc: float) -> float:
        """The count is back to 0: the next seat with cards leads, or the play is over."""
        for seat in () if once else seats_after[last]:
            if hands[seat]:
                if depth <= 0:
                    return acc
                return node(seat, 0, (), depth, acc)
        if shows is None:
            return acc
        final = scores[:]  # the show, in its order: whoever reaches the target first wins
        for s, points in shows:
            final[s] += points
            if final[s] >= target:
                return WIN - 1 if s == me else -WIN + 1
        if race:  # nobody out: our chance from the next hand on (the points only break ties)
            chance = win_probability(target - final[me], target - final[1 - me], deal_next, n)
            return (2.0 * chance - 1.0) * (WIN - 1) + acc * 1e-3
        return acc

    return lay, nodes, lead


def _shows(view: View, hidden: dict[int, list[Card]], left: list[Card]) -> list[tuple[int, int]]:
    """``[(side, points)]`` in counting order (hands from the pone round to the dealer, then
    the crib) for one sample: the hidden hands and crib cards as dealt in the sample."""
    config = view.config
    kept = {view.seat: view.kept}
    played = _played_by_seat(view)
    for seat in range(config.players):
        if seat != view.seat:
            kept[seat] = tuple(played.get(seat, ())) + tuple(hidden.get(seat, ()))
    crib = list(view.discarded) + left[:4 - len(view.discarded)]
    n, dealer, starter = config.players, view.dealer, view.starter
    assert starter is not None   # the play: the starter is cut
    order = [(dealer + k) % n for k in range(1, n + 1)]
    shows = [(config.side_of(seat), score_hand(kept[seat], starter).total) for seat in order]
    shows.append((config.side_of(dealer), score_hand(crib, starter, crib=True).total))
    return shows


def _public(view: View) -> list[int]:
    """Cards of each rank the whole table has seen this hand: those played and the starter."""
    public = [0] * 14
    for step in view.play:
        if step.kind == "play":
            assert step.card is not None   # a play step has its card
            public[step.card.rank] += 1
    if view.starter is not None:
        public[view.starter.rank] += 1
    return public


def think(view: View, rng: random.Random, budget: int | None = None) -> Thinking[dict[int, float]]:
    """Evaluate every playable rank, yielding ``None`` after each searched sample (a point
    where the caller may pause); returns ``{rank: average value}``.

    Samples go on until ``budget`` nodes are spent (default `NODE_BUDGET`, read now, so that
    `bench/bot_strength.py --set` reaches it; at least `MIN_SAMPLES`, at most `MAX_SAMPLES`);
    samples with the same hidden ranks are searched once.
    """
    budget = NODE_BUDGET if budget is None else budget
    ranks = sorted({action.card.rank for action in view.legal})
    near = max(view.scores) >= view.config.target - NEAR
    depth = min(sum(view.hand_sizes), DEPTH[view.config.players])
    if near and (view.config.players == 2 or sum(view.hand_sizes) <= 8):
        depth = sum(view.hand_sizes)
    totals = dict.fromkeys(ranks, 0.0)
    used, samples, weights = 0, 0, 0.0
    cache: dict[tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...] | None], dict[int, float]] = {}
    shown = _played_by_seat(view)
    count, pile = view.count, tuple(card.rank for card in view.pile)
    public = _public(view)
    sampler = HiddenSampler(view)
    while samples < MAX_SAMPLES and (samples < MIN_SAMPLES or used < budget):
        hidden, left = sampler.sample(rng)
        shows = _shows(view, hidden, left) if near else None
        key = (tuple(tuple(sorted(c.rank for c in hidden[s])) for s in sorted(hidden)),
               None if shows is None else tuple(shows))
        values = cache.get(key)
        if values is None:
            hands: list[list[int]] = [[] for _ in range(view.config.players)]
            hands[view.seat] = sorted(card.rank for card in view.hand)
            for seat, cards in hidden.items():
                hands[seat] = sorted(card.rank for card in cards)
            lay, nodes, _ = _searcher(view, hands, shows, public)
            mine = hands[view.seat]
            values = {rank: lay(view.seat, mine.index(rank), count, pile, depth, 0.0)
                      for rank in ranks}
            used += nodes[0] + len(ranks)
            cache[key] = values
            yield None
        else:
            used += 1  # a repeat costs almost nothing; still counted so the loop ends
        weight = _plausible(shown, hidden, view.config.kept_size)
        for rank in ranks:
            totals[rank] += weight * values[rank]
        weights += weight
        samples += 1
    return {rank: totals[rank] / weights for rank in ranks}


def _played_by_seat(view: View) -> dict[int, list[Card]]:
    """``{seat: [cards it has played this hand]}``."""
    played: dict[int, list[Card]] = {}
    for step in view.play:
        if step.kind == "play":
            assert step.seat is not None and step.card is not None   # a play step has both
            played.setdefault(step.seat, []).append(step.card)
    return played


def _plausible(played: dict[int, list[Card]], hidden: dict[int, list[Card]], kept_size: int = 4) -> float:
    """How likely a sample's hidden hands are, relative to others: players keep the cards
    that count, so a sampled four (three in five-card cribbage: ``kept_size``) that shows more
    points (on its own, as a player sees it when discarding) weighs more, by `PLAUSIBLE` per
    point (``exp``)."""
    if not PLAUSIBLE:
        return 1.0
    points = 0
    for seat, cards in hidden.items():
        kept = list(played.get(seat, ())) + list(cards)
        if len(kept) == kept_size:
            points += hand_points(kept)
    return exp(PLAUSIBLE * points)


def evaluate(view: View, rng: random.Random, budget: int | None = None) -> dict[int, float]:
    """``{rank: average value}`` of each playable rank: `think` run to the end."""
    steps = think(view, rng, budget)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            values: dict[int, float] = done.value
            return values


def best_rank(values: dict[int, float]) -> int:
    """The rank with the best value (ties: the lower rank)."""
    return max(values, key=lambda rank: (values[rank], -rank))


def choose_play(view: View, rng: random.Random, budget: int | None = None) -> Action:
    """The hard bot's card: the best average over the samples (ties: the lower rank)."""
    if len({action.card.rank for action in view.legal}) == 1:
        return view.legal[0]
    return play_action(view, best_rank(evaluate(view, rng, budget)))
