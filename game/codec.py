"""JSON for everything that is saved or sent: states, actions, events, views and breakdowns.

A saved state is its recipe, ``(config, seed, stacked decks, actions)`` (and a fair table's
``hand_seeds``, only when it has them) with a schema version;
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
import re
from dataclasses import fields
from typing import Any, TypeVar

from .actions import MAX_CLAIM, Action
from .cards import Card, format_cards, parse_cards
from .engine import DISCARDING, OVER, PLAYING, SHOWING, STANDARD, Claim, Config, PlayStep, State, replay
from .errors import IllegalActionError, ParseError, shown
from .events import EVENT_FIELDS, EVENT_KINDS, VERDICTS, Event, Show
from .scoring import KINDS, Breakdown, ScoreItem
from .view import View

SCHEMA = 1
MAX_SAVE_BYTES = 2_000_000  # a long match is a few tens of kilobytes
MAX_POINTS = 29             # the most one hand, crib or play can score
MAX_SCORE = 121 + MAX_POINTS
MAX_ID = 2**53              # ids and hand numbers: safe in JavaScript too
MAX_DEPTH = 32              # nesting of any JSON we read: our deepest is 7 (a profile's fair rounds)
_STRUCTURE = re.compile(r'[\[\]{}"\\]')
T = TypeVar("T")


def encode_state(state: State) -> str:
    """A state as JSON text: its recipe plus the scores, checked again on decoding."""
    data: dict[str, object] = {
        "schema": SCHEMA, "config": config_to_json(state.config), "seed": state.seed,
        "stacked": [format_cards(deck) for deck in state.stacked],
        "actions": [str(action) for action in state.actions],
        "scores": list(state.scores), "wins": list(state.wins),
    }
    if state.hand_seeds:     # only fair tables have them: other saves stay byte for byte
        data["hand_seeds"] = list(state.hand_seeds)
    return json.dumps(data, separators=(",", ":"))


def decode_state(text: object) -> State:
    """Rebuild a state from `encode_state` text by replaying it; refuse anything inconsistent."""
    if not isinstance(text, str) or len(text) > MAX_SAVE_BYTES:
        raise ParseError("a saved game is JSON text of at most 2 MB")
    data = _loads(text)
    keys = {"schema", "config", "seed", "stacked", "actions", "scores", "wins"}
    _expect(data, keys | ({"hand_seeds"} & set(data) if isinstance(data, dict) else set()), "saved game")
    seeds = data.get("hand_seeds", [])
    if type(data["schema"]) is not int or data["schema"] != SCHEMA:
        raise ParseError(f"this saved game has format {shown(data['schema'])}; this version reads "
                         f"format {SCHEMA}")
    if not all(isinstance(x, list) for x in (data["actions"], data["stacked"], seeds)) or len(seeds) > 10**4:
        raise ParseError("a saved game lists its actions, stacked decks and hand seeds")
    try:
        state = replay(config_from_json(data["config"]), data["seed"],
                       [Action.parse(text) for text in data["actions"]],
                       [parse_cards(deck) for deck in data["stacked"]], hand_seeds=seeds)
    except IllegalActionError as error:
        raise ParseError(f"this saved game is damaged: {error}") from None
    sides = state.config.sides
    if (state.scores, state.wins) != (_ints(data["scores"], sides, MAX_SCORE, "a score"),
                                      _ints(data["wins"], sides, MAX_SCORE, "games won")):
        raise ParseError("this saved game is damaged: its scores do not match its moves")
    return state


def config_to_json(config: Config) -> dict[str, object]:
    """A table's rules as JSON; the variant only when it is not the standard game, so that
    every standard table's JSON (saves, links, messages) is what it was before variants.

    >>> config_to_json(Config(variant="five", target=61))
    {'players': 2, 'target': 61, 'match_wins': 1, 'variant': 'five'}
    """
    data: dict[str, object] = {"players": config.players, "target": config.target,
                               "match_wins": config.match_wins}
    if config.variant != STANDARD:
        data["variant"] = config.variant
    if config.muggins:
        data["muggins"] = True
    return data


def config_from_json(data: object) -> Config:
    """Read `config_to_json` output (a table saved before variants has none: standard)."""
    keys = {"players", "target", "match_wins"}
    if isinstance(data, dict):
        keys |= {"variant", "muggins"} & set(data)
    return Config(**_expect(data, keys, "table config"))


def breakdown_to_json(breakdown: Breakdown) -> dict[str, object]:
    return {"total": breakdown.total,
            "items": [{"kind": item.kind, "cards": format_cards(item.cards), "points": item.points}
                      for item in breakdown.items]}


def breakdown_from_json(data: object) -> Breakdown:
    """Read `breakdown_to_json` output: known kinds, distinct cards, a total that adds up.

    >>> breakdown_from_json({"total": 3, "items": [{"kind": "go", "cards": "", "points": 1}]})
    Traceback (most recent call last):
    game.errors.ParseError: a score's total is the sum of its items
    """
    data = _expect(data, {"total", "items"}, "score")
    items = []
    for item in _list(data["items"], 40):
        _expect(item, {"kind", "cards", "points"}, "score item")
        items.append(ScoreItem(_one_of(item["kind"], KINDS, "a score kind"),
                               _cards(item["cards"], 13), _int(item["points"], 1, MAX_CLAIM, "points")))
    breakdown = Breakdown(items)
    if breakdown.total != _int(data["total"], 0, MAX_POINTS, "a score"):
        raise ParseError("a score's total is the sum of its items")
    return breakdown


def event_to_json(event: Event) -> dict[str, object]:
    return {
        "kind": event.kind, "seat": event.seat, "side": event.side,
        "cards": format_cards(event.cards), "count": event.count,
        "breakdown": breakdown_to_json(event.breakdown) if event.breakdown is not None else None,
        "scores": list(event.scores), "verdicts": list(event.verdicts),
    }


def event_from_json(data: object) -> Event:
    """Read `event_to_json` output: a known kind with the fields it uses, each within bounds
    (any table: seats 0 to 3, sides 0 to 2), and the fields it does not use left empty.

    >>> event_from_json({"kind": "go", "seat": 1, "side": None, "cards": "", "count": 27,
    ...                  "breakdown": None, "scores": [], "verdicts": ["win"]})
    Traceback (most recent call last):
    game.errors.ParseError: a go event has no verdicts
    """
    data = _expect(data, {"kind", "seat", "side", "cards", "count", "breakdown", "scores", "verdicts"},
                   "event")
    kind = _one_of(data["kind"], EVENT_KINDS, "an event")
    event = Event(
        kind=kind, seat=_opt_int(data["seat"], 3, "a seat"), side=_opt_int(data["side"], 2, "a side"),
        cards=_cards(data["cards"], 4), count=_opt_int(data["count"], 31, "a count"),
        breakdown=None if data["breakdown"] is None else breakdown_from_json(data["breakdown"]),
        scores=tuple(_int(x, 0, MAX_SCORE, "a score") for x in _list(data["scores"], 3)),
        verdicts=tuple(_one_of(x, VERDICTS, "a verdict") for x in _list(data["verdicts"], 3)))
    for name in ("seat", "side", "cards", "count", "breakdown", "scores", "verdicts"):
        if (getattr(event, name) not in (None, ())) != (name in EVENT_FIELDS[kind]):
            used = "has no" if name not in EVENT_FIELDS[kind] else "needs its"
            raise ParseError(f"a {kind.replace('_', ' ')} event {used} {name}")
    if event.side is not None and event.side >= len(event.scores):
        raise ParseError("an event's side has no score")
    return event


def view_to_json(view: View) -> dict[str, object]:
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
        **({} if view.claim is None else {"claim": {
            "what": view.claim.what, "seat": view.claim.seat, "cards": format_cards(view.claim.cards),
            "breakdown": breakdown_to_json(view.claim.breakdown), "claimed": view.claim.claimed,
            "caller": view.claim.caller}}),
    }


def view_from_json(data: object) -> View:
    """Read `view_to_json` output back, validating every field (a guest trusts no one): seats
    at the table, known phases, scores and counts within bounds, no card shown twice.

    >>> from game.engine import new_game
    >>> from game.view import view
    >>> data = view_to_json(view(new_game(Config(), seed=1), 0))
    >>> view_from_json(dict(data, hand="5H 5H 5H 5H 5H 5H"))
    Traceback (most recent call last):
    game.errors.ParseError: a view shows the same card twice
    """
    names = {f.name for f in fields(View)} - {"claim"}
    data = _expect(data, names | ({"claim"} & set(data) if isinstance(data, dict) else set()), "view")
    config = config_from_json(data["config"])
    last_seat, last_side = config.players - 1, config.sides - 1
    seat = _int(data["seat"], 0, last_seat, "a seat")
    score = config.target + MAX_POINTS
    shown_view = View(
        seat=seat, config=config, state_id=_int(data["state_id"], 0, MAX_ID, "a state id"),
        phase=_one_of(data["phase"], (DISCARDING, PLAYING, SHOWING, OVER), "a phase"),
        game_no=_int(data["game_no"], 0, config.sides * config.match_wins, "a game number"),
        hand_no=_int(data["hand_no"], 0, MAX_ID, "a hand number"),
        dealer=_int(data["dealer"], 0, last_seat, "a dealer"),
        cut=_cards(data["cut"], config.players),
        wins=_ints(data["wins"], config.sides, config.match_wins, "games won"),
        scores=_ints(data["scores"], config.sides, score, "a score"),
        previous=_ints(data["previous"], config.sides, score, "a score"),
        hand=_cards(data["hand"], config.dealt), kept=_cards(data["kept"], 4),
        discarded=_cards(data["discarded"], config.to_crib),
        has_discarded=tuple(_one_of(x, (False, True), "has discarded")
                            for x in _list(data["has_discarded"], config.players, exact=True)),
        hand_sizes=_ints(data["hand_sizes"], config.players, config.dealt, "a hand size"),
        crib_size=_int(data["crib_size"], 0, 4, "a crib size"),
        starter=None if data["starter"] is None else Card.parse(data["starter"]),
        pile=_cards(data["pile"], 13), count=_int(data["count"], 0, 31, "a count"),
        turn=_opt_int(data["turn"], last_seat, "a turn"),
        said_go=tuple(_int(x, 0, last_seat, "a seat") for x in _list(data["said_go"], last_seat)),
        play=tuple(_play_step(step, last_seat) for step in _list(data["play"], 64)),
        shows=tuple(_show(show, last_seat) for show in _list(data["shows"], 5)),
        winner=_opt_int(data["winner"], last_side, "a winner"),
        verdicts=tuple(_one_of(x, VERDICTS, "a verdict") for x in _list(data["verdicts"], 3)),
        legal=tuple(Action.from_json(action) for action in _list(data["legal"], 30)),
        claim=_claim(data["claim"], last_seat) if "claim" in data else None,
    )
    _check_view(shown_view)
    return shown_view


def _check_view(v: View) -> None:
    """What holds between a view's fields; see `view_from_json`."""
    played = [step.card for step in v.play if step.card]
    _distinct(v.hand + v.discarded + tuple(played) + ((v.starter,) if v.starter else ()))
    _distinct(tuple(card for show in v.shows for card in show.cards))
    if not set(v.pile) <= set(played) or (v.kept and not set(v.hand) <= set(v.kept)):
        raise ParseError("a view's pile or hand holds cards it did not play or keep")
    if v.hand_sizes[v.seat] != len(v.hand) or v.count != sum(card.value for card in v.pile):
        raise ParseError("a view's hand size or count does not match its cards")
    if any(back > front for back, front in zip(v.previous, v.scores)):
        raise ParseError("a back peg is never ahead of the front peg")
    if len(v.verdicts) not in (0, v.config.sides) or (v.winner is None) != (not v.verdicts):
        raise ParseError("a view has a verdict for every side once a game is won, else none")
    if any(action.seat != v.seat for action in v.legal):
        raise ParseError("a view's legal actions are its own seat's")


def _claim(data: object, last_seat: int) -> Claim:
    data = _expect(data, {"what", "seat", "cards", "breakdown", "claimed", "caller"}, "claim")
    claimed, breakdown = data["claimed"], breakdown_from_json(data["breakdown"])
    if claimed is not None and _int(claimed, 0, MAX_CLAIM, "a claim") > breakdown.total:
        raise ParseError("a claim is never more than the cards make")
    return Claim(_one_of(data["what"], ("play", "show", "crib"), "a claim's points"),
                 _int(data["seat"], 0, last_seat, "a seat"), _cards(data["cards"], 13), breakdown,
                 claimed, _opt_int(data["caller"], last_seat, "a seat"))


def _play_step(step: object, last_seat: int) -> PlayStep:
    kind, seat, card, count = _list(step, 4, exact=True)
    kind = _one_of(kind, ("play", "go", "reset"), "a play step")
    if (seat is None, card is None) != {"play": (False, False), "go": (False, True),
                                        "reset": (True, True)}[kind]:
        raise ParseError(f"a {kind} step has the wrong seat or card")
    return PlayStep(kind, _opt_int(seat, last_seat, "a seat"),
                    None if card is None else Card.parse(card), _int(count, 0, 31, "a count"))


def _show(data: object, last_seat: int) -> Show:
    data = _expect(data, {"seat", "crib", "cards", "breakdown"}, "show")
    cards = _cards(data["cards"], 4)
    if len(cards) not in (3, 4):
        raise ParseError("a hand or crib is shown with its four cards (three in five-card cribbage)")
    return Show(_int(data["seat"], 0, last_seat, "a seat"), _one_of(data["crib"], (False, True), "crib"),
                cards, breakdown_from_json(data["breakdown"]))


# ---- strict readers: every malformed value becomes a ParseError ----

def loads(text: object, what: str = "this", max_depth: int = MAX_DEPTH) -> Any:
    """Read JSON from the outside (a message, a link, a file, a save), nested at most
    ``max_depth`` deep; anything else raises `ParseError` naming ``what``.

    The depth is bounded before parsing: in the browser, ``json.loads`` of a 30,000-deep list
    overflows the WebAssembly stack and kills the page's Python before any `RecursionError`.

    >>> loads('{"a": [1, [2]]}')
    {'a': [1, [2]]}
    >>> loads("[" * 30_000 + "]" * 30_000, "a message")
    Traceback (most recent call last):
    ...
    game.errors.ParseError: a message is not valid JSON: nested more than 32 deep
    >>> loads(r'["[[[[", "\\"[["]', max_depth=1)    # brackets in strings do not count
    ['[[[[', '"[[']
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError(f"{what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise ParseError(f"{what} is not JSON text")
    brackets = text.count("[") + text.count("{")       # the usual case: too few to matter
    if brackets > max_depth and nesting(text, max_depth) > max_depth:
        raise ParseError(f"{what} is not valid JSON: nested more than {max_depth} deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ParseError(f"{what} is not valid JSON") from None


def nesting(text: str, limit: int) -> int:
    """How deep ``text``'s lists and objects nest, counted up to ``limit + 1`` (no further:
    a flood of brackets costs no more than ``limit`` of them). Brackets inside strings do not
    count; the text need not be valid JSON.

    >>> nesting('[{"x": "]]"}, [[]]]', 10), nesting("[" * 1000, 5)
    (3, 6)
    """
    level = deepest = 0
    in_string, escaped_at = False, -1
    for match in _STRUCTURE.finditer(text):
        at, char = match.start(), match.group()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    break
        elif char in "]}":
            level -= 1
    return deepest


def _loads(text: str) -> Any:
    """JSON, or `ParseError`: also for numbers too long for `int` and nesting too deep."""
    return loads(text)


def _expect(data: object, keys: set[str], what: str) -> dict[str, Any]:
    """``data`` if it is an object with exactly ``keys``, else `ParseError`."""
    if not isinstance(data, dict):
        raise ParseError(f"a {what} must be a JSON object")
    if set(data) != keys:
        raise ParseError(f"a {what} has exactly the fields {', '.join(sorted(keys))}")
    return data


def _list(data: object, limit: int, exact: bool = False) -> list[Any]:
    if not isinstance(data, list) or len(data) > limit or exact and len(data) != limit:
        raise ParseError(f"expected a list of {'' if exact else 'at most '}{limit} items")
    return data


def _int(value: object, low: int, high: int, what: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ParseError(f"{what} is a whole number from {low} to {high}, not {shown(value)}")
    return value


def _opt_int(value: object, high: int, what: str) -> int | None:
    return None if value is None else _int(value, 0, high, what)


def _ints(values: object, length: int, high: int, what: str) -> tuple[int, ...]:
    return tuple(_int(x, 0, high, what) for x in _list(values, length, exact=True))


def _one_of(value: object, options: tuple[T, ...], what: str) -> T:
    """``value`` if it is one of ``options`` (and of the same type: ``True`` is not ``1``)."""
    for option in options:
        if type(value) is type(option) and value == option:
            return option
    raise ParseError(f"{what} is one of {', '.join(map(str, options))}, not {shown(value)}")


def _cards(text: object, limit: int) -> tuple[Card, ...]:
    """At most ``limit`` distinct cards, written as `format_cards` does."""
    if not isinstance(text, str) or len(text) > 4 * limit:
        raise ParseError(f"expected at most {limit} cards, like '5H 5D JS'")
    cards = parse_cards(text)
    if len(cards) > limit:
        raise ParseError(f"expected at most {limit} cards, like '5H 5D JS'")
    return _distinct(cards)


def _distinct(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(set(cards)) != len(cards):
        raise ParseError("a view shows the same card twice")
    return cards
