"""A game cut into hands as one seat saw them, and the review of each hand and of the game.

`walk` replays a game and keeps, for one seat, only what that seat knew when it decided:
its `View` before each of its discards and plays, and what the show made public afterwards
(the starter, its hand's count, the crib's count). The reviews are built from nothing else,
so they cannot reveal a hidden card: the views are the engine's own boundary (`game.view`).

>>> from game.engine import Config, new_game, apply
>>> from game.bots import make_bot
>>> state = start = new_game(Config(target=61), seed=4)
>>> bots = [make_bot("medium", 1), make_bot("medium", 2)]
>>> while state.phase != "over":
...     seat = next(s for s in (0, 1) if view(state, s).legal)
...     state, _ = apply(state, bots[seat].choose(view(state, seat)))
>>> hands = walk(start, state.actions, seat=0)
>>> hands[0].discard_view.hand_no == 0 and len(hands[0].discard_view.hand), hands[0].starter is not None
(6, True)
>>> summary = review_game(hands, pegging=False)
>>> summary.hands == len(hands), summary.discard_lost >= 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..actions import Action
from ..bots import Thinking
from ..cards import Card
from ..engine import State, apply
from ..events import Event
from ..view import View, view
from .discards import DiscardReview, review_discard
from .plays import PlayReview, has_choice, review_play, think_play


@dataclass
class HandSeen:
    """One hand as ``seat`` knew it: the view it discarded from and its discard, the views it
    played from (only turns with a choice of ranks) with its cards, and what became public."""

    seat: int
    discard_view: View
    discard: Action | None = None
    plays: list[tuple[View, Action]] = field(default_factory=list)
    starter: Card | None = None
    hand_shown: int | None = None
    crib_shown: int | None = None
    missed: int = 0               # muggins tables: points the seat's claims left out (given away)

    @property
    def key(self) -> tuple[int, int]:
        """(game, hand) numbers: which hand of a match this is."""
        return (self.discard_view.game_no, self.discard_view.hand_no)

    @property
    def shown(self) -> bool:
        """Whether the hand reached its show (the crib counted)."""
        return self.crib_shown is not None


def walk(start: State, actions: Iterable[Action | str], seat: int) -> list[HandSeen]:
    """Replay ``actions`` from ``start`` (a new game's state) and keep ``seat``'s side of
    every hand, in order; the last may be unfinished."""
    walker = Walker(start, seat)
    walker.advance(actions)
    return walker.hands


class Walker:
    """`walk`, kept going: ``advance(actions)`` takes a game's whole action list each time and
    replays only the actions it has not seen yet (a page calls it after every move)."""

    def __init__(self, start: State, seat: int) -> None:
        self.start, self.seat, self.state, self.done = start, seat, start, 0
        self.hands: list[HandSeen] = []
        if start.phase == "discard":
            self.hands.append(HandSeen(seat, view(start, seat)))

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def advance(self, actions: Iterable[Action | str], hand_seeds: Sequence[int] = ()) -> list[HandSeen]:
        """Replay the actions not seen yet. ``hand_seeds``: the game's hand seeds so far (a fair
        table learns each just before its deal: `game.engine.with_hand_seed`)."""
        if len(hand_seeds) > len(self.state.hand_seeds):
            self.state = replace(self.state, hand_seeds=tuple(hand_seeds))
        for action in list(actions)[self.done:]:
            self._step(Action.parse(action) if isinstance(action, str) else action)
            self.done += 1
        return self.hands

    def _step(self, action: Action) -> None:
        seat, hands = self.seat, self.hands
        if action.seat == seat and hands:
            if action.kind == "discard":
                hands[-1].discard = action
            else:
                seen = view(self.state, seat)
                if has_choice(seen):
                    hands[-1].plays.append((seen, action))
        self.state, events = apply(self.state, action)
        for event in events:
            if event.kind == "starter" and hands:
                hands[-1].starter = event.cards[0]
            elif event.kind == "show" and event.seat == seat and hands:
                hands[-1].hand_shown = _shown(event)
            elif event.kind == "crib" and hands:
                hands[-1].crib_shown = _shown(event)
            elif event.kind == "claim" and event.seat == seat and hands:
                hands[-1].missed += _shown(event) - (event.count or 0)
            elif event.kind == "deal" and self.state.phase == "discard":
                hands.append(HandSeen(seat, view(self.state, seat)))


def _shown(event: Event) -> int:
    """The points a show or crib event counted."""
    assert event.breakdown is not None   # a show always has its count
    return event.breakdown.total


class SeatWalker:
    """`Walker` for a seat that never holds the game's state: a guest at a friends table, fed
    only the views and public events the host sends it (``see(view, events)``, in order). Fed
    every view, it finds the same hands as `walk` (a test checks it); a view it missed (the
    page was closed meanwhile) only leaves out the decisions made then.

    >>> from game.engine import Config, new_game, apply
    >>> from game.bots import make_bot
    >>> state = start = new_game(Config(target=61), seed=4)
    >>> guest, bots = SeatWalker(seat=1), [make_bot("easy", 1), make_bot("easy", 2)]
    >>> guest.see(view(state, 1), ())
    >>> while state.phase != "over":
    ...     seat = next(s for s in (0, 1) if view(state, s).legal)
    ...     state, events = apply(state, bots[seat].choose(view(state, seat)))
    ...     guest.see(view(state, 1), events)
    >>> guest.hands == walk(start, state.actions, seat=1), guest.over
    (True, True)
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hands: list[HandSeen] = []
        self.last: View | None = None        # the latest view seen
        self.deciding: View | None = None    # our turn to play with a choice, not played yet
        self.over = False
        self.games = 1                       # games walked: a rematch starts a new walk

    def restart(self) -> None:
        self.hands, self.last, self.deciding, self.over = [], None, None, False
        self.games += 1

    def see(self, seen: View, events: Iterable[Event]) -> None:
        """Take the next view and the events that led to it."""
        last = self.last
        if last is not None and (seen.game_no, seen.hand_no, seen.state_id) < \
                (last.game_no, last.hand_no, last.state_id):
            self.restart()                  # a new game at the same table
            last = None
        # The events lead from the last view to this one: they belong to the last view's hand,
        # up to a deal. After a gap (views missed) they are not the whole story: unused.
        hand = self.hands[-1] if last is not None and seen.state_id == last.state_id + 1 and \
            self.hands and self.hands[-1].key == (last.game_no, last.hand_no) else None
        for event in events:
            if hand is None:
                break
            if event.kind == "play" and event.seat == self.seat and self.deciding is not None:
                hand.plays.append((self.deciding, Action.play(self.seat, event.cards[0])))
                self.deciding = None
            elif event.kind == "starter":
                hand.starter = event.cards[0]
            elif event.kind == "show" and event.seat == self.seat:
                hand.hand_shown = _shown(event)
            elif event.kind == "crib":
                hand.crib_shown = _shown(event)
            elif event.kind == "deal":
                hand = None
        self._take(seen)

    def _take(self, seen: View) -> None:
        self.last, self.over, self.deciding = seen, seen.phase == "over", None
        key = (seen.game_no, seen.hand_no)
        if seen.phase == "discard" and seen.legal and not seen.has_discarded[self.seat] and \
                (not self.hands or self.hands[-1].key != key):
            self.hands.append(HandSeen(self.seat, seen))
        hand = self.hands[-1] if self.hands and self.hands[-1].key == key else None
        if hand is None:
            return
        if hand.discard is None and seen.discarded:
            hand.discard = Action.discard(self.seat, seen.discarded)
        if seen.starter is not None:
            hand.starter = seen.starter
        if seen.turn == self.seat and has_choice(seen):
            self.deciding = seen


@dataclass(frozen=True)
class HandReview:
    """A hand's discard review and its play reviews (only the turns with a choice), and at a
    muggins table the points the seat missed in its claims: given away, counted exactly."""

    number: int
    discard: DiscardReview | None
    plays: tuple[PlayReview, ...]
    missed: int = 0

    @property
    def discard_lost(self) -> Fraction:
        return self.discard.gave_away if self.discard else Fraction(0)

    @property
    def pegging_lost(self) -> float:
        return sum(play.lost for play in self.plays if play.mistake)


def review_hand(hand: HandSeen, number: int = 1, pegging: bool = True,
                known: Mapping[int, PlayReview] | None = None) -> HandReview:
    """The review of one hand. ``known`` maps a view's state id to a `PlayReview` already
    computed (the page reviews each play while the bots think), so nothing is searched twice."""
    discard = None
    if hand.discard is not None:
        discard = review_discard(hand.discard_view, hand.discard, hand.starter,
                                 hand.hand_shown, hand.crib_shown)
    plays: tuple[PlayReview, ...] = ()
    if pegging:
        known = known or {}
        plays = tuple(known.get(seen.state_id) or review_play(seen, action)
                      for seen, action in hand.plays)
    return HandReview(number, discard, plays, hand.missed)


@dataclass(frozen=True)
class GameReview:
    """Every hand's review, and what the seat gave away in all: expected points in its
    discards (exact, as the discard review counts them) and estimated points in the play."""

    reviews: tuple[HandReview, ...]

    @property
    def hands(self) -> int:
        return len(self.reviews)

    @property
    def discard_lost(self) -> Fraction:
        return sum((review.discard_lost for review in self.reviews), Fraction(0))

    @property
    def pegging_lost(self) -> float:
        return sum(review.pegging_lost for review in self.reviews)

    @property
    def missed(self) -> int:
        """Points missed in the claims at a muggins table."""
        return sum(review.missed for review in self.reviews)

    @property
    def mistakes(self) -> int:
        """Plays that gave away at least `plays.MIN_LOST` points."""
        return sum(play.mistake for review in self.reviews for play in review.plays)


def review_game(hands: Iterable[HandSeen], pegging: bool = True,
                known: Mapping[int, PlayReview] | None = None) -> GameReview:
    """The review of every hand in ``hands`` (from `walk`) that got as far as a discard."""
    return GameReview(tuple(review_hand(hand, number, pegging, known)
                            for number, hand in enumerate(hands, start=1) if hand.discard))


def think_hand(hand: HandSeen, number: int = 1) -> Thinking[HandReview]:
    """`review_hand` (with its pegging) as a generator that yields between searched samples, so
    a page can review a game in slices (an imported record's, `web.profile.records`)."""
    discard = None
    if hand.discard is not None:
        discard = review_discard(hand.discard_view, hand.discard, hand.starter,
                                 hand.hand_shown, hand.crib_shown)
        yield None
    plays = []
    for seen, action in hand.plays:
        plays.append((yield from think_play(seen, action)))
    return HandReview(number, discard, tuple(plays), hand.missed)
