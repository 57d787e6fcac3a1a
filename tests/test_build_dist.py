"""scripts/build_dist.py ships our modules as one precompiled zip (scripts/app_bundle.py) that
matches the sources, carries the vendored Pyodide's magic number, and is never stale."""

import _imp
import gzip
import importlib.util
import json
import marshal
import re
import shutil
import sys
import tomllib
import zipfile
from pathlib import Path

import brotli
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import app_bundle  # noqa: E402
import build_dist  # noqa: E402
import play_dist  # noqa: E402

from web import lazy  # noqa: E402


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """dist/ built into a temporary folder (runs the vendored Pyodide under Node)."""
    out = tmp_path_factory.mktemp("build") / "dist"
    build_dist.build(out)
    return out


def copy_sources(target: Path) -> Path:
    """A copy of pyscript.toml and the modules it lists, as a root for app_bundle."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "pyscript.toml", target / "pyscript.toml")
    for name in app_bundle.modules(ROOT):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    return target


def test_dist_ships_the_bundle_instead_of_the_sources(dist):
    bundle = dist / app_bundle.SITE_PATH
    assert bundle.is_file() and (dist / (app_bundle.SITE_PATH + ".gz")).is_file()
    shipped = {path.relative_to(dist).as_posix() for path in dist.rglob("*.py")}
    assert shipped == {"web/main.py"}
    page = (dist / "index.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r"<script type=\"py\" src=\"./web/main.py\" config='(.*?)'>", page)[1])
    assert "files" not in config   # web/snapshot.mjs writes the bundle
    assert f'path: "{app_bundle.BROWSER_PATH}"' in (dist / "web" / "snapshot.mjs").read_text(encoding="utf-8")
    assert config["interpreter"] == "./web/snapshot.mjs"
    assert not (dist / "pyscript.toml").exists()   # the config is in the page
    assert f'"./{app_bundle.SITE_PATH}"' in (dist / "sw.js").read_text(encoding="utf-8")
    assert f'href="./{app_bundle.SITE_PATH}"' not in page   # fetched once the wasm is in, not preloaded
    assert "app_later" not in page


def test_the_later_zip_is_where_the_page_looks_and_cached_on_use_only(dist):
    """web/app_later.zip (web.lazy.LATER): not downloaded by the service worker at install, kept
    when first fetched, at the address web/main.py fetches and under the name web.lazy reads."""
    assert app_bundle.LATER_SITE_PATH not in precached(dist)
    assert app_bundle.LATER_SITE_PATH in build_dist.LATER_ON_USE
    worker = (dist / "sw.js").read_text(encoding="utf-8")
    on_use = json.loads(re.search(r"const ON_USE = (\[.*?\])\.map", worker)[1])
    assert f"./{app_bundle.LATER_SITE_PATH}" in on_use
    assert f'window.fetch(f"./{app_bundle.LATER_SITE_PATH}{{again}}")' in (ROOT / "web" / "main.py").read_text(encoding="utf-8")
    wrapper = (dist / "web" / "snapshot.mjs").read_text(encoding="utf-8")
    assert f'new URL("./{Path(app_bundle.LATER_SITE_PATH).name}", import.meta.url).href, path: "{lazy.ARCHIVE}"' in wrapper
    assert (dist / (app_bundle.LATER_SITE_PATH + ".br")).is_file()


def test_dist_starts_every_download_from_the_page_head(dist):
    page = (dist / "index.html").read_text(encoding="utf-8")
    head = page[:page.index("</head>")]
    preloaded = re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', head)
    core = [path.relative_to(dist).as_posix() for path in (dist / "web/vendor/pyscript").glob("core-*.js")]
    assert set(preloaded) == {*core, "web/snapshot.mjs", "web/vendor/pyodide/pyodide.mjs",
                              "web/vendor/pyodide/pyodide.asm.mjs", "web/vendor/pyodide/pyodide.asm.wasm",
                              "web/vendor/pyodide/python_stdlib.zip",
                              "web/vendor/pyodide/pyodide-lock.json", "web/main.py"}
    assert all((dist / path).is_file() for path in preloaded)


def pyscript_sources(core: Path) -> dict[str, str]:
    """The sources core-*.js writes at start ({"context.py": ...}): its {pyscript:{...}} object,
    whose strings are JSON strings."""
    text = core.read_text(encoding="utf-8")
    start = at = text.index("{pyscript:{")
    depth = 0
    while True:
        if text[at] == '"':
            at += 1
            while text[at] != '"':
                at += 2 if text[at] == "\\" else 1
        elif text[at] in "{}":
            depth += 1 if text[at] == "{" else -1
            if depth == 0:
                break
        at += 1
    return json.loads('{"pyscript":' + text[start + len("{pyscript:"):at + 1])["pyscript"]


def test_pyscript_modules_ship_as_checked_bytecode_of_the_vendored_sources(dist):
    """web/pyscript.zip: a checked-hash pyc, where CPython looks for it, of each module that
    `import pyscript` runs, compiled by the vendored Pyodide from the very source PyScript writes."""
    bytecode = dist / build_dist.PYSCRIPT_BYTECODE
    sources = pyscript_sources(next((ROOT / "web/vendor/pyscript").glob("core-*.js")))
    magic = app_bundle.magic_of(app_bundle.STDLIB)
    with zipfile.ZipFile(bytecode) as zin:
        members = {info.filename: info for info in zin.infolist()}
        found = [re.fullmatch(r"pyscript/__pycache__/(\w+)\.(cpython-3\d+)\.pyc", name) for name in members]
        assert all(found) and len({match[2] for match in found}) == 1, sorted(members)
        modules = {match[1] for match in found}
        assert {"__init__", "context", "display", "ffi", "util"} <= modules
        assert not {"web", "fs", "media"} & modules   # never imported by the game
        for name, info in members.items():
            header = zin.read(name)[:16]
            assert header[:4] == magic and int.from_bytes(header[4:8], "little") == 3   # hash-based, checked
            source = sources[name.split("/")[-1].split(".")[0] + ".py"].encode("utf-8")
            assert _imp.source_hash(int.from_bytes(magic, "little"), source) == header[8:16], name
            assert info.flag_bits & 0x800   # a UTF-8 name: no cp437 codec needed to read it
    assert build_dist.PYSCRIPT_BYTECODE in precached(dist)


def test_dist_lock_has_no_packages_and_its_compressed_copies_match(dist):
    lock_path = dist / "web/vendor/pyodide/pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    vendored = json.loads((ROOT / "web/vendor/pyodide/pyodide-lock.json").read_text(encoding="utf-8"))
    assert lock == {"info": vendored["info"], "packages": {}}
    # No stale copy of the vendored lock is left beside it (it is too small to be compressed now).
    for copy, unpack in ((".gz", gzip.decompress), (".br", brotli.decompress)):
        packed = lock_path.with_name(lock_path.name + copy)
        assert not packed.exists() or unpack(packed.read_bytes()) == lock_path.read_bytes()
    stdlib = dist / "web/vendor/pyodide/python_stdlib.zip"
    assert brotli.decompress(stdlib.with_name(stdlib.name + ".br").read_bytes()) == stdlib.read_bytes()


def test_bundle_holds_every_module_compiled_from_the_current_sources(dist):
    bundle, later = dist / app_bundle.SITE_PATH, dist / app_bundle.LATER_SITE_PATH
    assert app_bundle.check(bundle, later=later) == []
    with zipfile.ZipFile(bundle) as zin, zipfile.ZipFile(later) as zlater:
        names, later_names = set(zin.namelist()), set(zlater.namelist())
    modules, moved = app_bundle.modules(), app_bundle.later_modules()
    assert "game/engine.py" in modules and "web/dom.py" in modules and "web/main.py" not in modules
    assert "web/friends/host.py" in moved and "web/friends/glue.py" not in moved
    assert {name + "c" for name in modules if name not in moved} <= names
    assert later_names == {name + "c" for name in moved} | {app_bundle.DATACLASS_METHODS, app_bundle.STAMP}
    # Both name the same build (web.lazy refuses a later zip of another), and nothing else does.
    assert app_bundle.stamp_of(bundle) == app_bundle.stamp_of(later) is not None and lazy.STAMP == app_bundle.STAMP
    # Each zip has its own dataclasses' methods: the later one only those the first lacks.
    with zipfile.ZipFile(bundle) as zin, zipfile.ZipFile(later) as zlater:
        first, second = (marshal.loads(z.read(app_bundle.DATACLASS_METHODS)) for z in (zin, zlater))
    assert first and second and not set(first) & set(second)
    # Checked apart, each misses the other's modules.
    assert any("web/friends/host.py: missing" in problem for problem in app_bundle.check(bundle))


def test_bundle_carries_the_vendored_pyodides_magic_number(dist):
    magic = app_bundle.magic_of(dist / app_bundle.SITE_PATH)
    assert magic is not None and magic[2:] == b"\r\n"
    assert magic == app_bundle.magic_of(app_bundle.STDLIB)   # precompiled by the same Pyodide
    if sys.version_info[:2] != (3, 14):
        assert magic != importlib.util.MAGIC_NUMBER           # not by the host's Python


def test_check_reports_a_stale_missing_or_foreign_module(dist, tmp_path):
    root = copy_sources(tmp_path / "src")
    bundle, later = dist / app_bundle.SITE_PATH, dist / app_bundle.LATER_SITE_PATH
    assert app_bundle.check(bundle, root, later=later) == []
    engine, host = root / "game" / "engine.py", root / "web" / "friends" / "host.py"
    for module in (engine, host):
        module.write_text(module.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    problems = app_bundle.check(bundle, root, later=later)
    assert any("game/engine.pyc" in problem and "stale" in problem for problem in problems), problems
    assert any(problem.startswith("app_later.zip: web/friends/host.pyc") and "stale" in problem for problem in problems)
    (root / "game" / "extra.py").write_text("X = 1\n", encoding="utf-8")
    config = (root / "pyscript.toml").read_text(encoding="utf-8")
    (root / "pyscript.toml").write_text(config + '"./game/extra.py" = "./game/extra.py"\n', encoding="utf-8")
    assert "game/extra.py: missing from the bundle" in app_bundle.check(bundle, root)
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(bundle) as zin, zipfile.ZipFile(foreign, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, importlib.util.MAGIC_NUMBER + data[4:] if info.filename.endswith(".pyc") else data)
    if sys.version_info[:2] != (3, 14):
        assert any("magic number" in problem for problem in app_bundle.check(foreign))


def test_a_module_with_a_syntax_error_is_bundled_as_source(tmp_path):
    root = tmp_path / "src"
    (root / "game").mkdir(parents=True)
    (root / "pyscript.toml").write_text('[files]\n"./game/__init__.py" = "./game/__init__.py"\n'
                                        '"./game/bad.py" = "./game/bad.py"\n', encoding="utf-8")
    (root / "game" / "__init__.py").write_text('"""A package."""\n', encoding="utf-8")
    (root / "game" / "bad.py").write_text("def broken(:\n", encoding="utf-8")
    bundle = tmp_path / "app.zip"
    assert app_bundle.build(bundle, root) == ["game/__init__.py", "game/bad.py"]
    with zipfile.ZipFile(bundle) as zin:
        assert sorted(zin.namelist()) == ["dataclass_methods.marshal", "game/__init__.pyc", "game/bad.py"]
        assert zin.read("game/bad.py") == b"def broken(:\n"


def test_dist_config_wraps_the_interpreter_and_replaces_the_files():
    config = build_dist.dist_config()
    assert "files" not in config
    assert config["interpreter"] == "./web/snapshot.mjs"
    assert "!py-editor" in config["plugins"] and "!py-terminal" in config["plugins"]
    assert "!error" not in config["plugins"]   # Python errors still show on the page
    # The wrapper loads the repository's interpreter, from the folder it names.
    repository = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["interpreter"]
    assert repository == "./web/vendor/pyodide/pyodide.mjs"
    assert 'from "./vendor/pyodide/pyodide.mjs"' in (ROOT / "web" / "snapshot.mjs").read_text(encoding="utf-8")


def test_snapshot_wrapper_names_the_build_and_the_pure_modules(dist):
    wrapper = (dist / "web" / "snapshot.mjs").read_text(encoding="utf-8")
    version = re.search(r'const CACHE = "cribbage-([0-9a-f]{12})"', (dist / "sw.js").read_text(encoding="utf-8"))[1]
    assert f'const BUILD = "{version}";' in wrapper
    modules = json.loads(re.search(r"const MODULES = (\[.*?\]);", wrapper)[1])
    assert modules == build_dist.snapshot_modules()
    assert "const SNAPSHOTS = true;" in wrapper
    assert (dist / "web" / "snapshot_worker.mjs").is_file()
    assert '"./web/snapshot.mjs"' in (dist / "sw.js").read_text(encoding="utf-8")


def test_a_dist_built_without_snapshots_never_makes_one(tmp_path):
    """--no-snapshot (the browser tests' site): the wrapper's switch is off, and `usable()`,
    which every making and loading of a snapshot asks first, reads it first."""
    (tmp_path / "web").mkdir()
    shutil.copy2(ROOT / build_dist.SNAPSHOT_WRAPPER, tmp_path / build_dist.SNAPSHOT_WRAPPER)
    build_dist.write_snapshot_wrapper(tmp_path, "0123456789ab", ["game"], snapshots=False)
    wrapper = (tmp_path / build_dist.SNAPSHOT_WRAPPER).read_text(encoding="utf-8")
    assert "const SNAPSHOTS = false;" in wrapper and "__SNAPSHOTS__" not in wrapper
    assert re.search(r"function usable\(\) \{\s*return SNAPSHOTS && ", wrapper)


def test_snapshot_leaves_out_every_module_that_reaches_js():
    modules = build_dist.snapshot_modules()
    assert {"game", "game.engine", "game.bots.levels", "web", "web.render", "web.controller"} <= set(modules)
    # nor those of web/app_later.zip, which the snapshot's worker does not have (pure as some are)
    assert "web.friends.protocol" not in modules and "web.friends.verdicts" not in modules
    # web.dom and web.net.transport import js; web.friends.glue imports both.
    assert not {"web.dom", "web.net.transport", "web.friends.glue"} & set(modules)


def test_import_time_imports_skip_function_bodies_and_resolve_relative_imports():
    source = ("import json\nfrom . import render\nfrom .clock import now\nfrom game.errors import ParseError\n"
              "try:\n    import js\nexcept ImportError:\n    pass\n"
              "def later():\n    import pyodide\n")
    found = build_dist.import_time_imports(source, "web.dom", False, {"web.render", "web.clock"})
    assert found == {"json", "web", "web.render", "web.clock", "game.errors", "js"}
    assert build_dist.import_time_imports("from .cards import Card\n", "game", True, set()) == {"game.cards"}


def test_play_notices_an_edited_module(tmp_path):
    root = copy_sources(tmp_path / "src")
    (root / "index.html").write_text("<!doctype html>", encoding="utf-8")
    before = play_dist.fingerprint(root)
    assert ("game/engine.py", (root / "game/engine.py").stat().st_mtime_ns,
            (root / "game/engine.py").stat().st_size) in before
    engine = root / "game" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert play_dist.fingerprint(root) != before


def test_dist_ships_only_the_listed_stdlib_modules_stored(dist):
    import stdlib_modules
    shipped = dist / build_dist.STDLIB_PATH
    after_start = dist / build_dist.STDLIB_AFTER_START_PATH
    listed = stdlib_modules.read_list()
    assert sorted(stdlib_modules.archive_modules(after_start)) == sorted(stdlib_modules.AFTER_START)
    assert sorted(stdlib_modules.archive_modules(shipped)) == sorted(set(listed) - set(stdlib_modules.AFTER_START))
    for archive in (shipped, after_start):
        with zipfile.ZipFile(archive) as zin:
            assert {info.compress_type for info in zin.infolist()} == {zipfile.ZIP_STORED}
            assert all(name.endswith(".pyc") for name in zin.namelist())   # the default: bytecode
    assert (dist / (build_dist.STDLIB_PATH + ".br")).stat().st_size < 650_000   # no column tables: 632 KB
    assert (dist / (build_dist.STDLIB_AFTER_START_PATH + ".br")).stat().st_size < 50_000   # 39 KB


def precached(dist: Path) -> list[str]:
    """The files sw.js downloads at install, relative to dist/ ("./" is index.html)."""
    text = (dist / "sw.js").read_text(encoding="utf-8")
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", text, re.S)[1])
    return ["index.html" if url == "./" else url.removeprefix("./") for url in files]


def test_the_service_worker_downloads_each_needed_file_once(dist):
    files = precached(dist)
    assert len(files) == len(set(files)) and "index.html" in files
    assert {"web/app.zip", build_dist.STDLIB_PATH, build_dist.STDLIB_AFTER_START_PATH,
            "web/vendor/pyodide/pyodide.asm.wasm", "web/main.py"} <= set(files)
    assert all((dist / name).is_file() for name in files)
    assert not set(build_dist.CACHED_ON_USE) & set(files)   # the icons: cached when fetched
    assert all((dist / name).is_file() for name in build_dist.CACHED_ON_USE)
    # PyScript's chunks the page never imports are not even in dist/ (a 404 would show in
    # tests/e2e/test_dist.py, which plays a game on it).
    chunks = {path.stem.rpartition("-")[0] for path in (dist / "web/vendor/pyscript").glob("*-*.js")}
    assert chunks == {"core", "error"}


def test_a_first_visit_fits_in_four_megabytes(dist):
    """What a first visit downloads, as the smallest copy a server offers (bench/load_time.py
    measures it in the browser, with the headers: about 35 KB more)."""
    def smallest(path: Path) -> int:
        copies = [path] + [path.with_name(path.name + ext) for ext in (".br", ".gz")]
        return min(copy.stat().st_size for copy in copies if copy.exists())

    total = sum(smallest(dist / name) for name in precached(dist))
    # 3,880,529 bytes once web/app_later.zip (tables with friends, linking a device) left it.
    assert total < 3_900_000, f"{total / 1e6:.2f} MB"
    # brotli at its best quality for everything but the largest files
    app = dist / app_bundle.SITE_PATH
    assert (dist / (app_bundle.SITE_PATH + ".br")).read_bytes() == brotli.compress(app.read_bytes(), quality=11)
