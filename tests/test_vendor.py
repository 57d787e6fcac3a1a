"""scripts/vendor.py's precompressed copies: written once, kept up to date, stale ones removed."""

import gzip
import importlib.util
import os
from pathlib import Path

import pytest

VENDOR_PY = Path(__file__).resolve().parent.parent / "scripts" / "vendor.py"


@pytest.fixture
def vendor():
    """scripts/vendor.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("vendor", VENDOR_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_copies_are_written_kept_and_removed(vendor, tmp_path):
    big = b"const x = 1;\n" * 200
    (tmp_path / "a.js").write_bytes(big)
    (tmp_path / "b.wasm").write_bytes(big)
    (tmp_path / "small.js").write_bytes(b"x" * 100)
    (tmp_path / "python_stdlib.zip").write_bytes(big)
    (tmp_path / "gone.js.gz").write_bytes(b"old")
    (tmp_path / "small.js.br").write_bytes(b"old")
    kinds = 2 if vendor.brotli else 1
    assert vendor.compress(tmp_path) == 2 * kinds
    names = sorted(path.name for path in tmp_path.iterdir())
    expected = ["a.js", "a.js.gz", "b.wasm", "b.wasm.gz", "python_stdlib.zip", "small.js"]
    if vendor.brotli:
        expected += ["a.js.br", "b.wasm.br"]
        assert vendor.brotli.decompress((tmp_path / "a.js.br").read_bytes()) == big
    assert names == sorted(expected)
    assert gzip.decompress((tmp_path / "b.wasm.gz").read_bytes()) == big
    assert (tmp_path / "a.js.gz").stat().st_mtime_ns == (tmp_path / "a.js").stat().st_mtime_ns
    assert vendor.compress(tmp_path) == 0           # up to date: nothing rewritten
    changed = b"const y = 2;\n" * 200
    (tmp_path / "a.js").write_bytes(changed)
    os.utime(tmp_path / "a.js", ns=(0, 10**18))
    assert vendor.compress(tmp_path) == kinds
    assert gzip.decompress((tmp_path / "a.js.gz").read_bytes()) == changed
    (tmp_path / "b.wasm").unlink()
    vendor.compress(tmp_path)
    assert not list(tmp_path.glob("b.wasm.*"))


def test_sync_keeps_the_copies_of_wanted_files(vendor, tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "a.js").write_bytes(b"a")
    target = tmp_path / "vendor"
    target.mkdir()
    (target / "a.js.gz").write_bytes(b"gz")
    (target / "old-XXXX.js").write_bytes(b"old")
    assert vendor.sync([source / "a.js"], target) == 1
    assert sorted(path.name for path in target.iterdir()) == ["a.js"]   # copied again: its copies go
    (target / "a.js.gz").write_bytes(b"gz")
    assert vendor.sync([source / "a.js"], target) == 0
    assert sorted(path.name for path in target.iterdir()) == ["a.js", "a.js.gz"]
