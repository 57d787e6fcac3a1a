"""scripts/stdlib_modules.py: the standard library modules dist/ ships (scripts/stdlib_modules.txt)
hold every one the game imports, and the trimmed zip holds exactly those, stored uncompressed."""

import ast
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import stdlib_modules  # noqa: E402


@pytest.mark.skipif(not stdlib_modules.SOURCE_ZIP.is_file(), reason="node_modules/pyodide is missing: scripts/setup")
def test_the_shipped_list_holds_every_stdlib_module_the_game_imports():
    listed = stdlib_modules.read_list()
    lacking = stdlib_modules.missing(listed)
    assert not lacking, (f"game/ or web/ imports {lacking}, which dist/ would not ship: add them to "
                         f"{stdlib_modules.STDLIB_LIST.name} (or run scripts/stdlib_modules.py --record)")
    known = stdlib_modules.archive_modules(stdlib_modules.SOURCE_ZIP)
    assert not set(listed) - set(known), "the list names modules Pyodide's standard library lacks"
    assert {"json", "asyncio", "encodings.utf_8", "pyodide.ffi", "random"} <= set(listed)


def test_the_check_sees_a_function_level_import(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "web").mkdir()
    (tmp_path / "game" / "lazy.py").write_text("def later():\n    import difflib\n")
    stdlib = tmp_path / "stdlib.zip"
    with zipfile.ZipFile(stdlib, "w") as zout:
        zout.writestr("difflib.py", "import heapq\nif __name__ == '__main__':\n    import doctest\n")
        zout.writestr("heapq.py", "def f():\n    import doctest\n")
        zout.writestr("doctest.py", "")
    assert stdlib_modules.missing(["difflib"], tmp_path, stdlib) == ["heapq"]
    assert stdlib_modules.missing(["difflib", "heapq"], tmp_path, stdlib) == []


def test_scan_imports_skips_what_does_not_run_at_import_time():
    source = ("import os, sys as system\nfrom . import sibling\nfrom .. import up\nfrom json import (loads,\n"
              "    dumps)\nfrom asyncio.events import *\ndef f():\n    import difflib\n"
              "if sys.platform == 'win32':\n    import _winapi\nimport struct\n"
              "if TYPE_CHECKING:\n    import typing\n")
    found = stdlib_modules.scan_imports(source, "pkg.sub", everywhere=False)
    assert found == {"os", "sys", "pkg.sub", "pkg.sub.sibling", "pkg", "pkg.up", "json", "json.loads",
                     "asyncio", "asyncio.events", "struct"}
    assert {"difflib", "_winapi", "typing"} <= stdlib_modules.scan_imports(source, "pkg.sub", everywhere=True)


def test_trim_keeps_only_the_listed_modules_stored(tmp_path):
    source = tmp_path / "full.zip"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in ("os.pyc", "json/__init__.pyc", "json/decoder.pyc", "email/__init__.pyc", "site-packages/README.txt"):
            zout.writestr(name, b"x" * 100)
    target = tmp_path / "trim.zip"
    assert stdlib_modules.trim(["os", "json", "json.decoder"], target, source)[0] == 3
    with zipfile.ZipFile(target) as zin:
        assert zin.namelist() == ["os.pyc", "json/__init__.pyc", "json/decoder.pyc"]
        assert {info.compress_type for info in zin.infolist()} == {zipfile.ZIP_STORED}
    with pytest.raises(KeyError):
        stdlib_modules.trim(["email.mime"], target, source)


def guarded_imports(source: str, names: tuple[str, ...], built_in: tuple[str, ...] = ()) -> tuple[set[str], set[str]]:
    """(names imported where their absence is caught, names imported anywhere else) among
    `names`, at a module's top level. Caught: inside a `try` whose handlers catch ImportError,
    or in such a handler when everything its `try` imports is in `built_in` (a fallback that
    only runs without a built-in module)."""
    guarded, bare = set(), set()

    def catches_import_error(node: ast.Try) -> bool:
        return any(handler.type is not None and "ImportError" in ast.unparse(handler.type) for handler in node.handlers)

    def imported(statements) -> set[str]:
        found = set()
        for node in ast.walk(ast.Module(body=statements, type_ignores=[])):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                found.add(node.module or "")
        return found

    def visit(node: ast.AST, inside_try: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                targets = ([alias.name for alias in child.names] if isinstance(child, ast.Import)
                           else [child.module or ""] + [f"{child.module}.{alias.name}" for alias in child.names])
                for target in targets:
                    if target in names:
                        (guarded if inside_try else bare).add(target)
            if isinstance(child, ast.Try):
                tried = imported(child.body)
                fallback = catches_import_error(child) and bool(tried) and tried <= set(built_in)
                for statement in child.body:
                    visit(ast.Module(body=[statement], type_ignores=[]), catches_import_error(child) or inside_try)
                for handler in child.handlers:
                    visit(handler, fallback or inside_try)
                for part in child.orelse + child.finalbody:
                    visit(ast.Module(body=[part], type_ignores=[]), inside_try)
                continue
            visit(child, inside_try)

    visit(ast.parse(source), False)
    return guarded, bare


def test_guarded_imports_tells_an_optional_import_from_a_required_one():
    source = ("try:\n    import bz2\nexcept ImportError:\n    bz2 = None\nimport lzma\n"
              "try:\n    from compression import zstd\nexcept (ImportError, AttributeError):\n    pass\n"
              "try:\n    import json\nexcept ValueError:\n    pass\n")
    names = ("bz2", "lzma", "compression.zstd", "json")
    assert guarded_imports(source, names) == ({"bz2", "compression.zstd"}, {"lzma", "json"})
    fallback = ("try:\n    from _abc import get_cache_token\nexcept ImportError:\n    from _py_abc import ABCMeta\n"
                "try:\n    import json\nexcept ImportError:\n    import _pydatetime\n")
    assert guarded_imports(fallback, ("_py_abc", "_pydatetime"), built_in=("_abc",)) == ({"_py_abc"}, {"_pydatetime"})


@pytest.mark.skipif(not stdlib_modules.SOURCE_ZIP.is_file(), reason="node_modules/pyodide is missing: scripts/setup")
def test_the_modules_left_out_are_only_ever_imported_where_their_absence_is_caught():
    """bz2, lzma, compression.*, ssl and the pure-Python twins of built-in modules are left
    out of dist's stdlib: no shipped module may need them, only try them (shutil and zipfile
    try the compressors, asyncio ssl, datetime, abc and threading their twins, all inside
    `except ImportError`); and our own modules import none of them, anywhere."""
    listed = set(stdlib_modules.read_list())
    assert not listed & set(stdlib_modules.LEFT_OUT)
    tops = tuple(name for name in stdlib_modules.LEFT_OUT if "." not in name) + ("compression.zstd",)
    known = stdlib_modules.archive_modules(stdlib_modules.SOURCE_ZIP)
    trying = set()
    with zipfile.ZipFile(stdlib_modules.SOURCE_ZIP) as zin:
        for name in sorted(listed):
            source = zin.read(known[name]).decode("utf-8")
            if not any(top.split(".")[0] in source for top in tops):
                continue
            guarded, bare = guarded_imports(source, tops, stdlib_modules.BUILT_IN)
            assert not bare, f"{name} imports {bare} unguarded: it must stay in the list"
            trying |= {name} if guarded else set()
    assert {"shutil", "zipfile", "asyncio.base_events", "datetime", "abc", "threading"} <= trying
    for name, path in stdlib_modules.our_modules().items():
        ours = stdlib_modules.imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py",
                                         everywhere=True)
        assert not ours & set(stdlib_modules.LEFT_OUT), f"{name} imports {ours & set(stdlib_modules.LEFT_OUT)}"
