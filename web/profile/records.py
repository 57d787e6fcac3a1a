"""Finished games as records: (config, seed, actions) plus who sat where, and what they scored.
A game dealt fairly at a table with friends also carries its ``hand_seeds`` and its ``fair``
transcript (`game.fair`: every hand's commitment, contributions and revealed secret, and any
alarm raised), which importing checks again. A game dealt blind (docs/blind-deal.md) carries
``blind``: the first dealer and every hand as this browser audited it (its deck as card codes,
its alarms, the SHA-256 of its relayed messages; a hand dealt again has no deck in the game),
and replays with those decks stacked (`game.engine.replay`).

A record replays into the exact game, so it is both the replay viewer's input and the source
of the statistics. Its ``summary`` is computed by replaying; importing a record replays it again
and refuses it if anything disagrees, so a tampered record never reaches the stats.

>>> from game.engine import Config
>>> from web.session import Session
>>> session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=3)
>>> while session.state.phase != "over":
...     seat = session.bot_to_move()
...     if seat is None:
...         _ = session.act(0, session.view(0).legal[0])
...     else:
...         _ = session.bot_move()
>>> record = record_game(session, seat=0, finished="2026-11-30T12:00:00Z")
>>> record.mode, record.summary.hands == len(record.summary.pegging)
('bot-easy', True)
>>> GameRecord.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from game.actions import Action
from game.codec import config_from_json, config_to_json, loads
from game.cards import DECK, Card
from game.engine import OVER, Config, State, apply, new_game
from game.errors import IllegalActionError, ParseError
from game.events import Event

from ..session import Session, clean_name

if TYPE_CHECKING:   # the coach loads after the start (web.lazy.AFTER_READY)
    from game.coach import GameReview, HandSeen

MAX_RECORD_BYTES = 64_000


@dataclass(frozen=True)
class Summary:
    """What one seat did in one game, derived by replaying it."""

    won: bool
    verdict: str                     # win / loss / skunk / double skunk (for the seat's side)
    skunks_given: int                # losing sides skunked (or double skunked) by this side's win
    scores: tuple[int, ...]          # final score of every side
    hands: int                       # hands dealt in the game
    pegging: tuple[int, ...]         # the seat's pegging points, per hand
    shown: tuple[int, ...]           # the seat's hand count, per hand that reached the show
    cribs: tuple[int, ...]           # the seat's crib counts, per hand it dealt and counted
    best_hand: int
    twenty_nines: int                # 29 hands counted at the table (any seat, hand or crib)
    missed: int = 0                  # muggins tables: points the seat failed to claim (issue 39)

    def as_json(self) -> dict[str, Any]:
        """The summary's fields; ``missed`` only when some were (a record from before muggins,
        or without it, reads and verifies as it always did)."""
        data = asdict(self)
        if not self.missed:
            del data["missed"]
        return data


@dataclass(frozen=True)
class GameRecord:
    """A finished game: replayable, and summarised for ``seat``."""

    id: str
    finished: str                    # ISO 8601 time
    mode: str                        # "bot-easy" / "bot-medium" / "bot-hard" / "friends"
    seat: int
    names: tuple[str, ...]
    config: Config
    seed: int
    actions: tuple[str, ...]
    summary: Summary
    hand_seeds: tuple[int, ...] = ()  # a fair table's seed per hand (game.engine.with_hand_seed)
    fair: dict[str, Any] | None = None   # {table, rounds, alarms}: the fair deal's transcript
    hints: tuple[int, ...] = ()          # the coach was asked before these actions (their index)
    coach: tuple[tuple[int, int], ...] = ()  # per hand: (discard, pegging) points given away, in hundredths
    coach_due: bool = False          # the coach was on; its figures are still to work out here (an import's)
    blind: dict[str, Any] | None = None  # {first_dealer, hands}: a blind game's audited hands (`check_blind`)

    OPTIONAL = ("hand_seeds", "fair", "hints", "coach", "coach_due", "blind")   # older records lack them

    @property
    def decks(self) -> tuple[tuple[Card, ...], ...]:
        """A blind game's decks, one a hand of the game (the hands dealt again are not in it)."""
        return blind_decks(self.blind)

    def start(self) -> State:
        """The game's first state, as every replay of the record begins it."""
        first = None if self.blind is None else self.blind["first_dealer"]
        return new_game(self.config, self.seed, self.decks, first, hand_seeds=self.hand_seeds)

    @property
    def fair_verdict(self) -> str | None:
        """``verified``, ``alarm``, or None for a game without a fair deal (or a blind one)."""
        if self.blind is not None:
            return "alarm" if self.alarms else "verified"
        if self.fair is None:
            return None
        return "alarm" if self.fair["alarms"] else "verified"

    @property
    def alarms(self) -> list[str]:
        """Every alarm the game's deal check raised (a fair deal's, or a blind game's hands')."""
        if self.blind is not None:
            return [alarm for hand in self.blind["hands"] for alarm in hand["alarms"]]
        return list(self.fair["alarms"]) if self.fair is not None else []

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["config"] = config_to_json(self.config)
        data["summary"] = self.summary.as_json()
        for key in ("hand_seeds", "fair", "coach_due", "blind"):   # absent from other games: their records stay as they were
            if not data[key]:
                del data[key]
        plain: dict[str, Any] = json.loads(json.dumps(data))   # plain JSON values: lists, not tuples
        return plain

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """Read and verify a record: it must replay to a finished game with the same summary."""
        fields = set(cls.__dataclass_fields__)
        if not isinstance(data, dict) or not fields - set(cls.OPTIONAL) <= set(data) <= fields:
            raise ParseError("a game record has the fields " + ", ".join(cls.__dataclass_fields__))
        config = config_from_json(data["config"])
        seat, seed = data["seat"], data["seed"]
        actions, names = data["actions"], data["names"]
        if not isinstance(seat, int) or not 0 <= seat < config.players:
            raise ParseError("a game record's seat is not at its table")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ParseError("a game record's actions are damaged")
        if not isinstance(names, list) or len(names) != config.players:
            raise ParseError("a game record names every seat")
        if not isinstance(data["finished"], str) or not isinstance(data["mode"], str):
            raise ParseError("a game record's date or mode is damaged")
        seeds = data.get("hand_seeds", [])
        if not isinstance(seeds, list) or len(seeds) > 1000:
            raise ParseError("a game record's hand seeds are damaged")
        record = make_record(config, seed, actions, seat,
                             [clean_name(n, f"Seat {i + 1}") for i, n in enumerate(names)],
                             data["mode"][:20], data["finished"][:40], seeds, data.get("fair"), data.get("blind"))
        if record.id != data["id"] or record.summary.as_json() != _summary_json(data["summary"]):
            raise ParseError("this game record has been altered: it does not replay to what it says")
        # The hints are kept (checked for shape). The coach's figures are not taken on trust: a
        # record that has them (or still owed them) is reviewed again here, in the background.
        due = bool(clean_coach(data.get("coach", []))) or data.get("coach_due") is True
        return replace(record, hints=clean_hints(data.get("hints", []), len(actions)), coach_due=due)


def walk_record(record: GameRecord) -> list[HandSeen]:
    """The record's game cut into hands as its seat saw them (`game.coach.walk`)."""
    from game.coach import walk     # here, not at the top: the coach loads after the start (web.lazy.AFTER_READY)

    return walk(record.start(), record.actions, record.seat)


def clean_hints(hints: object, actions: int) -> tuple[int, ...]:
    """Hint positions as a record keeps them: whole numbers within the game, each once."""
    if not isinstance(hints, (list, tuple)):
        raise ParseError("a game record's hints are damaged")
    return tuple(sorted({n for n in hints if type(n) is int and 0 <= n <= actions}))[:500]


def clean_coach(figures: object) -> tuple[tuple[int, int], ...]:
    """The coach's figures as a record keeps them: per hand, two whole hundredths from 0 up."""
    if not isinstance(figures, (list, tuple)):
        raise ParseError("a game record's coach figures are damaged")
    kept = []
    for pair in figures[:200]:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and
                all(type(n) is int and 0 <= n <= 100_000 for n in pair)):
            raise ParseError("a game record's coach figures are damaged")
        kept.append((pair[0], pair[1]))
    return tuple(kept)


def coach_figures(game: GameReview) -> tuple[tuple[int, int], ...]:
    """A `game.coach.GameReview` as a record keeps it (hundredths of a point, per hand)."""
    return tuple((round(review.discard_lost * 100), round(review.pegging_lost * 100))
                 for review in game.reviews)


def record_game(session: Session, seat: int, finished: str, mode: str | None = None,
                coach: GameReview | None = None, fair: dict[str, Any] | None = None,
                blind: dict[str, Any] | None = None) -> GameRecord:
    """The record of the session's finished game, seen from ``seat``, with the hints asked for,
    the coach's `GameReview` of it (if it was on) and a fair table's transcript (``fair``:
    ``{table, rounds, alarms}``, checked by `check_fair`) or a blind game's hands (``blind``:
    ``{first_dealer, hands}``, checked by `check_blind`)."""
    state = session.state
    if state.phase != OVER:
        raise ParseError("only a finished game can be recorded")
    if mode is None:
        mode = record_mode(session.bots, seat)
    record = make_record(state.config, state.seed, [str(a) for a in state.actions], seat,
                         session.names, mode, finished, state.hand_seeds, fair, blind)
    return replace(record, hints=clean_hints(getattr(session, "hints", []), len(state.actions)),
                   coach=coach_figures(coach) if coach is not None else ())


def record_mode(bots: Sequence[str | None], seat: int) -> str:
    """``friends`` when another person sat at the table, else ``bot-<hardest level>``."""
    others = [level for other, level in enumerate(bots) if other != seat]
    levels = [level for level in others if level is not None]
    if len(levels) < len(others):
        return "friends"
    return "bot-" + max(levels, key=("easy", "medium", "hard").index)


def make_record(config: Config, seed: int, actions: Sequence[str], seat: int, names: Iterable[str], mode: str,
                finished: str, hand_seeds: Iterable[int] = (), fair: object = None, blind: object = None) -> GameRecord:
    """Replay a game into its record; a ``fair`` transcript is checked (`check_fair`), a blind
    game's hands too (`check_blind`: its decks are the game's, one a hand)."""
    import hashlib   # here, not at the top: the start (a first visit has no records) goes without

    hand_seeds = tuple(hand_seeds)
    if hand_seeds and fair is None:
        raise ParseError("this game record has been altered: a game dealt fairly keeps its fair deal")
    if blind is not None and (hand_seeds or fair is not None):
        raise ParseError("this game record has been altered: a game is dealt blind or fairly, not both")
    blind = None if blind is None else check_blind(config, blind)
    decks = blind_decks(blind)
    summary = summarise(config, seed, actions, seat, hand_seeds, decks, None if blind is None else blind["first_dealer"])
    if blind is not None and summary.hands != len(decks):
        raise ParseError(f"this game record has been altered: its {len(decks)} decks are not the game's {summary.hands} hands")
    recipe = [config_to_json(config), seed, list(actions), seat] + ([list(hand_seeds)] if hand_seeds else []) + \
        ([blind] if blind is not None else [])
    digest = hashlib.sha256(json.dumps(recipe, separators=(",", ":")).encode()).hexdigest()[:20]
    fair = None if fair is None else check_fair(config, seed, hand_seeds, fair)
    if fair is not None and mode != "friends" and played_with_people(fair, seat):
        raise ParseError("this game record has been altered: it was played with friends, not the bots")
    return GameRecord(digest, finished, mode, seat, tuple(names), config, seed, tuple(actions),
                      summary, hand_seeds, fair, blind=blind)


def played_with_people(fair: dict[str, Any], seat: int) -> bool:
    """Whether a fair table's transcript shows a person (the host, or a friend) in a seat
    other than ``seat``: its game counts with friends, never in a bot's statistics."""
    return any(source != "bot" for r in fair["rounds"] for other, source in enumerate(r["sources"]) if other != seat)


def check_fair(config: Config, seed: int, hand_seeds: tuple[int, ...], fair: object) -> dict[str, Any]:
    """A fair deal's transcript, read and audited again (`game.fair.audit`): its alarms must
    include every problem the audit finds, or the record was altered to hide one."""
    from game.fair import Round, audit   # only records of tables with friends have one

    if not isinstance(fair, dict) or set(fair) != {"table", "rounds", "alarms"}:
        raise ParseError("a game record's fair deal has the fields alarms, rounds, table")
    table, rounds, alarms = fair["table"], fair["rounds"], fair["alarms"]
    if not isinstance(table, str) or not isinstance(rounds, list) or len(rounds) > 1000 or \
            not isinstance(alarms, list) or not all(isinstance(a, str) and len(a) < 200 for a in alarms[:200]):
        raise ParseError("a game record's fair deal is damaged")
    read = [Round.from_json(r) for r in rounds]
    found = audit(table, config, seed, hand_seeds, read)
    if not set(found) <= set(alarms):
        raise ParseError("this game record has been altered: its fair deal check does not say what it finds")
    return {"table": table[:64], "rounds": [r.to_json() for r in read], "alarms": list(alarms[:200])}


BLIND_HAND = {"hand", "deck", "alarms", "sha256", "abandoned"}


def check_blind(config: Config, blind: object) -> dict[str, Any]:
    """A blind game's hands, read: ``{first_dealer, hands}``, each hand ``{hand, deck, alarms}``
    (and its messages' ``sha256``, and why it was ``abandoned``), each deck 52 distinct card
    codes, or None for a hand dealt again (a friend away, or an alarm: it has alarms then).
    Whether the decks are the game's, `make_record` sees by replaying it.

    >>> deck = [str(card) for card in DECK]
    >>> check_blind(Config(), {"first_dealer": 1, "hands": [{"hand": 0, "deck": deck, "alarms": []}]})["first_dealer"]
    1
    >>> check_blind(Config(), {"first_dealer": 1, "hands": [{"hand": 0, "deck": deck[:51] + ["AC"], "alarms": []}]})
    Traceback (most recent call last):
    game.errors.ParseError: a blind game record's hand 1 has a deck that is not 52 distinct cards
    """
    if not isinstance(blind, dict) or set(blind) != {"first_dealer", "hands"}:
        raise ParseError("a blind game record has the fields first_dealer, hands")
    first, hands = blind["first_dealer"], blind["hands"]
    if type(first) is not int or not 0 <= first < config.players:
        raise ParseError("a blind game record's first dealer is not at its table")
    if not isinstance(hands, list) or len(hands) > 200:
        raise ParseError("a blind game record's hands are damaged")
    kept = []
    for n, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or not {"hand", "deck", "alarms"} <= set(hand) <= BLIND_HAND or \
                type(hand["hand"]) is not int or not 0 <= hand["hand"] < 1000:
            raise ParseError(f"a blind game record's hand {n} is damaged")
        deck, alarms = hand["deck"], hand["alarms"]
        if deck is not None and (not isinstance(deck, list) or len(deck) != len(DECK) or
                                 not all(isinstance(code, str) for code in deck) or
                                 len({_card(code, n) for code in deck}) != len(DECK)):
            raise ParseError(f"a blind game record's hand {n} has a deck that is not 52 distinct cards")
        if not isinstance(alarms, list) or len(alarms) > 20 or \
                not all(isinstance(a, str) and len(a) < 300 for a in alarms):
            raise ParseError(f"a blind game record's hand {n} has damaged alarms")
        digest, why = hand.get("sha256", ""), hand.get("abandoned", "")
        if not (isinstance(digest, str) and len(digest) in (0, 64) and all(c in "0123456789abcdef" for c in digest)) \
                or not isinstance(why, str) or len(why) > 200:
            raise ParseError(f"a blind game record's hand {n} is damaged")
        kept.append({"hand": hand["hand"], "deck": None if deck is None else [str(Card.parse(c)) for c in deck],
                     "alarms": list(alarms), **({"sha256": digest} if digest else {}),
                     **({"abandoned": why} if why else {})})
    return {"first_dealer": first, "hands": kept}


def _card(code: str, n: int) -> Card:
    try:
        return Card.parse(code)
    except ParseError:
        raise ParseError(f"a blind game record's hand {n} has a deck that is not 52 distinct cards") from None


def blind_decks(blind: dict[str, Any] | None) -> tuple[tuple[Card, ...], ...]:
    """The decks of a blind game's hands that are in the game: audited, without an alarm."""
    if blind is None:
        return ()
    return tuple(tuple(Card.parse(code) for code in hand["deck"]) for hand in blind["hands"]
                 if hand["deck"] is not None and not hand["alarms"])


def summarise(config: Config, seed: int, actions: Iterable[str], seat: int, hand_seeds: tuple[int, ...] = (),
              decks: tuple[tuple[Card, ...], ...] = (), first_dealer: int | None = None) -> Summary:
    """Replay a game (a blind one with its ``decks`` stacked, from ``first_dealer``) and add up
    what ``seat`` scored, hand by hand."""
    try:
        state = new_game(config, seed, decks, first_dealer, hand_seeds=hand_seeds)
        events: list[Event] = []
        for text in actions:
            state, new = apply(state, Action.parse(text))
            events += new
    except IllegalActionError as error:
        raise ParseError(f"this game record does not replay: {error}") from None
    if state.phase != OVER:
        raise ParseError("this game record stops before the end of the game")
    side = config.side_of(seat)
    # new_game dealt the first hand already; later deals arrive as events.
    hands, pegging, best, nines, in_show, missed = 1, [0], 0, 0, False, 0
    shown: list[int] = []
    cribs: list[int] = []
    for event in events:
        points = event.breakdown.total if event.breakdown is not None else 0   # a count's, a peg's
        if event.kind == "deal":
            hands += 1
            pegging.append(0)
            in_show = False
        elif event.kind in ("show", "crib"):
            in_show = True
            nines += points == 29
            if event.seat == seat:
                (cribs if event.kind == "crib" else shown).append(points)
                best = max(best, points) if event.kind == "show" else best
        elif event.kind == "peg" and event.seat == seat and not in_show:
            pegging[-1] += points
        if event.kind == "claim" and event.seat == seat:
            assert event.count is not None, "a claim says its points"
            missed += points - event.count
    won = state.winner == side
    verdicts = state.verdicts
    given = sum(v in ("skunk", "double skunk") for v in verdicts) if won else 0
    return Summary(won, verdicts[side], given, state.scores, hands, tuple(pegging), tuple(shown),
                   tuple(cribs), best, nines, missed)


def _summary_json(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise ParseError("a game record's summary is damaged")
    return {key: (tuple(value) if isinstance(value, list) else value) for key, value in data.items()}


# ---- sharing one record as a link ----

def record_to_link_code(record: GameRecord) -> str:
    """A compact text (deflated JSON, base64url) to put after ``#record=`` in a link."""
    raw = json.dumps(record.to_json(), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def record_from_link_code(code: str) -> GameRecord:
    """Read `record_to_link_code` output; anything damaged raises `ParseError`."""
    if not isinstance(code, str) or len(code) > MAX_RECORD_BYTES:
        raise ParseError("this game link is too long or empty")
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_RECORD_BYTES)   # bounded: no zip bombs
        if not inflater.eof:   # cut short (even by its checksum only) or too big
            raise ValueError("incomplete")
    except (ValueError, zlib.error):
        raise ParseError("this game link is damaged") from None
    data = loads(raw, "this game link")
    return GameRecord.from_json(data)
