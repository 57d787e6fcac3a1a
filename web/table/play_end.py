"""The table as the play ended, shown for a beat before the show.

The engine counts the hands and deals the next one within the move that ends the play, so
the last card, its count and its points would otherwise never be on the table: the show
would replace the pile at once. `play_end` lays that move's events, up to the show, on the
view from before it; `ShowAfterPlay` holds the show back until the page opens it a beat
later (web/dom.py), in a task of its own.
"""

from __future__ import annotations

from dataclasses import replace

from game.engine import PLAYING, PlayStep
from game.view import View


def play_end(before: View | None, state_id: int, events) -> View | None:
    """``before``'s seat's view of the table when the play ended, or None when ``events``
    do not end a play that ``before`` shows. ``state_id`` is the table's after the move (the
    page marks each new table with it). Nobody is to play: ``turn`` is None, ``legal`` empty.

    >>> from game.cards import Card
    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> from game.events import Event
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
    ended = events[:shows[0]]
    resets = [index for index, event in enumerate(ended) if event.kind == "reset"]
    pile, play, count = list(before.pile), list(before.play), before.count
    scores, previous = list(before.scores), list(before.previous)
    sizes, hand, said_go = list(before.hand_sizes), list(before.hand), set(before.said_go)
    for index, event in enumerate(ended):
        if event.kind == "play":
            card = event.cards[0]
            pile.append(card)
            count = event.count
            play.append(PlayStep("play", event.seat, card, count))
            sizes[event.seat] -= 1
            if card in hand:
                hand.remove(card)
        elif event.kind == "go":
            play.append(PlayStep("go", event.seat, None, event.count))
            said_go.add(event.seat)
        elif event.kind == "peg":
            previous[event.side] = scores[event.side]
            scores[event.side] = event.scores[event.side]
        elif event.kind == "reset" and index != resets[-1]:   # (the last one ends the play)
            pile, count, said_go = [], 0, set()
            play.append(PlayStep("reset"))
    return replace(before, state_id=state_id, pile=tuple(pile), play=tuple(play), count=count,
                   scores=tuple(scores), previous=tuple(previous), hand_sizes=tuple(sizes),
                   hand=tuple(hand), said_go=tuple(sorted(said_go)), turn=None, legal=())


def play_ending(event, names) -> str:
    """How the play ended, as the table says it before the show: ``"Bot: last card, 1 (35)"``."""
    if event.kind == "go":
        return f"{names[event.seat]}: go"
    return f"{names[event.seat]}: {event.breakdown.label()} ({event.scores[event.side]})"


def pegs_of(events) -> dict[int, str]:
    """Why each side's peg last moved in ``events``: side -> the points' label."""
    return {event.side: event.breakdown.label() for event in events if event.kind == "peg"}


class ShowAfterPlay:
    """For a seat's controller: while ``play_end`` is set, the table shows the play's end and
    the show (already in ``show``) waits; `open_show` brings it, with what it says and why
    the pegs moved (``held``: the announcement and `pegs_of` the show's events)."""

    play_end: View | None = None
    held: tuple[str, dict] = ("", {})

    def bring_show(self, events, before: View | None, state_id: int, names, say) -> bool:
        """Take a move's ``events`` if they bring a show, and say whether they did: the show
        (``show``, its starter, the lines that introduce it) and the play's end, which holds
        the show back. What comes before the show moves the pegs and is said now; the show's
        own pegs and words wait in ``held`` for `open_show`. Without a play's end (no view from
        before the move), everything moves and is said at once. ``say(part)`` is what the
        table says of a run of events ("" keeps the announcement as it is).
        """
        shows = tuple(event for event in events if event.kind in ("show", "crib"))
        if not shows:
            return False
        first = events.index(shows[0])
        self.show = shows
        self.show_starter = before.starter if before is not None else None
        # The last card's point (and a go) is said before the show, never lost behind it.
        self.show_intro = tuple(play_ending(event, names) for event in events[:first]
                                if event.kind in ("peg", "go"))[-4:]
        self.play_end = play_end(before, state_id, events)
        if self.play_end is None:
            self.last_pegs.update(pegs_of(events))
            self.announcement = say(events) or self.announcement
        else:
            self.last_pegs.update(pegs_of(events[:first]))
            self.announcement = say(events[:first]) or self.announcement
            self.held = (say(events[first:]), pegs_of(events[first:]))
        return True

    def open_show(self) -> None:
        said, pegs = self.held
        self.play_end, self.held = None, ("", {})
        self.last_pegs.update(pegs)
        if said:
            self.announcement = said


class AtPlayEnd:
    """A controller as the renderer draws it in the beat before the show: the table of its
    ``play_end``, and no show yet. (The coach draws the counted hand's review after the beat:
    web/dom.py's idle loop opens the show first.)"""

    show = ()
    play_over = True

    def __init__(self, ctl):
        self._ctl = ctl

    def __getattr__(self, name):
        return getattr(self._ctl, name)

    def view(self) -> View:
        return self._ctl.play_end
