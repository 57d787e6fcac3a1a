"""scripts/stdlib_modules.py: the standard library modules dist/ ships (scripts/stdlib_modules.txt)
hold every one the game imports, and the trimmed zip holds exactly those, stored uncompressed."""

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
