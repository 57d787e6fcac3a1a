"""The host's half of the fair deal (`game.fair`): a fresh secret and its commitment for each
hand, the guests' contributions, the seed fixed just before the deal, the reveal after it.

Rounds run one hand ahead, so the table never waits for them: hand 1's round happens when the
game starts (it waits at most `WAIT` seconds), and hand n+1's round while hand n is played.
A guest whose contribution has not come when the round is fixed (after `WAIT` seconds for a
game's first hand, else at the deal) is replaced by a `game.fair.stand_in` value, and the table
is told. A connected guest answers at the start of hand n, before its own first move there,
on the same ordered channel, so its share is always in by hand n+1's deal: a guest that was
connected all along and finds its share replaced raises an alarm (`web.friends.fair_guest`).
Rounds are kept by (game, hand): a rematch's first round is open while the game before is
still on the table. Pure Python: the clock and the secrets are passed in.

>>> dealer = FairDealer("room-0123456789", secret_source=lambda: "ab" * 32)
>>> commit = dealer.open(0, 0, ("host", "guest"), now=0.0)
>>> dealer.contribute(0, 0, 1, "cd" * 32), dealer.ready(0, 0)
(True, True)
>>> seed, replaced = dealer.fix(0, 0); replaced
[]
>>> dealer.reveal(0, 0).secret == "ab" * 32
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, cast

from game.fair import Round, commitment

WAIT = 10.0    # seconds a guest's browser has to send its contribution (a busy phone can be slow)
UNSET = "0" * 64
Key = tuple[int, int]      # (game, hand)


class FairDealer:
    """The rounds of the games at one table (and every commitment it ever sent)."""

    def __init__(self, room: str, secret_source: Callable[[], str] = lambda: secrets.token_hex(32)) -> None:
        self.room, self.secret_source = room, secret_source
        self.rounds: dict[tuple[int, int], Round] = {}    # (game, hand) -> its round, with the secret
        self.opened: dict[tuple[int, int], float] = {}    # ... when its commitment went out
        self.fixed: dict[tuple[int, int], int] = {}       # ... its seed, once fixed
        self.revealed: set[tuple[int, int]] = set()
        self.sent: list[str] = []              # every commitment this table sent, never reused

    def open(self, game: int, hand: int, sources: Sequence[str], now: float) -> Round:
        """A fresh secret for ``hand``; returns the round whose commitment goes to the guests."""
        secret = self.secret_source()
        while commitment(secret) in self.sent:     # never twice, even with a broken source
            secret = secrets.token_hex(32)
        round_ = Round(game, hand, commitment(secret), (UNSET,) * len(sources), tuple(sources), secret)
        self.sent.append(round_.commitment)
        self.rounds[game, hand], self.opened[game, hand] = round_, now
        return round_

    def contribute(self, game: int, hand: int, seat: int, value: str) -> bool:
        """A guest's contribution: taken once, for an open round, for a seat awaited there."""
        round_ = self.rounds.get((game, hand))
        if round_ is None or (game, hand) in self.fixed or not 0 <= seat < len(round_.sources) or \
                round_.sources[seat] != "guest" or round_.contributions[seat] != UNSET:
            return False
        values = list(round_.contributions)
        values[seat] = value
        self.rounds[game, hand] = Round(game, hand, round_.commitment, tuple(values), round_.sources, round_.secret)
        return True

    def waiting(self, game: int, hand: int) -> list[int]:
        """The guest seats whose contribution to ``hand`` has not come."""
        round_ = self.rounds[game, hand]
        return [seat for seat, (value, source) in enumerate(zip(round_.contributions, round_.sources))
                if source == "guest" and value == UNSET]

    def ready(self, game: int, hand: int) -> bool:
        return (game, hand) in self.rounds and not self.waiting(game, hand)

    def due(self, now: float) -> list[tuple[int, int]]:
        """Games' first rounds still open after their guests have had their `WAIT` (the table
        waits for those; a later round is fixed at its deal, a whole hand after it opened)."""
        return [key for key, at in self.opened.items() if key[1] == 0 and key not in self.fixed and now - at >= WAIT]

    def fix(self, game: int, hand: int) -> tuple[int, list[int]]:
        """Fix ``hand``'s seed (once): (the seed, the guest seats replaced for being late)."""
        key = (game, hand)
        if key in self.fixed:
            return self.fixed[key], []
        late = self.waiting(game, hand)
        round_ = self.rounds[key]
        sources = tuple("replaced" if seat in late else source for seat, source in enumerate(round_.sources))
        round_ = Round(game, hand, round_.commitment, round_.contributions, sources, round_.secret).stood_in()
        self.rounds[key] = round_
        self.fixed[key] = round_.seed(self.room)
        return self.fixed[key], late

    def keep_only(self, game: int) -> None:
        """``game`` has begun: the rounds of the games before it are history."""
        for key in [key for key in self.rounds if key[0] != game]:
            self._forget(key)

    def drop_after(self, game: int, last: int) -> None:
        """``game`` ended in hand ``last``: forget the rounds of hands never dealt."""
        for key in [key for key in self.rounds if key[0] == game and key[1] > last]:
            self._forget(key)

    def _forget(self, key: Key) -> None:
        del self.rounds[key]
        self.opened.pop(key, None)
        self.fixed.pop(key, None)
        self.revealed.discard(key)

    def reveal(self, game: int, hand: int) -> Round:
        self.revealed.add((game, hand))
        return self.rounds[game, hand]

    def hands(self, game: int) -> list[int]:
        """The hands of ``game`` with a round, in order."""
        return sorted(hand for g, hand in self.rounds if g == game)

    def unrevealed(self, game: int) -> list[int]:
        return [hand for hand in self.hands(game) if (game, hand) not in self.revealed]

    def transcript(self, game: int) -> dict[str, Any]:
        """The game's fixed rounds, secrets only where revealed, as a record keeps them
        (`web.profile.records`; the guest's half writes the same shape)."""
        rounds = [dict(self.rounds[game, hand].to_json(),
                       secret=self.rounds[game, hand].secret if (game, hand) in self.revealed else None)
                  for hand in self.hands(game) if (game, hand) in self.fixed]
        return {"table": self.room, "rounds": rounds, "alarms": []}

    # -- saving (the host's own browser: it holds the secrets) --

    def to_json(self) -> dict[str, Any]:
        return {"rounds": [r.to_json() for r in self.rounds.values()], "fixed": sorted(self.fixed),
                "revealed": sorted(self.revealed), "sent": self.sent[-2000:]}

    def load(self, data: dict[str, Any], now: float) -> None:
        """Restore `to_json` output; the rounds still open wait again from ``now``."""
        rounds = [Round.from_json(r) for r in data["rounds"]]
        self.rounds = {(r.game, r.hand): r for r in rounds}
        keys = [cast(Key, tuple(key)) for key in data["fixed"]]   # as saved: a key not a round's fails below
        self.fixed = {key: self.rounds[key].seed(self.room) for key in keys}
        self.opened = {key: now for key in self.rounds if key not in self.fixed}
        self.revealed = {cast(Key, tuple(key)) for key in data["revealed"]} & set(self.rounds)
        self.sent = [c for c in data["sent"] if isinstance(c, str)]
