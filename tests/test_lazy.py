"""web.lazy's lists, read from the sources: each name is one of our modules, and none of them is
imported when web.main starts (at import time, however indirectly). The browser checks the same
over a whole bot game (tests/e2e/test_lazy_parts.py); this catches an import added at the top of
a module in a second, without a browser. And web/app.zip works without web/app_later.zip
(web.lazy.LATER) until that is brought in: none of its modules imports a later one when imported,
and the few that import one later do it only where App.online has brought it in."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import app_bundle  # noqa: E402
from build_dist import import_time_imports  # noqa: E402

from web.lazy import AFTER_READY, LATER, LAZY  # noqa: E402


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


def later_file_modules() -> dict[str, str]:
    """Dotted name -> path of the modules in web/app.zip (web/main.py too), not web/app_later.zip."""
    return {name: path for name, path in our_modules().items() if name not in LATER}


def test_the_later_zip_holds_lazy_modules_only():
    assert set(LATER) <= set(LAZY) and len(set(LATER)) == len(LATER)
    assert set(LATER) == {name for name in our_modules() if f"{name.replace('.', '/')}.py" in app_bundle.later_modules(ROOT)}
    assert {"web.friends.host", "web.net.transport", "web.profile.device_link"} <= set(LATER)
    # A bot player's screens, and what a profile's records need at every start, stay in app.zip.
    assert not {"web.profile.view", "web.profile.stats", "web.profile.replay", "game.fair"} & set(LATER)
    # Only a friends table deals blind: every module of the blind deal waits (but local.py, for tests).
    blind = {name for name in our_modules() if name.startswith(("game.blind.", "web.friends.blind_"))}
    assert blind - {"game.blind.local"} <= set(LATER), sorted(blind - set(LATER))


def test_no_module_of_app_zip_imports_a_later_one_when_imported():
    """web/app.zip must work alone: no module in it imports one of web/app_later.zip's at import
    time (however indirectly: each module's own imports are checked, and those are in app.zip)."""
    modules = our_modules()
    found = {}
    for name, path in later_file_modules().items():
        source = (ROOT / path).read_text(encoding="utf-8")
        later = import_time_imports(source, name, path.endswith("__init__.py"), set(modules)) & set(LATER)
        if later:
            found[name] = sorted(later)
    assert not found, f"imported with app.zip's modules, but in app_later.zip: {found}"


# The modules of web/app.zip that import one of web/app_later.zip's (in a function), and why the
# later zip is in by the time that import runs. A new one must say so here (and be right).
WAYS_IN = {
    "web.friends.glue": "a friends table's start (create_table, open_link): only through App.online",
    "web.dom": "App.linker, a device link's: only through App.online",
    "web.render": "a friends table's screens: drawn only for a controller made from the later zip",
    "web.profile.view": "a device link's minutes: shown only for the LinkState web.profile.device_link made",
}
# What opens those ways, called only inside a lambda handed to App.online (web/dom.py, web/input.py).
OPENERS = {"create_table", "open_link", "linker"}


class _NoTypeChecking(ast.NodeTransformer):
    def visit_If(self, node: ast.If) -> ast.AST | None:   # noqa: N802 (the visitor's name)
        return None if "TYPE_CHECKING" in ast.unparse(node.test) else self.generic_visit(node)


def every_import(source: str, name: str, is_package: bool) -> set[str]:
    """Every module a module's source imports, in functions too (not for type checkers only)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(_NoTypeChecking().visit(ast.parse(source))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = ".".join(part for part in (base if node.level else "", node.module or "") if part)
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def test_only_the_known_ways_in_import_a_later_module():
    importers = {}
    for name, path in later_file_modules().items():
        later = every_import((ROOT / path).read_text(encoding="utf-8"), name, path.endswith("__init__.py")) & set(LATER)
        if later:
            importers[name] = sorted(later)
    assert set(importers) == set(WAYS_IN), (f"these modules of app.zip import app_later.zip's: {importers}; "
                                            "open them through web.dom.App.online, and list them in WAYS_IN")


def openers_outside_online(source: str) -> list[int]:
    """The lines where an OPENER is used outside a lambda handed to ``….online(...)``."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def inside_online(node: ast.AST) -> bool:
        while node in parents:
            parent = parents[node]
            if (isinstance(node, ast.Lambda) and isinstance(parent, ast.Call) and node in parent.args
                    and isinstance(parent.func, ast.Attribute) and parent.func.attr == "online"):
                return True
            node = parent
        return False

    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in OPENERS and not inside_online(node)]


@pytest.mark.parametrize("path", ["web/dom.py", "web/input.py"])
def test_the_ways_in_are_opened_only_through_app_online(path):
    assert openers_outside_online((ROOT / path).read_text(encoding="utf-8")) == [], \
        f"{path}: {sorted(OPENERS)} used outside App.online (web/app_later.zip may not be in yet)"


def test_the_opener_check_sees_a_way_in_outside_online():
    assert openers_outside_online("app.online(lambda: app.linker.show())\nself.friends.open_link(room)\n") == [2]
