"""How fast a guest may send, so that one guest cannot freeze the host's page or spam the table.

Each guest connection gets a `Flow`: a token bucket for all its messages and a smaller one
for chat lines. A message over either limit is dropped before the host does any work for it
(no parsing, no echo, no repaint); the first drop of a burst earns the sender one private
notice, so a player who pastes too fast learns why, and a flood costs the host almost
nothing. Pure Python: the clock is passed in.

>>> flow = Flow()
>>> [flow.admit("chat", now=0.0) for _ in range(7)]
['ok', 'ok', 'ok', 'ok', 'ok', 'notice', 'drop']
>>> flow.admit("chat", now=10.0), flow.admit("action", now=10.0)
('ok', 'ok')
>>> [flow.admit("blind", now=20.0) for _ in range(26)][-3:]
['ok', 'notice', 'drop']

A blind message sent while the sender has none waiting at the host is *clocked*: an honest
browser sends a hand's next message only once the host relayed its last, so these come no
faster than the host takes them, however fast the people click, and cost no token. They are
refused only once refusals (`penalize`) emptied the blind bucket:

>>> flow = Flow()
>>> {flow.admit("blind", now=0.0, clocked=True) for _ in range(500)}
{'ok'}
>>> for _ in range(24): flow.penalize(now=0.0)
>>> flow.admit("blind", now=0.0, clocked=True), flow.admit("blind", now=1.0, clocked=True)
('notice', 'ok')
"""

from __future__ import annotations

from dataclasses import dataclass

# A blind hand's messages (docs/blind-deal.md) are up to 96 KiB each: a friend sends about 15 a
# hand (its shuffle, lock, unlocks, discard, plays, goes, crib cards and keys), one at a time
# (clocked: see above). Messages sent beside one still waiting, and messages the hand refused,
# draw on this bucket: more than this is a flood, refused before it is read.
BLIND_BURST = 24
BLIND_RATE = 2.0
SLOW_DOWN = "You are sending too fast: some of your messages were dropped. Wait a moment."


@dataclass
class Bucket:
    """``burst`` messages at once, then ``rate`` a second."""

    burst: float
    rate: float
    tokens: float = -1.0
    at: float | None = None

    def has(self, now: float) -> bool:
        """Whether a token is left (none taken)."""
        if self.at is None:
            self.tokens, self.at = self.burst, now
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) * self.rate)
        self.at = now
        return self.tokens >= 1.0

    def take(self, now: float) -> bool:
        if self.has(now):
            self.tokens -= 1.0
            return True
        return False


class Flow:
    """One connection's limits. `admit` says ``"ok"``, ``"notice"`` (drop it and tell the
    sender once) or ``"drop"`` (drop it silently: the sender was told already)."""

    def __init__(self, burst: float = 30, rate: float = 8, chat_burst: float = 5, chat_rate: float = 0.5,
                 blind_burst: float = BLIND_BURST, blind_rate: float = BLIND_RATE):
        self.all = Bucket(burst, rate)
        self.chat = Bucket(chat_burst, chat_rate)
        self.blind = Bucket(blind_burst, blind_rate)
        self.told = False

    def admit(self, kind: str, now: float, clocked: bool = False) -> str:
        """``clocked``: a blind message sent with none of its sender's waiting (costs no token)."""
        if clocked:
            ok = self.blind.has(now)
        else:    # both buckets are charged together so a chat flood also counts against the whole
            ok = self.all.take(now) and (kind != "chat" or self.chat.take(now)) and \
                (kind != "blind" or self.blind.take(now))
        if ok:
            self.told = False
            return "ok"
        if self.told:
            return "drop"
        self.told = True
        return "notice"

    def penalize(self, now: float) -> None:
        """A blind message the hand refused: it draws on the blind bucket after all."""
        self.blind.take(now)
