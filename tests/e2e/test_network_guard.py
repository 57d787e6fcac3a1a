"""The `network` fixture's guard notices a request that leaves the origin."""

import pytest
from harness import Network

pytestmark = pytest.mark.e2e


def test_guard_sees_a_request_to_another_host(browser, site):
    context = browser.new_context()
    watched = Network(context, site)
    watched.page.goto(site + "web/vendor/pyscript/core.css")
    watched.page.evaluate("fetch('http://cdn.example.invalid/pyodide.mjs').catch(() => null)")
    context.close()
    assert watched.outside() == ["http://cdn.example.invalid/pyodide.mjs"]
    assert watched.same_origin(site + "index.html") and watched.same_origin("blob:" + site + "x")
