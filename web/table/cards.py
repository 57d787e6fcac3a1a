"""Cards drawn with our own SVG: indices in two corners, pips laid out for A-10, court cards
with a crowned, mirrored design, and a patterned back. Pure functions.

The back is a symbol in a sprite (`sprite()`), put in the page once. Each face is a symbol
too (`face_symbol`), added to the sprite the first time the card shows (`new_faces`, by
`web.table.motion.Morph`); a card on the screen is a ``<svg>`` with one ``<use>`` of its face,
so a card is a few DOM nodes whatever it shows (a show brings fifteen new cards at once). A
face draws its suit shapes, index and court figure itself, with no ``<use>`` inside: the
browser copies a used symbol for every card, and each ``<use>`` within would be one more copy
to build and lay out whenever a card comes or moves. Colours come from CSS
(``currentColor``), so the four-colour deck is a stylesheet rule.

>>> from game.cards import Card
>>> html = card_face(Card.parse("TC"))
>>> 'data-card="TC"' in html and 'aria-label="10♣ ten of clubs"' in html and 'href="#face-TC"' in html
True
>>> face_symbol(Card.parse("TC")).count(SUIT_PATHS["C"]) == 10 + 2   # ten pips, two corner suits
True
>>> face_symbol(Card.parse("KH")).count(COURT_PATHS["K"]), "<use" in face_symbol(Card.parse("KH"))
(2, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from game.cards import DECK, RANKS, Card

SUIT_GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
W, H = 60, 84   # the card's drawing box (5:7)
NARROW = ' textLength="13" lengthAdjust="spacingAndGlyphs"'

SUIT_PATHS = {
    "H": "M50 94C22 70 3 52 3 30 3 14 15 3 29 3 39 3 46 9 50 18 54 9 61 3 71 3 85 3 97 14 97 30 "
         "97 52 78 70 50 94Z",
    "D": "M50 2C62 22 76 38 92 50 76 62 62 78 50 98 38 78 24 62 8 50 24 38 38 22 50 2Z",
    "S": "M50 3C66 24 96 40 96 62 96 77 85 86 73 86 65 86 58 82 54 75 55 85 59 92 68 97H32"
         "C41 92 45 85 46 75 42 82 35 86 27 86 15 86 4 77 4 62 4 40 34 24 50 3Z",
    "C": "M50 6A21 21 0 0 1 66 41 21 21 0 1 1 55 75C56 85 60 92 68 97H32C40 92 44 85 45 75"
         "A21 21 0 1 1 34 41 21 21 0 0 1 50 6Z",
}

# Court figures in a 36x30 box (the top half of the panel; the bottom half is the same turned).
COURT_PATHS = {
    # King: a crown of five points with jewels
    "K": ('<path fill="#d4a017" stroke="#7a5a08" stroke-width=".5" d="M4 22 2 6 10 13 14 3 18 12 22 3 26 13 34 6 32 22Z"/>'
          '<rect fill="#d4a017" stroke="#7a5a08" stroke-width=".5" x="4" y="22" width="28" height="5" rx="1"/>'
          '<circle fill="currentColor" cx="18" cy="17" r="2.4"/><circle fill="currentColor" cx="10" cy="18" r="1.6"/>'
          '<circle fill="currentColor" cx="26" cy="18" r="1.6"/>'),
    # Queen: a tiara with a rounded arch and pearls
    "Q": ('<path fill="#d4a017" stroke="#7a5a08" stroke-width=".5" d="M5 24C5 12 11 6 18 6 25 6 31 12 31 24Z"/>'
          '<path fill="#28418a" d="M9 24C9 15 13 10 18 10 23 10 27 15 27 24Z"/>'
          '<circle fill="#d4a017" stroke="#7a5a08" stroke-width=".5" cx="18" cy="4" r="2.6"/><circle fill="#d4a017" stroke="#7a5a08" stroke-width=".5" cx="7" cy="10" r="1.8"/>'
          '<circle fill="#d4a017" stroke="#7a5a08" stroke-width=".5" cx="29" cy="10" r="1.8"/>'
          '<rect fill="#d4a017" stroke="#7a5a08" stroke-width=".5" x="4" y="23" width="28" height="4" rx="1"/>'
          '<circle fill="currentColor" cx="18" cy="16" r="2.2"/>'),
    # Jack: a cap with a long feather
    "J": ('<path fill="#28418a" d="M5 24C5 14 11 9 18 9 25 9 31 14 31 24Z"/>'
          '<path fill="#d4a017" stroke="#7a5a08" stroke-width=".5" d="M18 10C22 4 30 1 35 2 30 5 25 8 21 12Z"/>'
          '<rect fill="#d4a017" stroke="#7a5a08" stroke-width=".5" x="4" y="23" width="28" height="4" rx="1"/>'
          '<circle fill="currentColor" cx="18" cy="18" r="2"/>'),
}

# Pip positions as (column, row) in the pip area: columns 0/1/2, rows 0..1 (0 = top).
PIP_LAYOUTS: dict[int, list[tuple[int, float]]] = {
    1: [(1, 0.5)],
    2: [(1, 0), (1, 1)],
    3: [(1, 0), (1, 0.5), (1, 1)],
    4: [(0, 0), (2, 0), (0, 1), (2, 1)],
    5: [(0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)],
    6: [(0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    7: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    8: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)],
    9: [(0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3), (0, 1), (2, 1)],
    10: [(0, 0), (2, 0), (1, 1 / 6), (0, 1 / 3), (2, 1 / 3), (0, 2 / 3), (2, 2 / 3), (1, 5 / 6),
         (0, 1), (2, 1)],
}
PIP_COLUMNS = (19.5, 30, 40.5)
PIP_TOP, PIP_BOTTOM, PIP_SIZE = 17, 67, 11


def sprite() -> str:
    """The card back and its weave, put in the page once; the faces join it as they are needed."""
    back = (f'<pattern id="back-weave" width="8" height="8" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><rect width="8" height="8" fill="#8e1f28"/>'
            f'<rect width="4" height="4" fill="#a8323a"/><rect x="4" y="4" width="4" height="4" '
            f'fill="#a8323a"/></pattern>'
            f'<symbol id="card-back" viewBox="0 0 {W} {H}"><rect width="{W}" height="{H}" rx="5" '
            f'fill="#fffdf8"/><rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="3" '
            f'fill="url(#back-weave)"/><rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="3" '
            f'fill="none" stroke="#f3d27a"/><rect x="20" y="32" width="20" height="20" rx="2" '
            f'transform="rotate(45 30 42)" fill="#f3d27a" stroke="#7d1d24"/>'
            f'<g fill="#7d1d24">{_pip("S", 30, 42, 11, False)}</g></symbol>')
    return (f'<svg class="card-sprite" aria-hidden="true" width="0" height="0" '
            f'style="position:absolute"><defs>{back}</defs></svg>')


def rank_text(card: Card) -> str:
    return "10" if card.rank == 10 else RANKS[card.rank - 1]


def accessible_name(card: Card) -> str:
    """What a screen reader says: the visible index first, then the words ("10♣ ten of clubs")."""
    return f"{rank_text(card)}{SUIT_GLYPHS[card.suit]} {card.name}"


def _pip(suit: str, x: float, y: float, size: float, turned: bool) -> str:
    """A suit's shape, ``size`` wide, centred on (x, y); upside down for the lower half."""
    turn = f"rotate(180 {x:g} {y:g}) " if turned else ""
    half = size / 2
    return (f'<path transform="{turn}translate({x - half:g} {y - half:g}) scale({size / 100:g})" '
            f'd="{SUIT_PATHS[suit]}"/>')


# A face's own styles, inline: the drawing then looks the same whether or not the page's
# selectors reach into the copy each ``<use>`` makes of it.
COURT_PANEL = "fill: color-mix(in srgb, currentColor 9%, #fffdf8); stroke: currentColor; stroke-width: 0.8"
RULE = "stroke: currentColor; stroke-width: 0.5; opacity: 0.5"
FACE_USE = re.compile(r'href="#face-(\w\w)"')


def _rank(text: str) -> str:
    return (f'<text x="7.5" y="14" text-anchor="middle" font-family="Georgia, \'Times New Roman\', serif" '
            f'font-weight="700" font-size="15"{NARROW if text == "10" else ""}>{text}</text>')


@lru_cache(maxsize=64)
def face_symbol(card: Card) -> str:
    """The face's drawing as a symbol of the sprite (``#face-5H``): corners, then pips (A-10)
    or the court design (J, Q, K)."""
    suit, rank = card.suit, rank_text(card)
    corner = _rank(rank) + _pip(suit, 7.5, 21.5, 9, False)
    parts = [f'<g>{corner}</g><g transform="rotate(180 {W / 2} {H / 2})">{corner}</g>']
    if card.rank <= 10:
        size = 26 if card.rank == 1 else PIP_SIZE
        for col, row in PIP_LAYOUTS[card.rank]:
            y = PIP_TOP + row * (PIP_BOTTOM - PIP_TOP)
            parts.append(_pip(suit, PIP_COLUMNS[col], y, size, card.rank > 1 and row > 0.5))
    else:
        letter = RANKS[card.rank - 1]
        half = f'<g transform="translate(12 12)">{COURT_PATHS[letter]}</g>' + _pip(suit, 18.5, 34, 8, False)
        parts.append(f'<rect x="11" y="11" width="38" height="62" rx="2" style="{COURT_PANEL}"/>'
                     f'{half}<g transform="rotate(180 {W / 2} {H / 2})">{half}</g>'
                     f'<line x1="13" y1="42" x2="47" y2="42" style="{RULE}"/>')
    return f'<symbol id="face-{card}" viewBox="0 0 {W} {H}">{"".join(parts)}</symbol>'


def new_faces(html: str, defined: set[str]) -> str:
    """The face symbols ``html`` uses that are not in ``defined`` (the page's sprite), which
    gains them: markup for the sprite, empty when it has them all.

    >>> defined = set()
    >>> new_faces(card_face(Card.parse("5H")) + card_face(Card.parse("5H")), defined).count("<symbol"), defined
    (1, {'5H'})
    >>> new_faces(card_face(Card.parse("5H")), defined)
    ''
    """
    found: list[str] = []
    for text in sorted(set(FACE_USE.findall(html)) - defined):
        defined.add(text)
        found.append(face_symbol(Card.parse(text)))
    return "".join(found)


def faces_ahead(defined: set[str], count: int) -> str:
    """Up to ``count`` faces of the deck the page's sprite does not have yet (``defined``, which
    gains them), to add while the page is idle: the cards a show or a deal brings are then
    drawn from faces already there.

    >>> defined = {"AC"}
    >>> faces_ahead(defined, 3).count("<symbol"), len(defined)
    (3, 4)
    >>> faces_ahead(defined, 99).count("<symbol"), faces_ahead(defined, 99)
    (48, '')
    """
    found: list[str] = []
    for card in DECK:
        if len(found) == count:
            break
        if str(card) not in defined:
            defined.add(str(card))
            found.append(face_symbol(card))
    return "".join(found)


def card_face(card: Card, extra: str = "", tag: str = "span", attrs: str = "", key: str | None = None) -> str:
    """A face-up card; ``tag`` "button" for a card the player can choose. Keyed by ``data-key``
    (``card-5H`` unless ``key`` says otherwise: one key per element on the screen) so the glue
    keeps the same element when the card moves (`web.table.motion`)."""
    colour = "red" if card.suit in "DH" else "black"
    role = ' role="img"' if tag == "span" else ""
    return (f'<{tag} class="card {colour} suit-{card.suit} {extra}" data-card="{card}" '
            f'data-key="{key or f"card-{card}"}"{role} aria-label="{accessible_name(card)}" {attrs}>'
            f'<svg viewBox="0 0 {W} {H}" aria-hidden="true" focusable="false"><use href="#face-{card}"/></svg>'
            f'</{tag}>')


def card_back(extra: str = "", key: str = "", origin: str = "") -> str:
    """A face-down card; ``origin``: the keys of the elements it comes from (web.table.motion)."""
    keyed = f' data-key="{key}"' if key else ""
    keyed += f' data-from="{origin}"' if origin else ""
    return (f'<span class="card back {extra}" data-card="back"{keyed} aria-hidden="true">'
            f'<svg viewBox="0 0 {W} {H}" focusable="false" data-static="back"><use href="#card-back"/></svg></span>')


def cards_row(cards: Iterable[Card], extra: str = "", key: str = "card") -> str:
    return "".join(card_face(card, extra, key=f"{key}-{card}") for card in cards)
