"""The cribbage board as SVG: one lane per side in each of four rows, holes in groups of five,
two pegs per side that leapfrog (the back peg marks the previous score), the skunk lines and
the game hole, where the winner's peg and final score stand. A pure function of the scores.

>>> svg = board_svg(target=121, scores=[5, 0], previous=[3, 0], names=["Ann", "Bot"])
>>> svg.count('class="lane"') == 2 * 4 and svg.count('class="hole"') == 5 and 'data-key="peg-0-front"' in svg
True
>>> len(svg) < 7000         # a pattern of five holes, not 240 circles: every repaint parses this
True
>>> 'data-testid="game-hole"' in board_svg(121, [126, 80], [118, 78], ["Ann", "Bot"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape

SIDE_COLOURS = ("#2f6fdf", "#e0a100", "#19a974")
PEG_EDGES = ("#0d2f73", "#6b4b00", "#07543a")
HOLE, GROUP_GAP, LANE, ROW_GAP = 11, 7, 11, 9
LEFT, RIGHT, TOP = 26, 36, 8
PEG, BACK_PEG = 6.2, 5.0     # radii: a 360 px phone's board (339 px) still draws the front peg 10 px across


def layout(target: int) -> tuple[int, int]:
    """Holes per row and rows: 121 is four rows of 30 (then the game hole), 61 two rows of 30
    (a short game's board is the long one's first half, as wooden 61-hole boards are)."""
    rows = 4 if target > 61 else 2
    return (target - 1) // rows, rows


def _row_height(sides: int) -> float:
    return sides * LANE + ROW_GAP


def _col_x(col: int) -> float:
    return LEFT + col * HOLE + (col // 5) * GROUP_GAP


def size(target: int, sides: int) -> tuple[float, float]:
    per_row, rows = layout(target)
    return _col_x(per_row - 1) + RIGHT, TOP + rows * _row_height(sides) - ROW_GAP + 6


def hole_xy(score: int, side: int, sides: int, target: int) -> tuple[float, float]:
    """Where a peg at ``score`` stands: 0 in the start holes, ``target`` or more in the game hole."""
    per_row, rows = layout(target)
    if score <= 0:
        return LEFT - 14, TOP + LANE / 2 + side * LANE
    if score >= target:
        return game_hole(target, sides)
    row, col = divmod(score - 1, per_row)
    return _col_x(col), TOP + LANE / 2 + row * _row_height(sides) + side * LANE


def game_hole(target: int, sides: int) -> tuple[float, float]:
    per_row, rows = layout(target)
    width, height = size(target, sides)
    return width - 17, TOP + (rows - 1) * _row_height(sides) + sides * LANE / 2


def board_svg(target: int, scores: Sequence[int], previous: Sequence[int], names: Sequence[str]) -> str:
    """The whole board. ``names`` are the sides' names, for the accessible title."""
    sides = len(scores)
    width, height = size(target, sides)
    # (its shape in --aspect: the page sizes the board by the room left for it, see style.css)
    parts = [f'<svg class="pegboard" viewBox="0 0 {width:g} {height:g}" style="--aspect:{width / height:.3f}" '
             f'role="img" data-testid="pegboard" '
             f'aria-label="{escape(board_summary(scores, names, target))}">', _wood(target, sides)]
    gx, gy = game_hole(target, sides)
    winner = next((side for side, score in enumerate(scores) if score >= target), None)
    parts.append(f'<text class="finish-label" x="{gx:g}" y="{gy + 16:g}" text-anchor="middle" '
                 f'data-testid="game-hole">{target}</text>' if winner is not None else
                 f'<text class="finish-label quiet" x="{gx:g}" y="{gy + 16:g}" text-anchor="middle">{target}</text>')
    for side in range(sides):
        colour, edge = SIDE_COLOURS[side], PEG_EDGES[side]
        for which, score in (("back", previous[side]), ("front", scores[side])):
            x, y = hole_xy(min(score, target), side, sides, target)
            # Placed by a transform, not cx and cy: the browser moves a peg whose transform
            # changes on its compositor, without restyling and repainting the page each frame.
            parts.append(f'<circle class="peg peg-{which}" data-key="peg-{side}-{which}" '
                         f'transform="translate({x:g} {y:g})" r="{PEG if which == "front" else BACK_PEG:g}" '
                         f'fill="{colour}" stroke="{edge}"/>')
    parts.append("</svg>")
    return "".join(parts)


@lru_cache(maxsize=8)
def _wood(target: int, sides: int) -> str:
    """What never moves: the wood, the holes, the labels and the lines (made once per board;
    ``data-static`` tells the keyed update to leave it alone)."""
    per_row, rows = layout(target)
    width, height = size(target, sides)
    parts = [f'<g data-static="board-{target}-{sides}">'
             f'<rect class="wood" x="0" y="0" width="{width:g}" height="{height:g}" rx="9"/>']
    for row in range(rows):
        top = TOP + row * _row_height(sides)
        parts.append(f'<rect class="lane-bed" x="{LEFT - 7}" y="{top - 1}" '
                     f'width="{_col_x(per_row - 1) - LEFT + 14:g}" height="{sides * LANE + 2}" rx="5"/>')
        parts.append(f'<text class="row-label" x="{LEFT - 10}" y="{top + sides * LANE / 2 + 3:g}" '
                     f'text-anchor="end">{row * per_row + 1}</text>' if row else "")
        for group in range(per_row // 5):
            end = _col_x(group * 5 + 4)
            parts.append(f'<text class="group-label" x="{end + 7.5:g}" y="{top + sides * LANE / 2 + 2.5:g}" '
                         f'text-anchor="middle">{row * per_row + group * 5 + 5}</text>'
                         if group < per_row // 5 - 1 else "")
    for line, label in skunk_lines(target):
        row, col = divmod(line - 1, per_row)
        x = _col_x(col) - HOLE / 2 - (GROUP_GAP / 2 if col % 5 == 0 and col else 0)
        top = TOP + row * _row_height(sides) - 3
        parts.append(f'<line class="skunk" x1="{x:g}" y1="{top:g}" x2="{x:g}" '
                     f'y2="{top + sides * LANE + 6:g}"><title>{label}</title></line>'
                     f'<text class="skunk-label" x="{x - 2:g}" y="{top + sides * LANE + 5:g}" '
                     f'text-anchor="end">{"SS" if "double" in label else "S"}</text>')
    # The holes: one tile of five (a pattern), repeated along each lane by one rect, so the
    # board is a few kilobytes of markup, not a circle per hole (every repaint parses it).
    group = 5 * HOLE + GROUP_GAP
    parts.append(f'<defs><pattern id="holes-{target}-{sides}" class="holes" width="{group}" height="{LANE}" '
                 f'patternUnits="userSpaceOnUse">'
                 + "".join(f'<circle class="hole" cx="{HOLE / 2 + i * HOLE:g}" cy="{LANE / 2:g}" r="2.5"/>'
                           for i in range(5)) + '</pattern></defs>')
    lane_width = (per_row // 5) * group - GROUP_GAP
    for row in range(rows):
        for side in range(sides):
            x, y = hole_xy(row * per_row + 1, side, sides, target)
            parts.append(f'<rect class="lane" transform="translate({x - HOLE / 2:g} {y - LANE / 2:g})" '
                         f'width="{lane_width:g}" height="{LANE}" fill="url(#holes-{target}-{sides})"/>')
    for side in range(sides):
        sx, sy = hole_xy(0, side, sides, target)
        parts.append(f'<circle class="start" cx="{sx:g}" cy="{sy:g}" r="2.6" stroke="{SIDE_COLOURS[side]}"/>')
    gx, gy = game_hole(target, sides)
    parts.append(f'<circle class="finish" cx="{gx:g}" cy="{gy:g}" r="6"/></g>')
    return "".join(parts)


def skunk_lines(target: int) -> list[tuple[int, str]]:
    """(first hole past the line, its name): a loser short of the line is skunked."""
    if target == 121:
        return [(61, "double skunk line (61)"), (91, "skunk line (91)")]
    return [(31, "skunk line (31)")]


def board_summary(scores: Sequence[int], names: Sequence[str], target: int) -> str:
    """The board in words, for screen readers: ``"Ann 5, Bot 0, playing to 121"``; a score past
    the game hole is the game hole's."""
    return ", ".join(f"{name} {min(score, target)}" for name, score in zip(names, scores)) + \
        f", playing to {target}"
