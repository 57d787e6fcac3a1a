"""Settings and fixtures shared by the tests (and the browser tests under e2e/)."""

import pytest
from hypothesis import settings

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
