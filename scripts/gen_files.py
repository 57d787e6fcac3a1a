"""Rewrite the [files] table of pyscript.toml from the Python files under game/ and web/.

PyScript copies each listed file into the browser's file system before web/main.py runs,
so every engine and browser module must be listed, and a listed file that does not exist
stops Python from starting. web/main.py itself is loaded through the page's `src`, and
web/vendor/ holds the runtime, so neither is listed. Standard library only.

    python scripts/gen_files.py           # rewrite pyscript.toml if needed
    python scripts/gen_files.py --check   # exit 1 if pyscript.toml is out of date
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"
PACKAGES = ("game", "web")
# Not needed in the browser: the entry point (loaded by index.html itself), the vendored runtime,
# the command-line tools (arena, bot protocol, table generator) and the arena's frozen yardstick
# bot (hard-v1, which the page never seats: game.bots.levels imports it on first use), and
# the blind deal (game/blind/, #38), which no page imports until the friends' table uses it.
SKIPPED = ("web/main.py", "web/vendor/", "game/arena.py", "game/bots/make_crib_table.py",
           "game/bots/make_win_table.py", "game/bots/make_peg_table.py",
           "game/bots/proto.py", "game/bots/v1/",
           "game/blind/local.py")      # a whole blind hand in one process: tests and the benchmark


def python_files(root: Path = ROOT) -> list[str]:
    """Posix paths, relative to root, of the modules the browser needs, sorted."""
    found = []
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            rel = path.relative_to(root).as_posix()
            if "__pycache__" not in path.parts and not rel.startswith(SKIPPED):
                found.append(rel)
    return sorted(found)


def files_table(paths: list[str]) -> str:
    """A [files] table that puts each file at the same relative path in the browser."""
    lines = ["[files]"] + [f"{json.dumps('./' + p)} = {json.dumps('./' + p)}" for p in paths]
    return "\n".join(lines) + "\n"


def with_table(config: str, table: str) -> str:
    """The config text with its [files] table (up to the next table or the end) replaced."""
    lines = config.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == "[files]"), len(lines))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    before, after = "".join(lines[:start]), "".join(lines[end:])
    if before and not before.endswith("\n"):
        before += "\n"
    return before + table + ("\n" + after if after else "")


def main(argv: list[str] | None = None) -> int:
    """Rewrite or check pyscript.toml; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the table is up to date")
    args = parser.parse_args(argv)
    wanted = with_table(CONFIG.read_text(encoding="utf-8"), files_table(python_files()))
    return write_if_changed(CONFIG, wanted, args.check, "pyscript.toml's [files] table", "gen_files.py")


def write_if_changed(path: Path, wanted: str, check: bool, what: str, script: str) -> int:
    """Write a generated file's ``wanted`` text if it differs, or with ``check`` only say that it
    is stale; the exit code: 1 for a stale file under --check, else 0. (scripts/gen_shell.py too.)"""
    if path.read_text(encoding="utf-8") == wanted:
        return 0
    if check:
        print(f"{what} is out of date: run python scripts/{script}", file=sys.stderr)
        return 1
    path.write_text(wanted, encoding="utf-8")
    print(f"{script}: updated {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
