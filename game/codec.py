"""JSON for everything that is saved or sent: states, actions, events, views and breakdowns.

A saved state is its recipe, ``(config, seed, stacked decks, actions)`` with a schema version;
decoding replays it, so a tampered or truncated save is refused with a clear `ParseError`
instead of producing an impossible table.

>>> from game.engine import Config, new_game, apply, legal_actions
>>> state = new_game(Config(), seed=3)
>>> state, _ = apply(state, legal_actions(state, 1)[0])
>>> decode_state(encode_state(state)) == state
True
"""

from __future__ import annotations

import json
from dataclasses import fields

from .actions import Action
from .cards import Card, format_cards, parse_cards
from .engine import Config, PlayStep, State, replay
from .errors import IllegalActionError, ParseError, shown
from .events import EVENT_KINDS, Event, Show
from .scoring import KINDS, Breakdown, ScoreItem
from .view import View

SCHEMA = 1
MAX_SAVE_BYTES = 2_000_000  # a long match is a few tens of kilobytes


def encode_state(state: State) -> str:
    """A state as JSON text: its recipe plus the scores, checked again on decoding."""
    return json.dumps({
        "schema": SCHEMA, "config": config_to_json(state.config), "seed": state.seed,
        "stacked": [format_cards(deck) for deck in state.stacked],
        "actions": [str(action) for action in state.actions],
        "scores": list(state.scores), "wins": list(state.wins),
    }, separators=(",", ":"))


def decode_state(text: str) -> State:
    """Rebuild a state from `encode_state` text by replaying it; refuse anything inconsistent."""
    if not isinstance(text, str) or len(text) > MAX_SAVE_BYTES:
        raise ParseError("a saved game is JSON text of at most 2 MB")
    data = _loads(text)
    _expect(data, {"schema", "config", "seed", "stacked", "actions", "scores", "wins"}, "saved game")
    if type(data["schema"]) is not int or data["schema"] != SCHEMA:
        raise ParseError(f"this saved game has format {shown(data['schema'])}; this version reads "
                         f"format {SCHEMA}")
    if not isinstance(data["actions"], list) or not isinstance(data["stacked"], list):
        raise ParseError("a saved game lists its actions and stacked decks")
    try:
        state = replay(config_from_json(data["config"]), data["seed"],
                       [Action.parse(text) for text in data["actions"]],
                       [parse_cards(deck) for deck in data["stacked"]])
    except IllegalActionError as error:
        raise ParseError(f"this saved game is damaged: {error}") from None
    if (state.scores, state.wins) != (_ints(data["scores"]), _ints(data["wins"])):
        raise ParseError("this saved game is damaged: its scores do not match its moves")
    return state


def config_to_json(config: Config) -> dict:
    return {"players": config.players, "target": config.target, "match_wins": config.match_wins}


def config_from_json(data) -> Config:
    _expect(data, {"players", "target", "match_wins"}, "table config")
    return Config(**data)


def breakdown_to_json(breakdown: Breakdown) -> dict:
    return {"total": breakdown.total,
            "items": [{"kind": item.kind, "cards": format_cards(item.cards), "points": item.points}
                      for item in breakdown.items]}


def breakdown_from_json(data) -> Breakdown:
    _expect(data, {"total", "items"}, "score")
    items = []
    for item in _list(data["items"], 40):
        _expect(item, {"kind", "cards", "points"}, "score item")
        if item["kind"] not in KINDS:
            raise ParseError(f"unknown score kind {str(item['kind'])[:20]!r}")
        items.append(ScoreItem(item["kind"], parse_cards(item["cards"]), _int(item["points"])))
    return Breakdown(items)


def event_to_json(event: Event) -> dict:
    return {
        "kind": event.kind, "seat": event.seat, "side": event.side,
        "cards": format_cards(event.cards), "count": event.count,
        "breakdown": breakdown_to_json(event.breakdown) if event.breakdown is not None else None,
        "scores": list(event.scores), "verdicts": list(event.verdicts),
    }


def event_from_json(data) -> Event:
    _expect(data, {"kind", "seat", "side", "cards", "count", "breakdown", "scores", "verdicts"},
            "event")
    if data["kind"] not in EVENT_KINDS:
        raise ParseError(f"unknown event {str(data['kind'])[:20]!r}")
    return Event(
        kind=data["kind"], seat=_opt_int(data["seat"]), side=_opt_int(data["side"]),
        cards=parse_cards(data["cards"]), count=_opt_int(data["count"]),
        breakdown=breakdown_from_json(data["breakdown"]) if data["breakdown"] is not None else None,
        scores=tuple(_int(x) for x in _list(data["scores"], 4)),
        verdicts=tuple(str(x) for x in _list(data["verdicts"], 4)))


def view_to_json(view: View) -> dict:
    """A seat's view as plain JSON, for the network and the browser."""
    return {
        "seat": view.seat, "config": config_to_json(view.config), "state_id": view.state_id,
        "phase": view.phase, "game_no": view.game_no, "hand_no": view.hand_no,
        "dealer": view.dealer, "cut": format_cards(view.cut), "wins": list(view.wins),
        "scores": list(view.scores), "previous": list(view.previous),
        "hand": format_cards(view.hand), "kept": format_cards(view.kept),
        "discarded": format_cards(view.discarded), "has_discarded": list(view.has_discarded),
        "hand_sizes": list(view.hand_sizes), "crib_size": view.crib_size,
        "starter": str(view.starter) if view.starter else None,
        "pile": format_cards(view.pile), "count": view.count, "turn": view.turn,
        "said_go": list(view.said_go),
        "play": [[step.kind, step.seat, str(step.card) if step.card else None, step.count]
                 for step in view.play],
        "shows": [{"seat": show.seat, "crib": show.crib, "cards": format_cards(show.cards),
                   "breakdown": breakdown_to_json(show.breakdown)} for show in view.shows],
        "winner": view.winner, "verdicts": list(view.verdicts),
        "legal": [action.to_json() for action in view.legal],
    }


def view_from_json(data) -> View:
    """Read `view_to_json` output back, validating every field (a guest trusts no one)."""
    _expect(data, {f.name for f in fields(View)}, "view")
    try:
        return View(
            seat=_int(data["seat"]), config=config_from_json(data["config"]),
            state_id=_int(data["state_id"]), phase=str(data["phase"]),
            game_no=_int(data["game_no"]), hand_no=_int(data["hand_no"]),
            dealer=_int(data["dealer"]), cut=parse_cards(data["cut"]),
            wins=_ints(data["wins"]), scores=_ints(data["scores"]),
            previous=_ints(data["previous"]), hand=parse_cards(data["hand"]),
            kept=parse_cards(data["kept"]), discarded=parse_cards(data["discarded"]),
            has_discarded=tuple(bool(x) for x in _list(data["has_discarded"], 4)),
            hand_sizes=_ints(data["hand_sizes"]), crib_size=_int(data["crib_size"]),
            starter=Card.parse(data["starter"]) if data["starter"] else None,
            pile=parse_cards(data["pile"]), count=_int(data["count"]),
            turn=_opt_int(data["turn"]), said_go=_ints(data["said_go"]),
            play=tuple(_play_step(step) for step in _list(data["play"], 64)),
            shows=tuple(_show(show) for show in _list(data["shows"], 5)),
            winner=_opt_int(data["winner"]), verdicts=tuple(str(x) for x in _list(data["verdicts"], 4)),
            legal=tuple(Action.from_json(action) for action in _list(data["legal"], 20)),
        )
    except KeyError as missing:
        raise ParseError(f"a view is missing {missing}") from None


def _play_step(step) -> PlayStep:
    kind, seat, card, count = _list(step, 4)
    return PlayStep(str(kind), _opt_int(seat), Card.parse(card) if card else None, _int(count))


def _show(data) -> Show:
    _expect(data, {"seat", "crib", "cards", "breakdown"}, "show")
    return Show(_int(data["seat"]), bool(data["crib"]), parse_cards(data["cards"]),
                breakdown_from_json(data["breakdown"]))


# ---- strict readers: every malformed value becomes a ParseError ----

def _loads(text: str):
    """JSON, or `ParseError`: also for numbers too long for `int` and nesting too deep."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ParseError("this is not valid JSON") from None


def _expect(data, keys, what: str) -> None:
    if not isinstance(data, dict):
        raise ParseError(f"a {what} must be a JSON object")
    if set(data) != keys:
        raise ParseError(f"a {what} has exactly the fields {', '.join(sorted(keys))}")


def _list(data, limit: int) -> list:
    if not isinstance(data, list) or len(data) > limit:
        raise ParseError(f"expected a list of at most {limit} items")
    return data


def _int(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -1 <= value < 2**63:
        raise ParseError(f"expected a whole number, not {str(value)[:20]!r}")
    return value


def _opt_int(value):
    return None if value is None else _int(value)


def _ints(values) -> tuple[int, ...]:
    return tuple(_int(x) for x in _list(values, 4))
