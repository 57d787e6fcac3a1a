"""The import rules of ARCHITECTURE.md, read from every module's source."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FFI = {"js", "pyscript", "pyodide"}
# The only browser-glue modules allowed to touch the FFI, by their path under web/.
FFI_MODULES = {"dom.py", "input.py", "sound.py", "storage.py", "friends/glue.py", "net/browser.py", "net/rtc.py",
               "net/relay_socket.py", "net/host_net.py", "net/guest_net.py", "net/keystore.py", "net/relay_path.py",
               "main.py"}
STDLIB = set(sys.stdlib_module_names)


def imports(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports (relative imports count as local)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else node.module.split(".")[0])
    return names


def sources(folder: str):
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "vendor" not in p.parts)


@pytest.mark.parametrize("path", sources("game"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_uses_only_the_standard_library(path):
    outside = imports(path) - STDLIB - {".", "game"}
    assert not outside, f"{path.name} imports {outside}: game/ is standard library only"


@pytest.mark.parametrize("path", sources("web"), ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_named_glue_modules_touch_the_browser(path):
    found = imports(path)
    if path.relative_to(ROOT / "web").as_posix() not in FFI_MODULES:
        assert not found & FFI, f"{path.name} imports {found & FFI}; only {FFI_MODULES} may"
    assert not found - STDLIB - FFI - {".", "game", "web"}, "no third-party Python in the browser"


RELAY_MODULES = [ROOT / "serve.py", *sources("relay")]   # the server and the relay package


@pytest.mark.parametrize("module", RELAY_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_relay_imports_neither_the_engine_nor_the_browser_layer(module):
    assert not imports(module) & ({"game", "web"} | FFI)


@pytest.mark.parametrize("module", RELAY_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_relay_imports_only_itself_and_its_packages(module):
    allowed = STDLIB | {"websockets", "redis", "relay", "."}
    assert imports(module) <= allowed, f"{module.name} imports {imports(module) - allowed}"


def test_this_checker_sees_imports():
    sample = ROOT / "game" / "view.py"
    assert {".", "dataclasses"} <= imports(sample)


# The floors of web/, lowest first: a module imports only from its own floor's package or below
# (ARCHITECTURE.md), so nothing runs back up. A name is a module or a package under web/.
WEB_FLOORS = [
    {"session", "clock", "tasks", "slices", "lazy", "early", "dataclass_methods", "storage", "sound", "shelf"},
    {"table"},
    {"coach"},
    {"net"},
    {"profile"},
    {"seat", "controller", "passplay"},
    {"friends"},
    {"render", "keeper", "scheduler", "input"},
    {"dom"},
    {"main"},
]


def floor_of(name: str) -> int:
    return next(n for n, floor in enumerate(WEB_FLOORS) if name in floor)


def web_imports(path: Path) -> set[str]:
    """The top-level web/ names (``table``, ``seat``...) that ``path`` imports, however written."""
    package = path.relative_to(ROOT / "web").parts[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(package)[: len(package) - (node.level - 1)]
            parts = base + (node.module.split(".") if node.module else [alias.name for alias in node.names][:1])
            if parts:
                names.add(parts[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("web."):
            names.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            names |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("web.")}
    return names


@pytest.mark.parametrize("path", sources("web"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up_in_web(path):
    own = path.relative_to(ROOT / "web").parts[0].removesuffix(".py")
    above = {name for name in web_imports(path) - {own} if floor_of(name) > floor_of(own)}
    assert not above, f"{path.relative_to(ROOT)} imports {above}, a floor above its own ({own})"


def test_every_web_module_has_a_floor():
    names = {path.relative_to(ROOT / "web").parts[0].removesuffix(".py") for path in sources("web")}
    assert names - {"__init__"} <= set().union(*WEB_FLOORS), names - set().union(*WEB_FLOORS)
