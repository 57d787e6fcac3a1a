"""The part of Pyodide's standard library the game imports, and the trimmed zip that ships it.

    .venv/bin/python scripts/stdlib_modules.py --record [PYTEST ARGS]   # rewrite the list
    .venv/bin/python scripts/stdlib_modules.py --check                   # exit 1 if it lacks one
    .venv/bin/python scripts/stdlib_modules.py --trim OUT.zip            # write the shipped zip

Pyodide's python_stdlib.zip (4.4 MB precompiled, its members deflated one by one) is the
largest download of a first visit after the wasm, and the game imports about a quarter of it.
scripts/build_dist.py ships instead a zip of only the modules in STDLIB_LIST (this folder's
stdlib_modules.txt), its members stored uncompressed so that the site's .br/.gz copy of the
archive compresses across members: about 1.1 MB brotli of bytecode instead of 4.4 MB.

The list is recorded, not guessed: --record runs the browser tests (tests/e2e, on the
repository's page, which loads the whole standard library) with $CRIBBAGE_RECORD_IMPORTS set,
so each test's page appends its sys.modules at the end (tests/e2e/harness.record_imports);
every recorded name that is a module of the vendored standard library goes in the list, with
what `closure` adds. A module the game reaches only on a path no browser test takes would be
missing in dist/: tests/test_stdlib_modules.py fails when any stdlib module that game/ or web/
imports (anywhere in a file, function bodies too), or one those import when imported, is not
in the list. Then record again, or add the name by hand.
"""

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STDLIB_LIST = ROOT / "scripts" / "stdlib_modules.txt"
# The standard library as Pyodide ships it (.py sources), and as scripts/vendor.py vendors it
# (precompiled to .pyc by scripts/precompile_stdlib.mjs): the list is read against the first,
# the shipped zip is cut from the second.
SOURCE_ZIP = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
VENDORED_ZIP = ROOT / "web" / "vendor" / "pyodide" / "python_stdlib.zip"
# Its sources with docstrings emptied and comments gone, and its bytecode compiled with the
# docstrings emptied (scripts/vendor.py makes them too).
MIN_SOURCES = ROOT / "web" / "vendor" / "stdlib" / "python_stdlib.py.zip"
MIN_BYTECODE = ROOT / "web" / "vendor" / "stdlib" / "python_stdlib.pyc.zip"
PACKAGES = ("game", "web")
# Our modules that never run in the browser (scripts/gen_files.py leaves them out too).
SKIPPED = ("web/vendor/", "game/arena.py", "game/bots/make_crib_table.py",
           "game/bots/make_win_table.py", "game/bots/make_peg_table.py", "game/bots/proto.py")
# Modules the runtime imports only when they are there, each inside `try: ... except
# ImportError` that carries on without it (tests/test_stdlib_modules.py checks every shipped
# module's source for that). Left out of the list (--record and `closure` drop them), they cost
# neither bytes nor import time at start:
# - shutil and zipfile (which Pyodide imports at start) try bz2, lzma and compression.zstd, for
#   archive formats the game never reads (9 KB brotli);
# - asyncio tries ssl (and ssl needs _ssl), for TLS sockets, which a page never opens (16 KB);
# - datetime, abc and threading fall back to _pydatetime, _py_abc and _threading_local, the
#   pure-Python twins of modules Pyodide builds in (_datetime, _abc, _thread._local): never
#   taken in the browser (28 KB).
LEFT_OUT = ("bz2", "lzma", "compression", "compression._common", "compression._common._streams",
            "compression.zstd", "compression.zstd._zstdfile", "ssl", "_ssl", "_pydatetime", "_py_abc",
            "_threading_local")
# Built into Pyodide's runtime (sys.builtin_module_names; tests/e2e/test_dist.py checks it in
# the page): the modules whose pure-Python twins in LEFT_OUT are never needed.
BUILT_IN = ("_abc", "_datetime", "_thread")
# Shipped modules that Pyodide's own start never imports, only PyScript (html) and the game:
# scripts/build_dist.py puts them in a second, small zip (web/stdlib_after_start.zip, 42 KB
# brotli) that web/snapshot.mjs fetches once the wasm is in, with our bundle. On a slow network
# every byte fetched before the wasm's last one delays it, and these are not read before the
# runtime has started. Were one of them needed sooner, dist's page would not start at all
# (tests/e2e/test_dist.py, which also checks where each was imported from).
AFTER_START = ("datetime", "fractions", "hashlib", "hmac", "html", "html.entities", "numbers", "secrets")
HEADER = """\
# Standard library modules shipped in dist/ (scripts/stdlib_modules.py): recorded from the
# browser tests' sys.modules, plus the import-time closure of what game/ and web/ import.
# One module a line; a package brings only its __init__. Rewritten by --record.
"""


def archive_modules(archive: Path) -> dict[str, str]:
    """Module name -> member name (pkg/__init__.py or mod.pyc) of every module in a stdlib zip."""
    found = {}
    with zipfile.ZipFile(archive) as zin:
        for name in zin.namelist():
            stem, dot, suffix = name.rpartition(".")
            if not dot or suffix not in ("py", "pyc"):
                continue
            module = stem.removesuffix("/__init__").replace("/", ".")
            found.setdefault(module, name)
    return found


def read_list(path: Path = STDLIB_LIST) -> list[str]:
    """The module names of a list file (comments and blank lines skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def imports_of(source: str, name: str, is_package: bool, everywhere: bool) -> set[str]:
    """Dotted names a module imports: at import time only, or `everywhere` (function bodies
    too). For `from a import b`, both a and a.b (b may be a submodule; unknown names are
    dropped later)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not everywhere and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    parts = alias.name.split(".")
                    found.update(".".join(parts[: i + 1]) for i in range(len(parts)))
            elif isinstance(child, ast.ImportFrom):
                base = package
                for _ in range(child.level - 1):
                    base = base.rpartition(".")[0]
                target = ".".join(part for part in (base if child.level else "", child.module or "") if part)
                parts = target.split(".")
                found.update(".".join(parts[: i + 1]) for i in range(len(parts)))
                found.update(f"{target}.{alias.name}" for alias in child.names)
            visit(child)

    try:
        tree = ast.parse(source)
    except SyntaxError:   # newer syntax than this Python's (the stdlib is Pyodide's 3.14)
        return scan_imports(source, package, everywhere)
    visit(tree)
    return found


IMPORT_LINE = re.compile(r"^(\s*)(?:import\s+([\w., ]+)|from\s+(\.*)([\w.]*)\s+import\s+\(?([\w, *]+))")
# Blocks that do not run when a module is imported in the browser: function bodies, a script's
# main block, Windows-only branches and imports for type checkers only.
SKIP_BLOCK = re.compile(r"""^\s*(?:(?:async\s+)?def\s|if\s+(?:__name__\s*==|sys\.platform\s*==\s*['"]win32|os\.name\s*==\s*['"]nt|(?:typing\.)?TYPE_CHECKING))""")


def scan_imports(source: str, package: str, everywhere: bool) -> set[str]:
    """imports_of by lines (for the stdlib, whose newer syntax this Python may not parse):
    `import` and `from ... import` statements (first line of each), skipping SKIP_BLOCK
    blocks by indentation unless `everywhere`."""
    found: set[str] = set()
    inside: int | None = None   # indentation of the def whose body we are in
    for line in source.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if inside is not None and indent <= inside:
            inside = None
        if inside is not None and not everywhere:
            continue
        if SKIP_BLOCK.match(line) and inside is None:
            inside = indent
            continue
        match = IMPORT_LINE.match(line)
        if not match:
            continue
        if match.group(2):
            for alias in match.group(2).split(","):
                parts = alias.split(" as ")[0].strip().split(".")
                found.update(".".join(parts[: i + 1]) for i in range(len(parts)) if parts[0])
            continue
        base = package
        for _ in range(len(match.group(3)) - 1):
            base = base.rpartition(".")[0]
        target = ".".join(part for part in (base if match.group(3) else "", match.group(4)) if part)
        parts = target.split(".")
        found.update(".".join(parts[: i + 1]) for i in range(len(parts)))
        found.update(f"{target}.{alias.split(' as ')[0].strip()}" for alias in match.group(5).split(",") if alias.strip() not in ("", "*"))
    return found


def our_modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> path of game/ and web/ modules that run in the browser, web/main.py too."""
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            rel = path.relative_to(root).as_posix()
            if "__pycache__" in path.parts or rel.startswith(SKIPPED):
                continue
            found[rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")] = path
    return found


def closure(root: Path = ROOT, source_zip: Path = SOURCE_ZIP) -> set[str]:
    """The stdlib modules the game needs by its source: every one game/ or web/ imports
    anywhere in a file, and what those import at import time, however indirectly (in Pyodide's
    own stdlib sources); every parent package too. Never one of LEFT_OUT: those are only
    tried (tests/test_stdlib_modules.py checks it)."""
    stdlib = archive_modules(source_zip)
    ours = our_modules(root)
    wanted: set[str] = set()
    for name, path in ours.items():
        wanted |= imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", everywhere=True)
    todo = sorted(name for name in wanted if name in stdlib and name not in LEFT_OUT)
    seen: set[str] = set()
    with zipfile.ZipFile(source_zip) as zin:
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            member = stdlib[name]
            parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
            package = name if member.endswith("__init__.py") else name.rpartition(".")[0]
            found = scan_imports(zin.read(member).decode("utf-8"), package, everywhere=False)
            todo += [other for other in parents + sorted(found)
                     if other in stdlib and other not in seen and other not in LEFT_OUT]
    return seen


def missing(listed: list[str], root: Path = ROOT, source_zip: Path = SOURCE_ZIP) -> list[str]:
    """The stdlib modules `closure` finds that the list lacks."""
    return sorted(closure(root, source_zip) - set(listed))


def trim(names: list[str], target: Path, source: Path = MIN_BYTECODE) -> tuple[int, int]:
    """Write `target`: the members of `source` for `names` (each module's own file; zipimport
    needs no directory entries), stored uncompressed, in the source's order. Returns (modules
    written, bytes). Raises KeyError for a name the source does not hold."""
    members = archive_modules(source)
    chosen = {members[name] for name in names}
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            if info.filename in chosen:
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.external_attr = info.external_attr
                zout.writestr(copy, zin.read(info))
    return len(chosen), target.stat().st_size


def record(pytest_args: list[str]) -> list[str]:
    """Run the browser tests with import recording on; return the stdlib modules they loaded,
    with the closure of the game's imports added."""
    with tempfile.TemporaryDirectory() as temp:
        log = Path(temp) / "imports.txt"
        env = dict(os.environ, CRIBBAGE_RECORD_IMPORTS=str(log))
        args = pytest_args or ["tests/e2e", "--deselect", "tests/e2e/test_dist.py"]
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *args], cwd=ROOT, env=env)
        if result.returncode != 0:
            print(f"stdlib_modules.py: the browser tests failed (exit {result.returncode}); "
                  "recording what the passing ones imported", file=sys.stderr)
        names = set(log.read_text(encoding="utf-8").split()) if log.exists() else set()
    if not names:
        sys.exit("stdlib_modules.py: nothing was recorded")
    stdlib = archive_modules(SOURCE_ZIP)
    return sorted(((names & set(stdlib)) - set(LEFT_OUT)) | closure())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", action="store_true", help="run the browser tests and rewrite the list")
    group.add_argument("--check", action="store_true", help="exit 1 if the list lacks a module the game imports")
    group.add_argument("--trim", type=Path, metavar="OUT.zip", help="write the trimmed standard library zip")
    args, rest = parser.parse_known_args()
    if args.record:
        names = record(rest)
        STDLIB_LIST.write_text(HEADER + "".join(f"{name}\n" for name in names), encoding="utf-8")
        print(f"stdlib_modules.py: {len(names)} modules in {STDLIB_LIST.relative_to(ROOT)}")
        return 0
    if args.check:
        lacking = missing(read_list())
        for name in lacking:
            print(f"stdlib_modules.py: the game imports {name}, which {STDLIB_LIST.name} lacks", file=sys.stderr)
        return 1 if lacking else 0
    count, size = trim(read_list(), args.trim)
    print(f"stdlib_modules.py: {count} modules, {size / 1e3:.0f} KB in {args.trim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
