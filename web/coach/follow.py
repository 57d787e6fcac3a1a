"""The coach at a table: hints during a decision, the review after each hand's show, and the
game's summary. Pure Python over `game.coach`; the HTML is `web.coach.view`'s.

`TableCoach` follows one seat's game with a `game.coach.Walker` (each action replayed once
more, keeping only that seat's views), or at a friends table's guest, which has no state, with
a `game.coach.SeatWalker` fed the views the host sends. It remembers the play reviews it has
searched and the discards it has ranked, and says which are still to do, so the page can do
them in slices while the bots (or the other players) think: the ranking of a hand's discard
(every option over every starter) is then ready when the show brings its review, instead of
holding up the move that brings the show. Drawing a newly shown hand's review is such a job
too, the first one (`drawn`): the move that brings the show paints the show alone, and the
review follows in the page's next turn.

>>> from web.session import Session
>>> session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=3)
>>> coach = TableCoach(seat=0)
>>> hint = coach.hint(session.view(0))
>>> hint.kind, len(hint.discard.options)
('discard', 15)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from game.actions import Action
from game.bots import Thinking, run
from game.coach import (DiscardOption, DiscardReview, GameReview, HandReview, HandSeen, Hint, PlayReview, SeatWalker,
                        Walker, decision_of, has_choice, review_discard, think_play, think_values)
from game.coach.discards import DiscardChoice, discard_choice, think_discards
from game.engine import State, new_game
from game.events import Event
from game.view import View

# A job the page does in slices (`TableCoach.pending`): draw a shown hand's review, rank a
# discard's options, review a play.
Job = tuple[Literal["draw"], int] | tuple[Literal["rank"], DiscardChoice] | tuple[Literal["play"], View, Action]


class TableCoach:
    """What the coach knows of one seat's game so far."""

    RANKED_KEPT = 32      # discard rankings kept (a hand's choice ranks alike in any game)

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.walker: Walker | SeatWalker | None = None
        self.game: object = None               # which game the walker follows
        self.known: dict[int, PlayReview] = {}  # view state id -> its play's review
        self.discards: dict[int, DiscardReview] = {}
        self.ranked: dict[DiscardChoice, tuple[DiscardOption, ...]] = {}   # discard_choice(view) -> its ranking
        self.drawn = 0          # the latest hand whose review the page may draw (`last_drawn`)

    # -- following the game --

    def sync(self, state: State) -> list[HandSeen]:
        """Catch up with ``state`` (a session's state); a new game starts a new walk."""
        game = (state.seed, state.config, state.stacked)
        if not isinstance(self.walker, Walker) or game != self.game or self.walker.done > len(state.actions):
            self.walker = Walker(new_game(state.config, state.seed, state.stacked, hand_seeds=state.hand_seeds), self.seat)
            self.game, self.known, self.discards, self.drawn = game, {}, {}, 0
        return self.walker.advance(state.actions, state.hand_seeds)

    def see(self, view: View, events: Iterable[Event]) -> None:
        """A guest's way to follow: the next view from the host and the events before it."""
        if not isinstance(self.walker, SeatWalker) or self.walker.seat != view.seat:
            self.walker, self.seat = SeatWalker(view.seat), view.seat
        self.walker.see(view, events)
        if self.game != self.walker.games:       # a rematch: state ids start again
            self.game, self.known, self.discards, self.drawn = self.walker.games, {}, {}, 0

    @property
    def hands(self) -> list[HandSeen]:
        return self.walker.hands if self.walker else []

    def pending(self) -> Job | None:
        """The first thing still to do, or None: ``("draw", number)`` for a hand shown whose
        review is not drawn yet, ``("rank", choice)`` for a discard made but not ranked yet
        (its `discard_choice`), ``("play", view, action)`` for a play not reviewed yet."""
        latest = self._latest_shown()
        if latest > self.drawn:
            return "draw", latest
        for hand in self.hands:
            if hand.discard is not None:
                choice = discard_choice(hand.discard_view)
                if choice not in self.ranked:
                    return "rank", choice
            for seen, action in hand.plays:
                if seen.state_id not in self.known:
                    return "play", seen, action
        return None

    def thinking(self) -> Thinking[None]:
        """Do the first pending job, as a generator that yields between its steps."""
        job = self.pending()
        if job is None:
            return
        if job[0] == "draw":
            hand = self.hands[job[1] - 1]
            if hand.discard is not None:
                yield from self._ranked(discard_choice(hand.discard_view))
                self.discard_review(hand)
            self.drawn = job[1]
        elif job[0] == "rank":
            yield from self._ranked(job[1])
        else:
            _, seen, action = job
            self.known[seen.state_id] = yield from think_play(seen, action)

    def _ranking(self, view: View) -> tuple[DiscardOption, ...]:
        """The ranked discards of ``view``'s choice (made now if the page had no time yet)."""
        return run(self._ranked(discard_choice(view)))

    def _ranked(self, choice: DiscardChoice) -> Thinking[tuple[DiscardOption, ...]]:
        """The ranked discards of ``choice`` (a `discard_choice`), ranked first if they are not
        yet: a generator that yields between the ranking's steps."""
        if choice not in self.ranked:
            self._rank(choice, (yield from think_discards(*choice)))
        return self.ranked[choice]

    def _rank(self, choice: DiscardChoice, options: tuple[DiscardOption, ...]) -> None:
        self.ranked[choice] = options
        while len(self.ranked) > self.RANKED_KEPT:       # the oldest go first
            del self.ranked[next(iter(self.ranked))]

    # -- what the screen shows --

    def hint(self, view: View) -> Hint | None:
        """The suggestion for ``view``'s decision, or None when the seat has none to make."""
        decision = decision_of(view)
        if view.phase == "discard" and not view.has_discarded[view.seat] and view.legal:
            return Hint(decision, "discard", discard=review_discard(view, options=self._ranking(view)))
        if view.phase == "play" and view.turn == view.seat and view.legal and view.claim is None:
            cards = tuple(action.card for action in view.legal)
            if not has_choice(view):      # one rank only: nothing to weigh
                return Hint(decision, "only", suits=cards)
            return Hint(decision, "play", values=run(think_values(view)), suits=cards)
        return None

    def discard_review(self, hand: HandSeen) -> DiscardReview | None:
        if hand.discard is None:
            return None
        key = hand.discard_view.state_id
        review = self.discards.get(key)
        if review is None or review.crib_shown != hand.crib_shown:
            review = self.discards[key] = review_discard(
                hand.discard_view, hand.discard, hand.starter, hand.hand_shown, hand.crib_shown,
                options=self._ranking(hand.discard_view))
        return review

    def hand_review(self, hand: HandSeen, number: int) -> tuple[HandReview, int]:
        """The review of ``hand`` with the plays reviewed so far, and how many are still to do."""
        plays = tuple(self.known[seen.state_id] for seen, _ in hand.plays
                      if seen.state_id in self.known)
        return HandReview(number, self.discard_review(hand), plays), len(hand.plays) - len(plays)

    def last_shown(self, up_to: int | None = None) -> tuple[HandReview, int] | None:
        """The review of the latest hand that reached its show (or, when the game ended
        before a show, the last hand), with the count of plays still to review; ``up_to``:
        the latest of the hands up to that number."""
        number = self._latest_shown(up_to)
        return self.hand_review(self.hands[number - 1], number) if number else None

    def last_drawn(self) -> tuple[HandReview, int] | None:
        """`last_shown`, of the hands whose review the page has drawn (see `drawn`)."""
        return self.last_shown(self.drawn)

    def _latest_shown(self, up_to: int | None = None) -> int:
        """The number of the hand `last_shown` reviews (0: none)."""
        hands = self.hands
        for number in range(len(hands) if up_to is None else min(up_to, len(hands)), 0, -1):
            hand = hands[number - 1]
            if hand.shown or (number == len(hands) and self._over() and hand.discard):
                return number
        return 0

    def game_review(self) -> tuple[GameReview, int]:
        """Every hand's review so far, and the plays still to review."""
        reviews, missing = [], 0
        for number, hand in enumerate(self.hands, start=1):
            if hand.discard is not None:
                review, left = self.hand_review(hand, number)
                reviews.append(review)
                missing += left
        return GameReview(tuple(reviews)), missing

    def _over(self) -> bool:
        return self.walker is not None and self.walker.over
