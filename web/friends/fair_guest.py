"""A guest's half of the fair deal (`game.fair`): answer each commitment with a fresh random
contribution, remember every card this seat saw, and check each hand when its secret is
revealed. Pure Python: the randomness is passed in.

Each hand ends with a verdict: ``verified`` (the secret matches its commitment, the
commitment is new, the contributions are as sent, and every card seen is where the revealed
deck says), or ``alarm`` with the reasons, which stay with the game's record
(`web.profile.records`). Rounds a guest cannot check (it joined after their commitment) stay
``unchecked``.

>>> from game.fair import commitment
>>> watch = FairWatch("room-0123456789", value_source=lambda: "cd" * 32)
>>> watch.seat = 1
>>> watch.commit(0, 0, commitment("ab" * 32)) == "cd" * 32
True
>>> watch.commit(0, 1, commitment("ab" * 32)) is None, watch.alarms
(True, ["hand 2: the host used an earlier hand's commitment again"])
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from game.engine import Config
from game.fair import Round, Seen, check_reveal, check_seen

from .verdicts import ALARM, UNCHECKED, VERIFIED


class FairWatch:
    """Everything one guest knows about the fair deal at its table."""

    def __init__(self, room: str, value_source=lambda: secrets.token_hex(32)):
        self.room, self.value_source = room, value_source
        self.seat: int | None = None
        self.game = 0                       # the table's game now being played (fair numbering)
        self.mine: dict = {}                # (game, hand) -> this guest's contribution
        self.rounds: dict = {}              # (game, hand) -> Round as the host published it
        self.commitments: list[str] = []    # every commitment received, oldest first
        self.seen: dict = {}                # (game, hand) -> Seen
        self.verdicts: dict = {}            # (game, hand) -> (VERIFIED | ALARM | UNCHECKED, reasons)
        self.alarms: list[str] = []
        self.last_hand = 0                  # the latest hand of this game seen dealt
        self.replaying = False              # the host is sending its history after a welcome
        self.unclaimed: set = set()         # rounds first heard of in that history: a share this
                                            # page sent before a reload is not in self.mine

    # -- the host's messages --

    def commit(self, game: int, hand: int, commitment: str) -> str | None:
        """A new round: the contribution to send back, or None (a round seen already, or an
        old commitment used again: that is an alarm)."""
        key = (game, hand)
        if key in self.rounds:
            return None
        self.rounds[key] = Round(game, hand, commitment, (), ())
        if commitment in self.commitments:     # its secret is known to whoever saw it revealed
            self.alarm(key, f"hand {hand + 1}: the host used an earlier hand's commitment again")
            return None
        self.commitments.append(commitment)
        if self.replaying:
            self.unclaimed.add(key)
        self.mine[key] = self.value_source()
        return self.mine[key]

    def deal(self, game: int, hand: int, contributions, sources) -> None:
        """The contributions the hand is shuffled with, published before its deal."""
        round_ = self.rounds.get((game, hand))
        if round_ is None or round_.contributions:
            return
        self.rounds[(game, hand)] = replace(round_, contributions=tuple(contributions), sources=tuple(sources))
        self.game = max(self.game, game)     # a game's rounds all come after the one before

    def reveal(self, game: int, hand: int, secret: str, config: Config) -> str:
        """Check a revealed hand; returns the verdict (also kept in ``verdicts``)."""
        key = (game, hand)
        round_ = self.rounds.get(key)
        if round_ is None:              # committed before this guest sat down
            self.verdicts.setdefault(key, (UNCHECKED, ()))
            return self.verdicts[key][0]
        if len(round_.contributions) != config.players:
            self.alarm(key, f"hand {hand + 1}: the host did not publish every seat's share before the deal")
            return ALARM
        earlier = tuple(self.commitments[:self.commitments.index(round_.commitment)])
        claimed = self.seat is not None and key in self.mine and key not in self.unclaimed
        mine = (self.seat, self.mine[key]) if claimed else None
        problems = list(check_reveal(round_, secret, earlier, mine))
        round_ = replace(round_, secret=secret)
        self.rounds[key] = round_
        if not problems and key in self.seen:
            problems += check_seen(config, round_.seed(self.room), hand, self.seen[key])
        if problems:
            for problem in problems:
                self.alarm(key, problem)
        elif self.verdicts.get(key, (None,))[0] != ALARM:
            self.verdicts[key] = (VERIFIED, ())
        return self.verdicts[key][0]

    def alarm(self, key, reason: str) -> None:
        reasons = self.verdicts.get(key, (ALARM, ()))[1]
        self.verdicts[key] = (ALARM, reasons + (reason,))
        if reason not in self.alarms:
            self.alarms.append(reason)

    # -- what this seat saw --

    def saw(self, view, events) -> None:
        """Note the cards in a view and the events that led to it (a show's cards arrive with
        the next hand's first view, so events are counted back from the deals among them)."""
        if self.seat is None or view.seat != self.seat:
            return
        hand = view.hand_no - sum(event.kind == "deal" for event in events)
        for event in events:
            if event.kind == "deal":
                hand += 1
            elif event.kind in ("play", "starter", "show", "crib") and event.cards:
                self._note(hand, event)
        self.last_hand = view.hand_no
        seen = self._seen(view.hand_no, view.dealer)
        mine = set(view.hand) | set(view.discarded) | set(view.kept)
        mine |= {step.card for step in view.play if step.kind == "play" and step.seat == self.seat}
        played = {(step.seat, step.card) for step in view.play if step.kind == "play"}
        self.seen[(self.game, view.hand_no)] = replace(
            seen, mine=seen.mine | mine, played=seen.played | played,
            starter=view.starter or seen.starter, cut=view.cut if view.hand_no == 0 else ())
        self._whole(view.hand_no, view.config)

    def _seen(self, hand: int, dealer: int | None = None) -> Seen | None:
        key = (self.game, hand)
        if key not in self.seen and dealer is not None:
            self.seen[key] = Seen(self.seat, dealer)
        return self.seen.get(key)

    def _note(self, hand: int, event) -> None:
        seen = self._seen(hand)
        if seen is None:        # a hand this guest never saw dealt
            return
        if event.kind == "play":
            mine = seen.mine | set(event.cards) if event.seat == self.seat else seen.mine
            seen = replace(seen, played=seen.played | {(event.seat, event.cards[0])}, mine=mine)
        elif event.kind == "starter":
            seen = replace(seen, starter=event.cards[0])
        else:
            seen = replace(seen, shown=seen.shown + ((event.seat, event.kind == "crib", tuple(event.cards)),))
        self.seen[(self.game, hand)] = seen

    def _whole(self, hand: int, config: Config) -> None:
        seen = self.seen[(self.game, hand)]
        if len(seen.mine) == config.dealt and not seen.whole:
            self.seen[(self.game, hand)] = replace(seen, whole=True)

    # -- for the screen and the record --

    def marks(self) -> list[tuple[int, str, tuple]]:
        """(hand, verdict, reasons) for this game's hands, oldest first."""
        return [(hand, *self.verdicts.get((game, hand), ("pending", ())))
                for (game, hand) in sorted(self.rounds) if game == self.game and hand <= self.last_hand
                and (self.rounds[(game, hand)].contributions or (game, hand) in self.verdicts)]

    def host_given(self) -> set[str]:
        """Which seats' shares the host gave this game: ``bot``, ``replaced`` (late or away)."""
        return {source for (game, _), r in self.rounds.items() if game == self.game
                for source in r.sources if source in ("bot", "replaced")}

    def transcript(self, game: int) -> dict:
        """The game's rounds and alarms, for its record (`web.profile.records`)."""
        rounds = [self.rounds[key].to_json() for key in sorted(self.rounds)
                  if key[0] == game and key[1] <= self.last_hand and self.rounds[key].contributions]
        alarms = [reason for key, (verdict, reasons) in sorted(self.verdicts.items())
                  if key[0] == game for reason in reasons]
        return {"table": self.room, "rounds": rounds, "alarms": alarms}
