"""Copy the Pyodide and PyScript runtime files from node_modules into web/vendor/.

Only what the page loads is copied: Pyodide's core runtime (about 13 MB) and PyScript's
core module with its plugin modules, which PyScript imports at start for its MicroPython
type too, whatever pyscript.toml says. What the plugins fetch only when a page uses them
(CodeMirror, xterm.js, MicroPython, the zip reader, the package graph), source maps and
typings stay behind. Up-to-date files are not copied again, and files that no longer
belong (an older release's hashed chunks) are removed.

Every compressible file of at least 1 KB (wasm, mjs, js, json, css) also gets a gzip copy
(x.wasm.gz) and, when the `brotli` module is importable (it is in .venv/), a brotli one
(x.wasm.br, quality 9; 11 for the wasm, once, a few minutes: 2.74 MB instead of 3.10 MB),
which serve.py sends to browsers that accept them. A copy carries its source's modification
time (plus the brotli quality above 9, in nanoseconds, so a change of quality redoes it) and
is rewritten when that changes or the file is copied again (npm may give every file the same
time); copies of files that are gone, or no longer compressible, are removed.
Standard library only, brotli optional.

    python scripts/vendor.py
"""

import functools
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import brotli
except ImportError:  # gzip copies only
    brotli = None

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "web" / "vendor"

COMPRESSIBLE = (".wasm", ".mjs", ".js", ".json", ".css")   # not python_stdlib.zip: compressed already
MIN_COMPRESS = 1024
BROTLI_QUALITY = 9
# The wasm is most of a first visit's bytes, the scripts the next largest after the standard
# library: worth brotli's slowest setting (-10% against 9), made once.
BROTLI_QUALITY_BY_SUFFIX = {".wasm": 11, ".mjs": 11, ".js": 11}
PRECOMPRESSED = (".gz", ".br")

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


def sync(sources: list[Path], target: Path, keep: tuple[str, ...] = ()) -> int:
    """Make `target` hold exactly copies of `sources` (and the files named in `keep`);
    return how many files were copied."""
    target.mkdir(parents=True, exist_ok=True)
    wanted = {source.name for source in sources} | set(keep)
    for stale in target.iterdir():
        if stale.name not in wanted and not (stale.suffix in PRECOMPRESSED and stale.is_file()):
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
        for suffix in PRECOMPRESSED:   # made again by compress()
            dest.with_name(dest.name + suffix).unlink(missing_ok=True)
        copied += 1
    return copied


def compressible(path: Path) -> bool:
    """Whether a vendored file gets precompressed copies."""
    return path.suffix in COMPRESSIBLE and path.stat().st_size >= MIN_COMPRESS


def compress(folder: Path) -> int:
    """Bring the .gz and .br copies in `folder` up to date; return how many were written.

    A copy is up to date when its modification time is its source's (set after writing).
    Copies whose source is gone or not compressible are removed, and so is a .br copy that
    is out of date when brotli is missing.
    """
    written = 0
    sources = {path.name: path for path in folder.iterdir()
               if path.is_file() and path.suffix not in PRECOMPRESSED}
    for copy in folder.iterdir():
        if copy.suffix in PRECOMPRESSED:
            source = sources.get(copy.name[: -len(copy.suffix)])
            if source is None or not compressible(source):
                copy.unlink()
    for source in sources.values():
        if not compressible(source):
            continue
        stat = source.stat()
        data = None
        quality = BROTLI_QUALITY_BY_SUFFIX.get(source.suffix, BROTLI_QUALITY)
        for suffix, pack in ((".gz", lambda d: gzip.compress(d, 9, mtime=0)),
                             (".br", brotli and functools.partial(brotli.compress, quality=quality))):
            copy = source.with_name(source.name + suffix)
            mtime_ns = stat.st_mtime_ns + (quality - BROTLI_QUALITY if suffix == ".br" else 0)
            if copy.exists() and copy.stat().st_mtime_ns == mtime_ns:
                continue
            if pack is None:
                copy.unlink(missing_ok=True)
                continue
            data = source.read_bytes() if data is None else data
            partial = copy.with_name(copy.name + ".tmp")
            partial.write_bytes(pack(data))
            os.utime(partial, ns=(stat.st_atime_ns, mtime_ns))
            partial.replace(copy)
            written += 1
    return written


STDLIB = "python_stdlib.zip"
# The standard library's sources made smaller (scripts/precompile_stdlib.mjs), kept beside the
# runtime as an input of scripts/build_dist.py --stdlib py, never served as it is.
MIN_SOURCES = VENDOR / "stdlib" / "python_stdlib.py.zip"
# and its bytecode compiled with the docstrings emptied (scripts/build_dist.py's default input).
MIN_BYTECODE = VENDOR / "stdlib" / "python_stdlib.pyc.zip"
# In the stamp with the source's hash: a change of what precompile_stdlib.mjs writes redoes it.
STAMP_VERSION = "4"


def precompile_stdlib(source: Path, target: Path, min_sources: Path = MIN_SOURCES,
                      min_bytecode: Path = MIN_BYTECODE) -> int:
    """Put the standard library in place compiled to bytecode (scripts/precompile_stdlib.mjs,
    run with the vendored Pyodide under Node): the browser then skips compiling it at every
    start; and its smaller sources at `min_sources`, its bytecode without docstrings at
    `min_bytecode`. Redone only when the source changes; falls back to a plain copy (and
    neither smaller zip) if Node fails."""
    stamp = target.with_name(target.name + ".stamp")
    digest = STAMP_VERSION + ":" + hashlib.sha256(source.read_bytes()).hexdigest()
    if (target.exists() and min_sources.exists() and min_bytecode.exists() and stamp.exists()
            and stamp.read_text() == digest):
        return 0
    script = ROOT / "scripts" / "precompile_stdlib.mjs"
    min_sources.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(["node", str(script), str(source), str(target), str(min_sources), str(min_bytecode)],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"vendor.py: could not precompile the standard library ({result.stderr.strip()[-300:]});"
              " copying it as source", file=sys.stderr)
        shutil.copy2(source, target)
        min_sources.unlink(missing_ok=True)
        min_bytecode.unlink(missing_ok=True)
        stamp.unlink(missing_ok=True)
        return 1
    stamp.write_text(digest)
    return 1


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
    copied = sync([pyodide / name for name in PYODIDE_FILES if name != STDLIB], VENDOR / "pyodide",
                  keep=(STDLIB, STDLIB + ".stamp"))
    copied += precompile_stdlib(pyodide / STDLIB, VENDOR / "pyodide" / STDLIB)
    copied += sync(core, VENDOR / "pyscript")
    if copied:
        print(f"vendor.py: copied {copied} file(s) into {VENDOR.relative_to(ROOT)}/")
    compressed = compress(VENDOR / "pyodide") + compress(VENDOR / "pyscript")
    if compressed:
        kinds = ".gz and .br" if brotli else ".gz (no brotli module: no .br)"
        print(f"vendor.py: wrote {compressed} precompressed {kinds} file(s)")


if __name__ == "__main__":
    main()
