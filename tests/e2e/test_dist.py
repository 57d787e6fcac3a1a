"""dist/ on a plain static server: a whole game against the bot, with our modules from the
precompiled web/app.zip (no source fetched, nor web/app_later.zip), then offline from the cache; the memory snapshot
that web/snapshot.mjs makes after a first visit, used by the next one, and a damaged one that
falls back to the normal start."""

import json
import re
import subprocess
import sys
import urllib.request

import pytest
from harness import Network, wait_ready
from playwright.sync_api import expect
from test_play_bot import open_table, play_game

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "scripts"))
import build_dist  # noqa: E402
import serve  # noqa: E402
import stdlib_modules  # noqa: E402

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def dist_site(tmp_path_factory):
    """dist/ built into a temporary folder and served by Python's own http.server."""
    out = tmp_path_factory.mktemp("dist") / "site"
    build_dist.build(out)
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line).group(1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_dist_plays_a_whole_game_then_works_offline(browser, dist_site):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    watched = Network(context, dist_site)
    page = watched.page
    open_table(page, dist_site, players=2, level="easy")
    play_game(page, checks_every=8)
    paths = {url.removeprefix(dist_site.rstrip("/")).split("?")[0] for url in watched.urls}
    assert "/web/app.zip" in paths and "/web/vendor/pyodide/pyodide.asm.wasm" in paths
    assert "/web/app_later.zip" not in paths   # tables with friends and linking a device only (web.lazy.LATER)
    assert not [path for path in paths if path.endswith(".py") and path != "/web/main.py"], paths
    # The service worker has cached every file of its list once it is active; an icon, when
    # first fetched (installing the game asks for it).
    page.evaluate("navigator.serviceWorker.ready")
    assert sorted(page.evaluate(CACHED)) == sorted("/" + url.removeprefix("./") for url in precached(dist_site))
    icon = build_dist.CACHED_ON_USE[0]
    # (The body is read: a response left unread stays open, and the offline visit below would
    # cancel it, a failed request.)
    assert page.evaluate(f"fetch('./{icon}').then((response) => response.ok && response.blob()).then(Boolean)")
    page.wait_for_function(f"({CACHED})().then((paths) => paths.includes('/{icon}'))")
    # Its bytecode has no column positions, but tracebacks still carry line numbers.
    trace = page.evaluate(PYTHON, "import json, traceback\ntry:\n json.loads('{')\n"
                          "except ValueError as error:\n result = ''.join(traceback.format_exception(error))")
    assert re.search(r'json/decoder\.pyc?", line \d+, in raw_decode', trace), trace
    columns = page.evaluate(PYTHON, "import json.decoder, web.table\nresult = [position[2:] for code in "
                            "(json.decoder.JSONDecoder.decode.__code__, web.table.__spec__.loader.get_code('web.table'))"
                            " for position in code.co_positions() if position[0] is not None]")
    assert columns and all(position == [None, None] for position in columns), columns[:5]
    assert_pyscript_precompiled(page)
    # Every dataclass of ours that the game made ran its methods from app.zip's table
    # (web.dataclass_methods): none compiled in the page.
    made = page.evaluate(PYTHON, DATACLASSES_MADE)
    assert made["compiled here"] == 0 and made["from the table"] >= made["classes"] >= 20, made
    # What scripts/stdlib_modules.py leaves out was never needed: the runtime builds in what
    # the fallbacks stand in for, and after a whole game none of them was imported.
    runtime = page.evaluate(PYTHON, "import sys\nresult = [sorted(sys.builtin_module_names), sorted(sys.modules)]")
    assert set(stdlib_modules.BUILT_IN) <= set(runtime[0]), runtime[0]
    assert not set(stdlib_modules.LEFT_OUT) & set(runtime[1]), set(stdlib_modules.LEFT_OUT) & set(runtime[1])
    # The stdlib's modules that came once the wasm was in were imported from their own zip
    # (PyScript imports html at its start; the game the others it needs).
    origins = page.evaluate(PYTHON, f"import sys\nresult = {{name: sys.modules[name].__file__ for name in "
                            f"{stdlib_modules.AFTER_START!r} if name in sys.modules}}")
    assert "html" in origins and "fractions" in origins, origins
    assert all(path.startswith("/lib/stdlib_after_start.zip/") for path in origins.values()), origins
    context.set_offline(True)
    page.goto(dist_site + "?speed=instant")
    wait_ready(page)
    expect(page.get_by_test_id("start")).to_be_visible()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)
    context.set_offline(False)
    context.close()
    assert watched.outside() == []
    assert not watched.errors, watched.errors


CACHED = """async () => {
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith("cribbage-")));
    return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""
# Runs Python code in the page; returns its variable `result`.
PYTHON = """async (code) => {
    const { interpreter } = await globalThis[Symbol.for("@pyscript/core")].whenDefined("py");
    const scope = interpreter.globals.get("dict")();
    interpreter.runPython(code, { globals: scope });
    const result = scope.get("result");
    return result?.toJs ? result.toJs() : result;
}"""


# How our dataclasses got their methods, and how many of them the page holds.
DATACLASSES_MADE = """import dataclasses, sys
from web.dataclass_methods import COUNTS
ours = [module for name, module in list(sys.modules.items()) if name.split(".")[0] in ("game", "web")]
classes = {id(value) for module in ours for value in vars(module).values()
           if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__}
result = dict(COUNTS, classes=len(classes))
"""


# Each of PyScript's modules the page imported: (name, whether its __pycache__ .pyc exists and is
# a checked-hash pyc of the very source PyScript wrote, which CPython then imports as it is).
PYSCRIPT_PYCS = """import importlib.util, os, sys
result = []
for name, module in sorted(sys.modules.items()):
    if name.split(".")[0] != "pyscript" or not getattr(module, "__file__", None):
        continue
    with open(module.__file__, "rb") as stream:
        source = stream.read()
    pyc = module.__spec__.cached
    header = open(pyc, "rb").read(16) if pyc and os.path.isfile(pyc) else b""
    result.append([name, header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == (3).to_bytes(4, "little")
                   and header[8:16] == importlib.util.source_hash(source)])
"""


def assert_pyscript_precompiled(page) -> None:
    """web/pyscript.zip's bytecode sits next to every PyScript module the page imported, and
    matches the source PyScript wrote (scripts/precompile_pyscript.mjs)."""
    modules = dict(page.evaluate(PYTHON, PYSCRIPT_PYCS))
    assert {"pyscript", "pyscript.context", "pyscript.display"} <= set(modules), modules
    assert all(modules.values()), modules


def precached(site: str) -> list[str]:
    """The files the site's sw.js downloads at install."""
    text = urllib.request.urlopen(site + "sw.js").read().decode("utf-8")
    return json.loads(re.search(r"const FILES = (\[.*?\]);", text, re.S)[1])


# <html data-snapshot>, set by web/snapshot.mjs: how Python started, and whether a snapshot was saved.
SNAPSHOT_STATE = "document.documentElement.dataset.snapshot"
STORED_SNAPSHOT = """async () => {
    const cache = await caches.open("pyodide-snapshot");
    return (await cache.keys()).map((request) => new URL(request.url).pathname);
}"""


def first_visit_with_snapshot(page, url: str) -> list[str]:
    """A first visit: a normal start, then the snapshot is made in a worker and stored."""
    page.goto(url)
    wait_ready(page)
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    page.wait_for_function(f"['stored', 'unsaved'].includes({SNAPSHOT_STATE})", timeout=120_000)
    assert page.evaluate(SNAPSHOT_STATE) == "stored"
    stored = page.evaluate(STORED_SNAPSHOT)
    assert len(stored) == 1 and re.fullmatch(r"/web/snapshot-[0-9a-f]{12}\.bin", stored[0]), stored
    return stored


def test_dist_second_visit_starts_from_the_snapshot_and_plays(browser, dist_site):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    watched = Network(context, dist_site)
    page = watched.page
    first_visit_with_snapshot(page, dist_site)
    open_table(page, dist_site, players=2, level="easy")
    assert page.evaluate(SNAPSHOT_STATE) == "loaded"
    assert_pyscript_precompiled(page)
    play_game(page, checks_every=8)
    context.close()
    assert watched.outside() == []
    assert not watched.errors, watched.errors


# Ways a stored snapshot can be wrong: Pyodide's header check (magic number, the runtime's
# build id) or our own length check must catch each, before the heap is used.
DAMAGE = {
    "magic number": "bytes[0] ^= 0xff;",
    "runtime build id": "bytes[20] ^= 0xff;",
    "truncated": "bytes = bytes.subarray(0, bytes.length - 4096);",
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_dist_damaged_snapshot_falls_back_to_a_normal_start_and_is_removed(browser, dist_site, damage):
    context = browser.new_context()
    watched = Network(context, dist_site)
    page = watched.page
    first_visit_with_snapshot(page, dist_site)
    page.evaluate("""async () => {
        const cache = await caches.open("pyodide-snapshot");
        const [key] = await cache.keys();
        const response = await cache.match(key);
        let bytes = new Uint8Array(await response.arrayBuffer());
        %s
        await cache.put(key, new Response(bytes, { headers: response.headers }));
    }""" % DAMAGE[damage])
    page.goto(dist_site + "?speed=instant")
    wait_ready(page)
    assert page.evaluate(SNAPSHOT_STATE) == "failed"
    assert page.evaluate(STORED_SNAPSHOT) == []
    # This build does not try again in this browser: the next visit starts normally at once.
    assert page.evaluate("localStorage.getItem('cribbage.snapshot.failed')")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(6)
    page.goto(dist_site)
    wait_ready(page)
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    page.wait_for_timeout(3000)   # past the moment a snapshot would be made
    assert page.evaluate(SNAPSHOT_STATE) == "none" and page.evaluate(STORED_SNAPSHOT) == []
    context.close()
    assert watched.outside() == []
    assert not watched.errors, watched.errors


def test_dist_evicted_snapshot_means_a_normal_start_and_a_new_snapshot(browser, dist_site):
    """The browser may evict Cache Storage: the page starts normally and makes a new one."""
    context = browser.new_context()
    watched = Network(context, dist_site)
    page = watched.page
    stored = first_visit_with_snapshot(page, dist_site)
    page.evaluate("caches.delete('pyodide-snapshot')")
    page.goto(dist_site)
    wait_ready(page)
    assert page.evaluate(SNAPSHOT_STATE) == "none"
    page.wait_for_function(f"['stored', 'unsaved'].includes({SNAPSHOT_STATE})", timeout=120_000)
    assert page.evaluate(STORED_SNAPSHOT) == stored
    page.reload()
    wait_ready(page)
    assert page.evaluate(SNAPSHOT_STATE) == "loaded"
    context.close()
    assert watched.outside() == []
    assert not watched.errors, watched.errors


def test_dist_worker_steps_aside_when_the_address_serves_the_sources(browser, tmp_path_factory):
    """`scripts/play` (dist/) then `scripts/play --dev` (sources) on the same port: the dist
    worker must not go on answering with its cached build; the page ends up on the sources."""
    out = tmp_path_factory.mktemp("dist-then-dev") / "site"
    build_dist.build(out)
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(out)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        wait_ready(page)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    finally:
        server.terminate()
        server.wait(timeout=10)
    with serve.spawn(port=port) as url:   # the repository itself, on the same address
        page.goto(url)   # answered from the old cache one last time; the worker then steps aside
        checker = context.new_page()
        checker.goto(url + "web/style.css")
        left = None
        for _ in range(150):   # up to 30 s
            left = checker.evaluate("""async () => [
                (await navigator.serviceWorker.getRegistrations()).length,
                (await caches.keys()).filter((name) => name.startsWith("cribbage-")).length]""")
            if left == [0, 0]:
                break
            checker.wait_for_timeout(200)
        assert left == [0, 0], f"registrations and caches left: {left}"
        fresh = context.new_page()
        fresh.goto(url)
        wait_ready(fresh)
        assert fresh.evaluate("""() => !navigator.serviceWorker.controller
            && !document.querySelector('link[rel="manifest"]')""")
    context.close()
