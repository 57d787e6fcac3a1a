"""Write game/blind/elements.py: the 52 card elements of the blind deal, precomputed.

Each card's element is SHA-256 of ``cribbage-blind/1/card/<card>`` (2048 bits) mod P, raised to
the cofactor (P - 1) / Q (`game.blind.group.derive_element`): deterministic constants, but an
exponent of 1792 bits each, about 1.2 s for the 52 in Chromium at CPU x1 and 4 s at x4. Shipped
as a module, a page pays nothing for them; tests/test_blind_group.py derives every one again.

    python scripts/gen_card_elements.py           # rewrite game/blind/elements.py if needed
    python scripts/gen_card_elements.py --check   # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from gen_files import write_if_changed  # noqa: E402

from game.blind.group import derive_element  # noqa: E402
from game.cards import DECK  # noqa: E402

MODULE = ROOT / "game" / "blind" / "elements.py"


def module_text() -> str:
    """The module: a docstring, then ``ELEMENTS``, one element a card in `game.cards.DECK`'s order."""
    lines = ['"""The 52 card elements of the blind deal, in `game.cards.DECK`\'s order: card ``DECK[i]`` is',
             "``ELEMENTS[i]`` (`game.blind.group.card_element`).", "",
             "Written by scripts/gen_card_elements.py from `game.blind.group.derive_element`; do not edit.",
             "tests/test_blind_group.py derives every one again.", '"""', "", "ELEMENTS = ("]
    for card in DECK:
        digits = format(derive_element(card), "0512x")
        chunks = [digits[i:i + 96] for i in range(0, 512, 96)]
        lines.append(f'    int("{chunks[0]}"  # {card}')
        lines += [f'        "{chunk}"' for chunk in chunks[1:]]
        lines[-1] += ", 16),"
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the module is up to date")
    args = parser.parse_args(argv)
    return write_if_changed(MODULE, module_text(), args.check, "game/blind/elements.py", "gen_card_elements.py")


if __name__ == "__main__":
    sys.exit(main())
