"""web.lazy's list, read from the sources: each name is one of our modules, and none of them is
imported when web.main starts (at import time, however indirectly). The browser checks the same
over a whole bot game (tests/e2e/test_lazy_parts.py); this catches an import added at the top of
a module in a second, without a browser."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import app_bundle  # noqa: E402
from build_dist import import_time_imports  # noqa: E402

from web.lazy import AFTER_READY, LAZY  # noqa: E402


def our_modules() -> dict[str, str]:
    """Dotted name -> path, for every module the page ships."""
    paths = app_bundle.modules(ROOT) + ["web/main.py"]
    return {path.removesuffix(".py").removesuffix("/__init__").replace("/", "."): path for path in paths}


def imported_at_start(ours_only: bool = True) -> set[str]:
    """Our modules that importing web.main imports, following import-time imports only; with
    ours_only False, also the other modules they import themselves (the standard library's, js)."""
    modules = our_modules()
    seen, others, todo = set(), set(), ["web.main"]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules:
            others.add(name)
            continue
        seen.add(name)
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        source = (ROOT / modules[name]).read_text(encoding="utf-8")
        todo += parents + sorted(import_time_imports(source, name, modules[name].endswith("__init__.py"), set(modules)))
    return seen if ours_only else seen | others


def test_every_lazy_name_is_one_of_our_modules():
    assert set(LAZY) | set(AFTER_READY) <= set(our_modules()), set(LAZY) | set(AFTER_READY) - set(our_modules())


def test_the_start_imports_no_lazy_module():
    started = imported_at_start()
    assert {"web.dom", "web.controller", "game.engine", "web.render"} <= started   # the walk works
    assert not started & set(LAZY), f"imported at start: {sorted(started & set(LAZY))}"


def test_the_start_leaves_the_bots_and_the_coach_for_after_ready():
    started = imported_at_start()
    assert not started & set(AFTER_READY), f"imported at start: {sorted(started & set(AFTER_READY))}"
    assert not {name for name in started if name.startswith("game.coach")}, sorted(started)
    assert not {name for name in started if name.startswith("game.bots.")}, sorted(started)


# Standard library modules the runtime has not imported before ours, which the start goes
# without: at the phone's 4x slower CPU each cost the start 10-40 ms (bench/start_trace.py
# --importtime: hashlib 42 ms with its OpenSSL set-up, secrets 16 ms with hmac, datetime 10 ms).
# Seeds and the clock come from random and time (web.clock); hashing waits for its first use.
NOT_AT_START = {"datetime", "hashlib", "hmac", "secrets", "game.fair"}


def test_the_start_goes_without_hashing_secrets_and_dates():
    started = imported_at_start(ours_only=False)
    assert {"json", "js", "random", "time"} <= started   # the walk sees the standard library's names
    assert not started & NOT_AT_START, f"imported at start: {sorted(started & NOT_AT_START)}"
