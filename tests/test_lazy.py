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


def imported_at_start() -> set[str]:
    """Our modules that importing web.main imports, following import-time imports only."""
    modules = our_modules()
    seen, todo = set(), ["web.main"]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules:
            continue
        seen.add(name)
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        source = (ROOT / modules[name]).read_text(encoding="utf-8")
        todo += parents + sorted(import_time_imports(source, name, modules[name].endswith("__init__.py"), set(modules)))
    return seen


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
