"""The type checker and the linter run with the tests: `mypy --strict` on the modules pyproject.toml's
[tool.mypy] lists (the engine, the relay and its server, and every module of the browser layer,
with typings/' stubs for the browser's modules) and `ruff check` on the same and the rest of the
Python (tests, bench, scripts, typings), both configured in pyproject.toml and pinned in
requirements.txt. A failure shows their report.

    .venv/bin/python -m mypy --strict
    .venv/bin/python -m ruff check game relay serve.py tests bench scripts typings web/__init__.py web/net ...
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINTED = ("game", "relay", "serve.py", "tests", "bench", "scripts", "typings", "web/__init__.py", "web/net",
          "web/profile", "web/coach", "web/friends", "web/session.py", "web/controller.py", "web/keeper.py",
          "web/scheduler.py", "web/storage.py", "web/dom.py", "web/lazy.py", "web/clock.py", "web/slices.py",
          "web/dataclass_methods.py", "web/tasks.py", "web/seat.py", "web/input.py", "web/table/__init__.py",
          "web/table/board.py", "web/table/cards.py", "web/table/model.py", "web/table/motion.py",
          "web/table/render.py", "web/table/rules.py", "web/table/screen.py", "web/table/sounds.py", "web/render.py",
          "web/early.py", "web/main.py", "web/sound.py")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """A tool of this Python's environment (.venv's under scripts/test), from the repository root."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_typed_modules_pass_the_strict_type_checker(tmp_path):
    checked = run("mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"))   # the files pyproject.toml lists
    assert checked.returncode == 0, f"mypy --strict:\n{checked.stdout}{checked.stderr}"


def test_the_python_passes_the_linter():
    checked = run("ruff", "check", "--no-cache", *LINTED)
    assert checked.returncode == 0, f"ruff check {' '.join(LINTED)}:\n{checked.stdout}{checked.stderr}"
