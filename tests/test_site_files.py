"""The static site's own files agree with each other: pyscript.toml lists every module the
browser needs, points at our vendored Pyodide, and no page names a server but ours."""

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN_FILES = ROOT / "scripts" / "gen_files.py"
PAGES = ("index.html", "pyscript.toml", "bench/empty.html", "bench/empty.toml")


def load_gen_files():
    """scripts/gen_files.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("gen_files", GEN_FILES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_files_table_is_up_to_date():
    check = subprocess.run([sys.executable, GEN_FILES, "--check"], check=False, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_listed_files_exist_and_include_the_engine():
    files = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))["files"]
    assert "./game/__init__.py" in files
    for source, dest in files.items():
        assert (ROOT / source).is_file(), source
        assert source == dest


def test_runtime_comes_from_our_vendor_directory():
    config = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))
    assert config["interpreter"] == "./web/vendor/pyodide/pyodide.mjs"
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="./web/vendor/pyscript/core.js"></script>' in index
    assert '<script type="py" src="./web/main.py" config="./pyscript.toml"></script>' in index


def test_pages_name_no_other_server():
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert not re.search(r"(https?:|wss?:)?//[\w.-]+\.\w", text), page


def test_rewriting_keeps_the_rest_of_the_config():
    gen_files = load_gen_files()
    config = 'interpreter = "x"\n\n[files]\n"./old.py" = "./old.py"\n\n[js_modules.main]\n"a.js" = "a"\n'
    table = gen_files.files_table(["game/__init__.py"])
    assert gen_files.with_table(config, table) == (
        'interpreter = "x"\n\n[files]\n"./game/__init__.py" = "./game/__init__.py"\n\n[js_modules.main]\n"a.js" = "a"\n'
    )
    assert gen_files.with_table('interpreter = "x"', table) == 'interpreter = "x"\n' + table
