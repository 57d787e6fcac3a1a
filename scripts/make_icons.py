"""Render web/icons/icon.svg to the PNG sizes the web app manifest lists (needs Chromium).

    .venv/bin/python scripts/make_icons.py     (after scripts/setup --browser)

The PNGs are committed; run this again only when the SVG changes.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from harness import LAUNCH  # noqa: E402

ICONS = ROOT / "web" / "icons"
SIZES = (192, 512)


def main() -> None:
    svg = (ICONS / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**LAUNCH)
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<html><body style="margin:0;background:transparent">'
                             f'<div style="width:{size}px;height:{size}px">{svg}</div></body></html>')
            page.locator("svg").screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()
    print("wrote", ", ".join(f"icon-{size}.png" for size in SIZES))


if __name__ == "__main__":
    main()
