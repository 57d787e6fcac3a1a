"""Screenshots of the table in every phase, for 2, 3 and 4 players, at desktop and phone sizes,
light and dark: the evidence for how the table looks (issue 13), and a small gallery page.

    .venv/bin/python scripts/screens.py                 # all of them, into test-artifacts/screens/
    .venv/bin/python scripts/screens.py --players 2 --sizes 390x844 --themes dark
    .venv/bin/python scripts/screens.py --gallery       # also docs/gallery/ (small JPEGs + index.html)
    .venv/bin/python scripts/screens.py --players --gallery   # only the five-card and muggins pictures

Each phase starts from a table built under CPython (the engine, stepped with the first legal
cards) and put in the page's save, so every run shows the same deals: the deal (choosing crib
cards), the play (a pile on the table, the player to move), the play's end (the last card on
the pile for a beat before the show, at the slow pace: one size a time), the show (reached by
playing on in the page), the end of the game, and a pass and play table's cover between two
people (web.passplay: people in every seat, a game resumed late). Uses serve.py and Debian's Chromium
like the browser tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from harness import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from tables import load, pass_and_play, play_until, saves, step  # noqa: E402

import serve  # noqa: E402

OUT = ROOT / "test-artifacts" / "screens"
GALLERY = ROOT / "docs" / "gallery"
SIZES = {"1440x900": (1440, 900), "1280x800": (1280, 800), "768x1024": (768, 1024), "390x844": (390, 844),
         "360x640": (360, 640)}
# The gallery's pictures: (players, phase, size, theme).
GALLERY_SHOTS = [(2, "play", "1280x800", "dark"), (4, "play", "1280x800", "light"),
                 (2, "play", "390x844", "dark"), (3, "discard", "360x640", "light"),
                 (3, "show", "390x844", "dark"), (4, "show", "1280x800", "dark"),
                 (2, "over", "390x844", "light"), (4, "play", "360x640", "dark"),
                 (3, "play", "768x1024", "dark"), (4, "show", "360x640", "light"),
                 (2, "end", "1280x800", "light"), (3, "end", "390x844", "dark"),
                 (2, "cover", "390x844", "dark"), (3, "cover", "1280x800", "light")]
# Five-card cribbage (issue 39), 2 players: (phase, size, theme), named 2p-five-<phase>-<theme>-<size>.
FIVE_SHOTS = [("play", "1280x800", "dark"), ("show", "390x844", "light")]
# Counting it yourself (issue 39, muggins): the player's card waits for its claim, 2p-muggins-claim-<theme>-<size>.
MUGGINS_SHOTS = [("1280x800", "light"), ("390x844", "dark")]


def shoot(page, name: str, sizes, jpeg_for=()) -> None:
    for size in sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(2500 if "show" in name else 400)       # let motion settle
        page.screenshot(path=OUT / f"{name}-{size}.png")
        if f"{name}-{size}" in jpeg_for:
            GALLERY.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=GALLERY / f"{name}-{size}.jpg", type="jpeg", quality=62)


def shoot_the_play_s_end(page, site: str, save: str, name: str, sizes, jpeg_for) -> None:
    """The beat between the play's last card and the show (web.table.screen), which lasts
    2.2 s at the slow pace: the game is loaded again for each size."""
    for size in sizes:
        load(page, site, save)
        page.goto(site + "?speed=slow")
        page.wait_for_selector('html[data-ready="true"]', state="attached")
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        for _ in range(40):
            page.wait_for_function("""() => document.querySelector('[data-action="play"]:not([disabled])')
                || document.querySelector('[data-testid="status"]').textContent.includes('The show is next')""")
            if "The show is next" in page.get_by_test_id("status").text_content():
                break
            page.locator('[data-action="play"]:not([disabled])').first.click()
        page.wait_for_timeout(700)                  # the last card and the pegs land
        page.screenshot(path=OUT / f"{name}-{size}.png")
        if f"{name}-{size}" in jpeg_for:
            GALLERY.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=GALLERY / f"{name}-{size}.jpg", type="jpeg", quality=62)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--sizes", nargs="*", default=list(SIZES))
    parser.add_argument("--themes", nargs="*", default=["light", "dark"])
    parser.add_argument("--phases", nargs="*", default=["discard", "play", "end", "show", "over", "cover"])
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
                if "end" in args.phases:
                    shoot_the_play_s_end(page, site, table["play"], name.format("end"), args.sizes, jpeg_for)
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
                if "cover" in args.phases:
                    load(page, site, pass_and_play(["person"] * (players - 1)), ready='[data-testid="cover"]')
                    shoot(page, name.format("cover"), args.sizes, jpeg_for)
                context.close()
                print(f"{players} players, {theme}: done", flush=True)
        if args.gallery:
            shoot_five_card(browser, site)
            shoot_muggins(browser, site)
        browser.close()
    if args.gallery:
        write_gallery()


# Pictures a browser test takes (test-artifacts/, copied here by hand), and what each shows.
TAKEN_BY_TESTS = {"2p-watch-light-1280x800.png": "2 players · a spectator's table, from the host's place "
                                                 "(tests/e2e/test_spectators.py) · 1280x800 · light"}


def five_card_save(seed: int = 7) -> str:
    """The page's save of a five-card game in the play, the player to move with a card on the pile."""
    from game.engine import PLAYING
    from web.controller import Controller

    ctl = Controller(seed_source=lambda: seed)
    ctl.command("start", {"name": "You", "players": "2", "level": "medium", "target": "five"})
    for _ in range(500):
        step(ctl)
        view = ctl.view()
        if (view.phase == PLAYING and view.turn == 0 and view.pile and not ctl.seat_screen.show
                and not ctl.bot_waiting()):
            return ctl.session.to_json()
    raise RuntimeError("no five-card play")


def muggins_save(seed: int = 3) -> str:
    """The page's save of a muggins game where the player's card made points and waits for its claim."""
    from game.engine import DISCARDING, PLAYING
    from game.scoring import score_hand, score_play
    from web.controller import Controller

    ctl = Controller(seed_source=lambda: seed)
    ctl.prefs["muggins"] = True
    ctl.command("start", {"name": "You", "players": "2", "level": "hard", "target": "121"})
    for _ in range(2000):
        view, seen = ctl.view(), ctl.seat_screen
        claim = view.claim
        if claim is not None and claim.seat == 0 and claim.claimed is None:
            assert view.starter is not None
            points = (score_play(claim.cards).total if claim.what == "play" else
                      score_hand(claim.cards, view.starter, crib=claim.what == "crib").total)
            if points > 0 and view.hand and claim.what == "play":   # (cards in hand: the page shows it)
                return ctl.session.to_json()
            ctl.command("claim", str(points))           # every count exact on the way
        elif ctl.bot_waiting():
            ctl.bot_step()
        elif seen.beat is not None:
            seen.end_beat()
        elif seen.show:
            ctl.command("continue")
        elif view.phase == DISCARDING:
            for card in sorted(view.hand)[:2]:
                ctl.command("select", str(card))
            ctl.command("confirm-discard")
        elif view.phase == PLAYING and view.turn == 0:
            ctl.command("play", str(view.legal[0].card))
    raise RuntimeError("no claim to show")


def shoot_muggins(browser, site: str) -> None:
    save = muggins_save()
    for size, theme in MUGGINS_SHOTS:
        context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        load(page, site, save)
        page.wait_for_selector('[data-testid="claim-bar"]')
        shoot(page, f"2p-muggins-claim-{theme}", [size], {f"2p-muggins-claim-{theme}-{size}"})
        context.close()


def shoot_five_card(browser, site: str) -> None:
    save = five_card_save()
    for phase, size, theme in FIVE_SHOTS:
        context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 800})
        page = context.new_page()
        load(page, site, save)
        if phase == "show":
            play_until(page, "show")
        shoot(page, f"2p-five-{phase}-{theme}", [size], {f"2p-five-{phase}-{theme}-{size}"})
        context.close()


def write_gallery() -> None:
    """docs/gallery/index.html: each picture, beside the same table as it looked before issue 37
    where docs/gallery/before/ has it (taken once, with the same script, from the code before)."""
    def figure(p: int, phase: str, size: str, theme: str) -> str:
        name, said = f"{p}p-{phase}-{theme}-{size}", f"{p} players · {phase} · {size} · {theme}"
        now = f'<img src="{name}.jpg" alt="{said}, now" loading="lazy">'
        if not (GALLERY / "before" / f"{name}.jpg").exists():
            return f'  <figure>{now}<figcaption>{said}</figcaption></figure>'
        before = f'<img src="before/{name}.jpg" alt="{said}, before" loading="lazy">'
        return (f'  <figure class="pair"><div>{before}{now}</div>'
                f'<figcaption>{said}: before issue 37 (left) and now</figcaption></figure>')
    figures = "\n".join([figure(*shot) for shot in GALLERY_SHOTS] + [
        f'  <figure><img src="{name}" alt="{said}" loading="lazy"><figcaption>{said}</figcaption></figure>'
        for name, said in TAKEN_BY_TESTS.items() if (GALLERY / name).exists()])
    figures += "".join(f'\n  <figure><img src="2p-five-{phase}-{theme}-{size}.jpg" alt="five-card cribbage · '
                       f'{phase} · {size} · {theme}" loading="lazy"><figcaption>five-card cribbage (2 players, '
                       f'to 61) · {phase} · {size} · {theme}</figcaption></figure>'
                       for phase, size, theme in FIVE_SHOTS)
    figures += "".join(f'\n  <figure><img src="2p-muggins-claim-{theme}-{size}.jpg" alt="counting it yourself '
                       f'(muggins) · a claim · {size} · {theme}" loading="lazy"><figcaption>counting it yourself '
                       f'(muggins) · your card waits for its claim · {size} · {theme}</figcaption></figure>'
                       for size, theme in MUGGINS_SHOTS)
    (GALLERY / "index.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cribbage: the table, in pictures</title>
<style>
  body {{ font-family: system-ui, sans-serif; margin: 1.5rem; background: #f4f1ea; color: #1c2a20; }}
  main {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 1.2rem; align-items: start; }}
  figure {{ margin: 0; }} img {{ width: 100%; height: auto; border-radius: 6px; box-shadow: 0 2px 10px rgb(0 0 0 / 0.2); }}
  figcaption {{ font-size: 0.9rem; margin-top: 0.3rem; }}
  figure.pair {{ grid-column: 1 / -1; }} figure.pair div {{ display: flex; gap: 0.8rem; align-items: start; }}
  figure.pair img {{ flex: 1; min-width: 0; max-width: 640px; }}
</style></head>
<body><h1>The table, in pictures</h1>
<p>Made by <code>scripts/screens.py --gallery</code> (every phase, 2-4 players, five sizes, light and dark,
goes to <code>test-artifacts/screens/</code>; these are a few of them). Where a picture has a pair, the left
one is the same table before issue 37 (the board a side widget, small cards on an empty felt, no menu).</p>
<main>
{figures}
</main></body></html>
""", encoding="utf-8")


if __name__ == "__main__":
    main()
