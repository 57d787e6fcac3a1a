"""Doctests run in every module but the browser glue, which imports Pyodide's FFI."""

import re
from pathlib import Path

FFI_IMPORT = re.compile(r"^\s*(import|from)\s+(js|pyscript|pyodide)\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config):
    if collection_path.name in ("vendor", "node_modules", "dist"):
        return True
    if collection_path.suffix == ".py" and "web" in collection_path.parent.parts:
        return bool(FFI_IMPORT.search(collection_path.read_text()))
    return None
