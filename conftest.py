"""Doctests run in every module but the browser glue: the modules that import Pyodide's FFI,
themselves or, when they are imported, through another of ours (CPython has no js module)."""

import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
FFI_IMPORT = re.compile(r"^\s*(import|from)\s+(js|pyscript|pyodide)\b", re.MULTILINE)


@cache
def reaching_the_ffi() -> set[str]:
    """Paths of the page's modules that import the FFI at import time, however indirectly: the
    ones scripts/build_dist.py keeps out of memory snapshots, for the same reason."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import app_bundle
    import build_dist

    snapshot = set(build_dist.snapshot_modules(ROOT))
    return {path for path in app_bundle.modules(ROOT)
            if path.removesuffix(".py").removesuffix("/__init__").replace("/", ".") not in snapshot}


def pytest_ignore_collect(collection_path: Path, config):
    if collection_path.name in ("vendor", "node_modules", "dist"):
        return True
    if collection_path.suffix == ".py" and WEB in collection_path.parents:
        return (bool(FFI_IMPORT.search(collection_path.read_text()))
                or collection_path.relative_to(ROOT).as_posix() in reaching_the_ffi())
    return None
