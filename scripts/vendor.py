"""Copy the Pyodide and PyScript runtime files from node_modules into web/vendor/.

Only what the page loads is copied: Pyodide's core runtime (about 13 MB) and PyScript's
core module with its plugin modules, which PyScript imports at start for its MicroPython
type too, whatever pyscript.toml says. What the plugins fetch only when a page uses them
(CodeMirror, xterm.js, MicroPython, the zip reader, the package graph), source maps and
typings stay behind. Up-to-date files are not copied again, and files that no longer
belong (an older release's hashed chunks) are removed. Standard library only.

    python scripts/vendor.py
"""

import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "web" / "vendor"

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# PyScript's dist/ chunks carry a content hash (core-C9KDLldu.js), so they are matched by prefix.
PYSCRIPT_PATTERNS = ("core.js", "core.css", "core-*.js", "toml-*.js") + tuple(
    f"{plugin}-*.js" for plugin in ("deprecations-manager", "donkey", "error", "py-editor", "py-game", "py-terminal")
)


def pyscript_files(dist: Path) -> list[Path]:
    """The PyScript dist files the page needs, without source maps."""
    files = {path for pattern in PYSCRIPT_PATTERNS for path in dist.glob(pattern)}
    return sorted(files)


def package_version(package: Path) -> str:
    """The version field of an installed npm package."""
    return json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]


def series(version: str) -> str:
    """The release series of a version: '314.0.7' -> '314.0'."""
    return ".".join(version.split(".")[:2])


def check_versions(pyodide: Path, pyscript_dist: Path) -> None:
    """Fail if PyScript was built for another Pyodide series than the one we vendor.

    PyScript only uses its default Pyodide version to build a CDN address, which our
    pyscript.toml replaces; patch releases of one series share the same JavaScript API.
    """
    ours = package_version(pyodide)
    core = next(pyscript_dist.glob("core-*.js")).read_text(encoding="utf-8")
    found = re.search(r'\(\w+="([0-9.]+)"\)=>`https://[^`]*/pyodide/v\$\{', core)
    if found is None:
        print("vendor.py: warning: cannot find PyScript's default Pyodide version", file=sys.stderr)
    elif series(found.group(1)) != series(ours):
        sys.exit(f"vendor.py: PyScript expects Pyodide {found.group(1)} but package.json pins {ours}")


def sync(sources: list[Path], target: Path) -> int:
    """Make `target` hold exactly copies of `sources`; return how many files were copied."""
    target.mkdir(parents=True, exist_ok=True)
    wanted = {source.name for source in sources}
    for stale in target.iterdir():
        if stale.name not in wanted:
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
    copied = 0
    for source in sources:
        dest = target / source.name
        stat = source.stat()
        if dest.exists() and dest.stat().st_size == stat.st_size and dest.stat().st_mtime_ns == stat.st_mtime_ns:
            continue
        shutil.copy2(source, dest)
        copied += 1
    return copied


def main() -> None:
    """Vendor the runtime files, or exit with a message saying what is missing."""
    pyodide = NODE_MODULES / "pyodide"
    pyscript_dist = NODE_MODULES / "@pyscript" / "core" / "dist"
    if not (pyodide.is_dir() and pyscript_dist.is_dir()):
        sys.exit(f"vendor.py: {NODE_MODULES} lacks pyodide or @pyscript/core: run `npm ci` (scripts/setup does)")
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        sys.exit(f"vendor.py: the pyodide package lacks {', '.join(missing)}")
    core = pyscript_files(pyscript_dist)
    if not any(path.name == "core.js" for path in core):
        sys.exit(f"vendor.py: {pyscript_dist} has no core.js")
    check_versions(pyodide, pyscript_dist)
    copied = sync([pyodide / name for name in PYODIDE_FILES], VENDOR / "pyodide")
    copied += sync(core, VENDOR / "pyscript")
    if copied:
        print(f"vendor.py: copied {copied} file(s) into {VENDOR.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
