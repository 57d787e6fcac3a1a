"""The host's hand dealt one hand ahead (docs/blind-deal.md, "The work, in the page"): once the
current hand is dealt, the next hand opens (`BlindTable.open` with no scores: its dealer is the
next one, its seats the same) and its shuffles, locks and deal unlocks run in the gaps of the
current hand's play, so that when the current hand ends the next one's cards are read already
(or nearly). Its discards wait: `promote` begins it (`BlindTable.begin`) at the scores the hand
before ended at, which every browser checks against its own.

The current hand always comes first: a friend's message of the current hand is taken before any
of the hand ahead (`take_for`), and the host makes the hand ahead's messages only when the
current hand waits for someone else. A hand ahead is dropped, its keys never published (its
cards stay hidden), when the game ends, when the current hand is dealt again (the seating
changed) or stopped by an alarm.

`web.friends.blind_host.BlindHands` calls these with itself; the hand ahead is its
``blind_next``.
"""

from __future__ import annotations

import re
from collections import deque
from typing import TYPE_CHECKING

from game.blind.alarms import Work, finish
from game.blind.seating import Setup
from game.engine import OVER

from .blind_flow import actor, due
from .blind_table import BlindTable

if TYPE_CHECKING:
    from .blind_host import BlindHands

HAND_NUMBER = re.compile(r'"hand"\s*:\s*(\d{1,9})\b')


def guess_hand(text: str) -> int | None:
    """The hand a blind text says it is for, read from its first characters only: the order of
    the host's work (the hand's table parses the whole text and refuses it if it is not its own).

    >>> guess_hand('{"v":8,"type":"blind","hand":7,"n":3,"body":{}}'), guess_hand("[")
    (7, None)
    """
    found = HAND_NUMBER.search(text[:120])
    return int(found.group(1)) if found else None


def take_for(queue: deque[tuple[int, str]], number: int | None, ahead: int | None) -> tuple[int, str] | None:
    """The first queued (seat, text) for the hand ``number`` (None: any that is not the hand
    ``ahead``'s), removed from ``queue``; None if there is none.

    >>> queue = deque([(1, '{"hand":4}'), (1, '{"hand":3}'), (1, "junk")])
    >>> take_for(queue, None, 4), take_for(queue, 4, 4), take_for(queue, 4, 4), list(queue)
    ((1, '{"hand":3}'), (1, '{"hand":4}'), None, [(1, 'junk')])
    """
    for k, (seat, text) in enumerate(queue):
        guessed = guess_hand(text)
        if guessed == number if number is not None else guessed != ahead:
            del queue[k]
            return seat, text
    return None


def wanted(table: BlindHands) -> bool:
    """Whether the next hand should be opened ahead now: the current hand is dealt, clean, and
    the game goes on after it unless it ends in it."""
    hand, state = table.blind_hand, table.ledger.state if table.ledger is not None else None
    return (hand is not None and table.blind_next is None and state is not None and state.phase != OVER
            and hand.flow.hand.dealt and not hand.flow.stopped and hand.flow.public.winner is None)


def open_ahead(table: BlindHands) -> None:
    """Open the next hand ahead: the next dealer, the same seats, the next hand number."""
    hand = table.blind_hand
    assert hand is not None and table.ledger is not None, "a hand is on"
    setup = hand.setup
    ahead = Setup(setup.table, setup.game, table.blind_count, setup.players, (setup.dealer + 1) % setup.players,
                  setup.humans, setup.host)
    table.blind_count += 1
    table.blind_next = BlindTable.open(ahead, table.target, None, table.choose_own, table.choose_bot)


def ahead_ready(table: BlindHands) -> bool:
    """Whether the hand ahead has work for the host: to open it, a friend's message of it, or
    a message of the host's browser (its deal's crypto)."""
    if wanted(table):
        return True
    ahead = table.blind_next
    if ahead is None:
        return False
    if any(guess_hand(text) == ahead.setup.hand for _, text in table.blind_queue):
        return True
    now = due(ahead.flow)
    return ahead.own.pending is None and now.step in ("shuffle", "lock", "unlock") \
        and any(actor(ahead.setup, seat) == ahead.setup.host for seat in now.seats)


def ahead_work(table: BlindHands) -> Work[bool]:
    """One step of the hand ahead (what `ahead_ready` found): True when it did something."""
    if wanted(table):
        open_ahead(table)
        return True
    ahead = table.blind_next
    if ahead is None:
        return False
    item = take_for(table.blind_queue, ahead.setup.hand, ahead.setup.hand)
    if item is not None:
        if not (yield from ahead.receive(*item)):
            table.penalize(item[0])
        return True
    if due(ahead.flow).step in ("shuffle", "lock", "unlock"):
        return (yield from ahead.run())
    return False


def drop_ahead(table: BlindHands) -> None:
    """Drop the hand ahead, if any: its keys are never sent, so its cards stay hidden; a
    friend's message of it that comes later is taken as nothing (`BlindHands.dropped_ahead`)."""
    if table.blind_next is not None:
        number = table.blind_next.setup.hand
        table.blind_dropped.add(number)
        table.blind_queue = deque(item for item in table.blind_queue if guess_hand(item[1]) != number)
    table.blind_next = None


def promote(table: BlindHands) -> BlindTable | None:
    """The hand ahead, begun at the engine's scores (the hand before was just added to the
    ledger), or None (none, or not dealt for this hand: it is dropped)."""
    ahead = table.blind_next
    assert table.ledger is not None, "a game is on"
    state = table.ledger.state
    if ahead is None or ahead.setup.dealer != state.dealer or ahead.setup.humans != table.humans():
        drop_ahead(table)
        return None
    table.blind_next = None
    finish(ahead.begin(state.scores))     # (no crypto: the host's own body, the scores checked by each friend)
    return ahead
