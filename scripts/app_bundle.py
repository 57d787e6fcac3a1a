"""Our Python modules (game/, web/) as one zip of bytecode for the built site, and its check.

    python scripts/app_bundle.py OUT.zip [LATER.zip]            # build it (needs node_modules: scripts/setup)
    python scripts/app_bundle.py --check OUT.zip [LATER.zip]    # exit 1 unless it matches the sources

The repository's index.html loads the modules as sources through pyscript.toml's [files]
table (about 35 fetches, each compiled in the browser at every start). scripts/build_dist.py
ships them instead as one zip of .pyc files that web/main.py puts on sys.path (zipimport),
compiled once here by the vendored Pyodide under Node (scripts/precompile_app.mjs), so the
bytecode carries exactly that CPython's magic number; never by the host's Python. Given a
second zip (LATER.zip: web/app_later.zip), the modules of web.lazy.LATER go there instead,
which a first visit does not download (web/lazy.py says when the page fetches it).

Each .pyc is an unchecked-hash pyc (PEP 552): the browser imports it without looking for a
source, and its header keeps the hash of the source it was compiled from. `check` recomputes
that hash from the files in the repository (the host's `_imp.source_hash`, keyed with the
bundle's own magic number, computes the same SipHash as Pyodide's CPython), so a bundle that
lags behind an edited module is caught, as is one missing a module or compiled by another
Python than the vendored one. Standard library only; runs on the host's Python 3.11+.
"""

import _imp
import argparse
import ast
import hashlib
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "precompile_app.mjs"
STDLIB = ROOT / "web" / "vendor" / "pyodide" / "python_stdlib.zip"
# Where the page finds the bundle (relative to the site) and where web/snapshot.mjs writes it
# in the browser's file system (relative to Python's working directory): see web/main.py.
SITE_PATH = "web/app.zip"
BROWSER_PATH = "app.zip"
LATER_SITE_PATH = "web/app_later.zip"   # web.lazy.LATER's modules (the page keeps it as web.lazy.ARCHIVE)
# The member holding our dataclasses' methods, compiled (web/dataclass_methods.py's MEMBER).
DATACLASS_METHODS = "dataclass_methods.marshal"
# The member naming the build of a pair of zips, the same in both (web/lazy.py's STAMP): the page
# refuses a later zip of another build (a new version deployed while an old page stays open).
STAMP = "bundle.stamp"


class BundleError(Exception):
    """The bundle could not be built."""


def modules(root: Path = ROOT) -> list[str]:
    """The Python files the browser needs, relative to root: the .py keys of the [files]
    table that scripts/gen_files.py keeps in pyscript.toml."""
    config = tomllib.loads((root / "pyscript.toml").read_text(encoding="utf-8"))
    return sorted(source.removeprefix("./") for source in config["files"] if source.endswith(".py"))


def later_modules(root: Path = ROOT) -> list[str]:
    """The files of `modules(root)` that go into the later zip: web/lazy.py's LATER (read from
    its source: this script imports nothing of the page)."""
    lazy = root / "web" / "lazy.py"
    if not lazy.is_file():
        return []
    names: list[str] = []
    for node in ast.parse(lazy.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [ast.unparse(name) for name in node.targets] == ["LATER"]:
            names = list(ast.literal_eval(node.value))
    files = set(modules(root))
    found = [next((path for path in (f"{base}.py", f"{base}/__init__.py") if path in files), "")
             for base in (name.replace(".", "/") for name in names)]
    if "" in found:
        raise BundleError(f"web.lazy.LATER names modules pyscript.toml lacks: {[n for n, f in zip(names, found) if not f]}")
    return sorted(found)


def build(target: Path, root: Path = ROOT, sources: bool = False, bytecode: bool = True,
          later: Path | None = None) -> list[str]:
    """Write the bundle of `modules(root)` to target (those of `later_modules` to `later`, when
    given); return the module files they hold.
    With `sources`, the .py files go in too (tracebacks then show source lines); without
    `bytecode`, only they do (the browser then compiles them)."""
    files = modules(root)
    moved = later_modules(root) if later is not None else []
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        raise BundleError("node_modules/pyodide is missing: run scripts/setup")
    flags = ["--sources-only"] if not bytecode else ["--sources"] if sources else []
    command = ["node", str(SCRIPT), str(root), str(target)] + flags + [name for name in files if name not in moved]
    if later is not None:
        command += ["--later", str(later)] + moved
    try:
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    except FileNotFoundError as error:
        raise BundleError("node is missing: install Node.js 20 or newer") from error
    if result.returncode != 0 or not target.is_file() or (later is not None and not later.is_file()):
        raise BundleError(f"precompile_app.mjs failed: {result.stderr.strip()[-600:]}")
    if later is not None:
        stamp = hashlib.sha256(target.read_bytes() + later.read_bytes()).hexdigest()[:16].encode()
        for archive in (target, later):
            with zipfile.ZipFile(archive, "a", zipfile.ZIP_STORED) as zout:
                zout.writestr(zipfile.ZipInfo(STAMP, (2000, 1, 1, 0, 0, 0)), stamp)
    return files


def magic_of(archive: Path) -> bytes | None:
    """The magic number of the first .pyc in a zip (None if it holds none)."""
    with zipfile.ZipFile(archive) as zin:
        for name in zin.namelist():
            if name.endswith(".pyc"):
                with zin.open(name) as stream:
                    return stream.read(4)
    return None


def check(bundle: Path, root: Path = ROOT, stdlib: Path | None = STDLIB, later: Path | None = None) -> list[str]:
    """What is wrong with a bundle next to the sources in root (empty: nothing).

    Every module must be there as an unchecked-hash .pyc of the current source, with the
    magic number of the vendored standard library's .pyc files (when `stdlib` holds any:
    scripts/vendor.py precompiles it with the same Pyodide), and nothing else may be. With
    `later`, the modules of `later_modules` must be in that zip instead, and only they.
    """
    moved = set(later_modules(root)) if later is not None else set()
    expected_magic = magic_of(stdlib) if stdlib is not None and stdlib.is_file() else None
    problems = []
    for archive, wanted in ((bundle, [name for name in modules(root) if name not in moved]),
                            *(((later, sorted(moved)),) if later is not None else ())):
        problems += [f"{archive.name}: {problem}" if archive != bundle else problem
                     for problem in check_zip(archive, wanted, root, expected_magic)]
    if later is not None and stamp_of(bundle) != stamp_of(later):
        problems.append(f"{later.name}: made with another {bundle.name} ({STAMP} differs)")
    return problems


def stamp_of(archive: Path) -> bytes | None:
    """The zip's STAMP (None if it has none)."""
    with zipfile.ZipFile(archive) as zin:
        return zin.read(STAMP) if STAMP in zin.namelist() else None


def check_zip(archive: Path, wanted: list[str], root: Path, expected_magic: bytes | None) -> list[str]:
    """What is wrong with one zip that should hold the modules `wanted` (see check)."""
    problems = []
    with zipfile.ZipFile(archive) as zin:
        names = set(zin.namelist())
        extra = names - {name + "c" for name in wanted} - set(wanted) - {DATACLASS_METHODS, STAMP}
        problems += [f"{name}: not one of pyscript.toml's modules" for name in sorted(extra)]
        for name in wanted:
            if name + "c" not in names:
                problems.append(f"{name}: missing from the bundle")
                continue
            header = zin.read(name + "c")[:16]
            magic, flags, stored = header[:4], int.from_bytes(header[4:8], "little"), header[8:16]
            if expected_magic is not None and magic != expected_magic:
                problems.append(f"{name}c: magic number {magic.hex()}, the vendored Pyodide's is {expected_magic.hex()}")
            if flags != 1:
                problems.append(f"{name}c: not an unchecked-hash pyc (flags {flags})")
            source = (root / name).read_bytes()
            if _imp.source_hash(int.from_bytes(magic, "little"), source) != stored:
                problems.append(f"{name}c: compiled from another version of {name} (stale bundle)")
            if name in names and zin.read(name) != source:
                problems.append(f"{name}: the copy in the bundle differs from the source")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Build or check a bundle; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("later", type=Path, nargs="?", help="the zip of web.lazy.LATER's modules")
    parser.add_argument("--check", action="store_true", help="only check the bundle against the sources")
    parser.add_argument("--sources", action="store_true", help="also put the .py sources in the zip")
    args = parser.parse_args(argv)
    if args.check:
        problems = check(args.bundle, later=args.later)
        for problem in problems:
            print(f"app_bundle.py: {problem}", file=sys.stderr)
        return 1 if problems else 0
    try:
        files = build(args.bundle.resolve(), sources=args.sources, later=args.later and args.later.resolve())
    except BundleError as error:
        print(f"app_bundle.py: {error}", file=sys.stderr)
        return 1
    sizes = " + ".join(f"{path.stat().st_size / 1e3:.0f} KB in {path}" for path in (args.bundle, args.later) if path)
    print(f"app_bundle.py: {len(files)} modules, {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
