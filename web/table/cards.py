"""Cards as HTML: a face, a back, a row. Pure functions."""

from __future__ import annotations

from game.cards import RANKS

SUIT_GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_face(card, extra: str = "", tag: str = "span", attrs: str = "") -> str:
    rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
    colour = "red" if card.suit in "DH" else "black"
    return (f'<{tag} class="card {colour} suit-{card.suit} {extra}" data-card="{card}" '
            f'aria-label="{card.name}" {attrs}><span class="rank">{rank}</span>'
            f'<span class="suit">{SUIT_GLYPHS[card.suit]}</span></{tag}>')


def card_back(extra: str = "") -> str:
    return f'<span class="card back {extra}" data-card="back" aria-hidden="true"></span>'


def cards_row(cards, extra: str = "") -> str:
    return "".join(card_face(card, extra) for card in cards)


