"""The rules as a pure state machine: `new_game`, `legal_actions`, `apply`, `replay`.

A `State` is immutable; `apply` returns a new one with the `Event` records of what happened.
Dealing, the cut, goes, resets, the show and new deals happen inside `apply`, so the only
actions are discards (everyone at once) and plays. All randomness comes from the seed.

>>> state = new_game(Config(players=2), seed=7)
>>> state.phase, len(state.hands[0]), len(legal_actions(state, 0))
('discard', 6, 15)
>>> state, events = apply(state, legal_actions(state, 0)[0])
>>> [event.kind for event in events]
['discard']
>>> replay(Config(players=2), 7, state.actions) == state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from .actions import CLAIM, DISCARD, MUGGINS, PASS, PLAY, Action
from .cards import DECK, JACK, Card
from .errors import IllegalActionError, ParseError, shown
from .events import Event, Show
from .scoring import Breakdown, ScoreItem, score_hand, score_play

DISCARDING, PLAYING, SHOWING, OVER = "discard", "play", "show", "over"   # SHOWING: muggins only
STANDARD, FIVE_CARD = "standard", "five"
VARIANTS = (STANDARD, FIVE_CARD)


@dataclass(frozen=True)
class Config:
    """A table's rules: ``players`` (2, 3 or 4 in two partnerships), ``target`` (121 or 61),
    ``match_wins``, the games a side must win to take the match, the ``variant``:
    ``"standard"`` or ``"five"``, five-card cribbage (2 players, to 61; docs/RULES.md), and
    ``muggins``: the players claim their own points and a rival may take what they miss.

    >>> Config(variant="five", target=61).dealt, Config(variant="five", target=61).kept_size
    (5, 3)
    >>> Config(variant="five")
    Traceback (most recent call last):
    game.errors.ParseError: five-card cribbage is played by 2 players to 61
    """

    players: int = 2
    target: int = 121
    match_wins: int = 1
    variant: str = STANDARD
    muggins: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (2, 3, 4):
            raise ParseError(f"a table has 2, 3 or 4 players, not {shown(self.players)}")
        if type(self.target) is not int or self.target not in (61, 121):
            raise ParseError(f"a game is played to 121 or 61, not {shown(self.target)}")
        if type(self.match_wins) is not int or self.match_wins not in range(1, 10):
            raise ParseError(f"a match is won with 1 to 9 games, not {shown(self.match_wins)}")
        if type(self.variant) is not str or self.variant not in VARIANTS:
            raise ParseError(f"the variant is 'standard' or 'five', not {shown(self.variant)}")
        if self.five_card and (self.players, self.target) != (2, 61):
            raise ParseError("five-card cribbage is played by 2 players to 61")
        if type(self.muggins) is not bool:
            raise ParseError(f"muggins is on or off (true or false), not {shown(self.muggins)}")

    @property
    def five_card(self) -> bool:
        """Five-card cribbage: five dealt, three kept, the play ends at the first 31 or go,
        and the first pone pegs three for last."""
        return self.variant == FIVE_CARD

    @property
    def sides(self) -> int:
        return 2 if self.players == 4 else self.players

    @property
    def dealt(self) -> int:
        """Cards dealt to each player."""
        return 6 if self.players == 2 and not self.five_card else 5

    @property
    def kept_size(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.dealt - self.to_crib

    @property
    def to_crib(self) -> int:
        """Cards each player puts in the crib."""
        return 2 if self.players == 2 else 1

    def check_seat(self, seat: object) -> None:
        """Refuse anything but a seat at this table: `ParseError` for what is not a seat
        number at all (0 to 3; not a bool), `IllegalActionError` for a seat this table lacks.

        >>> Config(players=3).check_seat(3)
        Traceback (most recent call last):
        game.errors.IllegalActionError: there is no seat 3 at a 3-player table
        """
        if type(seat) is not int or not 0 <= seat <= 3:
            raise ParseError(f"a seat is a whole number from 0 to 3, not {shown(seat)}")
        if seat >= self.players:
            raise IllegalActionError(f"there is no seat {seat} at a {self.players}-player table")

    def side_of(self, seat: int) -> int:
        """Partners (seats 0+2 and 1+3) share a side in four players."""
        return seat % 2 if self.players == 4 else seat

    def verdict(self, score: int) -> str:
        """How a losing side with ``score`` lost: ``loss``, ``skunk`` or ``double skunk``."""
        if self.target == 121:
            return "double skunk" if score < 61 else "skunk" if score < 91 else "loss"
        return "skunk" if score < 31 else "loss"


@dataclass(frozen=True)
class PlayStep:
    """One step of the play: ``play`` (``seat`` laid ``card``, count now ``count``), ``go``
    (``seat`` could not play at ``count``) or ``reset``."""

    kind: str
    seat: int | None = None
    card: Card | None = None
    count: int = 0


@dataclass(frozen=True)
class Claim:
    """Points waiting to be claimed at a muggins table (`Config.muggins`): ``what`` (``play``:
    the card ``seat`` just laid; ``show`` or ``crib``) made ``breakdown``, counting ``cards``
    (with the starter for a show). Once ``claimed`` short of the total, ``caller`` may call
    muggins for the rest. The breakdown is the engine's secret until the claim is made."""

    what: str
    seat: int
    cards: tuple[Card, ...]
    breakdown: Breakdown
    claimed: int | None = None
    caller: int | None = None

    @property
    def missed(self) -> int:
        return 0 if self.claimed is None else self.breakdown.total - self.claimed

    @property
    def to_act(self) -> int:
        """The seat whose move it is: the claimant, then the rival who may call muggins."""
        return self.seat if self.caller is None else self.caller


# The most a card laid can make: a double pair royal (no four of a kind count 15 or 31).
MAX_PLAY_CLAIM = 12


@dataclass(frozen=True)
class State:
    """Everything about a match in progress. Build it with `new_game`; change it with `apply`."""

    config: Config
    seed: int
    actions: tuple[Action, ...] = ()          # all actions applied, for replay and saving
    stacked: tuple[tuple[Card, ...], ...] = ()  # decks for the first hands (tests)
    hand_seeds: tuple[int, ...] = ()          # a seed per hand, by hand_no (fair tables: game.fair)
    phase: str = DISCARDING
    game_no: int = 0
    hand_no: int = 0                          # hands dealt in the match, keys the shuffle
    dealer: int = 0
    cut: tuple[Card, ...] = ()                # the cut for deal of this game (empty if none)
    wins: tuple[int, ...] = ()                # games won per side
    scores: tuple[int, ...] = ()              # front pegs per side
    previous: tuple[int, ...] = ()            # back pegs per side
    hands: tuple[tuple[Card, ...], ...] = ()  # the cards each seat holds now
    kept: tuple[tuple[Card, ...], ...] = ()   # the cards each seat shows (kept_size)
    discards: tuple[tuple[Card, ...] | None, ...] = ()
    crib: tuple[Card, ...] = ()
    undealt: tuple[Card, ...] = ()            # the rest of the deck; the starter is its top
    starter: Card | None = None
    pile: tuple[Card, ...] = ()               # cards laid since the last reset
    count: int = 0
    turn: int | None = None
    said_go: frozenset[int] = field(default_factory=frozenset)
    play: tuple[PlayStep, ...] = ()           # this hand's play so far
    shows: tuple[Show, ...] = ()              # the latest show counted
    winner: int | None = None                 # side that won the latest game
    verdicts: tuple[str, ...] = ()
    claim: Claim | None = None                # points waiting for their claim (muggins tables)

    @property
    def state_id(self) -> int:
        """Counts the actions applied: a new id for every change."""
        return len(self.actions)


def new_game(config: Config, seed: int, stacked: Iterable[Iterable[Card]] = (),
             first_dealer: int | None = None, hand_seeds: Iterable[int] = ()) -> State:
    """Start a match: cut for deal (unless ``first_dealer`` is given) and deal the first hand.

    ``stacked`` lists decks (top card first) to deal the first hands from, for tests; a short
    deck is completed with the missing cards. See `stack_deck`. ``hand_seeds[n]``, when given,
    shuffles hand ``n`` instead of ``seed`` (see `with_hand_seed`).
    """
    return opening(config, seed, stacked, first_dealer, hand_seeds)[0]


def opening(config: Config, seed: int, stacked: Iterable[Iterable[Card]] = (),
            first_dealer: int | None = None, hand_seeds: Iterable[int] = (),
            ) -> tuple[State, tuple[Event, ...]]:
    """`new_game` with the events of the start: the cut for deal, the deal, and in five-card
    cribbage the pone's three for last (a table's log shows them).

    >>> state, events = opening(Config(variant="five", target=61), seed=3)
    >>> [event.kind for event in events], events[-1].breakdown.label()
    (['cut_for_deal', 'deal', 'peg'], 'three for last')
    """
    if not isinstance(config, Config):
        raise ParseError("new_game needs a Config")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise ParseError("a seed is a whole number from 0 to 2**63 - 1")
    decks = tuple(tuple(deck) for deck in stacked)
    for deck in decks:
        if len(set(deck)) != len(deck) or not all(isinstance(card, Card) for card in deck):
            raise ParseError("a stacked deck must hold distinct cards")
    sides = config.sides
    state = State(config=config, seed=seed, stacked=decks, wins=(0,) * sides,
                  hand_seeds=_seeds(hand_seeds))
    cut: tuple[Card, ...] = ()
    if first_dealer is None:
        first_dealer, cut = _cut_for_deal(config.players, _rng(seed, "cut", 0))
    else:
        config.check_seat(first_dealer)
    table = _Table(state)
    table.start_game(first_dealer, cut)
    return table.freeze(), tuple(table.events)


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    """Every action ``seat`` may take now, sorted. Empty when it is not that seat's move.

    A ``seat`` that is not at the table is refused as `Config.check_seat` says.
    """
    state.config.check_seat(seat)
    claim = state.claim
    if claim is not None:
        if claim.to_act != seat:
            return ()
        if claim.caller is not None:
            return (Action._trusted(seat, MUGGINS, ()), Action._trusted(seat, PASS, ()))
        most = MAX_PLAY_CLAIM if claim.what == "play" else 29
        return tuple(Action._trusted(seat, CLAIM, (), points) for points in range(most + 1))
    if state.phase == DISCARDING and state.discards[seat] is None:
        hand = sorted(state.hands[seat])
        return tuple(Action._trusted(seat, DISCARD, combo)
                     for combo in combinations(hand, state.config.to_crib))
    if state.phase == PLAYING and state.turn == seat:
        room = 31 - state.count
        return tuple(Action._trusted(seat, PLAY, (card,))
                     for card in sorted(state.hands[seat]) if card.value <= room)
    return ()


def apply(state: State, action: Action | str | dict[str, object],
          seed_for: Callable[[int], int] | None = None) -> tuple[State, tuple[Event, ...]]:
    """Apply one action (an `Action`, its text or its JSON); return the new state and events.

    Raises `ParseError` for unreadable input and `IllegalActionError` for a move the rules
    forbid now; the given state is never changed. ``seed_for(hand_no)``, when given, is asked
    for the seed of a hand the action deals that has none yet (a fair table fixes each hand's
    seed at its deal: `with_hand_seed`); the new state keeps it in ``hand_seeds``.

    >>> state = new_game(Config(), seed=5)
    >>> while state.hand_no == 0:
    ...     seat = 0 if legal_actions(state, 0) else 1
    ...     state, _ = apply(state, legal_actions(state, seat)[0], seed_for=lambda hand: 77)
    >>> state.hand_seeds
    (5, 77)
    """
    action = read_action(action)
    _check_legal(state, action)
    table = _Table(state, seed_for)
    table.actions.append(action)
    try:
        if action.kind == DISCARD:
            table.discard(action.seat, action.cards)
        elif action.kind == PLAY:
            table.lay(action.seat, action.card)
        elif action.kind == CLAIM:
            table.take_claim(action.points)
        else:
            table.answer_claim(action.kind == MUGGINS)
    except _Won as won:
        table.finish_game(won.side)
    return table.freeze(), tuple(table.events)


def read_action(action: object) -> Action:
    """An `Action` from an Action, its text (`"1 play 7C"`) or its JSON; else `ParseError`."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, dict):
        return Action.from_json(action)
    raise ParseError(f"not an action: {type(action).__name__}")


def replay(config: Config, seed: int, actions: Iterable[Action | str | dict[str, object]],
           stacked: Iterable[Iterable[Card]] = (), first_dealer: int | None = None,
           hand_seeds: Iterable[int] = ()) -> State:
    """The state reached by applying ``actions`` to a new game: any game, reproduced."""
    state = new_game(config, seed, stacked, first_dealer, hand_seeds)
    for action in actions:
        state, _ = apply(state, action)
    return state


def with_hand_seed(state: State, hand_no: int, seed: int) -> State:
    """``state`` with the seed that will shuffle hand ``hand_no``, the next one to deal: how a
    fair table (`game.fair`) feeds the engine each hand's seed just before its deal. Hands
    before it keep the seeds they were dealt with; a seed once given never changes.

    >>> state = new_game(Config(), seed=5)
    >>> with_hand_seed(state, 1, 9).hand_seeds
    (5, 9)
    """
    (seed,) = _seeds((seed,))
    if type(hand_no) is not int or hand_no != state.hand_no + 1 or len(state.hand_seeds) > hand_no:
        raise IllegalActionError(f"hand {shown(hand_no)} is not the next hand, or has its seed already")
    known = state.hand_seeds + (state.seed,) * (hand_no - len(state.hand_seeds))
    return replace(state, hand_seeds=known + (seed,))


def shuffled_deck(seed: int, hand_no: int) -> tuple[Card, ...]:
    """The deck of hand ``hand_no`` shuffled from ``seed``, top card first.

    >>> state = new_game(Config(), 7)
    >>> deal_from(state.config, state.dealer, shuffled_deck(7, 0))[0] == state.hands
    True
    """
    deck = list(DECK)
    _rng(seed, "deal", hand_no).shuffle(deck)
    return tuple(deck)


def cut_for_deal(config: Config, seed: int) -> tuple[int, tuple[Card, ...]]:
    """The cut for deal a new game with ``seed`` makes: (the first dealer, the cards cut)."""
    return _cut_for_deal(config.players, _rng(seed, "cut", 0))


def deal_from(config: Config, dealer: int, deck: Sequence[Card],
              ) -> tuple[tuple[tuple[Card, ...], ...], Card | None, tuple[Card, ...]]:
    """How a deck is dealt: (each seat's cards, the 3-player crib card or None, the rest with
    the starter on top). Dealing starts left of the dealer."""
    players = config.players
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(config.dealt * players):
        hands[order[k % players]].append(deck[k])
    rest = list(deck[config.dealt * players:])
    extra = rest.pop(0) if players == 3 else None
    return tuple(tuple(hand) for hand in hands), extra, tuple(rest)


def stack_deck(config: Config, dealer: int, hands: Sequence[Sequence[Card]], starter: Card,
               extra: Card | None = None) -> list[Card | None]:
    """A deck that deals ``hands[seat]`` to each seat, ``extra`` to the 3-player crib, then the
    starter: pass it in ``new_game(..., stacked=[deck])``. Dealing starts left of the dealer."""
    players = config.players
    order = [(dealer + 1 + i) % players for i in range(players)]
    deck: list[Card | None] = [hands[seat][k] for k in range(config.dealt) for seat in order]
    if players == 3:
        deck.append(extra)
    return deck + [starter]


# ---- internals ------------------------------------------------------------------------------

class _Won(Exception):
    """Raised the moment a side reaches the target, to stop all later scoring."""

    def __init__(self, side: int) -> None:
        super().__init__(side)
        self.side = side


def _rng(seed: int, purpose: str, number: int) -> random.Random:
    # String seeds are hashed with SHA-512: the same stream on every Python version.
    return random.Random(f"cribbage/{seed}/{purpose}/{number}")


def _cut_for_deal(players: int, rng: random.Random) -> tuple[int, tuple[Card, ...]]:
    """Each player cuts; the lowest rank deals; ties cut again (only the last round is kept)."""
    while True:
        cuts = tuple(rng.sample(DECK, players))
        lowest = min(card.rank for card in cuts)
        low = [seat for seat, card in enumerate(cuts) if card.rank == lowest]
        if len(low) == 1:
            return low[0], cuts


def _seeds(seeds: Iterable[int]) -> tuple[int, ...]:
    seeds = tuple(seeds)
    if not all(type(seed) is int and 0 <= seed < 2**63 for seed in seeds):
        raise ParseError("a seed is a whole number from 0 to 2**63 - 1")
    return seeds


def _shuffled(state: State, hand_no: int) -> list[Card]:
    if hand_no < len(state.stacked):
        top = list(state.stacked[hand_no])
        return top + [card for card in DECK if card not in top]
    seeds = state.hand_seeds
    return list(shuffled_deck(seeds[hand_no] if hand_no < len(seeds) else state.seed, hand_no))


def _check_legal(state: State, action: Action) -> None:
    config, seat = state.config, action.seat
    config.check_seat(seat)
    if state.phase == OVER:
        raise IllegalActionError("the game is over")
    claim = state.claim
    if action.kind in (CLAIM, MUGGINS, PASS):
        if claim is None or claim.to_act != seat:
            raise IllegalActionError("there is nothing for you to claim or call now")
        if (action.kind == CLAIM) != (claim.caller is None):
            raise IllegalActionError("claim your points first" if claim.caller is None
                                     else "the points are claimed: call muggins or pass")
        if action.kind == CLAIM and action.points > claim.breakdown.total:
            raise IllegalActionError(f"{action.points} is more than the cards make: count again")
        return
    if claim is not None:
        who = "your" if claim.seat == seat else "the"
        raise IllegalActionError(f"{who} points must be claimed first" if claim.caller is None
                                 else "muggins may be called first")
    held = state.hands[seat]
    missing = [str(card) for card in action.cards if card not in held]
    if action.kind == DISCARD:
        if state.phase != DISCARDING:
            raise IllegalActionError("the discards are done: it is time to play")
        if state.discards[seat] is not None:
            raise IllegalActionError("you have already put your cards in the crib")
        if len(action.cards) != config.to_crib:
            raise IllegalActionError(f"put exactly {config.to_crib} card"
                                     f"{'s' if config.to_crib > 1 else ''} in the crib")
    else:
        if state.phase != PLAYING:
            raise IllegalActionError("choose your crib cards first")
        if state.turn != seat:
            raise IllegalActionError("it is not your turn to play")
    if missing:
        raise IllegalActionError(f"{' '.join(missing)} is not in your hand")
    if action.kind == PLAY and state.count + action.card.value > 31:
        raise IllegalActionError(f"{action.card} would take the count past 31 "
                                 f"(it is {state.count})")


class _Table:
    """A mutable working copy of a `State` for the length of one `apply`."""

    # Read through `__getattr__` (the value `set` last, else the state's): declared here for
    # the type checker only, so that no class attribute shadows the read-through.
    game_no: int
    hand_no: int
    dealer: int
    wins: tuple[int, ...]
    kept: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]
    undealt: tuple[Card, ...]
    starter: Card | None
    pile: tuple[Card, ...]
    count: int
    said_go: frozenset[int]
    play: tuple[PlayStep, ...]
    shows: tuple[Show, ...]
    claim: Claim | None

    def __init__(self, state: State, seed_for: Callable[[int], int] | None = None) -> None:
        self.state = state
        self.seed_for = seed_for          # hand_no -> a new hand's seed (see `apply`)
        self.config = state.config
        self.actions = list(state.actions)
        self.events: list[Event] = []
        self.scores = list(state.scores)
        self.previous = list(state.previous)
        self.hands = [list(hand) for hand in state.hands]
        self.discards = list(state.discards)
        self.fields: dict[str, Any] = {}   # the State fields changed so far, by name

    def __getattr__(self, name: str) -> object:  # read-through to the new value, else the old state
        fields = self.__dict__["fields"]
        return fields[name] if name in fields else getattr(self.__dict__["state"], name)

    def set(self, **changes: Any) -> None:
        self.fields.update(changes)

    def freeze(self) -> State:
        return replace(self.state, actions=tuple(self.actions), scores=tuple(self.scores),
                       previous=tuple(self.previous), discards=tuple(self.discards),
                       hands=tuple(tuple(hand) for hand in self.hands), **self.fields)

    def emit(self, kind: str, **details: Any) -> None:
        self.events.append(Event(kind, **details))

    # -- games and hands --

    def start_game(self, dealer: int, cut: tuple[Card, ...] = ()) -> None:
        sides = self.config.sides
        self.scores, self.previous = [0] * sides, [0] * sides
        self.set(winner=None, verdicts=(), cut=tuple(cut), shows=(), claim=None)
        if cut:
            self.emit("cut_for_deal", seat=dealer, cards=tuple(cut))
        self.deal(dealer)
        if self.config.five_card:
            self.peg((dealer + 1) % self.config.players, Breakdown([ScoreItem("last", (), 3)]))

    def deal(self, dealer: int) -> None:
        config, players = self.config, self.config.players
        hand_no = self.hand_no + 1 if self.state.hands else self.hand_no
        if self.seed_for is not None and hand_no >= len(self.state.hand_seeds):
            self.state = with_hand_seed(self.state, hand_no, self.seed_for(hand_no))
            self.set(hand_seeds=self.state.hand_seeds)
        hands, extra, rest = deal_from(config, dealer, _shuffled(self.state, hand_no))
        self.hands = [list(hand) for hand in hands]
        crib = (extra,) if extra is not None else ()
        self.discards = [None] * players
        self.set(phase=DISCARDING, hand_no=hand_no, dealer=dealer, crib=crib,
                 undealt=tuple(rest), starter=None, kept=(), pile=(), count=0, turn=None,
                 said_go=frozenset(), play=(), claim=None)
        self.emit("deal", seat=dealer, count=config.dealt)

    def discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        self.hands[seat] = [card for card in self.hands[seat] if card not in cards]
        self.discards[seat] = tuple(cards)
        self.emit("discard", seat=seat)
        if all(chosen is not None for chosen in self.discards):
            self.cut_starter()

    def cut_starter(self) -> None:
        players, dealer = self.config.players, self.dealer
        crib = self.crib + tuple(card for chosen in self.discards if chosen is not None for card in chosen)
        starter = self.undealt[0]
        self.set(crib=crib, starter=starter, undealt=self.undealt[1:], phase=PLAYING,
                 kept=tuple(tuple(hand) for hand in self.hands), turn=(dealer + 1) % players)
        self.emit("starter", seat=(dealer - 1) % players, cards=(starter,))
        if starter.rank == JACK:
            self.peg(dealer, Breakdown([ScoreItem("heels", (starter,), 2)]))

    # -- the play --

    def lay(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        pile, count = self.pile + (card,), self.count + card.value
        self.set(pile=pile, count=count, play=self.play + (PlayStep("play", seat, card, count),))
        self.emit("play", seat=seat, cards=(card,), count=count)
        points = score_play(pile)
        if self.config.muggins:       # even nothing is claimed: a claim must not give it away
            self.ask(Claim("play", seat, pile, points))
            return
        if points:
            self.peg(seat, points)
        self.after_lay(seat)

    def after_lay(self, seat: int) -> None:
        if self.count == 31:
            self.reset(seat)
        else:
            self.next_turn(seat)

    def next_turn(self, last: int) -> None:
        """Pass the turn to the next seat that can play, saying go for those that cannot."""
        players, room = self.config.players, 31 - self.count
        said_go = set(self.said_go)
        for offset in range(1, players + 1):
            seat = (last + offset) % players
            hand = self.hands[seat]
            if not hand:
                continue
            if min(card.value for card in hand) <= room:
                self.set(turn=seat, said_go=frozenset(said_go))
                return
            if seat != last and seat not in said_go:
                said_go.add(seat)
                self.set(play=self.play + (PlayStep("go", seat, None, self.count),))
                self.emit("go", seat=seat, count=self.count)
        kind = "go" if any(self.hands) else "last card"
        self.peg(last, Breakdown([ScoreItem(kind, (), 1)]))
        self.reset(last)

    def reset(self, last: int) -> None:
        """Back to 0; the seat left of the last player leads, or the play is over (always,
        in five-card cribbage: the cards left in hand are not played)."""
        self.set(pile=(), count=0, said_go=frozenset(), play=self.play + (PlayStep("reset"),))
        self.emit("reset", seat=last, count=0)
        if self.config.five_card:
            self.show()
            return
        players = self.config.players
        for offset in range(1, players + 1):
            seat = (last + offset) % players
            if self.hands[seat]:
                self.set(turn=seat)
                return
        self.show()

    # -- the show and the end --

    def show(self) -> None:
        self.set(turn=None, shows=())
        if self.config.muggins:
            self.set(phase=SHOWING)
        self.next_show()

    def next_show(self) -> None:
        """Count the hands not counted yet, in order (at a muggins table, ask for the next
        one's claim instead), then deal the next hand."""
        players, dealer, starter = self.config.players, self.dealer, self.starter
        assert starter is not None   # cut before the play
        for k in range(len(self.shows), players + 1):
            crib = k == players
            seat = dealer if crib else (dealer + 1 + k) % players
            cards = self.crib if crib else self.kept[seat]
            breakdown = score_hand(cards, starter, crib=crib)
            if self.config.muggins:
                self.ask(Claim("crib" if crib else "show", seat, cards, breakdown))
                return
            self.count_show(Show(seat, crib, cards, breakdown))
        self.deal((dealer + 1) % players)

    # -- claims and muggins (docs/RULES.md) --

    def ask(self, claim: Claim) -> None:
        self.set(claim=claim, turn=claim.seat if claim.what == "play" else None)

    def take_claim(self, points: int) -> None:
        """The claimant says ``points`` (no more than the cards make: `_check_legal`): they are
        pegged; a rival may then call muggins for any missed."""
        claim = self.claim
        assert claim is not None   # checked legal
        claim = replace(claim, claimed=points)
        self.emit("claim", seat=claim.seat, count=points, breakdown=claim.breakdown)
        if claim.what != "play":
            self.set(shows=self.shows + (Show(claim.seat, claim.what == "crib", claim.cards,
                                              claim.breakdown),))
            self.emit(claim.what, seat=claim.seat, cards=claim.cards, breakdown=claim.breakdown)
        self.set(claim=claim)
        if points:
            whole = points == claim.breakdown.total
            self.peg(claim.seat, claim.breakdown if whole else
                     Breakdown([ScoreItem("claimed", claim.cards, points)]))
        if claim.missed:
            self.set(claim=replace(claim, caller=self.rival_of(claim.seat)))
        else:
            self.resume(claim)

    def answer_claim(self, muggins: bool) -> None:
        claim = self.claim
        assert claim is not None and claim.caller is not None   # checked legal
        if muggins:
            self.emit("muggins", seat=claim.caller, count=claim.missed)
            self.peg(claim.caller, Breakdown([ScoreItem("muggins", claim.cards, claim.missed)]))
        self.resume(claim)

    def rival_of(self, seat: int) -> int:
        """The first seat after ``seat`` on another side: it may call muggins."""
        players, config = self.config.players, self.config
        return next(other for other in ((seat + k) % players for k in range(1, players))
                    if config.side_of(other) != config.side_of(seat))

    def resume(self, claim: Claim) -> None:
        self.set(claim=None)
        if claim.what == "play":
            self.after_lay(claim.seat)
        else:
            self.next_show()

    def count_show(self, show: Show) -> None:
        self.set(shows=self.shows + (show,))
        self.emit("crib" if show.crib else "show", seat=show.seat, cards=show.cards,
                  breakdown=show.breakdown)
        if show.breakdown:
            self.peg(show.seat, show.breakdown)

    def peg(self, seat: int, points: Breakdown) -> None:
        side = self.config.side_of(seat)
        self.previous[side] = self.scores[side]
        self.scores[side] += points.total
        self.emit("peg", seat=seat, side=side, breakdown=points, scores=tuple(self.scores))
        if self.scores[side] >= self.config.target:
            raise _Won(side)

    def finish_game(self, winner: int) -> None:
        config = self.config
        verdicts = tuple("win" if side == winner else config.verdict(score)
                         for side, score in enumerate(self.scores))
        wins = list(self.wins)
        wins[winner] += 1
        self.set(winner=winner, verdicts=verdicts, wins=tuple(wins), turn=None, claim=None)
        self.emit("game_over", side=winner, scores=tuple(self.scores), verdicts=verdicts)
        if wins[winner] >= config.match_wins:
            self.set(phase=OVER)
            if config.match_wins > 1:
                self.emit("match_over", side=winner, scores=tuple(wins))
            return
        self.set(game_no=self.game_no + 1)
        self.start_game(self.next_game_dealer())

    def next_game_dealer(self) -> int:
        """The loser deals first: the seat of the lowest-scoring side next after the dealer."""
        players, config = self.config.players, self.config
        lowest = min(self.scores)
        for offset in range(1, players + 1):
            seat = (self.dealer + offset) % players
            if self.scores[config.side_of(seat)] == lowest:
                return seat
        raise AssertionError("some side has the lowest score")
