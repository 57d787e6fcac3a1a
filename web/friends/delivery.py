"""Exactly-once delivery of a guest's moves and chat lines across dropped connections.

A data channel can die with a message in flight: sent but never received, or received but
its answer lost. So every move and chat line a guest sends carries a number ``n``, one more
than the last; the guest keeps it until the host acknowledges that number (``ack``), and the
host remembers, per seat, the last number it took. After a reconnect the host's ``welcome``
names that number: whatever the guest still holds above it is sent again, and whatever is
at or below it was taken already. The host drops a number it has seen (and acknowledges it
again), so a message sent twice is taken once. Pure Python: the clock is passed in.

>>> out = Outgoing()
>>> out.add(lambda n: f"move {n}", "action", now=0.0), out.add(lambda n: f"chat {n}", "chat", now=0.0)
('move 1', 'chat 2')
>>> out.action_pending, out.acked(1), out.action_pending
(True, None, False)
>>> out.welcome(last=1)          # reconnected: the host took 1, so 2 goes again
['chat 2']
>>> out.welcome(last=2), out.pending_count
([], 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

RESEND_AFTER = 6.0     # seconds without an ack before a message is sent again on the same channel


@dataclass
class Sent:
    n: int
    kind: str      # "action" or "chat"
    text: str
    at: float      # when it was last sent


class Outgoing:
    """A guest's numbered messages that the host has not acknowledged yet."""

    def __init__(self, last: int = 0):
        self.last = last                # the highest number given out
        self.unacked: list[Sent] = []

    def add(self, build: Callable[[int], str], kind: str, now: float) -> str:
        """Number a new message: ``build(n)`` makes its text, which is kept and returned."""
        self.last += 1
        text = build(self.last)
        self.unacked.append(Sent(self.last, kind, text, now))
        return text

    def acked(self, n: int) -> None:
        """The host took every message up to ``n``."""
        self.unacked = [sent for sent in self.unacked if sent.n > n]

    def welcome(self, last: int) -> list[str]:
        """A (re)connection: the host last took ``last``; the texts to send again, in order.
        Numbers continue above both sides' last, so a new message is never taken for an old one."""
        self.last = max(self.last, last)
        self.acked(last)
        return [sent.text for sent in self.unacked]

    def due(self, now: float, after: float = RESEND_AFTER) -> list[str]:
        """Texts unacknowledged for ``after`` seconds, sent again now (the host drops repeats):
        the way out when a message or its ack was lost on a channel that stayed open."""
        late = [sent for sent in self.unacked if now - sent.at >= after]
        for sent in late:
            sent.at = now
        return [sent.text for sent in late]

    @property
    def action_pending(self) -> bool:
        return any(sent.kind == "action" for sent in self.unacked)

    @property
    def pending_count(self) -> int:
        return len(self.unacked)
