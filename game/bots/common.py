"""Small, fast helpers every bot level shares: card values, play scoring on ranks, what a
seat can infer about hidden hands, and the seeded generator of a decision.

Suits never matter during the play, so the pegging code works on ranks (1..13) only.

>>> peg_points((5, 10), 15), peg_points((4, 6, 5), 15), peg_points((7, 7, 7), 21)
(2, 5, 6)
>>> from game.cards import parse_cards
>>> hand_points(parse_cards("5H 5D JS 4C"))   # no starter: fifteens, pairs and runs only
6
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from ..actions import Action
from ..cards import Card

if TYPE_CHECKING:
    from ..view import View

VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # count value by rank
PAIR_POINTS = (0, 0, 2, 6, 12)
PAIRS = tuple((a, b) for a in range(1, 14) for b in range(a, 14))  # the 91 rank pairs a <= b
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}


def decision_rng(seed: int, view: View) -> random.Random:
    """The generator of one decision: a function of the bot's seed and the view's position
    only, so the same view and the same seed always give the same decision."""
    return random.Random(f"bot/{seed}/{view.game_no}/{view.hand_no}/{view.state_id}/{view.seat}")


def peg_points(pile: tuple[int, ...], count: int) -> int:
    """Points for the last rank of ``pile`` (ranks since the last reset), ``count`` the new count.

    Same rules as `game.scoring.score_play`, on plain ints for speed.
    """
    points = 2 if count == 15 or count == 31 else 0
    n = len(pile)
    last = pile[-1]
    same = 1
    while same < n and pile[-1 - same] == last:
        same += 1
    if same > 1:
        return points + PAIR_POINTS[same]  # a repeated rank at the end rules out any run
    for length in range(n, 2, -1):
        window = pile[-length:]
        if max(window) - min(window) == length - 1 and len(set(window)) == length:
            return points + length
    return points


def hand_points(cards: Sequence[Card]) -> int:
    """Fifteens, pairs, runs and a flush of the cards alone (no starter; four cards, or the
    three of a five-card cribbage hand): what a beginner sees when choosing what to keep."""
    values = [min(card.rank, 10) for card in cards]
    ranks = sorted(card.rank for card in cards)
    points = 0
    for size in range(2, len(cards) + 1):
        points += 2 * sum(1 for combo in combinations(values, size) if sum(combo) == 15)
    points += 2 * sum(1 for a, b in combinations(ranks, 2) if a == b)
    for length in range(len(ranks), 2, -1):
        runs = sum(1 for combo in combinations(ranks, length)
                   if all(combo[i + 1] - combo[i] == 1 for i in range(length - 1)))
        if runs:
            points += runs * length
            break
    if len(cards) in (3, 4) and len({card.suit for card in cards}) == 1:
        points += len(cards)
    return points


def play_action(view: View, rank: int) -> Action:
    """The legal play of a card of ``rank`` (the lowest suit: suits do not matter in play)."""
    for action in view.legal:
        if action.card.rank == rank:
            return action
    raise ValueError(f"no legal play of rank {rank}")


def go_floor(view: View, seat: int) -> int:
    """Every card ``seat`` still holds is worth more than this: each go it said this hand
    showed it had nothing playable at that count."""
    floor = 0
    for step in view.play:
        if step.kind == "go" and step.seat == seat:
            floor = max(floor, 31 - step.count)
    return floor


class HiddenSampler:
    """Deals each other seat a hand of its current size from the cards this seat has not
    seen, respecting what its goes revealed. ``sample(rng)`` returns ``({seat: [cards]},
    rest)``, ``rest`` being the unseen cards left over (the crib and the deck), shuffled.

    Seats with the tightest constraint draw first; on a dead end it retries, then gives up
    on the go constraints rather than fail (the real hands always satisfy them).
    """

    def __init__(self, view: View) -> None:
        self.view = view
        self.pool = list(view.unseen())
        others = [seat for seat in range(view.config.players)
                  if seat != view.seat and view.hand_sizes[seat]]
        self.floors = {seat: go_floor(view, seat) for seat in others}
        self.others = sorted(others, key=lambda seat: -self.floors[seat])
        self.free = not any(self.floors.values())

    def sample(self, rng: random.Random) -> tuple[dict[int, list[Card]], list[Card]]:
        sizes = self.view.hand_sizes
        left = self.pool[:]
        rng.shuffle(left)
        hands: dict[int, list[Card]]
        if self.free:  # no go said yet: simply deal from the top
            hands, start = {}, 0
            for seat in self.others:
                hands[seat] = left[start:start + sizes[seat]]
                start += sizes[seat]
            return hands, left[start:]
        for attempt in range(8):
            if attempt:
                rng.shuffle(left)
            rest, hands = left, {}
            for seat in self.others:
                floor = self.floors[seat] if attempt < 7 else 0
                fits = [card for card in rest if VALUE[card.rank] > floor][:sizes[seat]]
                if len(fits) < sizes[seat]:
                    break
                hands[seat] = fits
                rest = [card for card in rest if card not in fits]
            else:
                return hands, rest
        raise ValueError("cannot deal the hidden hands")  # pragma: no cover


def sample_hidden(view: View, rng: random.Random) -> tuple[dict[int, list[Card]], list[Card]]:
    """One sample of the hidden hands: see `HiddenSampler`."""
    return HiddenSampler(view).sample(rng)
