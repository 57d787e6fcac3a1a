"""The type checker and the linter run with the tests: `mypy --strict` on the modules pyproject.toml's
[tool.mypy] lists (the engine, the relay and its server, and every module of the browser layer,
with typings/' stubs for the browser's modules) and `ruff check` on the same and the rest of the
Python (tests, bench, scripts, typings), both configured in pyproject.toml and pinned in
requirements.txt. A failure shows their report.

    .venv/bin/python -m mypy --strict
    .venv/bin/python -m ruff check game relay serve.py tests bench scripts typings web
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINTED = ("game", "relay", "serve.py", "tests", "bench", "scripts", "typings", "web")   # web/vendor: excluded in pyproject.toml


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """A tool of this Python's environment (.venv's under scripts/test), from the repository root."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_typed_modules_pass_the_strict_type_checker(tmp_path):
    checked = run("mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"))   # the files pyproject.toml lists
    assert checked.returncode == 0, f"mypy --strict:\n{checked.stdout}{checked.stderr}"


def test_the_python_passes_the_linter():
    checked = run("ruff", "check", "--no-cache", *LINTED)
    assert checked.returncode == 0, f"ruff check {' '.join(LINTED)}:\n{checked.stdout}{checked.stderr}"
