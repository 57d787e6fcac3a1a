"""The screens' `game.view.View` of a blind-dealt hand (docs/blind-deal.md, "Views").

Under the blind deal the host's engine does not know the friends' cards, so a seat's view is
built from what every seat knows, the hand's `web.friends.blind_flow.Flow` (its `Public`
play and its events) and the host's engine state from before the hand (the game number, the
wins, the cut for deal), with `public_view`; then each browser adds its own cards, kept
cards, discards and the moves it may make, with `with_cards`. A bot at the host chooses
on that view with the usual `game.bots.Bot.choose` (`bot_choose`), and a person's screen
moves with the usual `Action`s, turned into the hand's positions by `positions`.

There is no go action: a browser whose cards do not fit sends the go itself.

>>> from game.blind.seating import Setup
>>> from game.engine import Config, replay
>>> from .blind_flow import Flow, start_body
>>> flow = Flow.open(start_body(Setup("room", 0, 0, players=2, dealer=1, humans=(0, 1), host=0), 121, (0, 0)))
>>> state = replay(Config(players=2), 0, [], first_dealer=1)
>>> seen = public_view(flow, state, 0)
>>> seen.phase, seen.hand, seen.hand_sizes, seen.legal
('discard', (), (6, 6), ())
>>> dealt = {j: Card.parse(text) for j, text in zip((0, 2, 4, 6, 8, 10), "AS 2S 3S 4S 5S 6S".split())}
>>> mine = with_cards(seen, flow, dealt)
>>> [str(card) for card in mine.hand], len(mine.legal), mine.legal[0].kind
(['AS', '2S', '3S', '4S', '5S', '6S'], 15, 'discard')
>>> with_cards(public_view(flow, state, 1), flow, dealt).hand
()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from itertools import combinations

from game.actions import Action
from game.blind.public import CUTTING, DISCARDING, DONE, OVER, PLAYING, SHOWING
from game.bots import Bot
from game.cards import Card
from game.engine import PlayStep, State
from game.errors import IllegalActionError
from game.events import Show
from game.view import View

from .blind_flow import Flow
from .blind_seat import Choose

# Public's phases as the screens know the engine's: the cut is a moment of the discard, and a
# hand whose cards are being shown or that waits for the keys shows the end of its play.
PHASES = {DISCARDING: "discard", CUTTING: "discard", PLAYING: "play", SHOWING: "play", DONE: "play", OVER: "over"}
BODIES_A_HAND = 256      # more than any hand's messages: a view's state id grows with each


class Waiting(Exception):
    """A person's seat is due and its screen has not chosen yet (its `Choose` raises it)."""


def screen_choose(choice: Callable[[], Action | None]) -> Choose:
    """A person's `Choose`: the move its screen chose (``choice()``, taken once), or a go when
    no card fits; `Waiting` until the screen chose one that holds."""
    def choose(flow: Flow, seat: int, held: dict[int, Card]) -> tuple[int, ...]:
        public = flow.public
        if public.phase == PLAYING and all(public.count + card.value > 31 for card in held.values()):
            return ()
        chosen = choice()
        if chosen is None or chosen.seat != seat:
            raise Waiting()
        try:
            return positions(chosen, held)
        except IllegalActionError:
            raise Waiting() from None
    return choose


def public_view(flow: Flow, state: State, seat: int) -> View:
    """What every seat may see of the hand ``flow`` follows, from ``seat``'s place: ``state``
    is the host's engine state from before the hand (`web.friends.blind_table.Ledger`)."""
    public, events = flow.public, flow.events
    state.config.check_seat(seat)
    play: list[PlayStep] = []
    shows: list[Show] = []
    previous = list(state.previous) or [0] * state.config.sides
    winner: int | None = None
    verdicts: tuple[str, ...] = ()
    wins = list(state.wins)
    for event in events:
        if event.kind == "play":
            play.append(PlayStep("play", event.seat, event.cards[0], event.count or 0))
        elif event.kind == "go":
            play.append(PlayStep("go", event.seat, None, event.count or 0))
        elif event.kind == "reset":
            play.append(PlayStep("reset"))
        elif event.kind in ("show", "crib") and event.seat is not None and event.breakdown is not None:
            shows.append(Show(event.seat, event.kind == "crib", event.cards, event.breakdown))
        elif event.kind == "peg" and event.side is not None and event.breakdown is not None:
            previous[event.side] = event.scores[event.side] - event.breakdown.total
        elif event.kind == "game_over" and event.side is not None:
            winner, verdicts = event.side, event.verdicts
            wins[event.side] += 1
    crib = (1 if public.extra is not None else 0) + sum(len(chosen or ()) for chosen in public.discarded)
    return View(
        seat=seat, config=state.config, state_id=state.hand_no * BODIES_A_HAND + len(flow.bodies),
        phase=PHASES[public.phase], game_no=state.game_no, hand_no=state.hand_no, dealer=public.dealer,
        cut=state.cut, wins=tuple(wins), scores=public.scores, previous=tuple(previous), hand=(), kept=(),
        discarded=(), has_discarded=tuple(chosen is not None for chosen in public.discarded),
        hand_sizes=tuple(len(held) for held in public.held), crib_size=crib, starter=public.starter,
        pile=public.pile, count=public.count, turn=public.turn if public.phase == PLAYING else None,
        said_go=tuple(sorted(public.said_go)), play=tuple(play), shows=tuple(shows), winner=winner,
        verdicts=verdicts, legal=())


def with_cards(view: View, flow: Flow, cards: Mapping[int, Card]) -> View:
    """``view`` with its seat's own cards from ``cards`` (by position: a browser's `BlindSeat.mine`,
    which holds its bots' too at the host): the hand held now, the kept cards once the starter
    is cut, the discards, and the moves it may make (no go: see the module's docstring)."""
    public, seat = flow.public, view.seat
    own = {j: card for j, card in cards.items() if j in public.dealt[seat]}
    hand = tuple(own[j] for j in public.held[seat] if j in own)
    chosen = public.discarded[seat] or ()
    discarded = tuple(sorted(own[j] for j in chosen if j in own))
    kept = tuple(own[j] for j in public.dealt[seat] if j in own and j not in chosen) \
        if public.starter is not None else ()
    legal: tuple[Action, ...] = ()
    if public.phase == DISCARDING and not chosen:
        legal = tuple(Action.discard(seat, list(combo)) for combo in combinations(sorted(hand), view.config.to_crib))
    elif public.phase == PLAYING and public.turn == seat:
        legal = tuple(Action.play(seat, card) for card in sorted(hand) if public.count + card.value <= 31)
    return replace(view, hand=hand, kept=kept, discarded=discarded, legal=legal)


def positions(action: Action, cards: Mapping[int, Card]) -> tuple[int, ...]:
    """The positions of ``action``'s cards among ``cards`` (a seat's, by position).

    >>> positions(Action.play(0, Card.parse("5H")), {3: Card.parse("KS"), 7: Card.parse("5H")})
    (7,)
    """
    where = {card: j for j, card in cards.items()}
    if any(card not in where for card in action.cards):
        raise IllegalActionError("that card is not in your hand")
    return tuple(where[card] for card in action.cards)


def bot_choose(bots: Mapping[int, Bot], state: Callable[[], State], mine: Callable[[], Mapping[int, Card]]) -> Choose:
    """The host's `Choose` for its bots: each bot of ``bots`` (by seat) chooses on its view,
    ``state`` the host's engine state before the hand, ``mine`` the host's cards (its bots' too)."""
    def choose(flow: Flow, seat: int, held: dict[int, Card]) -> tuple[int, ...]:
        view = with_cards(public_view(flow, state(), seat), flow, mine())
        if not view.legal:
            return ()
        return positions(bots[seat].choose(view), held)
    return choose
