"""The seats this browser holds at tables with friends, as localStorage keeps them: each under
its table id *and* the pin of the host that gave it (`web.net.identity`), so a seat token only
ever goes back to the host it came from. A link with another host's pin for the same table
(an impostor's, or a mistake) finds no seat here and sits down as a newcomer; the real seat
stays saved for the real link. Pure Python.

The stored value is the latest seat's fields at the top level (``room``, ``pin``, ``token``,
``seated``, ``name``, ``key``, ``last``, ``fair``, and at a blind table ``blind``: the hand's setup
and this browser's secret keys, `web.friends.blind_guest.BlindGuest.blind_save`), with up to
`KEPT` earlier seats in ``others``.

>>> saved = remember({}, {"room": "r1", "pin": "P" * 43, "token": "t1"})
>>> saved = remember(saved, {"room": "r1", "pin": "Q" * 43, "token": "t2"})
>>> find(saved, "r1", "P" * 43)["token"], find(saved, "r1", "Q" * 43)["token"], find(saved, "r1", "R" * 43)
('t1', 't2', None)
>>> find(saved, "r1", None)["token"]    # a link cut before its pin: the latest seat at that table
't2'
>>> find(forget(saved, "r1", "Q" * 43), "r1", None)["token"]
't1'
"""

from __future__ import annotations

from typing import Any

KEPT = 8
Entry = dict[str, Any]     # a saved seat: its room, pin, token, name... (`web.friends.glue` writes them)


def entries(saved: object) -> list[Entry]:
    """Every saved seat, the latest first (a damaged store has none)."""
    if not isinstance(saved, dict):
        return []
    others = saved["others"] if isinstance(saved.get("others"), list) else []
    latest = {k: v for k, v in saved.items() if k != "others"}
    return [entry for entry in [latest, *others] if isinstance(entry, dict) and isinstance(entry.get("room"), str)]


def find(saved: object, room: str, pin: str | None) -> Entry | None:
    """The seat saved for ``room`` under ``pin``; with no pin (a cut link), the latest at ``room``."""
    for entry in entries(saved):
        if entry["room"] == room and (pin is None or entry.get("pin") == pin):
            return entry
    return None


def remember(saved: object, entry: Entry) -> Entry:
    """``saved`` with ``entry`` as the latest seat (replacing the one of its table and pin)."""
    rest = [e for e in entries(saved) if (e["room"], e.get("pin")) != (entry["room"], entry.get("pin"))]
    return dict(entry, others=rest[:KEPT])


def forget(saved: object, room: str, pin: str | None) -> Entry | None:
    """``saved`` without the seat at ``room`` under ``pin`` (None: nothing is left)."""
    rest = [e for e in entries(saved) if (e["room"], e.get("pin")) != (room, pin)]
    return dict(rest[0], others=rest[1:]) if rest else None
