"""Information-set search of the play: our later cards are chosen knowing only what we see.

`pegging` searches each sample of the hidden hands on its own, so in every sample our *later*
cards are chosen as if we saw the rivals' hands (strategy fusion): the search expects more
than a player can get, and favours lines that pay only when one guesses right. Here the
samples are searched together. At our turn one card is chosen for all the samples that agree
with what we have seen so far (the same cards played, the same goes), by their weighted sum;
at a rival's turn each sample's rival plays by the blind card counter's rule (`pegging`), and
the samples part by the card it played or the go it said. Every sample still walks the same
paths as when searched alone, so the work is the same; only the choices are honest.

Two and three players (where the rivals play blind in `pegging` too); four players keep
`pegging`'s search, in which the rivals see every hand.

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
>>> from game.bots import run
>>> values = run(think(view(s, 0), random.Random(1)))
>>> max(values, key=values.get)   # take the fifteen
5
"""

from __future__ import annotations

from bisect import insort

from .common import VALUE, HiddenSampler
from .pegging import (DEPTH, NEAR, RACE, RIVALS_SEE, WIN, _plausible, _played_by_seat,
                      _public, _shows, points_of, replies)
from .win_table import win_probability

SAMPLES = 96     # hidden hands drawn per decision (repeats are searched once, weighed by count)
JOINT = False   # measured not to pay (bench/bot_strength.md, sixth session): off


def applies(view) -> bool:
    """Whether this seat's play is searched here (the rivals play blind at its table size)."""
    return JOINT and not RIVALS_SEE[view.config.players]


def _joint(view, mine, hidden, weights, shows, public):
    """The search over all samples at once: returns ``lay_mine(i, count, pile, depth)``, the
    weighted sum over every sample of our side's value after we play ``mine[i]``, and a node
    counter. ``hidden[k][seat]`` is sample ``k``'s sorted ranks for ``seat``; ``shows[k]``
    its shows in counting order (or ``shows`` is None far from the target). Lists are
    mutated and restored; a group is a list of sample indices with its total weight."""
    config = view.config
    n, target, me = config.players, config.target, view.seat
    side = [config.side_of(seat) for seat in range(n)]
    my_side = side[me]
    rivals = config.sides - 1
    weight = [1.0 if s == my_side else -1.0 / rivals for s in range(config.sides)]
    scores = list(view.scores)
    sizes = list(view.hand_sizes)
    seats_after = [[(last + k) % n for k in range(1, n + 1)] for last in range(n)]
    nodes = [0]
    race = RACE and n == 2 and shows is not None
    deal_next = view.dealer != view.seat

    def blind(hand, seat, count, pile):
        """The rank a rival holding ``hand`` plays (`pegging`'s card counter's rule)."""
        room = 31 - count
        held = sizes[seats_after[seat][0]]
        unknown = 52 - sum(public) - len(hand)
        s = side[seat]
        best, best_rank, previous = -1e9, 0, 0
        for rank in hand:
            if rank == previous or VALUE[rank] > room:
                continue
            previous = rank
            new = count + VALUE[rank]
            line = pile + (rank,)
            points = points_of(line, new)
            value = points + (WIN if scores[s] + points >= target else 0.0)
            if held and unknown > 0 and new < 31:
                none_better = 1.0
                for reply, r in replies(new, line):
                    k = 4 - public[r] - hand.count(r)
                    if k <= 0:
                        continue
                    p = 1.0 - (1.0 - k / unknown) ** held
                    value -= none_better * p * reply
                    none_better *= 1.0 - p
            if value > best:
                best, best_rank = value, rank
        return best_rank

    def node(seat, count, pile, depth, acc, group, w):
        nodes[0] += len(group)
        if seat == me:
            room, previous, best = 31 - count, 0, -4 * WIN * w
            for i in range(len(mine)):
                rank = mine[i]
                if rank == previous or VALUE[rank] > room:
                    continue
                previous = rank
                value = lay_mine(i, count, pile, depth, acc, group, w)
                if value > best:
                    best = value
            return best
        parts, chosen = {}, {}
        for k in group:
            hand = hidden[k][seat]
            key = tuple(hand)
            rank = chosen.get(key)
            if rank is None:
                rank = chosen[key] = blind(hand, seat, count, pile)
            parts.setdefault(rank, []).append(k)
        if len(parts) == 1:
            return lay_rival(seat, rank, count, pile, depth, acc, group, w)
        total = 0.0
        for rank, part in parts.items():
            total += lay_rival(seat, rank, count, pile, depth, acc, part,
                               sum(weights[k] for k in part))
        return total

    def scored(s, points, count, pile, depth, acc, group, w, last):
        """After ``last`` (of side ``s``) pegged ``points``: the target, or play on."""
        scores[s] += points
        if scores[s] >= target:  # sooner is better: a sure win now beats one later
            value = (WIN + depth if s == my_side else -WIN - depth) * w
        else:
            value = after(last, count, pile, depth - 1, acc + points * weight[s], group, w)
        scores[s] -= points
        return value

    def lay_mine(i, count, pile, depth, acc, group, w):
        rank = mine.pop(i)
        public[rank] += 1
        sizes[me] -= 1
        count += VALUE[rank]
        pile += (rank,)
        points = points_of(pile, count)
        if points:
            value = scored(my_side, points, count, pile, depth, acc, group, w, me)
        else:
            value = after(me, count, pile, depth - 1, acc, group, w)
        sizes[me] += 1
        public[rank] -= 1
        mine.insert(i, rank)
        return value

    def lay_rival(seat, rank, count, pile, depth, acc, group, w):
        for k in group:
            hidden[k][seat].remove(rank)
        public[rank] += 1
        sizes[seat] -= 1
        count += VALUE[rank]
        pile += (rank,)
        points = points_of(pile, count)
        if points:
            value = scored(side[seat], points, count, pile, depth, acc, group, w, seat)
        else:
            value = after(seat, count, pile, depth - 1, acc, group, w)
        sizes[seat] += 1
        public[rank] -= 1
        for k in group:
            insort(hidden[k][seat], rank)
        return value

    def after(last, count, pile, depth, acc, group, w):
        """After ``last`` laid a card: the next player, a go, or a reset."""
        if count >= 31:
            return lead(last, depth, acc, group, w)
        return turn(last, 0, 31 - count, count, pile, depth, acc, group, w)

    def turn(last, k, room, count, pile, depth, acc, group, w):
        """Whether ``seats_after[last][k]`` can play; the samples in which it cannot pass on
        to the next seat, and when nobody can, ``last`` has a go."""
        if k == n:
            return go(last, depth, acc, group, w)
        seat = seats_after[last][k]
        if not sizes[seat]:
            return turn(last, k + 1, room, count, pile, depth, acc, group, w)
        if seat == me:
            if VALUE[mine[0]] <= room:  # sorted: the first card is the lowest
                return acc * w if depth <= 0 else node(seat, count, pile, depth, acc, group, w)
            return turn(last, k + 1, room, count, pile, depth, acc, group, w)
        able = [k2 for k2 in group if VALUE[hidden[k2][seat][0]] <= room]
        if len(able) == len(group):
            return acc * w if depth <= 0 else node(seat, count, pile, depth, acc, group, w)
        if not able:
            return turn(last, k + 1, room, count, pile, depth, acc, group, w)
        unable = [k2 for k2 in group if VALUE[hidden[k2][seat][0]] > room]
        w_able = sum(weights[k2] for k2 in able)
        value = acc * w_able if depth <= 0 else node(seat, count, pile, depth, acc, able, w_able)
        return value + turn(last, k + 1, room, count, pile, depth, acc, unable, w - w_able)

    def go(last, depth, acc, group, w):
        """Nobody can play: a go (or the last card) for ``last``, then a new count."""
        s = side[last]
        scores[s] += 1
        if scores[s] >= target:
            value = (WIN + depth if s == my_side else -WIN - depth) * w
        else:
            value = lead(last, depth, acc + weight[s], group, w)
        scores[s] -= 1
        return value

    def lead(last, depth, acc, group, w):
        """The count is back to 0: the next seat with cards leads, or the play is over."""
        for seat in seats_after[last]:
            if sizes[seat]:
                return acc * w if depth <= 0 else node(seat, 0, (), depth, acc, group, w)
        if shows is None:
            return acc * w
        total = 0.0
        for k in group:
            total += weights[k] * show_value(shows[k], acc)
        return total

    def show_value(sample_shows, acc):
        final = scores[:]  # the show, in its order: whoever reaches the target first wins
        for s, points in sample_shows:
            final[s] += points
            if final[s] >= target:
                return WIN - 1 if s == my_side else -WIN + 1
        if race:  # nobody out: our chance from the next hand on (the points only break ties)
            chance = win_probability(target - final[my_side], target - final[1 - my_side],
                                     deal_next)
            return (2.0 * chance - 1.0) * (WIN - 1) + acc * 1e-3
        return acc

    return lay_mine, nodes


def think(view, rng, samples: int | None = None):
    """Evaluate every playable rank, yielding ``None`` after each (a point where the caller
    may pause); returns ``{rank: weighted average value}`` (`pegging.think`'s scale).

    ``samples`` hidden deals are drawn (default `SAMPLES`); repeats of the same hidden ranks
    (and shows) are searched once, weighed by how often they came up and how plausible they
    are (`pegging._plausible`).
    """
    samples = SAMPLES if samples is None else samples
    ranks = sorted({action.card.rank for action in view.legal})
    near = max(view.scores) >= view.config.target - NEAR
    depth = min(sum(view.hand_sizes), DEPTH[view.config.players])
    if near and (view.config.players == 2 or sum(view.hand_sizes) <= 8):
        depth = sum(view.hand_sizes)
    shown = _played_by_seat(view)
    sampler = HiddenSampler(view)
    index, hidden, weights, shows = {}, [], [], []
    for _ in range(samples):
        drawn, left = sampler.sample(rng)
        sample_shows = _shows(view, drawn, left) if near else None
        hands = [sorted(card.rank for card in drawn.get(seat, ()))
                 for seat in range(view.config.players)]
        key = (tuple(tuple(hand) for hand in hands),
               None if sample_shows is None else tuple(sample_shows))
        k = index.get(key)
        if k is None:
            k = index[key] = len(hidden)
            hidden.append(hands)
            weights.append(0.0)
            shows.append(sample_shows)
        weights[k] += _plausible(shown, drawn)
    mine = sorted(card.rank for card in view.hand)
    lay_mine, _ = _joint(view, mine, hidden, weights, shows if near else None, _public(view))
    group, total = list(range(len(hidden))), sum(weights)
    count, pile = view.count, tuple(card.rank for card in view.pile)
    values = {}
    for rank in ranks:
        values[rank] = lay_mine(mine.index(rank), count, pile, depth, 0.0, group, total) / total
        yield None
    return values
