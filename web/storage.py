"""What this browser keeps (localStorage), by key: the profile, the game against the bots in
progress, a hosted table, the seats held at friends' tables, the invites by code answered. One
of the few modules allowed to touch the browser FFI; what is kept is read and checked by the
pure modules that own it (`web.keeper` for the profile and the game), so a damaged save is
refused with a message and dropped, never half-used.

The keys are part of the page (scripts/gen_shell.py reads them from here for the start
screen's inline scripts).
"""

from __future__ import annotations

import json
from typing import Any

import js

from game.codec import loads
from game.errors import ParseError


SAVE_KEY = "cribbage.table.v1"       # the game against the bots in progress
PREFS_KEY = "cribbage.prefs.v1"      # version 1 of the profile: read once, then migrated
PROFILE_KEY = "cribbage.profile.v2"
HOST_KEY = "cribbage.host.v1"        # the table this browser hosts (seed and all cards: never sent)
HOST_TEXTS = "cribbage.host-text.v1."   # + a name: a text its blind hands relayed, kept once (web.shelf)
GUEST_KEY = "cribbage.guest.v1"      # the seats this browser holds, by table and host pin (web.friends.guest_store)
USED_KEY = "cribbage.used-invites.v1"   # code invites this browser has answered: each is for one friend
USED_KEPT = 50


def read(key: str) -> str | None:
    """The text kept under ``key``, or None (the browser's null is not Python's None: it is falsy)."""
    text = js.window.localStorage.getItem(key)
    return str(text) if text else None


def write(key: str, text: str | None) -> None:
    """Keep ``text`` under ``key`` (None: forget it)."""
    if text is None:
        js.window.localStorage.removeItem(key)
    else:
        js.window.localStorage.setItem(key, text)


def names_under(prefix: str) -> list[str]:
    """The keys kept that begin with ``prefix``, without it."""
    storage = js.window.localStorage
    keys = [str(storage.key(n)) for n in range(int(storage.length))]
    return [key.removeprefix(prefix) for key in keys if key.startswith(prefix)]


def forget_host() -> None:
    """Forget the hosted table: its save and the texts it named."""
    write(HOST_KEY, None)
    for name in names_under(HOST_TEXTS):
        write(HOST_TEXTS + name, None)


def read_json(key: str, max_depth: int = 4) -> dict[str, Any] | None:
    """A kept JSON object, or None when there is none or it is damaged."""
    try:
        value = loads(read(key) or "null", max_depth=max_depth)
    except ParseError:
        return None
    return value if isinstance(value, dict) else None


def used_invites() -> list[object]:
    used = read_json(USED_KEY) or {}
    return used.get("offers", []) if isinstance(used.get("offers"), list) else []


def remember_invite(offer: str) -> None:
    write(USED_KEY, json.dumps({"offers": (used_invites() + [offer])[-USED_KEPT:]}))
