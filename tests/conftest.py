"""Fixtures shared by the relay's tests (and the browser tests under e2e/)."""

import pytest


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """The URL of a throwaway redis-server on a free loopback port, for the whole session.
    Skips when redis-server is not installed (`scripts/setup --redis` installs it)."""
    relay_redis = pytest.importorskip("relay_redis", reason="the redis package is missing (scripts/setup)")
    try:
        server = relay_redis.redis_server(folder=tmp_path_factory.mktemp("redis"))
        url = server.__enter__()
    except RuntimeError as error:
        pytest.skip(f"no Redis to test the shared relay with: {error}")
    yield url
    server.__exit__(None, None, None)
