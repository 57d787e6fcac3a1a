"""The fair deal on screen: a mark per hand at each guest ("deal verified"), an alarm that
cannot be missed when a check fails, and a plain word on what the check proves. Pure Python
(HTML text); the verdicts are `web.friends.fair_guest`'s
(`web.friends.verdicts`). At a table dealt blind (docs/blind-deal.md): each hand as this
browser audited it (the guest's `web.friends.blind_guest`, the host's `web.friends.blind_host`
records), and every alarm in red.

>>> from web.friends.guest import GuestController
>>> fair_strip(GuestController("room-0123456789"))
''
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any

from .verdicts import ALARM, UNCHECKED, VERIFIED

if TYPE_CHECKING:
    from .guest import GuestController
    from .host_controller import HostController

WORDS = {VERIFIED: ("✓", "deal verified"), ALARM: ("⚠", "check failed"),
         UNCHECKED: ("–", "checked, without your share in it"), "pending": ("…", "secret not revealed yet")}
PROVES = ("Each hand's deck is shuffled from the host's secret, locked in before the hand, and a random "
          "share from every friend's browser. After the show the secret is revealed and your browser checks "
          "every card you saw. This proves no one stacked the deck; it does not hide the cards from the "
          "host's browser, which holds them all during the hand.")
BLIND_PROVES = ("Every hand is shuffled and dealt by the seated people's browsers together: no one, not even "
                "the host, sees a card before it is played or shown. After each hand this browser checks every "
                "proof and the whole deck (the audit); the game's record keeps each hand's deck and any alarm.")


def blind_items(hands: Iterable[dict[str, Any]]) -> list[str]:
    """A blind game's hands as this browser audited them, one list item each: audited, dealt
    again (and why), or its alarm (in red).

    >>> blind_items([{"deck": ["AC"], "alarms": []}, {"deck": None, "alarms": ["a bad proof"]}])[1]
    '<li class="alarm" data-testid="blind-hand-2" data-verdict="alarm"><span aria-hidden="true">⚠</span> Hand 2: check failed, dealt again <span class="why">a bad proof</span></li>'
    """
    items, number = [], 1
    for hand in hands:
        if hand["alarms"]:
            why = escape("; ".join(hand["alarms"][:3]))
            items.append(f'<li class="alarm" data-testid="blind-hand-{number}" data-verdict="alarm"><span '
                         f'aria-hidden="true">⚠</span> Hand {number}: check failed, dealt again <span class="why">'
                         f'{why}</span></li>')
        elif hand["deck"] is None:
            items.append(f'<li class="pending" data-testid="blind-hand-{number}" data-verdict="again">Hand {number}: '
                         f'dealt again ({escape(str(hand.get("abandoned") or "not finished"))})</li>')
        else:
            items.append(f'<li class="verified" data-testid="blind-hand-{number}" data-verdict="verified"><span '
                         f'aria-hidden="true">✓</span> Hand {number} dealt blind, audited by this browser</li>')
            number += 1
    return items


def blind_panel(hands: list[dict[str, Any]], alarms: list[str]) -> str:
    """The blind deal's panel in the chat column: every hand audited here, and the alarms."""
    items = blind_items(hands)
    failed = bool(alarms)
    reasons = "".join(f"<li>{escape(alarm)}</li>" for alarm in alarms[-3:])
    alarm = (f'<div class="fair-alarm" role="alert" data-testid="blind-alarm"><b>⚠ The deal check failed.</b> '
             f'This game\'s record keeps the alarm.<ul>{reasons}</ul></div>' if failed else "")
    return (f'<details class="fair{" failed" if failed else ""}" data-testid="fair-deal"{" open" if failed else ""}>'
            f'<summary>{"Blind deal: check failed" if failed else "Blind deal"}</summary>{alarm}'
            f'<ol class="fair-hands">{"".join(items)}</ol><p class="hint">{escape(BLIND_PROVES)}</p></details>')


def blind_strip(alarms: list[str]) -> str:
    """Under the scores at a blind table (docs/blind-deal.md): the alarm, naming the seat, once a
    check of the hand failed in this browser.

    >>> 'data-testid="fair-alarm"' in blind_strip(["seat 2, reveal: the proof does not hold"]), blind_strip([])
    (True, '')
    """
    if not alarms:
        return ""
    reasons = "".join(f"<li>{escape(reason)}</li>" for reason in alarms[-3:])
    return (f'<div class="fair-alarm" role="alert" data-testid="fair-alarm"><b>⚠ The deal check failed.</b> '
            f'A browser at this table cheated or broke the deal. This game\'s record keeps the alarm.'
            f'<ul>{reasons}</ul></div>')


def host_strip(ctl: HostController) -> str:
    """Under the host's scores: the blind deal's alarm, from the hand on and the hands before."""
    table = ctl.table
    hand = table.blind_hand
    now = [str(alarm) for alarm in hand.flow.alarms] if hand is not None else []
    return blind_strip(list(dict.fromkeys(table.blind_alarms + now)))


def fair_strip(ctl: GuestController) -> str:
    """Under the scores: the alarm if any check failed, else the latest hand's mark."""
    if ctl.blind:
        if ctl.blind_alarms:
            return blind_strip(ctl.blind_alarms)
        audited = sum(hand["deck"] is not None and not hand["alarms"] for hand in ctl.blind_kept)
        return (f'<div class="fair-mark" data-testid="fair-mark" data-hand="{audited}">✓ Hand {audited} dealt blind, '
                f'audited by this browser</div>' if audited else "")
    watch = ctl.fair
    if watch.alarms:
        reasons = "".join(f"<li>{escape(reason)}</li>" for reason in watch.alarms[-3:])
        return (f'<div class="fair-alarm" role="alert" data-testid="fair-alarm"><b>⚠ The deal check failed.</b> '
                f'The host may have stacked the deck. This game\'s record keeps the alarm.<ul>{reasons}</ul></div>')
    marks = watch.marks()
    done = [hand for hand, verdict, _ in marks if verdict == VERIFIED]
    partial = [hand for hand, verdict, _ in marks if verdict == UNCHECKED]
    if partial:     # the deck was checked, but without this guest's randomness in it: say so
        hands = ", ".join(str(hand + 1) for hand in partial)
        return (f'<div class="fair-mark partial" role="status" data-testid="fair-mark" data-hand="{partial[-1] + 1}">'
                f'⚠ Hand{"s" if len(partial) > 1 else ""} {hands}: dealt without your share of the shuffle '
                f'(you were away), so checked against the host\'s secret alone</div>')
    if not done:
        return ""
    return (f'<div class="fair-mark" data-testid="fair-mark" data-hand="{done[-1] + 1}">'
            f'✓ Deal of hand {done[-1] + 1} verified</div>')


def host_fair_panel(ctl: HostController) -> str:
    """In the host's chat column: who checks the deal, and where the bots' shares come from
    (at a table dealt blind: every hand audited here, and the alarms)."""
    if ctl.table.blind_game or ctl.table.blind_record() is not None:
        return blind_panel(ctl.table.blind_hands, ctl.table.blind_alarms)
    bots = any(s.kind == "bot" for s in ctl.table.seats)
    note = ("Your friends' browsers check every deal after each hand." +
            (" The bots' shares of the shuffle come from your browser, fixed by your secret." if bots else ""))
    return (f'<details class="fair" data-testid="fair-deal"><summary>Fair deal</summary>'
            f'<p class="hint">{escape(note)}</p></details>')


def fair_panel(ctl: GuestController) -> str:
    """In a guest's chat column: every hand's mark and what the check proves."""
    watch = ctl.fair
    if ctl.table is None or not ctl.table["started"]:
        return ""
    if ctl.blind:
        return blind_panel(ctl.blind_kept, ctl.blind_alarms)
    items = []
    for hand, verdict, reasons in watch.marks():
        icon, word = WORDS[verdict]
        why = f' <span class="why">{escape("; ".join(r.split(": ", 1)[-1] for r in reasons))}</span>' if reasons else ""
        items.append(f'<li class="{verdict}" data-testid="fair-hand-{hand + 1}" data-verdict="{verdict}">'
                     f'<span aria-hidden="true">{icon}</span> Hand {hand + 1}: {word}{why}</li>')
    given = watch.host_given()
    whose = " and ".join(w for w, kind in (("the bots'", "bot"), ("any friend's that came late", "replaced"))
                         if kind in given)
    bots = (f' <span data-testid="fair-bots">Some shares ({whose}) come from the host, fixed by its '
            f'locked-in secret.</span>' if given else "")
    summary = "Fair deal: check failed" if watch.alarms else "Fair deal"
    return (f'<details class="fair{" failed" if watch.alarms else ""}" data-testid="fair-deal"'
            f'{" open" if watch.alarms else ""}>'
            f'<summary>{summary}</summary><ol class="fair-hands">{"".join(items)}</ol>'
            f'<p class="hint">{escape(PROVES)}{bots}</p></details>')
