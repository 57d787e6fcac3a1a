"""When the host makes a guest an offer: a want-offer flood must not exhaust the browser's
peer connections (Chromium refuses new ones past a few hundred) or stall the table.

Every relay member may have at most one offer pending (made, its channel not open yet); a
member that asks again is answered only once its pending offer is old enough to be given
up (`RETRY_AFTER`), and then that offer is replaced, not added to. At most `MAX_PENDING`
offers are pending in all; an offer that has not connected within `PENDING_FOR` seconds
stops counting and is closed by the caller. Pure Python: the clock is passed in.

>>> book = OfferBook()
>>> book.ask("m1", now=0.0), book.ask("m1", now=1.0), book.ask("m1", now=10.0)
('new', 'wait', 'replace')
>>> book.connected("m1"); book.pending_count(now=11.0)
0
"""

from __future__ import annotations

MAX_PENDING = 12       # more than a relay room's members (8): the cap never locks out a real guest
RETRY_AFTER = 8.0      # seconds before a member's unanswered offer may be replaced
PENDING_FOR = 20.0     # seconds after which an offer that never connected is given up


class OfferBook:
    """The pending offers by relay member, and the decision for each want-offer."""

    def __init__(self, max_pending: int = MAX_PENDING, retry_after: float = RETRY_AFTER,
                 pending_for: float = PENDING_FOR):
        self.max_pending, self.retry_after, self.pending_for = max_pending, retry_after, pending_for
        self.made: dict[str, float] = {}    # member -> when its pending offer was made

    def ask(self, member: str, now: float) -> str:
        """A want-offer from ``member``: ``"new"`` (make an offer), ``"replace"`` (close its
        pending offer, make a new one), ``"wait"`` (its offer is still young) or ``"full"``
        (too many pending: ignore; a real guest asks again in a few seconds).

        >>> book = OfferBook(max_pending=1)
        >>> book.ask("a", now=0.0), book.ask("b", now=0.0), book.ask("b", now=25.0)
        ('new', 'full', 'new')
        """
        self.expire(now)
        if member in self.made:
            if now - self.made[member] < self.retry_after:
                return "wait"
            self.made[member] = now
            return "replace"
        if len(self.made) >= self.max_pending:
            return "full"
        self.made[member] = now
        return "new"

    def connected(self, member: str) -> None:
        """``member``'s channel opened: its offer no longer counts as pending."""
        self.made.pop(member, None)

    def forget(self, member: str) -> None:
        """``member``'s offer was closed or the member left the relay room."""
        self.made.pop(member, None)

    def expire(self, now: float) -> list[str]:
        """Give up offers pending for longer than `PENDING_FOR`; return their members."""
        old = [member for member, made in self.made.items() if now - made >= self.pending_for]
        for member in old:
            del self.made[member]
        return old

    def pending_count(self, now: float) -> int:
        self.expire(now)
        return len(self.made)
