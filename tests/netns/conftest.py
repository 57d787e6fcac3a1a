"""Fixtures for the network-namespace tests: one rig per session (the public namespace with
coturn and two serve.py sites), homes and browsers per test (`cell.people`). Leftovers of an
earlier run (namespaces named `rig.PREFIX`...) are swept before and after the session.

Skipped, with the reason, when not root, when `ip netns add` is refused, or when coturn or
iptables are missing (scripts/setup --netns installs them).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from . import rig
from .cell import open_world
from .report import markdown

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "test-artifacts" / "netns-paths.json"


@pytest.fixture(scope="session")
def world(tmp_path_factory, site_root):
    reason = rig.refused()
    if reason:
        pytest.skip(reason)
    logs = tmp_path_factory.mktemp("netns")
    try:
        with open_world(logs, site_root) as made:
            yield made
    finally:
        shutil.copytree(logs, ROOT / "test-artifacts" / "netns-logs", dirs_exist_ok=True)


@pytest.fixture(scope="session")
def figures():
    """Measurements the tests add (one dict per cell), written to test-artifacts/netns-paths.json
    and as a table to netns-paths.md (bench/netns_paths.py prints either)."""
    found: list[dict] = []
    yield found
    if found:
        FIGURES.parent.mkdir(exist_ok=True)
        FIGURES.write_text(json.dumps(found, indent=1))
        FIGURES.with_suffix(".md").write_text(markdown(found) + "\n")
