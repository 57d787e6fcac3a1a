"""The fair deal's part of the host's table (`web.friends.host.HostTable`): one round a hand,
a hand ahead, with `web.friends.fair_host.FairDealer` keeping the secrets. A mixin, so the
table's own module keeps to seats, connections and moves. Pure Python.

On the wire (`web.friends.protocol`): a game's first round goes out as ``fair_commit`` before
the game is dealt; every other round rides with the views. The view that deals hand n carries
hand n's round with its shares fixed, hand n+1's commitment (the guests answer it with
``fair_contribute`` while hand n is played) and hand n-1's secret, revealed once its show is
over; the view that ends the game carries every secret and the game's record. A guest checks
each of these against the view it came with (`web.friends.fair_guest`), so a round the host
leaves out, delays or opens twice is an alarm there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from game.engine import OVER

from . import protocol

if TYPE_CHECKING:
    from game.events import Event

    from .fair_host import FairDealer
    from .host import Seat
    from .protocol import Fields, Message
    from ..session import Session


class FairRounds:
    """The rounds of `web.friends.host.HostTable`, which it is mixed into: what they use of the
    table is declared here."""

    fair: FairDealer
    games: int
    starting: bool
    seats: list[Seat]
    session: Session | None
    ticker: Callable[[], float]

    if TYPE_CHECKING:     # the table's own (web.friends.host.HostTable)
        def online(self, seat: int) -> bool: ...
        def broadcast(self, text: str) -> None: ...
        def send(self, conn: str, text: str) -> None: ...
        def system(self, text: str) -> None: ...
        def drop(self, conn: str, reason: str) -> None: ...
        def maybe_begin(self) -> bool: ...

    @property
    def playing(self) -> int:
        """The table's number of the game its session holds (a rematch being shuffled is the next)."""
        return self.games - 1 if self.starting and self.session is not None else self.games

    def sources(self) -> tuple[str, ...]:
        """Who gives each seat's share: a friend away from the table cannot, so the host does
        at once (the players list shows them away)."""
        kinds = {"host": "host", "bot": "bot", "person": "guest", "open": "replaced"}
        return tuple("replaced" if s.kind == "person" and not self.online(seat) else kinds[s.kind]
                     for seat, s in enumerate(self.seats))

    def open_round(self, game: int, hand: int) -> None:
        """A new round. A game's first goes out at once; later ones ride with the next view."""
        round_ = self.fair.open(game, hand, self.sources(), self.ticker())
        if hand == 0:
            self.broadcast(protocol.fair_commit(round_))

    def fix(self, game: int, hand: int) -> int:
        """Fix ``hand``'s seed now (the deal is due, or everyone has added to it); a guest that
        has not sent its share is replaced, and everyone is told."""
        seed, late = self.fair.fix(game, hand)
        for seat in late:
            self.system(f"{self.seats[seat].name}'s share of the shuffle did not come in time: "
                        f"the host's committed secret stands in for it")
        return seed

    def contribution(self, conn: str, seat: int, message: Message) -> None:
        game, hand = message["game"], message["hand"]
        if not self.fair.contribute(game, hand, seat, message["value"]):
            return self.drop(conn, f"a share of the shuffle for game {game} hand {hand} that is not awaited")
        if self.fair.ready(game, hand) and not self.maybe_begin() and not self.starting:
            self.fix(game, hand)

    def tick(self) -> bool:
        """Begin a game whose first shares are late (the glue calls this every second); True
        when it began."""
        return bool(self.fair.due(self.ticker())) and self.maybe_begin()

    def reveal_due(self, events: Iterable[Event]) -> None:
        """After ``events``: reveal a hand's secret once its show is over (the next hand is
        dealt), and every dealt hand's once the game is over."""
        assert self.session is not None, "a move was made"
        state, game = self.session.state, self.playing
        if state.phase == OVER:
            self.fair.drop_after(game, state.hand_no)     # a round for a hand that will never be dealt
            for hand in self.fair.unrevealed(game):
                self.fair.reveal(game, hand)
        elif any(event.kind == "deal" for event in events):
            self.fair.reveal(game, state.hand_no - 1)

    def view_rounds(self, full: bool) -> list[Fields]:
        """The rounds a view carries: on a full sync and at the end every round of the game,
        else the hand before (its secret), this hand and the next (its commitment)."""
        assert self.session is not None, "a view is sent once the game has begun"
        state, game = self.session.state, self.playing
        hands = self.fair.hands(game)
        if not full and state.phase != OVER:
            hands = [hand for hand in hands if hand >= state.hand_no - 1]
        return [protocol.round_state(self.fair.rounds[game, hand], (game, hand) in self.fair.fixed,
                                     (game, hand) in self.fair.revealed) for hand in hands]

    def fair_transcript(self) -> dict[str, Any] | None:
        """The finished game's fair deal for the host's own record (every secret is revealed
        at the end), so a game the host shares can be checked again; None without one."""
        if self.session is None or not self.session.state.hand_seeds:
            return None
        return self.fair.transcript(self.playing)

    def send_first_round(self, conn: str) -> None:
        """To a guest that (re)joins while a game is being shuffled: its first round to add to."""
        if self.starting and (self.games, 0) in self.fair.rounds:
            self.send(conn, protocol.fair_commit(self.fair.rounds[self.games, 0]))
