"""The wire protocol between a table's host and its guests: one envelope, one parser.

Every message is a JSON object ``{"v": 1, "type": ..., ...}`` sent over the data channel.
`parse(text, sender)` is the only way in: it checks the size, the version, the type allowed
for that sender and every field, and returns a `Message` whose values are already engine
types (`Action`, `View`, `Event`). Anything else raises `ProtocolError` with a reason a
person can read; the caller drops the message and logs the reason. Pure Python.

    guest -> host   hello {name, token}      action {state_id, action, n}   chat {text, n}
                    fair_contribute {game, hand, value}    blind {hand, n, from, body}
    host -> guest   welcome {seat, token, last}   reject {reason, text}     error {text}
                    table {players, target, variant, muggins, started, seats, coach, watching}
                    chat {lines}
                    view {view, events, log, game, rounds, record}          ack {n}
                    fair_commit {game, hand, commitment}   (hand 0's, before a game is dealt)
                    blind {hand, n, from, body}            (a blind-dealt hand's relayed message)
    host -> spectator   table, chat, reject, error as above;  watch {view, events, log}

A spectator (`web.friends.watchers`) sends nothing the host takes: it reads ``table``, ``chat``
and ``watch``, the public view (`public_view`: a seat's view with no card of its own, its
hand's size kept) and the public events, and never a fair deal's round or a game's record.

A ``view`` carries the seat's view and the events that led to it; ``log`` is the whole history
on a full sync, else null. It also carries the fair deal (`game.fair`, `web.friends.fair_table`):
``game`` is the table's number of the game being played, ``rounds`` the rounds of that game a
guest must know by now (each ``{game, hand, commitment, contributions, sources, secret}``, the
shares null until they are fixed, the secret null until revealed), and ``record`` the game's
recipe ``{config, seed, hand_seeds, actions, names}`` once it is over (else null). One message
for all of it, so a guest checks each deal against what came with it, never against a message
the host could leave out or send later.

A guest's first ``hello`` proposes a fresh seat token, which the host keeps for the seat it
gives: a ``hello`` sent again over a new channel before the ``welcome`` came back finds that
seat, instead of taking a second one (or hearing the table is full).

At a blind table (the table's ``blind``: docs/blind-deal.md), each hand is dealt by every
seated person's browser together: ``blind`` messages carry the hand's bodies
(`web.friends.blind_flow`), from a guest to the host and relayed by the host to every seated
person (never to a spectator). A ``blind`` text may be up to `MAX_BLIND_BYTES` (the biggest, a
4-player lock, is about 57 KB); the host knows one by its first characters (`BLIND_PREFIX`) and counts it
against the sender's limits before reading it (`web.friends.limits`). Its body is read with
the nesting bound every message has (`game.codec.loads`).

A guest numbers its moves and chat lines (``n``) and the host acknowledges each number
(``ack``; ``welcome``'s ``last`` after a reconnect), so nothing is lost or taken twice when a
connection drops: `web.friends.delivery`.

>>> message = parse(hello("Ann", None), "guest")
>>> message.type, message["name"], message["token"]
('hello', 'Ann', None)
>>> parse('{"v": 2, "type": "hello"}', "guest")
Traceback (most recent call last):
...
web.friends.protocol.ProtocolError: this table speaks protocol version 8, not 2: reload the page
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from game.actions import Action
from game.codec import config_from_json, loads, config_to_json, event_from_json, event_to_json, view_from_json, view_to_json
from game.engine import Config
from game.errors import ParseError
from game.events import Event
from game.fair import HEX, SOURCES, Round
from game.view import View

if TYPE_CHECKING:
    from ..table.model import SeatKind

# 3: the fair deal's messages, and records with hand seeds; 4: the table says whether the coach is on;
# 5: the view carries the game number, the fair deal's rounds and the record; 6: spectators (the
# table's watching count, the watch message and the refusals of a watch link); 7: the table's variant
# (five-card) and whether the players count it themselves (muggins); 8: the blind deal (the table's
# ``blind``, the ``blind`` message both ways)
VERSION = 8
MAX_SEQUENCE = 10**9             # a guest's message numbers (web.friends.delivery)
MAX_GUEST_BYTES = 2_048          # a guest's messages are small
MAX_HOST_BYTES = 262_144         # a full sync carries a view and the hand history
MAX_BLIND_BYTES = 98_304   # a blind hand's message: the biggest, a 4-player lock, is about 57 KB (35 KB at 2 players)
BLIND_PREFIX = f'{{"v":{VERSION},"type":"blind",'   # how every blind text begins (`blind`)
MAX_NAME = 24
MAX_CHAT = 280
MAX_LOG_LINES = 400
MAX_CHAT_LINES = 100
MAX_HANDS = 1_000                # hands in one game (a 121 game has about 10 to 30)
MAX_WATCHING = 99                # spectators a table message may count (web.friends.watchers bounds them)
MAX_ACTIONS = 4_000              # a finished game's moves, for the guest's own record of it
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SEAT_KINDS = ("host", "person", "bot", "open")
REJECT_REASONS = {
    "full": "This table is full: every seat is taken.",
    "version": "This table runs another version of the game. Reload the page (both of you).",
    "closed": "The host has closed this table.",
    "replaced": "You opened this table in another tab or window.",
    "removed": "The host asked you to leave this table.",
    "watch-full": "As many people as the host allows are watching this table already. Try again later.",
    "watch-closed": "The host closed watching: this table has no spectators now.",
    "watch-only": "This is a link to watch the table: it cannot seat anyone. Ask the host for an invite link to play.",
}
FIELDS = {
    "guest": {
        "hello": {"name", "token"},
        "action": {"state_id", "action", "n"},
        "chat": {"text", "n"},
        "fair_contribute": {"game", "hand", "value"},
        "blind": {"hand", "n", "from", "body"},
    },
    "host": {
        "welcome": {"seat", "token", "last"},
        "ack": {"n"},
        "reject": {"reason", "text"},
        "error": {"text"},
        "table": {"players", "target", "variant", "muggins", "started", "seats", "coach", "watching", "blind"},
        "view": {"view", "events", "log", "game", "rounds", "record"},
        "chat": {"lines"},
        "fair_commit": {"game", "hand", "commitment"},
        "watch": {"view", "events", "log"},
        "blind": {"hand", "n", "from", "body"},
    },
}


Fields = dict[str, Any]   # a message's fields by name (JSON values, or engine types once read)


class SeatInfo(TypedDict):
    """A seat as a ``table`` message lists it: a bot's ``level``; a person away may have a bot of
    level ``stand_in`` playing for them."""

    name: str
    kind: SeatKind
    level: str | None
    online: bool
    stand_in: str | None


class ChatLine(TypedDict):
    """A line of the table's chat, ``at`` seconds since 1970; a ``system`` line is the table's own
    news (its ``name`` empty)."""

    at: float
    name: str
    text: str
    system: bool


class TableInfo(TypedDict):
    """A ``table`` message's fields, as `parse` checked them: the table as a guest knows it."""

    players: int
    target: int
    variant: str
    muggins: bool
    started: bool
    seats: list[SeatInfo]
    coach: bool
    watching: int
    blind: bool


class ProtocolError(ValueError):
    """A message that is dropped; ``code`` is ``"version"`` for a version mismatch."""

    def __init__(self, reason: str, code: str = "malformed") -> None:
        super().__init__(reason)
        self.code = code


class Message:
    """A parsed, validated message: ``type`` and its fields by name."""

    __slots__ = ("type", "fields")

    def __init__(self, type: str, fields: Fields) -> None:
        self.type, self.fields = type, fields

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def __repr__(self) -> str:
        return f"Message({self.type!r}, {self.fields!r})"


def parse(text: object, sender: str) -> Message:
    """Validate one message that ``sender`` (``"guest"`` or ``"host"``) sent."""
    if not isinstance(text, str):
        raise ProtocolError("a message is text")
    limit = MAX_BLIND_BYTES if text.startswith(BLIND_PREFIX) else MAX_GUEST_BYTES if sender == "guest" \
        else MAX_HOST_BYTES
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError(f"a message is at most {limit} bytes")
    try:
        data = loads(text, "a message")
    except ParseError as bad:
        raise ProtocolError(str(bad)) from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    version = data.get("v")
    if version != VERSION or isinstance(version, bool):
        raise ProtocolError(f"this table speaks protocol version {VERSION}, not {str(version)[:10]}: "
                            f"reload the page", "version")
    kind = data.get("type")
    allowed = FIELDS[sender]
    if not isinstance(kind, str) or kind not in allowed:
        raise ProtocolError(f"a {sender} does not send {str(kind)[:20]!r} messages")
    if set(data) != allowed[kind] | {"v", "type"}:
        raise ProtocolError(f"a {kind} message has exactly: {', '.join(sorted(allowed[kind]))}")
    try:
        return Message(kind, READERS[kind, sender](data))
    except ProtocolError:
        raise
    except (ParseError, ValueError, TypeError, KeyError, IndexError, AttributeError) as bad:
        raise ProtocolError(f"a bad {kind} message: {str(bad)[:120]}") from None


# ---- field readers ----

def _text(value: object, limit: int, what: str, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} is text")
    clean = "".join(ch for ch in value if ch.isprintable()).strip()
    if len(value) > 4 * limit or len(clean) > limit:
        raise ProtocolError(f"{what} is at most {limit} characters")
    if not clean and not empty:
        raise ProtocolError(f"{what} is empty")
    return clean


def _int(value: object, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(f"{what} is a whole number from {low} to {high}")
    return value


def _token(value: object, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not TOKEN.fullmatch(value):
        raise ProtocolError("a seat token is 16 to 64 letters, digits, - or _")
    return value


def _list(value: object, limit: int, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        raise ProtocolError(f"{what} is a list of at most {limit}")
    return value


def _hello(data: Fields) -> Fields:
    return {"name": _text(data["name"], MAX_NAME, "a name"), "token": _token(data["token"], optional=True)}


def _number(data: Fields) -> int:
    return _int(data["n"], 1, MAX_SEQUENCE, "a message number")


def _action(data: Fields) -> Fields:
    return {"state_id": _int(data["state_id"], 0, 10**7, "a state id"), "action": Action.from_json(data["action"]),
            "n": _number(data)}


def _guest_chat(data: Fields) -> Fields:
    return {"text": _text(data["text"], MAX_CHAT, "a chat line"), "n": _number(data)}


def _welcome(data: Fields) -> Fields:
    return {"seat": _int(data["seat"], 0, 3, "a seat"), "token": _token(data["token"]),
            "last": _int(data["last"], 0, MAX_SEQUENCE, "a message number")}


def _ack(data: Fields) -> Fields:
    return {"n": _number(data)}


def _reject(data: Fields) -> Fields:
    if data["reason"] not in REJECT_REASONS:
        raise ProtocolError("unknown reject reason")
    return {"reason": data["reason"], "text": _text(data["text"], 300, "a reason")}


def _error(data: Fields) -> Fields:
    return {"text": _text(data["text"], 300, "an error")}


def _seat(data: object) -> SeatInfo:
    if not isinstance(data, dict) or set(data) != {"name", "kind", "level", "online", "stand_in"}:
        raise ProtocolError("a seat has exactly: kind, level, name, online, stand_in")
    if data["kind"] not in SEAT_KINDS:
        raise ProtocolError("unknown seat kind")
    for key in ("level", "stand_in"):
        if data[key] is not None:
            _text(data[key], 12, "a bot level")
    return {"name": _text(data["name"], MAX_NAME, "a name", empty=True), "kind": data["kind"],
            "level": data["level"], "online": bool(data["online"]), "stand_in": data["stand_in"]}


def _table(data: Fields) -> Fields:
    players = _int(data["players"], 2, 4, "players")
    if data["target"] not in (61, 121):
        raise ProtocolError("a game is to 61 or 121")
    seats = [_seat(seat) for seat in _list(data["seats"], 4, "seats")]
    if len(seats) != players:
        raise ProtocolError("a table lists every seat")
    if not isinstance(data["coach"], bool):
        raise ProtocolError("a table's coach setting is true or false")
    # The engine's own checks: a variant it knows, five-card for two to 61, muggins true or false.
    Config(players=players, target=data["target"], variant=data["variant"], muggins=data["muggins"])
    return {"players": players, "target": data["target"], "variant": data["variant"], "muggins": data["muggins"],
            "started": bool(data["started"]), "seats": seats,
            "coach": data["coach"], "watching": _int(data["watching"], 0, MAX_WATCHING, "spectators"),
            "blind": _bool(data["blind"], "a table's blind deal")}


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{what} is true or false")
    return value


def _blind(data: Fields) -> Fields:
    """A blind hand's message: its hand, its number, its sender's seat and its body (read by
    `web.friends.blind_flow.advance`, which checks every field of it)."""
    if not isinstance(data["body"], dict):
        raise ProtocolError("a blind message's body is an object")
    return {"hand": _int(data["hand"], 0, 2**31 - 1, "a hand number"), "n": _int(data["n"], 0, 2**31 - 1, "a message number"),
            "from": _int(data["from"], 0, 3, "a seat"), "body": data["body"]}


def _events(data: Fields) -> list[Event]:
    return [event_from_json(event) for event in _list(data["events"], 200, "events")]


def _log(data: Fields) -> list[str] | None:
    log = data["log"]
    return None if log is None else [_text(line, 400, "a log line", empty=True)
                                     for line in _list(log, MAX_LOG_LINES, "the log")]


def _view(data: Fields) -> Fields:
    """A seat's view; at a blind table, the public view (its browser adds its own cards: `_public`)."""
    raw = data["view"]
    public = isinstance(raw, dict) and all(raw.get(key) in ("", []) for key in ("hand", "kept", "discarded", "legal"))
    return {"view": _public(raw) if public else view_from_json(raw), "events": _events(data),
            "log": _log(data), "game": _int(data["game"], 0, MAX_SEQUENCE, "a game number"),
            "rounds": [_round_state(r) for r in _list(data["rounds"], MAX_HANDS + 2, "rounds")],
            "record": None if data["record"] is None else _record(data["record"])}


def public_view(seat_view: View) -> View:
    """What everyone at the table may see, from ``seat_view``'s place: its seat's hand, kept
    cards, discards and choices taken away, the size of its hand kept (card backs to draw).
    It breaks a seat's view's rule that the hand's size is the hand's, so it travels as a
    ``watch`` message, never a ``view``.

    >>> from game.engine import Config, new_game
    >>> from game.view import view
    >>> seen = public_view(view(new_game(Config(players=3), seed=1), 0))
    >>> seen.hand, seen.legal, seen.hand_sizes
    ((), (), (5, 5, 5))
    """
    return replace(seat_view, hand=(), kept=(), discarded=(), legal=())


def _watch(data: Fields) -> Fields:
    """A spectator's view: no card of the seat's own, whatever the host says (`public_view`)."""
    raw = data["view"]
    if not isinstance(raw, dict) or any(raw.get(key) not in ("", []) for key in ("hand", "kept", "discarded", "legal")):
        raise ProtocolError("a spectator's view holds no seat's own cards or moves")
    return {"view": _public(raw), "events": _events(data), "log": _log(data)}


def _public(raw: Fields) -> View:
    """A view with no card of the seat's own (`public_view`), its hand's size kept."""
    sizes = _list(raw.get("hand_sizes"), 4, "hand sizes")
    seat = _int(raw.get("seat"), 0, len(sizes) - 1, "a seat")
    # Read as the seat's view of an empty hand (all `view_from_json` checks), then its size back.
    seen = view_from_json(dict(raw, hand_sizes=[0 if n == seat else size for n, size in enumerate(sizes)]))
    held = _int(sizes[seat], 0, seen.config.dealt, "a hand size")
    return replace(seen, hand_sizes=seen.hand_sizes[:seat] + (held,) + seen.hand_sizes[seat + 1:])


def _host_chat(data: Fields) -> Fields:
    lines: list[ChatLine] = []
    for line in _list(data["lines"], MAX_CHAT_LINES, "chat lines"):
        if not isinstance(line, dict) or set(line) != {"at", "name", "text", "system"}:
            raise ProtocolError("a chat line has exactly: at, name, system, text")
        at = line["at"]
        if not isinstance(at, (int, float)) or isinstance(at, bool) or not 0 <= at < 1e11:
            raise ProtocolError("a chat time is seconds since 1970")
        lines.append({"at": float(at), "name": _text(line["name"], MAX_NAME, "a name", empty=True),
                      "text": _text(line["text"], 400, "a chat line"), "system": bool(line["system"])})
    return {"lines": lines}


def _record(data: object) -> Fields:
    """A finished game's recipe; the guest replays it before keeping it (`web.profile.records`)."""
    if not isinstance(data, dict) or set(data) != {"config", "seed", "hand_seeds", "actions", "names"}:
        raise ProtocolError("a record has exactly: actions, config, hand_seeds, names, seed")
    actions = _list(data["actions"], MAX_ACTIONS, "a game's actions")
    if not all(isinstance(a, str) and len(a) <= 40 for a in actions):
        raise ProtocolError("a game's actions are short texts")
    seeds = _list(data["hand_seeds"], MAX_HANDS, "a game's hand seeds")
    return {"config": config_from_json(data["config"]),
            "seed": _int(data["seed"], 0, 2**63, "a seed"),
            "hand_seeds": [_int(seed, 0, 2**63 - 1, "a hand seed") for seed in seeds],
            "actions": actions,
            "names": [_text(n, MAX_NAME, "a name", empty=True) for n in _list(data["names"], 4, "names")]}


def _hex(value: object, what: str) -> str:
    if not isinstance(value, str) or not HEX.fullmatch(value) or value == "0" * 64:
        raise ProtocolError(f"{what} is 64 lowercase hex digits (not all zeros)")
    return value


def _round(data: Fields) -> Fields:
    return {"game": _int(data["game"], 0, MAX_SEQUENCE, "a game number"),
            "hand": _int(data["hand"], 0, MAX_HANDS, "a hand number")}


def _contribute(data: Fields) -> Fields:
    return dict(_round(data), value=_hex(data["value"], "a contribution"))


def _commit(data: Fields) -> Fields:
    return dict(_round(data), commitment=_hex(data["commitment"], "a commitment"))


def _round_state(data: object) -> Round:
    """A round as the host has it now: its shares once fixed (else null), its secret once
    revealed (else null). A `game.fair.Round` whose contributions are empty until fixed."""
    if not isinstance(data, dict) or set(data) != {"game", "hand", "commitment", "contributions", "sources",
                                                   "secret"}:
        raise ProtocolError("a round has exactly: commitment, contributions, game, hand, secret, sources")
    values, sources = data["contributions"], data["sources"]
    if (values is None) != (sources is None):
        raise ProtocolError("a round's shares and their sources are fixed together")
    if values is not None:
        values, sources = _list(values, 4, "contributions"), _list(sources, 4, "sources")
        if len(values) != len(sources) or len(values) < 2 or any(s not in SOURCES for s in sources):
            raise ProtocolError(f"a fair deal lists every seat's contribution and its source ({', '.join(SOURCES)})")
    secret, number = data["secret"], _round(data)
    return Round(number["game"], number["hand"], _hex(data["commitment"], "a commitment"),
                 tuple(_hex(v, "a contribution") for v in values or ()), tuple(sources or ()),
                 None if secret is None else _hex(secret, "a secret"))


READERS: dict[tuple[str, str], Callable[[Fields], Fields]] = {
    ("hello", "guest"): _hello, ("action", "guest"): _action, ("chat", "guest"): _guest_chat,
    ("welcome", "host"): _welcome, ("ack", "host"): _ack, ("reject", "host"): _reject, ("error", "host"): _error,
    ("table", "host"): _table, ("view", "host"): _view, ("chat", "host"): _host_chat,
    ("fair_contribute", "guest"): _contribute, ("fair_commit", "host"): _commit, ("watch", "host"): _watch,
    ("blind", "guest"): _blind, ("blind", "host"): _blind,
}


def rules_words(variant: str, target: int) -> str:
    """A table's game in words, for its lobby and chat.

    >>> rules_words("five", 61), rules_words("standard", 121)
    ('five-card cribbage, game to 61', 'game to 121')
    """
    return f"five-card cribbage, game to {target}" if variant == "five" else f"game to {target}"


# ---- builders: the text each side sends ----

def _dump(kind: str, **fields: object) -> str:
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"))


def hello(name: str, token: str | None) -> str:
    return _dump("hello", name=name, token=token)


def action(state_id: int, act: Action, n: int) -> str:
    return _dump("action", state_id=state_id, action=act.to_json(), n=n)


def chat(text: str, n: int) -> str:
    return _dump("chat", text=text, n=n)


def welcome(seat: int, token: str, last: int = 0) -> str:
    return _dump("welcome", seat=seat, token=token, last=last)


def ack(n: int) -> str:
    return _dump("ack", n=n)


def reject(reason: str) -> str:
    return _dump("reject", reason=reason, text=REJECT_REASONS[reason])


def error(text: str) -> str:
    return _dump("error", text=text[:300])


def table(players: int, target: int, started: bool, seats: list[SeatInfo], coach: bool = False,
          watching: int = 0, variant: str = "standard", muggins: bool = False, blind: bool = False) -> str:
    return _dump("table", players=players, target=target, variant=variant, muggins=muggins, started=started,
                 seats=seats, coach=coach, blind=blind, watching=watching)


def blind(hand: int, n: int, sender: int, body: object) -> str:
    """A blind hand's message ``n`` of hand ``hand`` from seat ``sender`` (it begins with `BLIND_PREFIX`).

    >>> blind(3, 0, 1, {"step": "go", "seat": 1}).startswith(BLIND_PREFIX)
    True
    """
    return _dump("blind", hand=hand, n=n, body=body, **{"from": sender})


def view(seat_view: View, events: Iterable[Event], log: Iterable[str] | None = None, game: int = 0,
         rounds: Iterable[Fields] = (), record: Fields | None = None) -> str:
    """A seat's view; ``rounds`` as `round_state` writes them, ``record`` as `record` does."""
    return _dump("view", view=view_to_json(seat_view), events=[event_to_json(e) for e in events],
                 log=None if log is None else list(log)[-MAX_LOG_LINES:], game=game, rounds=list(rounds),
                 record=record)


def watch(seat_view: View, events: Iterable[Event], log: Iterable[str] | None = None) -> str:
    """A spectator's message: the public view from ``seat_view``'s place (`public_view`), the
    public events and, on a full sync, the hand history."""
    return _dump("watch", view=view_to_json(public_view(seat_view)), events=[event_to_json(e) for e in events],
                 log=None if log is None else list(log)[-MAX_LOG_LINES:])


def chat_lines(lines: list[ChatLine]) -> str:
    return _dump("chat", lines=lines[-MAX_CHAT_LINES:])


def record(config: Config, seed: int, actions: Iterable[object], names: Iterable[str],
           hand_seeds: Iterable[int] = ()) -> Fields:
    """A finished game, so a guest can keep it in its profile: sent only with the view that ends it."""
    return {"config": config_to_json(config), "seed": seed, "hand_seeds": list(hand_seeds),
            "actions": [str(a) for a in actions], "names": list(names)}


def round_state(round_: Round, fixed: bool, revealed: bool) -> Fields:
    """A round as a guest may know it now: the shares only once fixed, the secret once revealed."""
    return {"game": round_.game, "hand": round_.hand, "commitment": round_.commitment,
            "contributions": list(round_.contributions) if fixed else None,
            "sources": list(round_.sources) if fixed else None,
            "secret": round_.secret if revealed else None}


def fair_contribute(game: int, hand: int, value: str) -> str:
    return _dump("fair_contribute", game=game, hand=hand, value=value)


def fair_commit(round_: Round) -> str:
    return _dump("fair_commit", game=round_.game, hand=round_.hand, commitment=round_.commitment)
