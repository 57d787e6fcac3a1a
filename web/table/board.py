"""The cribbage board as SVG: one track per side, front and back pegs, streets of five holes,
skunk lines. A pure function of the scores, so it is tested under CPython.

>>> svg = board_svg(target=121, scores=[5, 0], previous=[3, 0], names=["Ann", "Bot"])
>>> svg.count('class="hole"') == 2 * 120 and 'data-peg="0-front"' in svg
True
"""

from __future__ import annotations

from html import escape

SIDE_COLOURS = ("#2f6fdf", "#e0a100", "#19a974")
HOLE, STREET_GAP, LANE, MARGIN_LEFT = 10, 5, 9, 34
ROWS = 4


def layout(target: int) -> tuple[int, int]:
    """Holes per row and rows: 121 is four rows of 30 (then the finish), 61 four rows of 15."""
    return (target - 1) // ROWS, ROWS


def hole_xy(score: int, side: int, sides: int, target: int) -> tuple[float, float]:
    """Where a peg at ``score`` stands: 0 in the start holes, ``target`` in the finish hole."""
    per_row, rows = layout(target)
    row_height = sides * LANE + 12
    if score <= 0:
        return 14, 10 + side * LANE
    if score >= target:
        return _col_x(per_row - 1) + 22, 10 + (rows - 1) * row_height + (sides - 1) * LANE / 2
    row, col = divmod(score - 1, per_row)
    return _col_x(col), 10 + row * row_height + side * LANE


def _col_x(col: int) -> float:
    return MARGIN_LEFT + col * HOLE + (col // 5) * STREET_GAP


def board_svg(target: int, scores, previous, names) -> str:
    """The whole board. ``names`` are the sides' names, for the accessible title."""
    sides = len(scores)
    per_row, rows = layout(target)
    row_height = sides * LANE + 12
    width = _col_x(per_row - 1) + 36
    height = rows * row_height + 2
    parts = [f'<svg class="pegboard" viewBox="0 0 {width:.0f} {height}" role="img" '
             f'aria-label="{escape(board_summary(scores, names, target))}">']
    parts.append(f'<rect class="wood" x="0" y="0" width="{width:.0f}" height="{height}" rx="8"/>')
    for row in range(rows):
        first = row * per_row + 1
        y = 10 + row * row_height + (sides - 1) * LANE / 2
        parts.append(f'<text class="row-label" x="{MARGIN_LEFT - 6}" y="{y + 3:.1f}" '
                     f'text-anchor="end">{first}</text>')
    for line, label in skunk_lines(target):
        x = _col_x(0) - 6
        row = (line - 1) // per_row
        top = 10 + row * row_height - 6
        parts.append(f'<line class="skunk" x1="{x}" y1="{top}" x2="{x}" '
                     f'y2="{top + sides * LANE + 3}"><title>{label}</title></line>')
    for side in range(sides):
        colour = SIDE_COLOURS[side]
        for score in range(1, target):
            x, y = hole_xy(score, side, sides, target)
            parts.append(f'<circle class="hole" cx="{x}" cy="{y}" r="2"/>')
        sx, sy = hole_xy(0, side, sides, target)
        parts.append(f'<circle class="start" cx="{sx}" cy="{sy}" r="2.6" stroke="{colour}"/>')
    fx, fy = hole_xy(target, 0, sides, target)
    parts.append(f'<circle class="finish" cx="{fx}" cy="{fy}" r="4"/>')
    for side in range(sides):
        colour = SIDE_COLOURS[side]
        for which, score in (("back", previous[side]), ("front", scores[side])):
            x, y = hole_xy(min(score, target), side, sides, target)
            parts.append(f'<circle class="peg peg-{which}" data-peg="{side}-{which}" '
                         f'cx="{x}" cy="{y}" r="3.6" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def skunk_lines(target: int) -> list[tuple[int, str]]:
    """(first hole past the line, its name): a loser short of the line is skunked."""
    if target == 121:
        return [(61, "double skunk line (61)"), (91, "skunk line (91)")]
    return [(31, "skunk line (31)")]


def board_summary(scores, names, target: int) -> str:
    """The board in words, for screen readers: ``"Ann 5, Bot 0, playing to 121"``."""
    return ", ".join(f"{name} {score}" for name, score in zip(names, scores)) + f", playing to {target}"
