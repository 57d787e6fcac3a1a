"""Paths and figures across the test internet of home routers (tests/netns/, issue 12).

    sudo .venv/bin/python bench/netns_paths.py [--runs 3] [--cells cone+symmetric ...]
    .venv/bin/python bench/netns_paths.py --report test-artifacts/netns-paths.json

Builds the network-namespace rig (root, coturn, iptables: see tests/netns/README.md), plays
each cell of the matrix ``--runs`` times (a 61-point game each, host and guest in two homes
behind the given NAT kinds) and prints, per cell: the path the host's players list showed,
the time from opening the invite link to seated (median; page start included) and from
pressing "Sit down" to seated, and the guest's action round trip (its click to the host's
answer on its screen: median, p95). ``--report`` prints the same table from the figures the
netns tests wrote instead (each test run is one run of its cell).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from netns import rig  # noqa: E402
from netns.cell import open_world, run_cell  # noqa: E402
from netns.nat import KINDS  # noqa: E402
from netns.report import markdown  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="games per cell (default 1)")
    parser.add_argument("--cells", nargs="*", help="cells as host+guest kinds, e.g. cone+symmetric (default all 10)")
    parser.add_argument("--report", type=Path, help="print the table of a netns-paths.json instead of measuring")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()
    if args.report:
        print(markdown(json.loads(args.report.read_text())))
        return
    reason = rig.refused()
    if reason:
        sys.exit(f"cannot build the rig: {reason}")
    pairs = [list(pair) for pair in itertools.combinations_with_replacement(KINDS, 2)]
    if args.cells:
        pairs = [cell.split("+") for cell in args.cells]
    results = []
    with tempfile.TemporaryDirectory(prefix="netns-bench-") as logs, open_world(Path(logs)) as world:
        for kinds in pairs:
            for run in range(args.runs):
                found = run_cell(world, kinds)
                results.append(found)
                path = ", ".join(p for p, _ in found["final_paths"])
                print(f"{' × '.join(kinds)} run {run + 1}: {path}, seated in "
                      f"{found['seated'][0]['open_to_seated']:.1f} s", file=sys.stderr, flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    print(markdown(results))


if __name__ == "__main__":
    main()
