"""The figures of the matrix as a table: per cell, the path the host's players list showed, the
time from opening the invite link to seated (median), and a guest's action round trip (from
its click to the host's answer on its screen: median and 95th percentile)."""

from __future__ import annotations

import statistics
from collections import defaultdict


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def path_story(result: dict) -> str:
    """The path each guest showed when seated, and "→ the one after the verdict" if it moved
    (``relay → via TURN``); guests separated by " / "."""
    seated = [p for p, _ in result["paths"]]
    final = [p for p, _ in result.get("final_paths") or result["paths"]]
    return " / ".join(a if a == b else f"{a} → {b}" for a, b in zip(seated, final))


def rows(results: list[dict]) -> list[list[str]]:
    """One row per cell (results of the same cell, from repeated runs, are pooled)."""
    cells: dict[tuple, list[dict]] = defaultdict(list)
    for result in results:
        cells[tuple(result["kinds"])].append(result)
    table = []
    for kinds, runs in cells.items():
        paths = sorted({path_story(r) for r in runs})
        seated = [t["open_to_seated"] for r in runs for t in r.get("seated", [])]
        sit = [t["sit_to_seated"] for r in runs for t in r.get("seated", [])]
        rtts = [ms for r in runs for ms in r.get("rtt_ms", [])]
        table.append([
            " × ".join(kinds), ", ".join(paths), str(len(runs)),
            f"{statistics.median(seated):.1f} s" if seated else "–",
            f"{statistics.median(sit):.1f} s" if sit else "–",
            f"{statistics.median(rtts):.0f} ms" if rtts else "–",
            f"{percentile(rtts, 0.95):.0f} ms" if rtts else "–",
            str(len(rtts)),
        ])
    return table


HEADER = ["homes (host × guests)", "path", "runs", "link → seated", "sit down → seated", "action RTT median",
          "action RTT p95", "plays timed"]


def markdown(results: list[dict]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows(results)]
    return "\n".join(lines)
