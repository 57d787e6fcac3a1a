"""The fair deal's part of the host's table (`web.friends.host.HostTable`): one round a hand,
a hand ahead, with `web.friends.fair_host.FairDealer` keeping the secrets. A mixin, so the
table's own module keeps to seats, connections and moves. Pure Python.

Order on the wire, per hand: ``fair_commit`` while the hand before is played, each guest's
``fair_contribute``, ``fair_deal`` once every share is in (or late ones are replaced), the
deal itself (the hand's first view), and ``fair_reveal`` right after the view that carries
the hand's show.
"""

from __future__ import annotations

from game.engine import OVER

from . import protocol


class FairRounds:
    """Needs the table's ``fair``, ``games``, ``starting``, ``seats``, ``session``, ``ticker``,
    ``online``, ``broadcast``, ``send``, ``system``, ``drop`` and ``maybe_begin``."""

    def sources(self) -> tuple[str, ...]:
        """Who gives each seat's share: a friend away from the table cannot, so the host does
        at once (the players list shows them away)."""
        kinds = {"host": "host", "bot": "bot", "person": "guest", "open": "replaced"}
        return tuple("replaced" if s.kind == "person" and not self.online(seat) else kinds[s.kind]
                     for seat, s in enumerate(self.seats))

    def open_round(self, hand: int) -> None:
        self.broadcast(protocol.fair_commit(self.fair.open(self.games, hand, self.sources(), self.ticker())))

    def fix(self, hand: int) -> int:
        """Fix ``hand``'s seed now (the deal is due, or everyone has added to it) and publish
        every contribution; a guest that has not sent one is replaced, and everyone is told."""
        fixed = hand in self.fair.fixed
        seed, late = self.fair.fix(hand)
        for seat in late:
            self.system(f"{self.seats[seat].name}'s share of the shuffle did not come in time: "
                        f"the host's committed secret stands in for it")
        if not fixed:
            self.broadcast(protocol.fair_deal(self.fair.rounds[hand]))
        return seed

    def contribution(self, conn, seat: int, message) -> None:
        hand = message["hand"]
        if not self.fair.contribute(message["game"], hand, seat, message["value"]):
            return self.drop(conn, f"a share of the shuffle for game {message['game']} hand {hand} "
                                   f"that is not awaited")
        if self.fair.ready(hand) and not self.maybe_begin() and not self.starting:
            self.fix(hand)

    def tick(self) -> bool:
        """Replace the contributions that are late (the glue calls this every second); True
        when something changed."""
        due = self.fair.due(self.ticker())
        if not due:
            return False
        if not self.maybe_begin():
            for hand in due:
                if not (self.starting and hand == 0):
                    self.fix(hand)
        return True

    def due_reveals(self, events) -> list:
        """The rounds to reveal after ``events``: a hand's once its show is over (the next hand
        is dealt), every dealt hand's once the game is over."""
        state = self.session.state
        if state.phase == OVER:
            self.fair.drop_after(state.hand_no)     # a round for a hand that will never be dealt
            hands = [hand for hand in self.fair.unrevealed() if hand in self.fair.fixed]
        elif any(event.kind == "deal" for event in events):
            hands = [state.hand_no - 1]
        else:
            hands = []
        return [self.fair.reveal(hand) for hand in hands]

    def fair_transcript(self) -> dict | None:
        """The finished game's fair deal for the host's own record (every secret is revealed
        at the end), so a game the host shares can be checked again; None without one."""
        if self.session is None or not self.session.state.hand_seeds:
            return None
        return self.fair.transcript()

    def send_fair_history(self, conn) -> None:
        """This game's fair deal so far, to a guest that (re)joins: to add to or check."""
        for hand in sorted(self.fair.rounds):
            round_ = self.fair.rounds[hand]
            self.send(conn, protocol.fair_commit(round_))
            if hand in self.fair.fixed:
                self.send(conn, protocol.fair_deal(round_))
            if hand in self.fair.revealed:
                self.send(conn, protocol.fair_reveal(round_))
