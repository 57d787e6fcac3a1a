"""Pegging search for the hard bot: card counting plus look-ahead through the rest of the play.

For each of a number of *samples*, the hidden hands are dealt at random from the cards this
seat has not seen, keeping to what the goes revealed (`common.HiddenSampler`). Each sample
is then a game of perfect information, searched with alpha-beta four cards ahead (to the end
of the play near the target; see `plan`). Every candidate rank gets the average of its
values over the samples; the best average is played. Suits do not matter in the play, so the
search works on ranks, and samples with the same hidden ranks are searched once.

The value is pegged points for our side minus the others' (in three players each rival counts
half), and reaching the target is worth far more than any points: the search races to peg out
and denies the opponent its last points. When somebody is close to the target it also counts
the show of each sampled hand in its order (pone first, dealer, crib), so it knows whether it
must peg out before the other side counts.

Work is measured in nodes, never in time, so a decision is reproducible: the same view and
seed always give the same card.

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

from ...scoring import score_hand
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...cards import Card
from .common import VALUE, HiddenSampler, peg_points, play_action

if TYPE_CHECKING:
    from ...actions import Action
    from ...view import View

WIN = 1000.0          # reaching the target, in points: far above anything the play can peg
NODE_BUDGET = 2200    # work per decision; see `plan`
MIN_SAMPLES, MAX_SAMPLES = 6, 64
NEAR = 45             # points from the target at which the show order enters the search
DEPTH = {2: 4, 3: 5, 4: 4}  # look-ahead in cards, by players (to the end near the target)


def _searcher(view: View, hands: list[list[int]], shows: list[tuple[int, int]] | None,
              ) -> tuple[Callable[[int, int, int, tuple[int, ...], int, float, float, float], float], list[int]]:
    """One determinised play, every hand known: returns ``lay(seat, i, count, pile, depth)``,
    the value for our side of ``seat`` playing ``hands[seat][i]``, and a node counter.

    Written as closures over local lists, not methods, because attribute look-ups are a
    large part of the cost of a node in CPython. ``hands`` and ``scores`` are mutated and
    restored.
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

    def node(seat: int, count: int, pile: tuple[int, ...], depth: int, alpha: float, beta: float,
             acc: float) -> float:
        nodes[0] += 1
        hand = hands[seat]
        maximise = side[seat] == me
        room, previous = 31 - count, 0
        best = -4 * WIN if maximise else 4 * WIN
        for i in range(len(hand)):
            rank = hand[i]
            if rank == previous or VALUE[rank] > room:
                continue
            previous = rank
            value = lay(seat, i, count, pile, depth, alpha, beta, acc)
            if maximise:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def lay(seat: int, i: int, count: int, pile: tuple[int, ...], depth: int, alpha: float, beta: float,
            acc: float) -> float:
        hand = hands[seat]
        rank = hand.pop(i)
        count += VALUE[rank]
        pile += (rank,)
        points = peg_points(pile, count)
        if points:
            s = side[seat]
            scores[s] += points
            if scores[s] >= target:  # sooner is better: a sure win now beats one later
                value = WIN + depth if s == me else -WIN - depth
            else:
                value = after(seat, count, pile, depth - 1, alpha, beta, acc + points * weight[s])
            scores[s] -= points
        else:
            value = after(seat, count, pile, depth - 1, alpha, beta, acc)
        hand.insert(i, rank)
        return value

    def after(last: int, count: int, pile: tuple[int, ...], depth: int, alpha: float, beta: float,
              acc: float) -> float:
        """After ``last`` laid a card: the next player, a go, or a reset."""
        if count < 31:
            room = 31 - count
            for seat in seats_after[last]:
                hand = hands[seat]
                if hand and VALUE[hand[0]] <= room:  # sorted: the first card is the lowest
                    if depth <= 0:
                        return acc
                    return node(seat, count, pile, depth, alpha, beta, acc)
            s = side[last]  # nobody can play: a go (or the last card) for ``last``
            scores[s] += 1
            if scores[s] >= target:
                value = WIN + depth if s == me else -WIN - depth
            else:
                value = lead(last, depth, alpha, beta, acc + weight[s])
            scores[s] -= 1
            return value
        return lead(last, depth, alpha, beta, acc)

    def lead(last: int, depth: int, alpha: float, beta: float, acc: float) -> float:
        """The count is back to 0: the next seat with cards leads, or the play is over."""
        for seat in seats_after[last]:
            if hands[seat]:
                if depth <= 0:
                    return acc
                return node(seat, 0, (), depth, alpha, beta, acc)
        if shows is None:
            return acc
        final = scores[:]  # the show, in its order: whoever reaches the target first wins
        for s, points in shows:
            final[s] += points
            if final[s] >= target:
                return WIN - 1 if s == me else -WIN + 1
        return acc

    return lay, nodes


def _shows(view: View, hidden: dict[int, list[Card]], left: list[Card]) -> list[tuple[int, int]]:
    """``[(side, points)]`` in counting order (hands from the pone round to the dealer, then
    the crib) for one sample: the hidden hands and crib cards as dealt in the sample."""
    config = view.config
    kept = {view.seat: view.kept}
    played: dict[int, list[Card]] = {}
    for step in view.play:
        if step.kind == "play":
            assert step.seat is not None and step.card is not None   # a play step has both
            played.setdefault(step.seat, []).append(step.card)
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


def plan(view: View, near: bool) -> int:
    """The depth of the look-ahead, in cards.

    Searching every sample to the end of the play assumes each rival knows our cards, and
    the deeper it goes the more that costs (measured: four cards ahead pegs better against
    medium than eight, and leaves room for more samples). Near the target the search goes
    to the end of the play anyway, since then the show order decides the game.
    """
    cards = sum(view.hand_sizes)
    if near and (view.config.players == 2 or cards <= 8):
        return cards
    return min(cards, DEPTH[view.config.players])


def evaluate(view: View, rng: random.Random, budget: int = NODE_BUDGET) -> dict[int, float]:
    """``{rank: average value}`` of each playable rank, from sampled hidden hands."""
    ranks = sorted({action.card.rank for action in view.legal})
    near = max(view.scores) >= view.config.target - NEAR
    depth = plan(view, near)
    totals = dict.fromkeys(ranks, 0.0)
    used, samples = 0, 0
    cache: dict[tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...] | None], dict[int, float]] = {}
    count, pile = view.count, tuple(card.rank for card in view.pile)
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
            lay, nodes = _searcher(view, hands, shows)
            mine = hands[view.seat]
            values = {}
            for rank in ranks:
                values[rank] = lay(view.seat, mine.index(rank), count, pile, depth,
                                   -4 * WIN, 4 * WIN, 0.0)
            used += nodes[0] + len(ranks)
            cache[key] = values
        else:
            used += 1  # a repeat costs almost nothing; still counted so the loop ends
        for rank in ranks:
            totals[rank] += values[rank]
        samples += 1
    return {rank: totals[rank] / samples for rank in ranks}


def choose_play(view: View, rng: random.Random, budget: int = NODE_BUDGET) -> Action:
    """The hard bot's card: the best average over the samples (ties: the lower rank)."""
    if len({action.card.rank for action in view.legal}) == 1:
        return view.legal[0]
    values = evaluate(view, rng, budget)
    best = max(values, key=lambda rank: (values[rank], -rank))
    return play_action(view, best)
