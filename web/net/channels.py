"""Which of the host's open data channels to close, so that no one holds the browser's peer
connections (Chromium refuses new ones past 500) by answering every offer and asking again.

`web.net.offers.OfferBook` bounds the offers still *pending*; this book bounds the channels
*open* whose guest has not sat down yet (no hello taken: a friend on the name form holds
one; so does a hoarder):

- One channel per relay member: a member's new channel closes its older ones. A guest never
  needs two (it closes its own before it answers a new offer).
- At most `MAX_UNSEATED` unseated channels in all. Past that the oldest unseated one is
  closed, first among those whose member has left the relay room: with one channel each, the
  members still in a room (8 at most) never fill the cap, so a friend there keeps theirs
  while a hoarder that comes back as new members loses its old channels.
- An unseated channel closes after `UNSEATED_FOR` seconds.

A friend whose channel closes asks for a new one by itself. Seated channels are bounded by
the table's seats and closed only by their guests (or the member's next channel). Pure
Python: the clock is passed in; the caller closes what each method returns.

>>> book = ChannelBook(max_unseated=2)
>>> book.opened("c1", "m1", now=0.0), book.opened("c2", "m1", now=1.0)   # m1 asked again
([], ['c1'])
>>> book.seated({"c2"})
>>> book.opened("c3", "m2", now=2.0), book.opened("c4", "m3", now=3.0)
([], [])
>>> book.left("m2"); book.opened("c5", "m4", now=4.0)   # m2's channel goes first, though newer
['c3']
>>> book.expire(now=4.0 + UNSEATED_FOR)                  # the seated c2 stays
['c4', 'c5']
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_UNSEATED = 8       # unseated channels in all: at least a room's members besides the host (7)
UNSEATED_FOR = 120.0   # seconds a channel may stay open with no one seated on it


@dataclass
class Channel:
    member: str
    since: float
    seated: bool = False
    left: bool = False     # its member has left the relay room


class ChannelBook:
    """The host's open channels by relay member, and which of them to close."""

    def __init__(self, max_unseated: int = MAX_UNSEATED, unseated_for: float = UNSEATED_FOR):
        self.max_unseated, self.unseated_for = max_unseated, unseated_for
        self.open: dict[str, Channel] = {}    # conn -> its channel

    def opened(self, conn: str, member: str, now: float) -> list[str]:
        """``member``'s channel ``conn`` opened: the conns to close now (its member's older
        channels, then the oldest unseated past the cap, those of members gone first).

        >>> book = ChannelBook(max_unseated=1)
        >>> book.opened("c1", "m1", now=0.0), book.opened("c2", "m2", now=1.0)
        ([], ['c1'])
        """
        close = [known for known, channel in self.open.items() if channel.member == member]
        close += self.expire(now)
        for known in close:
            self.open.pop(known, None)
        self.open[conn] = Channel(member, now)
        unseated = sorted((channel.left is False, channel.since, known)
                          for known, channel in self.open.items() if not channel.seated and known != conn)
        over = len(unseated) + 1 - self.max_unseated
        for _, _, known in unseated[:max(over, 0)]:
            del self.open[known]
            close.append(known)
        return close

    def seated(self, conns: set[str]) -> None:
        """The conns with a seat now (a hello taken); every other channel is unseated."""
        for known, channel in self.open.items():
            channel.seated = known in conns

    def left(self, member: str) -> None:
        """``member`` left the relay room (its channels stay open)."""
        for channel in self.open.values():
            if channel.member == member:
                channel.left = True

    def relay_lost(self) -> None:
        """The host's relay socket closed: members come back under new ids."""
        for channel in self.open.values():
            channel.left = True

    def closed(self, conn: str) -> None:
        self.open.pop(conn, None)

    def expire(self, now: float) -> list[str]:
        """Forget the unseated channels open for `UNSEATED_FOR` seconds; return their conns."""
        old = [known for known, channel in self.open.items()
               if not channel.seated and now - channel.since >= self.unseated_for]
        for known in old:
            del self.open[known]
        return old
