"""Fixtures for the browser tests: one server and one browser per session, a watched page.

The `page` fixture fails its test at teardown if any request left our origin, any
response was an HTTP error, or the page logged or raised an error.
"""

import os

import pytest
from harness import RECORD_IMPORTS, WATCHED, Network, launch, record_imports
from playwright.sync_api import BrowserContext, Page, sync_playwright

import serve

if os.environ.get(RECORD_IMPORTS):
    # scripts/stdlib_modules.py --record: every page, whichever test or fixture made it, tells
    # what its Python imported before it (or its context) closes.
    def _recording(close, pages):
        def closing(self, *args, **kwargs):
            for page in pages(self):
                record_imports(page)
            return close(self, *args, **kwargs)
        return closing

    BrowserContext.close = _recording(BrowserContext.close, lambda context: list(context.pages))
    Page.close = _recording(Page.close, lambda page: [page])


@pytest.fixture(scope="session")
def site(site_root, tmp_path_factory):
    """The base URL of a serve.py child process on a free port serving `site_root` (the built
    site, or the sources: tests/conftest.py), its log in a temp file."""
    log = tmp_path_factory.mktemp("serve") / "access.log"
    with log.open("w") as stream, serve.spawn(root=site_root, stderr=stream) as url:
        yield url


@pytest.fixture(scope="session")
def source_site(site, site_root, tmp_path_factory):
    """The repository itself (index.html and the .py sources) on a serve.py of its own, for the
    tests that change a source file on its way to the page; `site` when that serves it already."""
    if site_root == serve.ROOT:
        yield site
        return
    log = tmp_path_factory.mktemp("serve-sources") / "access.log"
    with log.open("w") as stream, serve.spawn(stderr=stream) as url:
        yield url


@pytest.fixture
def roomy_site():
    """A server whose relay lets eight members of one room come from one address (all of
    the tests' browsers and sockets are on 127.0.0.1)."""
    with serve.spawn(args=("--max-members-per-address", "8")) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def network(browser, site):
    """A page in a fresh context, watched; teardown asserts it stayed home and error-free."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    watched = Network(context, site)
    yield watched
    outside, errors = watched.outside(), list(watched.errors)
    context.close()
    assert not outside, f"requests left the origin: {outside}"
    assert not errors, "\n".join(errors)


@pytest.fixture
def page(network):
    """The watched page (see `network`)."""
    return network.page


@pytest.fixture
def people(browser, site):
    """A factory of watched pages, one fresh browser context each; checked at teardown."""
    made = []

    def make(base=site, allow=()):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        watched = Network(context, base)
        made.append((context, watched, allow))
        return watched.page

    yield make
    problems = []
    for context, watched, allow in made:
        problems += [f"left the origin: {url}" for url in watched.outside()]
        problems += [e for e in watched.errors if not any(a in e for a in allow)]
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(autouse=True)
def _watched_pages():
    """Each test starts with no watched pages (see `pytest_runtest_makereport`)."""
    WATCHED.clear()
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report ends with the console of every page it watched (`Network`):
    the connection trace says how far each browser got when a table did not connect."""
    report = yield
    if report.failed and report.when == "call":
        for number, watched in enumerate(WATCHED, 1):
            report.sections.append((f"browser console {number}", watched.console_report()))
    return report
