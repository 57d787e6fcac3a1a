"""Spectators at a table with friends: who watches, how many may, and what a spectator's
channel may do (nothing). Pure Python: the host's table (`web.friends.host`) holds one.

A spectator comes through its own relay room, named in the *watch link* and nowhere else:
``?table=WATCH_ROOM#h=PIN&k=KEY&w=1``. The host opens that room only while watching is on
(`Watchers.start`, a fresh room each time), and every channel that comes through it is a
spectator's, whatever it sends: the seat comes from the connection, never from the message.
So a watch link cannot be made into a seat: without the ``w`` its page asks for a seat in the
watch room, and is refused (``watch-only``); the table's own room, which an invite link names,
is never sent to a spectator (nor any fair deal's round, which would name it).

A spectator reads the table, the chat and the public view (`web.friends.protocol.watch`), and
writes nothing: every message from its channel is answered with `WATCH_ONLY` (a hello with
``watch-only``) and changes nothing, within the channel's rate limits. At most `MAX_WATCHERS`
watch at once: the relay's rooms hold 8 members by default (`relay.limits`), the host and 7
others, and one left free lets a spectator who reloads come back before the relay has seen
its old page go.

>>> watchers = Watchers()
>>> watchers.admit("w1")                     # watching is off
'watch-closed'
>>> watchers.start("watch-room-0123"); [watchers.admit(f"w{n}") for n in range(1, 8)]
[None, None, None, None, None, None, 'watch-full']
>>> len(watchers), watchers.stop(), len(watchers), watchers.room
(6, ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'], 0, None)
"""

from __future__ import annotations

MAX_WATCHERS = 6
WATCH_ONLY = ("You are watching this table: a spectator cannot sit down, play, chat or take part "
              "in the deal.")


class Watchers:
    """The table's spectators: ``room`` (the watch link's relay room, None while watching is
    off) and the conns watching through it, in the order they came."""

    def __init__(self, limit: int = MAX_WATCHERS) -> None:
        self.limit = limit
        self.room: str | None = None
        self.conns: list[str] = []

    def __len__(self) -> int:
        return len(self.conns)

    def __contains__(self, conn: object) -> bool:
        return conn in self.conns

    def start(self, room: str) -> None:
        """Watching on, through ``room`` (a fresh one: an old watch link stays closed)."""
        self.room = room

    def stop(self) -> list[str]:
        """Watching off: the conns that were watching (to tell), none watching after."""
        gone, self.conns, self.room = self.conns, [], None
        return gone

    def admit(self, conn: str) -> str | None:
        """A channel opened through the watch room: None when it may watch, else the reason
        it may not (`web.friends.protocol.REJECT_REASONS`)."""
        if self.room is None:
            return "watch-closed"
        if len(self.conns) >= self.limit:
            return "watch-full"
        self.conns.append(conn)
        return None

    def left(self, conn: str) -> bool:
        """``conn`` closed: whether it was watching."""
        if conn not in self.conns:
            return False
        self.conns.remove(conn)
        return True
