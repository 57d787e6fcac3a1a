"""One hand's play and show, followed from public information only: `Public`.

Under the blind deal the host's engine cannot know a friend's hand, so no one can say who
*cannot* play. Here a seat whose browser knows it cannot play *claims* a go (`Public.go`); the
tracker checks what is public (whose turn, the count, that a go at a count of 21 or less is
impossible: every card fits), and the audit replays the hand in the real engine once the deck
is known (`game.blind.audit.check_moves`), which catches a false claim. Everything else follows
`game.engine` exactly, with its scoring (`game.scoring.score_play`, `score_hand`), and emits the
same `game.events.Event` records: discard, starter, play, go, reset, peg, show, crib, game_over.

Positions are the blind deal's (`game.blind.seating.Setup`): a seat holds positions, and a card
becomes known when it is played (`play`) or shown (`show`).

>>> from game.cards import Card
>>> from game.engine import Config
>>> table = Public.start(Config(players=2), dealer=1, scores=(0, 0))
>>> table.held
((0, 2, 4, 6, 8, 10), (1, 3, 5, 7, 9, 11))
>>> table, _ = table.discard(0, (8, 10))
>>> table, _ = table.discard(1, (9, 11))
>>> table, events = table.cut(Card.parse("JH"))
>>> [str(e.kind) for e in events], table.scores, table.turn
(['starter', 'peg'], (0, 2), 0)
>>> table, events = table.play(0, 0, Card.parse("5H"))
>>> table.count, table.turn
(5, 1)
>>> table.go(1)
Traceback (most recent call last):
game.errors.IllegalActionError: a go at 5 cannot be: every card fits under 31

What a browser keeps across a reload: the hand's start, its moves and the cards made public;
`Public.from_json` plays them again, so what it rebuilds is a state the rules reach.

>>> Public.from_json(table.to_json()) == table
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from game.cards import Card
from game.codec import loads
from game.engine import Config
from game.errors import IllegalActionError, ParseError, shown
from game.events import Event
from game.scoring import Breakdown, ScoreItem, score_hand, score_play

from .seating import Setup

DISCARDING, CUTTING, PLAYING, SHOWING, DONE, OVER = "discard", "cut", "play", "show", "done", "over"
Move = tuple[str, int, tuple[int, ...]]   # ("discard", seat, positions), ("play", seat, (position,)), ("go", seat, ())


@dataclass(frozen=True)
class Public:
    """The public state of one hand: the positions ``dealt`` to each seat and those it still ``held`` of each seat (not yet played), the
    ``discarded`` ones, the ``cards`` known by position, the pile, count, turn, the seats that
    said go, the scores (per side) ``before`` the hand and now, and every ``moves`` made, for
    the audit."""

    config: Config
    dealer: int
    before: tuple[int, ...]
    scores: tuple[int, ...]
    dealt: tuple[tuple[int, ...], ...]
    held: tuple[tuple[int, ...], ...]
    discarded: tuple[tuple[int, ...] | None, ...]
    extra: int | None
    cards: dict[int, Card] = field(default_factory=dict)
    phase: str = DISCARDING
    starter: Card | None = None
    pile: tuple[Card, ...] = ()
    count: int = 0
    turn: int | None = None
    last: int | None = None
    said_go: frozenset[int] = frozenset()
    moves: tuple[Move, ...] = ()
    winner: int | None = None

    @classmethod
    def start(cls, config: Config, dealer: int, scores: tuple[int, ...]) -> Public:
        """A hand just dealt by ``dealer``, the sides' ``scores`` before it."""
        config.check_seat(dealer)
        if len(scores) != config.sides or any(type(s) is not int or not 0 <= s < config.target for s in scores):
            raise ParseError(f"a hand starts with a score under {config.target} for each side")
        setup = Setup("public", 0, 0, config.players, dealer, tuple(range(config.players)), 0)
        held = tuple(setup.positions_of(seat) for seat in range(config.players))
        return cls(config, dealer, tuple(scores), tuple(scores), held, held, (None,) * config.players, setup.extra)

    @property
    def starter_position(self) -> int:
        """The starter's position: the one after every card dealt (and the 3-player crib card)."""
        return 1 + max(j for dealt in self.dealt for j in dealt) + (1 if self.extra is not None else 0)

    def discard(self, seat: int, positions: tuple[int, ...]) -> tuple[Public, tuple[Event, ...]]:
        """``seat`` puts the cards at ``positions`` in the crib, face down."""
        self._check(seat, DISCARDING)
        if self.discarded[seat] is not None:
            raise IllegalActionError("you have already put your cards in the crib")
        if not isinstance(positions, tuple) or len(set(positions)) != self.config.to_crib \
                or len(positions) != self.config.to_crib or not set(positions) <= set(self.held[seat]):
            raise IllegalActionError(f"put exactly {self.config.to_crib} of your own cards in the crib")
        table = _Table(self)
        table.held[seat] = [j for j in table.held[seat] if j not in positions]
        table.discarded[seat] = tuple(sorted(positions))
        table.moves.append(("discard", seat, tuple(positions)))
        table.emit("discard", seat=seat)
        if all(chosen is not None for chosen in table.discarded):
            table.phase = CUTTING
        return table.freeze()

    def cut(self, starter: Card) -> tuple[Public, tuple[Event, ...]]:
        """The starter, unlocked by every seat once all have discarded; a jack pegs 2 for the dealer."""
        if self.phase != CUTTING or not isinstance(starter, Card):
            raise IllegalActionError("the starter is cut once everyone has discarded")
        table = _Table(self)
        players = self.config.players
        table.starter, table.phase, table.turn = starter, PLAYING, (self.dealer + 1) % players
        table.emit("starter", seat=(self.dealer - 1) % players, cards=(starter,))
        if starter.rank == 11:
            table.peg(self.dealer, Breakdown([ScoreItem("heels", (starter,), 2)]))
        return table.freeze()

    def play(self, seat: int, position: int, card: Card) -> tuple[Public, tuple[Event, ...]]:
        """``seat`` lays ``card`` from ``position`` (its reveal's proof checked by `accept`)."""
        self._check(seat, PLAYING)
        if self.turn != seat:
            raise IllegalActionError("it is not your turn to play")
        if position not in self.held[seat] or not isinstance(card, Card) or card in self.cards.values():
            raise IllegalActionError(f"position {shown(position)} holds no unplayed card of yours")
        if self.count + card.value > 31:
            raise IllegalActionError(f"{card} would take the count past 31 (it is {self.count})")
        table = _Table(self)
        table.held[seat].remove(position)
        table.cards[position] = card
        table.moves.append(("play", seat, (position,)))
        table.lay(seat, card)
        return table.freeze()

    def go(self, seat: int) -> tuple[Public, tuple[Event, ...]]:
        """``seat`` claims it cannot play (checked at the audit, where its cards are known)."""
        self._check(seat, PLAYING)
        if self.turn != seat:
            raise IllegalActionError("it is not your turn")
        if self.count + 10 <= 31:
            raise IllegalActionError(f"a go at {self.count} cannot be: every card fits under 31")
        table = _Table(self)
        table.moves.append(("go", seat, ()))
        last = self.last
        assert last is not None   # the count is over 21: someone has played
        if seat == last:
            table.go_point(last)
        else:
            table.said_go = self.said_go | {seat}
            table.emit("go", seat=seat, count=self.count)
            table.next_turn(last, after=seat)
        return table.freeze()

    def show(self, crib: dict[int, Card]) -> tuple[Public, tuple[Event, ...]]:
        """The show, once the play is over and the crib's cards are shown (by position)."""
        if self.phase != SHOWING:
            raise IllegalActionError("the show comes after the play")
        wanted = {j for chosen in self.discarded if chosen for j in chosen} | \
            ({self.extra} if self.extra is not None else set())
        if set(crib) != wanted or not all(isinstance(card, Card) for card in crib.values()):
            raise IllegalActionError("the show needs every crib card")
        table = _Table(self)
        table.cards.update(crib)
        table.show()
        return table.freeze()

    def to_json(self) -> dict[str, object]:
        """The hand's rules, dealer, scores before it, every move, the starter and the cards shown."""
        config = self.config
        return {"players": config.players, "target": config.target, "match_wins": config.match_wins,
                "dealer": self.dealer, "before": list(self.before),
                "moves": [[kind, seat, list(positions)] for kind, seat, positions in self.moves],
                "starter": None if self.starter is None else str(self.starter),
                "cards": {str(j): str(card) for j, card in sorted(self.cards.items())}}

    @classmethod
    def from_json(cls, data: object) -> Public:
        """The state `to_json` saved, or JSON text of it (read with `game.codec.loads`), rebuilt by
        playing its moves again; anything malformed, or moves and cards the rules do not lead
        to, raises `ParseError`.

        >>> Public.from_json('{"players": 2}')
        Traceback (most recent call last):
        game.errors.ParseError: a saved hand has players, target, match_wins, dealer, before, moves, starter, cards
        """
        data = loads(data, "a saved hand") if isinstance(data, str) else data
        if not isinstance(data, dict) or set(data) != set(_SAVED):
            raise ParseError(f"a saved hand has {', '.join(_SAVED)}")
        moves, before, cards = data["moves"], data["before"], data["cards"]
        if not isinstance(moves, list) or len(moves) > 64 or not isinstance(before, list) \
                or not isinstance(cards, dict) or len(cards) > 52:
            raise ParseError("a saved hand's moves and scores are lists, its cards a table")
        known = {_position(j): _card(card) for j, card in cards.items()}
        starter = None if data["starter"] is None else _card(data["starter"])
        try:
            table = cls.start(Config(data["players"], data["target"], data["match_wins"]), data["dealer"],
                              tuple(before))
            for move in moves:
                table = table._replay(move, known, starter)
        except IllegalActionError as refused:
            raise ParseError(f"a saved hand's moves do not follow the rules: {refused}") from None
        if table.starter != starter or table.cards != known:
            raise ParseError("a saved hand's cards are not the ones its moves show")
        return table

    def _replay(self, move: object, known: dict[int, Card], starter: Card | None) -> Public:
        """One saved move, then the cut or the show it leads to (with the saved cards)."""
        if not isinstance(move, list) or len(move) != 3 or move[0] not in ("discard", "play", "go") \
                or not isinstance(move[2], list) or len(move[2]) > 2 or any(type(j) is not int for j in move[2]):
            raise ParseError("a saved move is [discard, play or go, a seat, positions]")
        kind, seat, positions = move
        if kind == "discard":
            table, _ = self.discard(seat, tuple(positions))
        elif kind == "play" and len(positions) == 1 and positions[0] in known:
            table, _ = self.play(seat, positions[0], known[positions[0]])
        elif kind == "go" and not positions:
            table, _ = self.go(seat)
        else:
            raise ParseError(f"a saved {kind} names no card shown or the wrong positions")
        if table.phase == CUTTING and starter is not None:
            table, _ = table.cut(starter)
        crib = {j for chosen in table.discarded for j in chosen or ()} | ({table.extra} - {None})
        if table.phase == SHOWING and crib <= set(known):
            table, _ = table.show({j: known[j] for j in crib if j is not None})
        return table

    def _check(self, seat: int, phase: str) -> None:
        self.config.check_seat(seat)
        if self.phase != phase:
            raise IllegalActionError(f"this is not the time to {'discard' if phase == DISCARDING else 'play'}")


_SAVED = ("players", "target", "match_wins", "dealer", "before", "moves", "starter", "cards")


def _position(text: str) -> int:
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > 2 or str(int(text)) != text:
        raise ParseError(f"a saved card's position is a number, not {shown(text)}")
    return int(text)


def _card(text: object) -> Card:
    """A card exactly as `to_json` writes it ("5H", "TD"), else `ParseError`."""
    card = Card.parse(text)    # type: ignore[arg-type]   # Card.parse refuses what is not text
    if str(card) != text:
        raise ParseError(f"a saved card is written like '5H', not {shown(text)}")
    return card


class _Table:
    """A mutable working copy of a `Public` for one move (as the engine's own `_Table`)."""

    def __init__(self, public: Public) -> None:
        self.public = public
        self.held = [list(held) for held in public.held]
        self.discarded = list(public.discarded)
        self.cards = dict(public.cards)
        self.scores = list(public.scores)
        self.moves = list(public.moves)
        self.events: list[Event] = []
        self.phase, self.starter, self.turn, self.last = public.phase, public.starter, public.turn, public.last
        self.pile, self.count, self.said_go, self.winner = public.pile, public.count, public.said_go, public.winner

    def freeze(self) -> tuple[Public, tuple[Event, ...]]:
        public = replace(self.public, held=tuple(tuple(h) for h in self.held), discarded=tuple(self.discarded),
                         cards=self.cards, scores=tuple(self.scores), moves=tuple(self.moves), phase=self.phase,
                         starter=self.starter, turn=self.turn, last=self.last, pile=self.pile, count=self.count,
                         said_go=self.said_go, winner=self.winner)
        return public, tuple(self.events)

    def emit(self, kind: str, **details: Any) -> None:
        self.events.append(Event(kind, **details))

    def lay(self, seat: int, card: Card) -> None:
        self.pile, self.count, self.last = self.pile + (card,), self.count + card.value, seat
        self.emit("play", seat=seat, cards=(card,), count=self.count)
        points = score_play(self.pile)
        if points and not self.peg(seat, points):
            return
        if self.count == 31:
            self.reset(seat)
        else:
            self.next_turn(seat, after=seat)

    def next_turn(self, last: int, after: int) -> None:
        """The turn passes to the next seat after ``after`` (around to ``last`` at most) that holds
        cards and has not said go; when there is none, ``last`` pegs the go."""
        players = self.public.config.players
        for offset in range(1, (last - after) % players + 1 if after != last else players + 1):
            seat = (after + offset) % players
            if self.held[seat] and seat not in self.said_go:
                self.turn = seat
                return
        self.go_point(last)

    def go_point(self, last: int) -> None:
        kind = "go" if any(self.held) else "last card"
        if self.peg(last, Breakdown([ScoreItem(kind, (), 1)])):
            self.reset(last)

    def reset(self, last: int) -> None:
        self.pile, self.count, self.said_go, self.last = (), 0, frozenset(), None
        self.emit("reset", seat=last, count=0)
        players = self.public.config.players
        for offset in range(1, players + 1):
            seat = (last + offset) % players
            if self.held[seat]:
                self.turn = seat
                return
        self.turn, self.phase = None, SHOWING

    def show(self) -> None:
        public, starter = self.public, self.starter
        assert starter is not None
        players, dealer = public.config.players, public.dealer
        for offset in range(1, players + 1):
            seat = (dealer + offset) % players
            kept = tuple(self.cards[j] for j in public.dealt[seat] if j not in (public.discarded[seat] or ()))
            breakdown = score_hand(kept, starter)
            self.emit("show", seat=seat, cards=kept, breakdown=breakdown)
            if breakdown and not self.peg(seat, breakdown):
                return
        extra = (self.cards[public.extra],) if public.extra is not None else ()
        crib = extra + tuple(card for chosen in public.discarded if chosen
                             for card in sorted(self.cards[j] for j in chosen))
        breakdown = score_hand(crib, starter, crib=True)
        self.emit("crib", seat=dealer, cards=crib, breakdown=breakdown)
        if not breakdown or self.peg(dealer, breakdown):
            self.phase = DONE

    def peg(self, seat: int, points: Breakdown) -> bool:
        """Peg ``points``; False when that wins the game (the hand stops there)."""
        config = self.public.config
        side = config.side_of(seat)
        self.scores[side] += points.total
        self.emit("peg", seat=seat, side=side, breakdown=points, scores=tuple(self.scores))
        if self.scores[side] < config.target:
            return True
        verdicts = tuple("win" if s == side else config.verdict(score) for s, score in enumerate(self.scores))
        self.emit("game_over", side=side, scores=tuple(self.scores), verdicts=verdicts)
        self.phase, self.turn, self.winner = OVER, None, side
        return False
