"""Tables at a chosen moment, built under CPython and put in the page's save: the browser tests
(axe, screenshots) and scripts/screens.py start every phase from the same deals."""

from __future__ import annotations

from harness import wait_ready

from game.engine import DISCARDING, PLAYING
from web.controller import Controller

SAVE_KEY = "cribbage.table.v1"
ACTIONABLE = ('[data-testid="verdict"], [data-testid="show"], [data-action="select"], '
              '[data-action="play"]')


def step(ctl: Controller) -> None:
    view = ctl.view()
    if ctl.seat_screen.show:
        ctl.command("continue")
    elif ctl.bot_waiting():
        ctl.bot_step()
    elif view.phase == DISCARDING:
        for card in sorted(view.hand)[: view.config.to_crib]:
            ctl.command("select", str(card))
        ctl.command("confirm-discard")
    elif view.phase == PLAYING and view.turn == 0:
        ctl.command("play", str(view.legal[0].card))


def saves(players: int, seed: int = 7) -> dict[str, str]:
    """The page's save at the start of a deal, in the play, and near the end of the game."""
    ctl = Controller(seed_source=lambda: seed)
    ctl.command("start", {"name": "You", "players": str(players), "level": "medium", "target": "121"})
    found = {"discard": ctl.session.to_json()}
    for _ in range(5000):
        step(ctl)
        view = ctl.view()
        mine = view.phase == PLAYING and view.turn == 0 and not ctl.seat_screen.show and not ctl.bot_waiting()
        if "play" not in found and mine and len(view.pile) >= players - 1 and view.count < 24:
            found["play"] = ctl.session.to_json()
        if max(view.scores) >= 108 and view.phase == DISCARDING and not ctl.seat_screen.show and "play" in found:
            found["over"] = ctl.session.to_json()
            return found
    raise RuntimeError("no game")


def thirty_one(players: int = 2) -> tuple[str, str]:
    """The page's save where the player can make the count 31 with a card that is not its last,
    and that card: a count's end inside the play (seed 1 has one at its first play)."""
    for seed in range(1, 200):
        ctl = Controller(seed_source=lambda seed=seed: seed)
        ctl.command("start", {"name": "You", "players": str(players), "level": "medium", "target": "121"})
        for _ in range(600):
            view = ctl.view()
            if view.phase == PLAYING and view.turn == 0 and not ctl.seat_screen.show and not ctl.bot_waiting():
                hits = [action.card for action in view.legal
                        if action.card is not None and view.count + action.card.value == 31]
                if hits and len(view.hand) > 1:
                    return ctl.session.to_json(), str(hits[0])
            step(ctl)
    raise RuntimeError("no 31 to make")


def load(page, site: str, save: str, ready: str = '[data-testid="hand"]') -> None:
    """Open the page on ``save``, once ``ready`` shows (a pass and play table's cover, else the hand)."""
    page.goto(site + "?speed=instant")
    wait_ready(page)         # (a reload before that would cancel the runtime's downloads)
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE_KEY, save])
    page.reload()
    wait_ready(page)
    page.wait_for_selector(ready)


def play_until(page, wanted: str, play=None) -> None:
    """Play the first cards in the page until ``wanted`` (a test id) shows. ``play(page)``, if
    given, lays each card instead (and returns True to stop there)."""
    for _ in range(400):
        page.wait_for_selector(ACTIONABLE, timeout=30_000)
        if page.get_by_test_id(wanted).count():
            return
        if page.get_by_test_id("show").count():
            page.get_by_test_id("continue").click()
            continue
        selectable = page.locator('[data-action="select"]')
        if selectable.count():
            for index in range(2 if selectable.count() == 6 else 1):
                selectable.nth(index).click()
            page.get_by_test_id("confirm-discard").click()
            continue
        playable = page.locator('[data-action="play"]')
        if playable.count():
            if play is None:
                playable.first.click()
            elif play(page):
                return
    raise RuntimeError(f"{wanted} never showed")


def late_pile(players: int) -> str:
    """The page's save late in a hand with a long pile: the player to play one of their last two
    cards onto 4 or more (the seats' played cards take the most room then). The first seed from
    1 that has one."""
    for seed in range(1, 200):
        ctl = Controller(seed_source=lambda seed=seed: seed)
        ctl.command("start", {"name": "You", "players": str(players), "level": "medium", "target": "121"})
        for _ in range(400):
            step(ctl)
            view = ctl.view()
            if view.phase == PLAYING and view.turn == 0 and not ctl.seat_screen.show and not ctl.bot_waiting() \
                    and len(view.pile) >= 4 and len(view.hand) <= 2:
                return ctl.session.to_json()
    raise RuntimeError("no long pile")


def pass_and_play(kinds: list[str], seed: int = 11) -> str:
    """A pass and play table near its end (61 points), saved between two hands: the first seed
    from ``seed`` whose game is not over by then."""
    form = {"mode": "passplay", "name": "Ann", "players": str(len(kinds) + 1), "level": "easy", "target": "61"}
    for seat, kind in enumerate(kinds, start=1):
        form |= {f"seat{seat}": f"P{seat + 1}", f"kind{seat}": kind}
    for tried in range(seed, seed + 50):
        ctl = Controller(seed_source=lambda tried=tried: tried)
        ctl.command("start", form)
        while not ctl.is_over():
            view = ctl.game.view(ctl.seat)
            if ctl.cover() is not None:
                ctl.command("reveal")
            elif ctl.seat_screen.beat is not None:
                ctl.seat_screen.end_beat()
            elif ctl.seat_screen.show:
                ctl.command("continue")
                if max(ctl.game.state.scores) >= 40 and not ctl.is_over():
                    return ctl.game.to_json()
            elif ctl.bot_waiting():
                ctl.bot_step()
            elif view.phase == DISCARDING:
                for card in view.hand[:view.config.to_crib]:
                    ctl.command("select", str(card))
                ctl.command("confirm-discard")
            else:
                ctl.command("play", str(view.legal[0].card))
    raise RuntimeError("no late table")
