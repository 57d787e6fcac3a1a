"""What the browser tests of blind tables (issue 38) read in a page's Python: each page's hand as
its own `web.friends.blind_seat.BlindSeat` follows it, checked against what its screen shows,
and a scan of the host's objects for a friend's unplayed card.

`WATCH` goes into every seated page (again after a reload: it is the page's Python, not its
save): it notes, for each hand, every card this browser has seen made public (played, cut,
shown) before the keys came out and its own seat's cards, when the hand began here (its deal;
``begun``: when it became the hand played, for a hand dealt ahead), when this browser read its cards, when it had every seat's discard, and when it knew the starter. It
changes nothing the page does.

`probe(page)` reads, in one run of the page's Python (nothing repaints in between), the cards
the page's DOM shows (``data-card``) with what its browser may know: its own seat's cards
(never a bot's, at the host) and the cards public in this hand, the same of the hand before
(its screen may show it a moment longer; a hand dealt ahead and dropped never was on it), and the whole deck once the hand's audit is done. `shown_cards_ok` says which shown cards are none of those.
"""

from __future__ import annotations

import json

from harness import RUN_PYTHON
from playwright.sync_api import Page


WATCH = """
import sys, time, types
if "blind_watch" not in sys.modules:
    from web.friends import blind_seat as _seat_module
    _watch = types.ModuleType("blind_watch")
    _watch.public, _watch.own, _watch.times = {}, {}, {}
    sys.modules["blind_watch"] = _watch
    _take, _init = _seat_module.BlindSeat.take, _seat_module.BlindSeat.__init__

    def _key(seat):
        return (seat.flow.setup.game, seat.flow.setup.hand)

    def _init_watched(self, *args, **kwargs):
        _init(self, *args, **kwargs)
        _watch.times.setdefault(_key(self), {"start": time.time() * 1000})

    def _take_watched(self, *args, **kwargs):
        result = yield from _take(self, *args, **kwargs)
        key = _key(self)
        if not self.flow.hand.keys and not self.flow.ahead:     # (a hand dealt ahead: once it begins)
            _watch.public.setdefault(key, set()).update(str(c) for c in self.flow.hand.cards if c is not None)
            _watch.own.setdefault(key, set()).update(str(self.mine[j]) for j in self.flow.setup.positions_of(self.seat)
                                                     if j in self.mine)
        times = _watch.times.setdefault(key, {"start": time.time() * 1000})
        if not self.flow.ahead and "begun" not in times:       # (a hand dealt ahead: its begin taken)
            times["begun"] = time.time() * 1000
        if self.mine and "cards" not in times:
            times["cards"] = time.time() * 1000
        if all(chosen is not None for chosen in self.flow.public.discarded) and "discards" not in times:
            times["discards"] = time.time() * 1000
        if self.flow.public.starter is not None and "starter" not in times:
            times["starter"] = time.time() * 1000
        return result

    _seat_module.BlindSeat.__init__, _seat_module.BlindSeat.take = _init_watched, _take_watched
"""

PROBE = """
import gc, json, sys
import js
from web.friends.blind_flow import due
from web.friends.blind_seat import BlindSeat

def _probe():
    watch = sys.modules.get("blind_watch")
    seats = [o for o in gc.get_objects() if isinstance(o, BlindSeat)]
    dom = [el.dataset.card for el in js.document.querySelectorAll("[data-card]") if el.dataset.card != "back"]
    if not seats:
        return {"hand": None, "dom": dom}
    # The current hand's seat: the next hand, dealt ahead while this one is played, is read apart.
    current = [s for s in seats if not s.flow.ahead] or seats
    seat = max(current, key=lambda s: (s.flow.setup.game, s.flow.setup.hand, s.last, len(s.flow.bodies)))
    flow, setup = seat.flow, seat.flow.setup
    key = (setup.game, setup.hand)
    public = {str(c) for c in flow.hand.cards if c is not None} if not flow.hand.keys else set()
    seen = watch.public if watch is not None else {}
    earlier = [k for k in seen if k < key]
    return {"hand": list(key), "seat": seat.seat, "humans": list(setup.humans), "step": due(flow).step,
            "own": sorted(str(seat.mine[j]) for j in setup.positions_of(seat.seat) if j in seat.mine),
            "held": sorted(str(card) for card in seat.cards_of(seat.seat).values()),
            "public": sorted(public | seen.get(key, set())),
            "before": sorted(seen[max(earlier)]) if earlier else [],
            "before_own": sorted(watch.own.get(max(earlier), set())) if earlier else [],
            "audit": [str(c) for c in flow.audit.deck] if flow.audit is not None and flow.audit.deck else [],
            "alarms": [[a.seat, a.step, a.reason] for a in flow.alarms],
            "dom": dom, "times": {f"{g}/{h}": t for (g, h), t in (watch.times.items() if watch else ())}}

json.dumps(_probe())
"""

# The host's objects, walked in full (dataclasses, containers, instances; never modules, classes,
# functions or JavaScript objects), for the friends' cards given: as `Card`s, their codes or their
# group elements (an int, or its hex) in the hand's `BlindTable`, and as group elements anywhere
# the host's controller reaches (its engine state's placeholder deal holds cards by chance, the
# hand history earlier hands' codes: only an element can only be a leak there).
HOST_SCAN = """
import gc, json, random, types
from game.blind.group import card_element, element_text
from game.cards import Card

def _walk(root):
    seen, stack = set(), [root]
    while stack:
        thing = stack.pop()
        if id(thing) in seen:
            continue
        seen.add(id(thing))
        if isinstance(thing, (Card, int, str)):
            yield thing
            continue
        if isinstance(thing, (types.ModuleType, type, random.Random, bytes)) or callable(thing) \\
                or type(thing).__module__.startswith(("pyodide", "js", "_pyodide", "pyscript")):
            continue
        if isinstance(thing, dict):
            stack.extend(thing.keys())
            stack.extend(thing.values())
        elif isinstance(thing, (list, tuple, set, frozenset)):
            stack.extend(thing)
        elif hasattr(thing, "__dataclass_fields__"):
            stack.extend(getattr(thing, name) for name in thing.__dataclass_fields__ if hasattr(thing, name))
            if hasattr(thing, "__dict__"):
                stack.append(vars(thing))
        elif hasattr(thing, "__dict__"):
            stack.append(vars(thing))

def _scan(codes):
    secret = {Card.parse(code) for code in codes}
    tables = [o for o in gc.get_objects() if type(o).__name__ == "BlindTable"]
    apps = [o for o in gc.get_objects() if type(o).__name__ == "App" and type(o).__module__ == "web.dom"]
    current = [t for t in tables if not t.flow.ahead] or tables
    table = max(current, key=lambda t: (t.setup.game, t.setup.hand, len(t.relayed))) if current else None
    if table is not None:     # made public since the friends' pages were read, or being played
        # (in this hand or the one dealt ahead: another deck, where the same card may be public)
        open_now = [t for t in tables if t.setup.game == table.setup.game and t.setup.hand >= table.setup.hand]
        secret -= {card for t in open_now for card in t.flow.hand.cards if card is not None}
        queued = [text for o in gc.get_objects() if type(o).__name__ == "HostTable" for _, text in o.blind_queue]
        for text in [text for t in open_now for text in t.received] + queued:
            body = json.loads(text).get("body") if text.startswith("{") else None
            if isinstance(body, dict) and body.get("step") == "reveal":
                secret.discard(Card.parse(body["card"]))
    elements = {card_element(card): card for card in secret}
    hexes = {element_text(x): card for x, card in elements.items()}
    found, walked = [], 0
    if table is not None and secret:
        for x in _walk(table):
            walked += 1
            if isinstance(x, Card) and x in secret:
                found.append(f"the table holds {x}")
            elif isinstance(x, int) and x in elements:
                found.append(f"the table holds the element of {elements[x]}")
            elif isinstance(x, str) and (x in {str(c) for c in secret} or x in hexes
                                         or any(f'"{c}"' in x for c in secret) or any(h in x for h in hexes)):
                found.append(f"the table holds a text with a friend's card: {x[:80]}")
    for app in apps:
        for x in _walk(app.ctl):
            walked += 1
            if isinstance(x, int) and x in elements:
                found.append(f"the host's controller holds the element of {elements[x]}")
            elif isinstance(x, str) and len(x) >= 512 and any(h in x for h in hexes):
                found.append(f"the host's controller holds a text with a friend's card's element: {x[:80]}")
    return {"tables": len(tables), "secret": len(secret), "walked": walked, "found": found[:10]}
"""


def watch(page: Page) -> None:
    """Put `WATCH` in the page's Python (once per page load: again after a reload)."""
    page.evaluate(RUN_PYTHON, WATCH)


def probe(page: Page) -> dict:
    """The page's hand, its DOM's cards and what its browser may know (see the module's docstring)."""
    return json.loads(page.evaluate(RUN_PYTHON, PROBE))


def unknown_shown(seen: dict, public: dict | None = None) -> set[str]:
    """The cards ``seen`` (a `probe`) shows that its browser may not know: none of its own, of
    this hand's or the last hand's public cards, or of an audited hand's deck. A page that holds
    no seat at the hand (a bot plays it) may show only what is ``public`` (another page's probe,
    taken after it)."""
    known = seen if seen["hand"] is not None or public is None else \
        {key: public.get(key, ()) for key in ("public", "before", "audit")}
    allowed = set().union(*(known.get(key, ()) for key in ("own", "public", "before", "before_own", "audit")))
    return set(seen["dom"]) - allowed


def host_holds(host: Page, codes: set[str]) -> dict:
    """`HOST_SCAN` on the host's page for the friends' cards ``codes``."""
    return json.loads(host.evaluate(RUN_PYTHON, HOST_SCAN + f"\njson.dumps(_scan({sorted(codes)!r}))"))


def check_blind(pages: list[Page], host: Page | None = None) -> list[dict]:
    """Probe every page; assert none shows a card its browser may not know, and (``host`` given)
    that the host's objects hold no friend's card that is not public yet. Returns the probes."""
    seen = [probe(page) for page in pages]
    seated = next((probe(page) for page, s in zip(pages, seen) if s["hand"] is not None), None)
    for page_seen in seen:
        bad = unknown_shown(page_seen, seated)
        assert not bad, f"seat {page_seen.get('seat')} shows {sorted(bad)} at {page_seen.get('hand')}: {page_seen}" \
            + ("" if page_seen["hand"] is not None else f", public then: {seated}")
    if host is not None:
        mine = next((s for s, page in zip(seen, pages) if page is host), None) or probe(host)
        if mine["hand"] is not None:
            friends = {card for s in seen if s["hand"] == mine["hand"] and s.get("seat") != mine.get("seat")
                       for card in s.get("own", ())}
            secret = friends - set(mine["public"]) - set(mine["audit"])
            if secret:
                scan = host_holds(host, secret)
                assert scan["tables"] and scan["walked"] > 1000 and not scan["found"], scan
    return seen
