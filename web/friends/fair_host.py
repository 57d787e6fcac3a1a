"""The host's half of the fair deal (`game.fair`): a fresh secret and its commitment for each
hand, the guests' contributions, the seed fixed just before the deal, the reveal after it.

Rounds run one hand ahead, so the table never waits for them: hand 1's round happens when the
game starts (it waits at most `WAIT` seconds), and hand n+1's round while hand n is played.
A guest whose contribution has not come when the round is fixed (after `WAIT` seconds, or at
the deal at the latest) is replaced by a `game.fair.stand_in` value, and the table is told.
Pure Python: the clock and the secrets are passed in.

>>> dealer = FairDealer("room-0123456789", secret_source=lambda: "ab" * 32)
>>> commit = dealer.open(0, 0, ("host", "guest"), now=0.0)
>>> dealer.contribute(0, 0, 1, "cd" * 32), dealer.ready(0)
(True, True)
>>> seed, replaced = dealer.fix(0); replaced
[]
>>> dealer.reveal(0).secret == "ab" * 32
True
"""

from __future__ import annotations

import secrets

from game.fair import Round, commitment

WAIT = 10.0    # seconds a guest's browser has to send its contribution (a busy phone can be slow)


class FairDealer:
    """The rounds of the game in progress at one table (and every commitment it ever sent)."""

    def __init__(self, room: str, secret_source=lambda: secrets.token_hex(32)):
        self.room, self.secret_source = room, secret_source
        self.rounds: dict[int, Round] = {}     # hand -> its round (with the secret), this game
        self.opened: dict[int, float] = {}     # hand -> when its commitment went out
        self.fixed: dict[int, int] = {}        # hand -> its seed, once fixed
        self.revealed: set[int] = set()
        self.sent: list[str] = []              # every commitment this table sent, never reused

    def new_game(self) -> None:
        self.rounds, self.opened, self.fixed, self.revealed = {}, {}, {}, set()

    def open(self, game: int, hand: int, sources, now: float) -> Round:
        """A fresh secret for ``hand``; returns the round whose commitment goes to the guests."""
        secret = self.secret_source()
        while commitment(secret) in self.sent:     # never twice, even with a broken source
            secret = secrets.token_hex(32)
        round_ = Round(game, hand, commitment(secret), ("0" * 64,) * len(sources), tuple(sources), secret)
        self.sent.append(round_.commitment)
        self.rounds[hand], self.opened[hand] = round_, now
        return round_

    def contribute(self, game: int, hand: int, seat: int, value: str) -> bool:
        """A guest's contribution: taken once, for an open round, for a seat awaited there."""
        round_ = self.rounds.get(hand)
        if round_ is None or round_.game != game or hand in self.fixed or \
                not 0 <= seat < len(round_.sources) or round_.sources[seat] != "guest" or \
                round_.contributions[seat] != "0" * 64:
            return False
        values = list(round_.contributions)
        values[seat] = value
        self.rounds[hand] = Round(game, hand, round_.commitment, tuple(values), round_.sources, round_.secret)
        return True

    def waiting(self, hand: int) -> list[int]:
        """The guest seats whose contribution to ``hand`` has not come."""
        round_ = self.rounds[hand]
        return [seat for seat, (value, source) in enumerate(zip(round_.contributions, round_.sources))
                if source == "guest" and value == "0" * 64]

    def ready(self, hand: int) -> bool:
        return hand in self.rounds and not self.waiting(hand)

    def due(self, now: float) -> list[int]:
        """Open rounds whose guests have had their `WAIT`."""
        return [hand for hand, at in self.opened.items() if hand not in self.fixed and now - at >= WAIT]

    def fix(self, hand: int) -> tuple[int, list[int]]:
        """Fix ``hand``'s seed (once): (the seed, the guest seats replaced for being late)."""
        if hand in self.fixed:
            return self.fixed[hand], []
        late = self.waiting(hand)
        round_ = self.rounds[hand]
        sources = tuple("replaced" if seat in late else source for seat, source in enumerate(round_.sources))
        round_ = Round(round_.game, hand, round_.commitment, round_.contributions, sources, round_.secret).stood_in()
        self.rounds[hand] = round_
        self.fixed[hand] = round_.seed(self.room)
        return self.fixed[hand], late

    def drop_after(self, last: int) -> None:
        """The game ended in hand ``last``: forget the rounds of hands never dealt."""
        for hand in [hand for hand in self.rounds if hand > last]:
            del self.rounds[hand]
            self.opened.pop(hand, None)
            self.fixed.pop(hand, None)

    def reveal(self, hand: int) -> Round:
        self.revealed.add(hand)
        return self.rounds[hand]

    def unrevealed(self) -> list[int]:
        return sorted(set(self.rounds) - self.revealed)

    def transcript(self) -> dict:
        """The game's fixed rounds, secrets only where revealed, as a record keeps them
        (`web.profile.records`; the guest's half writes the same shape)."""
        rounds = [dict(self.rounds[hand].to_json(), secret=self.rounds[hand].secret if hand in self.revealed else None)
                  for hand in sorted(self.fixed)]
        return {"table": self.room, "rounds": rounds, "alarms": []}

    # -- saving (the host's own browser: it holds the secrets) --

    def to_json(self) -> dict:
        return {"rounds": [r.to_json() for r in self.rounds.values()], "fixed": sorted(self.fixed),
                "revealed": sorted(self.revealed), "sent": self.sent[-2000:]}

    def load(self, data: dict, now: float) -> None:
        """Restore `to_json` output; the rounds still open wait again from ``now``."""
        rounds = [Round.from_json(r) for r in data["rounds"]]
        self.rounds = {r.hand: r for r in rounds}
        self.fixed = {hand: self.rounds[hand].seed(self.room) for hand in data["fixed"]}
        self.opened = {hand: now for hand in self.rounds if hand not in self.fixed}
        self.revealed = set(data["revealed"]) & set(self.rounds)
        self.sent = [c for c in data["sent"] if isinstance(c, str)]
