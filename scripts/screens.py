"""Screenshots of the table in every phase, for 2, 3 and 4 players, at desktop and phone sizes,
light and dark: the evidence for how the table looks (issue 13), and a small gallery page.

    .venv/bin/python scripts/screens.py                 # all of them, into test-artifacts/screens/
    .venv/bin/python scripts/screens.py --players 2 --sizes 390x844 --themes dark
    .venv/bin/python scripts/screens.py --gallery       # also docs/gallery/ (small JPEGs + index.html)

Each phase starts from a table built under CPython (the engine, stepped with the first legal
cards) and put in the page's save, so every run shows the same deals: the deal (choosing crib
cards), the play (a pile on the table, the player to move), the show (reached by playing on in
the page), and the end of the game. Uses serve.py and Debian's Chromium like the browser tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import launch, wait_ready  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402
from game.engine import DISCARDING, PLAYING  # noqa: E402
from web.controller import Controller  # noqa: E402

OUT = ROOT / "test-artifacts" / "screens"
GALLERY = ROOT / "docs" / "gallery"
SIZES = {"1280x800": (1280, 800), "768x1024": (768, 1024), "390x844": (390, 844), "360x640": (360, 640)}
SAVE_KEY = "cribbage.table.v1"
ACTIONABLE = '[data-testid="verdict"], [data-testid="show"], [data-action="select"], [data-action="play"]'
# The gallery's pictures: (players, phase, size, theme).
GALLERY_SHOTS = [(2, "play", "1280x800", "dark"), (4, "play", "1280x800", "light"),
                 (2, "play", "390x844", "dark"), (3, "discard", "360x640", "light"),
                 (3, "show", "390x844", "dark"), (4, "show", "1280x800", "dark"),
                 (2, "over", "390x844", "light"), (4, "play", "360x640", "dark")]


def step(ctl: Controller) -> None:
    view = ctl.view()
    if ctl.show:
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
        mine = view.phase == PLAYING and view.turn == 0 and not ctl.show and not ctl.bot_waiting()
        if "play" not in found and mine and len(view.pile) >= players - 1 and view.count < 24:
            found["play"] = ctl.session.to_json()
        if max(view.scores) >= 108 and view.phase == DISCARDING and not ctl.show and "play" in found:
            found["over"] = ctl.session.to_json()
            return found
    raise RuntimeError("no game")


def load(page, site: str, save: str) -> None:
    page.goto(site + "?speed=instant")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE_KEY, save])
    page.reload()
    wait_ready(page)
    page.wait_for_selector('[data-testid="hand"]')


def play_until(page, wanted: str) -> None:
    """Play the first cards in the page until ``wanted`` (a test id) shows."""
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
            playable.first.click()
    raise RuntimeError(f"{wanted} never showed")


def shoot(page, name: str, sizes, jpeg_for=()) -> None:
    for size in sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(2500 if "show" in name else 400)       # let motion settle
        page.screenshot(path=OUT / f"{name}-{size}.png")
        if f"{name}-{size}" in jpeg_for:
            GALLERY.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=GALLERY / f"{name}-{size}.jpg", type="jpeg", quality=62)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--sizes", nargs="*", default=["1280x800", "390x844", "360x640"])
    parser.add_argument("--themes", nargs="*", default=["light", "dark"])
    parser.add_argument("--phases", nargs="*", default=["discard", "play", "show", "over"])
    parser.add_argument("--gallery", action="store_true", help="also write docs/gallery/")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    jpeg_for = {f"{p}p-{phase}-{theme}-{size}" for p, phase, size, theme in GALLERY_SHOTS} if args.gallery else ()
    with serve.spawn() as site, sync_playwright() as playwright:
        browser = launch(playwright)
        for players in args.players:
            table = saves(players)
            for theme in args.themes:
                context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800})
                page = context.new_page()
                name = f"{players}p-{{}}-{theme}"
                if "discard" in args.phases:
                    load(page, site, table["discard"])
                    shoot(page, name.format("discard"), args.sizes, jpeg_for)
                if {"play", "show"} & set(args.phases):
                    load(page, site, table["play"])
                    if "play" in args.phases:
                        shoot(page, name.format("play"), args.sizes, jpeg_for)
                    if "show" in args.phases:
                        page.set_viewport_size({"width": 1280, "height": 800})
                        play_until(page, "show")
                        shoot(page, name.format("show"), args.sizes, jpeg_for)
                if "over" in args.phases:
                    load(page, site, table["over"])
                    play_until(page, "verdict")
                    shoot(page, name.format("over"), args.sizes, jpeg_for)
                context.close()
                print(f"{players} players, {theme}: done", flush=True)
        browser.close()
    if args.gallery:
        write_gallery()


def write_gallery() -> None:
    figures = "\n".join(
        f'  <figure><img src="{p}p-{phase}-{theme}-{size}.jpg" alt="{p} players, {phase}, {size}, {theme}" '
        f'loading="lazy"><figcaption>{p} players · {phase} · {size} · {theme}</figcaption></figure>'
        for p, phase, size, theme in GALLERY_SHOTS)
    (GALLERY / "index.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cribbage: the table, in pictures</title>
<style>
  body {{ font-family: system-ui, sans-serif; margin: 1.5rem; background: #f4f1ea; color: #1c2a20; }}
  main {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 1.2rem; align-items: start; }}
  figure {{ margin: 0; }} img {{ width: 100%; height: auto; border-radius: 6px; box-shadow: 0 2px 10px rgb(0 0 0 / 0.2); }}
  figcaption {{ font-size: 0.9rem; margin-top: 0.3rem; }}
</style></head>
<body><h1>The table, in pictures</h1>
<p>Made by <code>scripts/screens.py --gallery</code> (every phase, 2-4 players, three sizes, light and dark,
goes to <code>test-artifacts/screens/</code>; these are a few of them).</p>
<main>
{figures}
</main></body></html>
""", encoding="utf-8")


if __name__ == "__main__":
    main()
