"""Settings and fixtures shared by the tests (and the browser tests under e2e/)."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
# Which site the browser tests (tests/e2e, tests/netns) play on: "dist" (the default) is dist/ as
# players get it; "sources" is the repository itself, as `scripts/play --dev` serves it (and as
# the recording of the stdlib's imports needs it: tests/e2e/harness.py's RECORD_IMPORTS).
SITE_KIND = os.environ.get("CRIBBAGE_E2E_SITE", "sources" if os.environ.get("CRIBBAGE_RECORD_IMPORTS") else "dist")

# No per-example deadline: speed is measured in bench/, and a loaded machine must not fail a property.
settings.register_profile("project", deadline=None)
settings.load_profile("project")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a throwaway redis-server on a free loopback port, for the whole session.
    Skips when redis-server is not installed (`scripts/setup --redis` installs it)."""
    shared = pytest.importorskip("relay.shared", reason="the redis package is missing (scripts/setup)")
    try:
        server = shared.redis_server(folder=tmp_path_factory.mktemp("redis"))
        url = server.__enter__()
    except RuntimeError as error:
        pytest.skip(f"no Redis to test the shared relay with: {error}")
    yield url
    server.__exit__(None, None, None)


@pytest.fixture(scope="session")
def site_root(tmp_path_factory) -> Path:
    """The folder the browser tests' servers serve (`SITE_KIND`), built once per session for
    both tests/e2e and tests/netns. The built site starts each page about a second sooner (one
    bundle of bytecode instead of a hundred sources to fetch and compile), which keeps CI within
    its time. It makes no start-up snapshots: every test's context is a first visit, and each
    snapshot would start a second interpreter (tests/e2e/test_dist.py tests them on a dist of
    its own). The recording of the stdlib's imports needs the sources, whose page loads all of it."""
    if SITE_KIND != "dist":
        return ROOT
    sys.path.insert(0, str(ROOT / "scripts"))
    import build_dist
    root = tmp_path_factory.mktemp("site") / "dist"
    build_dist.build(root, snapshots=False)
    return root
