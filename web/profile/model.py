"""The player's local profile: nickname, preferences and finished games. No account, no server.

It lives in the browser's storage as versioned JSON, moves to another device as a file, a link
or over a peer-to-peer channel, and merges by game id, so importing twice counts nothing twice.
Anything damaged, altered or from a newer version is refused with a message, and the profile
already there stays as it was.

>>> profile = Profile.new("Ann", now="2026-11-30T12:00:00Z")
>>> profile.prefs["theme"], Profile.from_json(profile.to_json()) == profile
('system', True)
>>> Profile.from_json('{"name": "Ann", "level": "hard"}').prefs["level"]   # a version 1 save
'hard'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from game.codec import config_from_json, loads
from game.errors import ParseError

from .records import GameRecord, Summary, clean_coach, clean_hints
from ..session import clean_name

FORMAT = "cribbage-profile"
VERSION = 2
MAX_RECORDS = 300                 # the newest games are kept; localStorage holds ~5 MB
MAX_PROFILE_CHARS = 4_000_000

# Every preference, its allowed values (the first is the default).
PREFERENCES: dict[str, tuple[object, ...]] = {
    "level": ("medium", "easy", "hard"),          # default bot level
    "players": (2, 3, 4),
    "target": (121, 61, "five"),                 # default game length ("five": five-card, to 61)
    "card_size": ("medium", "small", "large"),
    "sort": ("rank", "suit"),                    # hand sort order
    "four_colour": (False, True),
    "speed": ("normal", "fast", "slow", "instant"),   # pace of the bots and animations
    "auto_continue": (False, True),              # leave the show by itself
    "sound": (False, True),                      # off unless asked for: a page should be quiet
    "theme": ("system", "light", "dark"),
    "coach": (True, False),                      # a review after each hand against the bots
    "muggins": (False, True),                    # count it yourself at the bot table (issue 39)
}
DEFAULT_PREFS: dict[str, Any] = {name: values[0] for name, values in PREFERENCES.items()}


def clean_prefs(prefs: object) -> dict[str, Any]:
    """Known preferences with allowed values; anything else is dropped for the default.

    >>> clean_prefs({"theme": "dark", "players": 9, "evil": "<script>"})["theme"]
    'dark'
    >>> clean_prefs({"players": 9})["players"], clean_prefs(None) == DEFAULT_PREFS
    (2, True)
    """
    given = prefs if isinstance(prefs, dict) else {}
    clean = {}
    for name, allowed in PREFERENCES.items():
        value = given.get(name, allowed[0])
        # bool is an int in Python: compare types too, so True never passes for 1.
        ok = any(value == choice and type(value) is type(choice) for choice in allowed)
        clean[name] = value if ok else allowed[0]
    return clean


@dataclass(frozen=True)
class Profile:
    """Nickname, preferences and recent game records (newest last)."""

    id: str
    nickname: str
    prefs: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_PREFS))   # name -> its value (str, int, bool)
    records: tuple[GameRecord, ...] = ()
    updated: str = ""             # when nickname or prefs last changed (ISO 8601)

    @classmethod
    def new(cls, nickname: str = "", now: str = "", profile_id: str = "local") -> Profile:
        return cls(profile_id, clean_name(nickname, ""), dict(DEFAULT_PREFS), (), now)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Profile) and self.to_json() == other.to_json()

    # -- changes (each returns a new profile) --

    def with_prefs(self, now: str, nickname: str | None = None, **changes: object) -> Profile:
        prefs = clean_prefs({**self.prefs, **changes})
        name = self.nickname if nickname is None else clean_name(nickname, "")
        return replace(self, prefs=prefs, nickname=name, updated=now)

    def add_record(self, record: GameRecord) -> Profile:
        if any(known.id == record.id for known in self.records):
            return self
        records = sorted(self.records + (record,), key=lambda r: r.finished)
        return replace(self, records=tuple(records[-MAX_RECORDS:]))

    def update_record(self, record: GameRecord) -> Profile:
        """The profile with its record of the same game replaced by ``record`` (if still kept)."""
        return replace(self, records=tuple(record if known.id == record.id else known for known in self.records))

    def merge(self, other: Profile) -> Profile:
        """Both profiles' games (by id, so nothing twice); the newer nickname and preferences."""
        merged = self
        for record in other.records:
            merged = merged.add_record(record)
        if other.updated > self.updated:
            merged = replace(merged, nickname=other.nickname or self.nickname,
                             prefs=dict(other.prefs), updated=other.updated)
        return merged

    # -- storage --

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "id": self.id,
                           "nickname": self.nickname, "prefs": self.prefs,
                           "updated": self.updated,
                           "records": [record.to_json() for record in self.records]},
                          separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, verify_records: bool = False) -> Profile:
        """Read a saved or exported profile of any version up to ours.

        ``verify_records`` replays every game record (for imports from elsewhere); a local save
        is read as it is. Raises `ParseError` with the reason for anything unusable.
        """
        if not isinstance(text, str) or not text or len(text) > MAX_PROFILE_CHARS:
            raise ParseError("a profile is JSON text of at most 4 MB")
        data = loads(text, "this profile (damaged or cut short?)")
        data = migrate(data)
        for name, kind in (("id", str), ("nickname", str), ("updated", str), ("records", list)):
            if not isinstance(data.get(name), kind):
                raise ParseError(f"this profile's {name} is damaged")
        if len(data["records"]) > MAX_RECORDS:
            raise ParseError(f"a profile holds at most {MAX_RECORDS} games")
        if verify_records:
            records = [GameRecord.from_json(record) for record in data["records"]]
        else:
            records = [_trusted_record(record) for record in data["records"]]
        profile = cls(data["id"][:64], clean_name(data["nickname"], ""),
                      clean_prefs(data.get("prefs")), (), data["updated"][:40])
        for record in records:
            profile = profile.add_record(record)
        return profile


def migrate(data: object) -> dict[str, Any]:
    """Bring any earlier version up to `VERSION`; refuse what is not a profile or is newer.

    Version 1 was the flat preferences object the first release kept (name, level, players,
    target, auto_continue).
    """
    if not isinstance(data, dict):
        raise ParseError("this is not a cribbage profile")
    if "format" not in data:
        if not set(data) <= {"name", "level", "players", "target", "auto_continue"}:
            raise ParseError("this is not a cribbage profile")
        name = data.get("name")
        prefs = {key: data[key] for key in ("level", "players", "target", "auto_continue")
                 if key in data}
        data = {"format": FORMAT, "version": 2, "id": "local",
                "nickname": name if isinstance(name, str) else "",
                "prefs": prefs, "updated": "", "records": []}
    if data.get("format") != FORMAT:
        raise ParseError("this is not a cribbage profile")
    version = data.get("version")
    if not isinstance(version, int) or version < 2:
        raise ParseError("this profile's version is damaged")
    if version > VERSION:
        raise ParseError(f"this profile was saved by a newer version of the game (format "
                         f"{version}); update this page to read it")
    return data


def _trusted_blind(blind: Any) -> dict[str, Any] | None:
    """A blind game's hands as our own storage keeps them (checked when the record was made)."""
    if blind is not None and not (isinstance(blind, dict) and isinstance(blind.get("hands"), list)
                                  and isinstance(blind.get("first_dealer"), int)):
        raise ParseError("a saved game record is damaged")
    return blind


def _trusted_record(data: Any) -> GameRecord:
    """Read a record from our own storage without replaying it (fast at start-up); whatever
    JSON ``data`` holds, a wrong shape is a `ParseError`."""
    try:
        fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data["summary"].items()}
        summary = Summary(**fields)
        return GameRecord(data["id"], data["finished"], data["mode"], data["seat"],
                          tuple(data["names"]), config_from_json(data["config"]), data["seed"],
                          tuple(data["actions"]), summary, tuple(data.get("hand_seeds", ())),
                          data.get("fair"),
                          clean_hints(data.get("hints", []), len(data["actions"])),
                          clean_coach(data.get("coach", [])), data.get("coach_due") is True,
                          _trusted_blind(data.get("blind")))
    except (KeyError, TypeError, AttributeError):
        raise ParseError("a saved game record is damaged") from None
