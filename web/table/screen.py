"""What one seat's table shows, kept between views: the one seat screen of every table.

The bot table, a friends table's host and each guest hold a `SeatScreen` and feed it with one
entry, `SeatScreen.see`: the seat's new view and the events that led to it (from the local
session, from the host's table, or from the host over the network). It keeps what the view
alone does not say: the cards the player has chosen, the show and the beat before it, why each
peg last moved, what the table said, the hand history. Where a move goes is the seat's
business (`web.table.seat.SeatTable`), never the screen's. Pure Python.

>>> from game.engine import Config, new_game
>>> from game.view import view
>>> state = new_game(Config(players=2), seed=4)
>>> screen = SeatScreen()
>>> screen.restart(view(state, 0), ["Ann", "Bot"], [], "New game.")
>>> card = screen.view.hand[0]
>>> screen.select(card); screen.selected == {card}
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from game.cards import Card
from game.engine import DISCARDING, PLAYING, SHOWING, PlayStep
from game.events import Event
from game.scoring import PLAY_KINDS
from game.view import View

LOG_LINES = 400       # the hand history a seat keeps (the host keeps as many: web.session)
SAID_LINES = 4        # events said at once, at most
POINTS_OF_THE_PLAY = PLAY_KINDS + ("go", "last card")    # a callout by the pile for these
KeyCommand = tuple[str, str | None]     # what a key means: a command's name and its argument


def hand_order(cards: Iterable[Card], sort: str = "rank") -> list[Card]:
    """The player's cards in the order the screen shows them (and keys 1-6 pick them).

    >>> from game.cards import parse_cards
    >>> [str(c) for c in hand_order(parse_cards("KH 2S 5H"), "suit")]
    ['5H', 'KH', '2S']
    """
    if sort == "suit":
        return sorted(cards, key=lambda card: ("CDHS".index(card.suit), card.rank))
    return sorted(cards)


def toggle_selection(selected: set[Card], card: Card, view: View) -> set[Card]:
    """The crib cards chosen after tapping ``card``: it goes in or out; with one crib card to
    choose, a new one replaces the old. Nothing changes outside one's own discard.

    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> seat_view = view(new_game(Config(players=3), seed=1), 0)
    >>> first, second = seat_view.hand[:2]
    >>> toggle_selection({first}, second, seat_view) == {second}
    True
    """
    if view.phase != DISCARDING or view.has_discarded[view.seat] or card not in view.hand:
        return selected
    if card in selected:
        return selected - {card}
    if len(selected) < view.config.to_crib:
        return selected | {card}
    return {card} if view.config.to_crib == 1 else selected


def key_command(key: str, view: View | None, selected: Collection[Card], showing: bool, sort: str) -> KeyCommand | None:
    """What a key means at the table: ``(command, argument)`` or None.

    1-6 pick the nth card as shown (select it when discarding, play it on your turn); Enter
    puts the chosen cards in the crib, or continues after the show; H asks the coach for a hint.
    """
    if view is None or view.claim is not None:    # a claim's chips are buttons: Tab, Enter
        return None
    if key in ("h", "H") and not showing:
        return ("hint", None)
    if key == "Enter":
        if showing:
            return ("continue", None)
        if view.phase == DISCARDING and len(selected) == view.config.to_crib:
            return ("confirm-discard", None)
    elif key.isdigit() and 1 <= int(key) <= len(view.hand) and not showing:
        card = str(hand_order(view.hand, sort)[int(key) - 1])
        if view.phase == DISCARDING:
            return ("select", card)
        if view.phase == PLAYING and view.turn == view.seat:
            return ("play", card)
    return None


def show_total(event: Event, names: Sequence[str]) -> str:
    """One counted hand in a few words: ``"Bot's crib 8"``."""
    assert event.seat is not None and event.breakdown is not None, "a counted hand has its seat and breakdown"
    whose = f"{names[event.seat]}'s crib" if event.kind == "crib" else names[event.seat]
    return f"{whose} {event.breakdown.total}"


def said(events: Sequence[Event], names: Sequence[str]) -> str:
    """What the table says of a run of events: its last few lines (no deal or discard, whose
    cards are nobody's business), then the show's totals in one line.

    >>> from game.scoring import Breakdown
    >>> show = Event("show", seat=0, cards=(), breakdown=Breakdown(()))
    >>> said([Event("go", seat=1, count=28), show], ["Ann", "Bot"])
    'Bot: go (28). The show: Ann 0'
    """
    shows = [event for event in events if event.kind in ("show", "crib")]
    before = events[:list(events).index(shows[0])] if shows else events
    lines = [event.describe(names) for event in before if event.kind not in ("deal", "discard")]
    totals = [f"The show: {'; '.join(show_total(event, names) for event in shows)}"] if shows else []
    return ". ".join(lines[-(SAID_LINES - len(totals)):] + totals)


def play_end(before: View | None, state_id: int, events: Sequence[Event]) -> View | None:
    """``before``'s seat's view of the table when the play ended, or None when ``events``
    do not end a play that ``before`` shows. The engine counts the hands and deals the next
    one within the move that ends the play, so the last card, its count and its points would
    otherwise never be on the table. ``state_id`` is the table's after the move. Nobody is to
    play: ``turn`` is None, ``legal`` empty (and so in `count_end`).

    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> jack, three = Card.parse("JH"), Card.parse("3S")
    >>> state = new_game(Config(), seed=7)
    >>> before = replace(view(state, 0), phase=PLAYING, pile=(jack,), count=10, hand=(three,),
    ...                  hand_sizes=(1, 0), scores=(5, 9), turn=0)
    >>> ended = play_end(before, 99, [Event("play", seat=0, cards=(three,), count=13),
    ...     Event("peg", seat=0, side=0, breakdown=None, scores=(6, 9)), Event("reset", seat=0),
    ...     Event("show", seat=1, cards=())])
    >>> ended.pile, ended.count, ended.scores, ended.previous[0], ended.hand, ended.turn
    ((Card.parse('JH'), Card.parse('3S')), 13, (6, 9), 5, (), None)
    """
    shows = [index for index, event in enumerate(events) if event.kind in ("show", "crib")]
    if before is None or before.phase != PLAYING or not shows:
        return None
    return _laid(before, state_id, events[:shows[0]])


def count_end(before: View | None, state_id: int, events: Sequence[Event]) -> View | None:
    """``before``'s seat's view of the table when a count ended within the play (a 31, or a go
    that nobody could follow), or None: the engine clears the pile in the same move, so the
    card that made 31 would never lie on it. The table as it was just before the pile cleared.

    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> king, five = Card.parse("KH"), Card.parse("5S")
    >>> state = new_game(Config(), seed=7)
    >>> before = replace(view(state, 0), phase=PLAYING, pile=(king, king, Card.parse("6D")), count=26,
    ...                  hand=(five,), hand_sizes=(1, 3), scores=(5, 9), turn=0)
    >>> ended = count_end(before, 40, [Event("play", seat=0, cards=(five,), count=31),
    ...     Event("peg", seat=0, side=0, breakdown=None, scores=(7, 9)), Event("reset", seat=0)])
    >>> ended.pile[-1], ended.count, ended.scores, ended.turn
    (Card.parse('5S'), 31, (7, 9), None)
    """
    kinds = [event.kind for event in events]
    if before is None or before.phase != PLAYING or "reset" not in kinds or "show" in kinds or "crib" in kinds:
        return None
    return _laid(before, state_id, events[:kinds.index("reset") + 1])


def _laid(before: View, state_id: int, ended: Sequence[Event]) -> View:
    """``before`` with the play's ``ended`` events laid on it, the last reset not done (it is
    the moment shown: the count that ended, its last card on the pile)."""
    resets = [index for index, event in enumerate(ended) if event.kind == "reset"]
    pile, play, count = list(before.pile), list(before.play), before.count
    scores, previous = list(before.scores), list(before.previous)
    sizes, hand, said_go = list(before.hand_sizes), list(before.hand), set(before.said_go)
    for index, event in enumerate(ended):
        if event.kind == "play":
            assert event.seat is not None and event.count is not None, "a card laid has its seat and count"
            card = event.cards[0]
            pile.append(card)
            count = event.count
            play.append(PlayStep("play", event.seat, card, count))
            sizes[event.seat] -= 1
            if card in hand:
                hand.remove(card)
        elif event.kind == "go":
            assert event.seat is not None and event.count is not None, "a go has its seat and count"
            play.append(PlayStep("go", event.seat, None, event.count))
            said_go.add(event.seat)
        elif event.kind == "peg":
            assert event.side is not None, "a peg has its side"
            previous[event.side] = scores[event.side]
            scores[event.side] = event.scores[event.side]
        elif event.kind == "reset" and index != resets[-1]:   # (the last one ends the play)
            pile, count, said_go = [], 0, set()
            play.append(PlayStep("reset"))
    return replace(before, state_id=state_id, pile=tuple(pile), play=tuple(play), count=count,
                   scores=tuple(scores), previous=tuple(previous), hand_sizes=tuple(sizes),
                   hand=tuple(hand), said_go=tuple(sorted(said_go)), turn=None, legal=())


def play_ending(event: Event, names: Sequence[str]) -> str:
    """How the play ended, as the table says it before the show: ``"Bot: last card for 1, now 35"``."""
    assert event.seat is not None, "a go and a peg have their seat"
    if event.kind == "go":
        return f"{names[event.seat]}: go"
    assert event.breakdown is not None and event.side is not None, "a peg has its points and side"
    return f"{names[event.seat]}: {event.breakdown.label()}, now {event.scores[event.side]}"


def pegs_of(events: Iterable[Event]) -> dict[int, str]:
    """Why each side's peg last moved in ``events``: side -> the points' label."""
    pegs = {}
    for event in events:
        if event.kind == "peg":
            assert event.side is not None and event.breakdown is not None, "a peg has its side and points"
            pegs[event.side] = event.breakdown.label()
    return pegs


class SeatScreen:
    """One seat's table between views (see the module's docstring)."""

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self.view: View | None = None          # the latest view of this seat
        self.selected: set[Card] = set()       # the crib cards chosen so far
        self.show: tuple[Event, ...] = ()      # the counted hands waiting for "continue"
        # a muggins table's counted hands: (kind, seat) -> what was claimed, and what was taken
        self.claimed: dict[tuple[str, int], int] = {}
        self.taken: dict[tuple[str, int], int] = {}
        self.show_starter: Card | None = None  # the starter they were counted with
        self.show_intro: tuple[str, ...] = ()  # how the play ended (last card, go) before the show
        self.play_end: View | None = None      # the table as the play ended, for a beat before the show
        self.count_end: View | None = None     # the table as a count ended (31, a go), for a beat
        self.board_callout = ("", "")          # the latest points pegged, in words, and a key of their own
        self.pile_callout = ("", "")           # ... of the play (fifteen, pair, run, go, 31), by the pile
        self.held: tuple[str, dict[int, str]] = ("", {})   # what the show says, and its pegs, after the beat
        self.last_pegs: dict[int, str] = {}    # side -> why its peg last moved
        self.announcement = ""                 # for the live region
        self.log: list[str] = []               # the hand history

    # -- what the table draws --

    @property
    def table_view(self) -> View | None:
        """The view the table draws: in a beat, the table as the play or a count ended."""
        return self.play_end or self.count_end or self.view

    @property
    def beat(self) -> View | None:
        """The table held for a beat (the play's end before the show, or a count's end), if any."""
        return self.play_end or self.count_end

    @property
    def shown(self) -> tuple[Event, ...]:
        """The counted hands on the table now (none in the beat before them)."""
        return () if self.play_end is not None else self.show

    # -- the one entry --

    def see(self, view: View, events: Iterable[Event], names: Sequence[str], log: Iterable[str] | None = None) -> None:
        """A new view of this seat and the ``events`` that led to it; ``log`` is the whole hand
        history when it comes with them (else each event's line is added)."""
        before, self.view = self.view, view
        events = tuple(events)
        self._claims(before, events)
        self.count_end = count_end(before, view.state_id, events)
        self._callouts(events, names, view.state_id)
        if log is not None:
            self.log = log if isinstance(log, list) else list(log)
        else:
            self.log = (self.log + [event.describe(names) for event in events if event.kind != "deal"])[-LOG_LINES:]
        if not self._bring_show(events, before, view.state_id, names):
            self.last_pegs.update(pegs_of(events))
            self.announcement = said(events, names) or self.announcement
        if before is None or before.game_no != view.game_no or before.hand_no > view.hand_no:
            self.last_pegs = {}
        mine = view.phase == DISCARDING and not view.has_discarded[view.seat]
        self.selected = {card for card in self.selected if card in view.hand} if mine else set()

    def _claims(self, before: View | None, events: Sequence[Event]) -> None:
        """Keep what each counted hand's owner claimed and what a rival took (muggins tables):
        a claim comes just before its hand's show event; a muggins answers the claim waiting."""
        for claim, shown in zip(events, events[1:]):
            if claim.kind == "claim" and shown.kind in ("show", "crib") and claim.count is not None:
                assert shown.seat is not None, "a counted hand has its seat"
                self.claimed[(shown.kind, shown.seat)] = claim.count
        waiting = before.claim if before is not None else None
        for event in events:
            if event.kind == "muggins" and waiting is not None and waiting.what != "play":
                kind = "crib" if waiting.what == "crib" else "show"
                self.taken[(kind, waiting.seat)] = event.count or 0
        if any(event.kind == "deal" for event in events) and not self.show:
            self.claimed, self.taken = {}, {}

    def restart(self, view: View, names: Sequence[str], log: Iterable[str], announcement: str) -> None:
        """A game begins or is resumed: nothing of the screen before it is held over."""
        self._clear()
        self.see(view, (), names, log)
        self.announcement = announcement

    def _bring_show(self, events: Sequence[Event], before: View | None, state_id: int, names: Sequence[str]) -> bool:
        """Take a move's ``events`` if they bring a show, and say whether they did: the show,
        its starter, the lines that introduce it, and the play's end, which holds the show back
        for a beat. What comes before the show moves the pegs and is said now; the show's own
        pegs and words wait in ``held`` for `open_show`. Without a play's end (no view from
        before the move, as after a reconnection), everything moves and is said at once."""
        shows = tuple(event for event in events if event.kind in ("show", "crib"))
        if not shows:
            return False
        if self.show and before is not None and before.phase == SHOWING:
            # A muggins table's show comes hand by hand, each as its owner claims it.
            self.show += shows
            self.last_pegs.update(pegs_of(events))
            self.announcement = said(events, names) or self.announcement
            return True
        first = events.index(shows[0])
        self.show = shows
        self.show_starter = before.starter if before is not None else None
        # The last card's point (and a go) is said before the show, never lost behind it.
        self.show_intro = tuple(play_ending(event, names) for event in events[:first]
                                if event.kind in ("peg", "go"))[-SAID_LINES:]
        self.play_end = play_end(before, state_id, events)
        if self.play_end is None:
            self.last_pegs.update(pegs_of(events))
            self.announcement = said(events, names) or self.announcement
        else:
            self.last_pegs.update(pegs_of(events[:first]))
            self.announcement = said(events[:first], names) or self.announcement
            self.held = (said(events[first:], names), pegs_of(events[first:]))
        return True

    def _callouts(self, events: Sequence[Event], names: Sequence[str], state_id: int) -> None:
        """The points of ``events`` in words, by the board (any peg) and by the pile (the play's):
        each with a key of its own, so the page shows it afresh."""
        shows = [i for i, event in enumerate(events) if event.kind in ("show", "crib")]
        played = events[:shows[0]] if shows else events
        for index, event in enumerate(played):
            if event.kind == "peg":
                assert event.seat is not None and event.breakdown is not None, "a peg has its seat and points"
                words = f"{names[event.seat]}: {event.breakdown.label()}"
                self.board_callout = (words, f"{state_id}-{index}")
                if event.breakdown.items and event.breakdown.items[0].kind in POINTS_OF_THE_PLAY:
                    self.pile_callout = (event.breakdown.label(), f"{state_id}-{index}")

    # -- the player's hands on it --

    def end_beat(self) -> None:
        """The beat is over: after the play's end the show comes; after a count's end, the pile clears."""
        if self.play_end is not None:
            self.open_show()
        self.count_end = None

    def open_show(self) -> None:
        """The beat is over: the show comes, with what it says and why the pegs moved."""
        words, pegs = self.held
        self.play_end, self.held = None, ("", {})
        self.last_pegs.update(pegs)
        if words:
            self.announcement = words

    def advance(self) -> None:
        """Continue: from the beat before the show to the show, from the show to the next hand."""
        if self.play_end is not None:
            self.open_show()
        else:
            self.show, self.claimed, self.taken = (), {}, {}

    def leave(self) -> None:
        """The player leaves the table for the start screen: no show waits for them."""
        self.show, self.play_end = (), None

    def select(self, card: Card) -> None:
        if self.view is not None:
            self.selected = toggle_selection(self.selected, card, self.view)

    def take_selection(self) -> frozenset[Card]:
        chosen, self.selected = frozenset(self.selected), set()
        return chosen

    def key(self, key: str, sort: str) -> KeyCommand | None:
        """What ``key`` means on this table now (`key_command`)."""
        return key_command(key, self.view, self.selected, bool(self.show), sort)
