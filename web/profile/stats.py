"""Statistics from game records, per mode, and small SVG charts of them. Pure Python.

>>> stats = compute([])
>>> stats["all"].games, stats["all"].win_rate
(0, 0.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

from .records import GameRecord


@dataclass
class Stats:
    """Totals for one group of games (a mode and player count, or everything)."""

    games: int = 0
    wins: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    hands: int = 0
    pegging: int = 0
    shown: list[int] = field(default_factory=list)    # every hand count, for the distribution
    cribs: list[int] = field(default_factory=list)
    best_hand: int = 0
    twenty_nines: int = 0
    streak: int = 0            # current: positive for wins in a row, negative for losses
    best_streak: int = 0
    results: list[tuple[str, bool]] = field(default_factory=list)   # (finished, won), oldest first
    coached_hands: int = 0     # hands the coach reviewed (games that ended here with it on)
    discard_lost: int = 0      # expected points the discards gave away, in hundredths
    pegging_lost: int = 0      # estimated points the pegging gave away, in hundredths
    accuracy: list[tuple[str, float]] = field(default_factory=list)  # (finished, discard points lost a hand)
    hints: int = 0
    muggins_games: int = 0     # games where the player counted its own points (issue 39)
    missed: int = 0            # ... and the points it missed in them

    def missed_per_game(self) -> str:
        """Points missed a game at muggins tables, or "—" before any.

        >>> Stats(muggins_games=2, missed=5).missed_per_game(), Stats().missed_per_game()
        ('2.5', '—')
        """
        return f"{self.missed / self.muggins_games:.1f}" if self.muggins_games else "—"

    def lost_per_hand(self, what: str) -> float | None:
        """Points given away per reviewed hand in the ``discard`` or the ``pegging``; None
        before any reviewed game.

        >>> s = Stats(coached_hands=4, discard_lost=250, pegging_lost=100)
        >>> s.lost_per_hand("discard"), s.lost_per_hand("pegging"), Stats().lost_per_hand("discard")
        (0.625, 0.25, None)
        """
        if not self.coached_hands:
            return None
        total = self.discard_lost if what == "discard" else self.pegging_lost
        return total / 100 / self.coached_hands

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def per_hand(self, what: str) -> float:
        """Average points per hand from ``pegging``, ``hand`` or ``crib``."""
        if what == "pegging":
            return self.pegging / self.hands if self.hands else 0.0
        counts = self.shown if what == "hand" else self.cribs
        return sum(counts) / len(counts) if counts else 0.0

    def add(self, record: GameRecord) -> None:
        s = record.summary
        self.games += 1
        self.wins += s.won
        self.skunks_given += s.skunks_given
        self.skunks_taken += s.verdict in ("skunk", "double skunk")
        self.hands += s.hands
        self.pegging += sum(s.pegging)
        self.shown += s.shown
        self.cribs += s.cribs
        self.best_hand = max(self.best_hand, s.best_hand)
        self.twenty_nines += s.twenty_nines
        if s.won:
            self.streak = self.streak + 1 if self.streak > 0 else 1
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
        self.best_streak = max(self.best_streak, self.streak)
        self.results.append((record.finished, s.won))
        self.hints += len(record.hints)
        if record.config.muggins:
            self.muggins_games += 1
            self.missed += s.missed
        if record.coach:
            lost = sum(discard for discard, _ in record.coach)
            self.coached_hands += len(record.coach)
            self.discard_lost += lost
            self.pegging_lost += sum(pegging for _, pegging in record.coach)
            self.accuracy.append((record.finished, lost / 100 / len(record.coach)))


def group_of(record: GameRecord) -> str:
    """``"bot-hard · 2 players"`` or ``"friends · 4 players"``."""
    return f"{record.mode} · {record.config.players} players"


def compute(records: Iterable[GameRecord]) -> dict[str, Stats]:
    """Stats for ``"all"`` games and for each group, in the order the records come (oldest first)."""
    groups: dict[str, Stats] = {"all": Stats()}
    for record in sorted(records, key=lambda r: r.finished):
        groups["all"].add(record)
        groups.setdefault(group_of(record), Stats()).add(record)
    return groups


def histogram_svg(counts: Iterable[int], title: str) -> str:
    """Bars of how often each hand score 0..29 came up."""
    tally = [0] * 30
    for count in counts:
        tally[min(count, 29)] += 1
    peak = max(tally) or 1
    bars = []
    for score, n in enumerate(tally):
        height = 60 * n / peak
        bars.append(f'<rect x="{score * 8 + 2}" y="{70 - height:.1f}" width="6" height="{height:.1f}">'
                    f'<title>{score} points: {n}</title></rect>')
        if n:
            bars.append(f'<text x="{score * 8 + 5}" y="{68 - height:.1f}" text-anchor="middle" '
                        f'class="value">{n}</text>')
    labels = "".join(f'<text x="{s * 8 + 5}" y="80" text-anchor="middle">{s}</text>'
                     for s in range(0, 30, 5))
    axis = ('<line x1="0" y1="70.5" x2="242" y2="70.5" class="axis"/>'
            '<text x="240" y="80" text-anchor="end">points</text>')
    return (f'<svg class="chart" viewBox="0 0 242 84" role="img" aria-label="{escape(title)}">'
            f'{"".join(bars)}{axis}{labels}</svg>')


def results_svg(results: Sequence[tuple[str, bool]], title: str) -> str:
    """Win rate over time: one dot per game (up for a win), and the running win rate, spread
    over the whole width (a few games far apart, many close together).

    >>> chart = results_svg([("a", True), ("b", False)], "Results")
    >>> 'cx="3"' in chart and 'cx="237"' in chart
    True
    """
    if not results:
        return ""
    width = max(len(results) * 6, 240)
    step = (width - 6) / max(len(results) - 1, 1)
    dots, line, wins = [], [], 0
    for index, (_, won) in enumerate(results):
        wins += won
        x = 3 + index * step
        dots.append(f'<circle cx="{x:g}" cy="{14 if won else 56}" r="2.6" class="{"win" if won else "loss"}"/>')
        line.append(f"{x:g},{56 - 42 * wins / (index + 1):.1f}")
    rate = wins / len(results)
    axis = (f'<line x1="0" y1="56.5" x2="{width}" y2="56.5" class="axis"/>'
            f'<text x="{width - 2}" y="7" text-anchor="end">won</text>'
            f'<text x="{width - 2}" y="68" text-anchor="end">lost · win rate now {rate:.0%}</text>')
    return (f'<svg class="chart" viewBox="0 0 {width} 70" role="img" aria-label="{escape(title)}">'
            f'{axis}<polyline points="{" ".join(line)}" fill="none"/>{"".join(dots)}</svg>')


def accuracy_svg(accuracy: Sequence[tuple[str, float]], title: str) -> str:
    """Discard accuracy over time: each reviewed game's points given away per hand in its
    discards (lower is better), with the running average."""
    if not accuracy:
        return ""
    width = max(len(accuracy) * 8, 240)
    top = max(2.0, 1.25 * max(value for _, value in accuracy))   # room above the highest dot
    dots, line, total = [], [], 0.0
    for index, (_, value) in enumerate(accuracy):
        total += value
        x = index * 8 + 4
        dots.append(f'<circle cx="{x}" cy="{58 - 50 * value / top:.1f}" r="2.2" class="game">'
                    f'<title>{value:.2f} points a hand</title></circle>')
        line.append(f"{x},{58 - 50 * total / (index + 1) / top:.1f}")
    now = total / len(accuracy)
    axis = (f'<line x1="0" y1="58.5" x2="{width}" y2="58.5" class="axis"/>'
            f'<text x="2" y="8">{top:.1f} points</text>'
            f'<text x="{width - 2}" y="68" text-anchor="end">0 · average now {now:.2f} a hand</text>')
    return (f'<svg class="chart accuracy" viewBox="0 0 {width} 70" role="img" aria-label="{escape(title)}">'
            f'{axis}<polyline points="{" ".join(line)}" fill="none"/>{"".join(dots)}</svg>')
