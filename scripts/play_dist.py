"""Build dist/ and serve it, rebuilding it whenever a source changes: what `scripts/play` runs.

    .venv/bin/python scripts/play_dist.py [serve.py options: --host, --port, ...]

dist/ is the site as a visitor gets it (scripts/build_dist.py): our modules precompiled into
web/app.zip, the service worker, the manifest. So that an edited module never hides behind a
stale bundle, this polls the files dist/ is made from (index.html, pyscript.toml, game/, web/)
once a second and rebuilds dist/ when any of them changed: into dist.new/, then swapped in,
so the server never sees half a site. The service worker of the page then installs the new
version and reloads the page (build_dist.REGISTER_SW). A module added or removed on the way
is picked up too (scripts/gen_files.py rewrites pyscript.toml's [files] first).

serve.py runs as a child process on dist/ with the options given here; its banner is this
program's standard output, everything else goes to standard error. Ctrl-C (or SIGTERM)
stops both.
"""

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_dist  # noqa: E402
import gen_files  # noqa: E402

ROOT = build_dist.ROOT
DIST = ROOT / "dist"
WATCHED = ("index.html", "pyscript.toml", "game", "web")
POLL_SECONDS = 1.0


def fingerprint(root: Path = ROOT) -> frozenset[tuple[str, int, int]]:
    """(path, modification time, size) of every file dist/ is built from."""
    found = set()
    for name in WATCHED:
        top = root / name
        paths = [top] if top.is_file() else top.rglob("*") if top.is_dir() else []
        for path in paths:
            if "__pycache__" in path.parts or not path.is_file():
                continue
            stat = path.stat()
            found.add((path.relative_to(root).as_posix(), stat.st_mtime_ns, stat.st_size))
    return frozenset(found)


def rebuild(dist: Path = DIST) -> frozenset[tuple[str, int, int]]:
    """Bring pyscript.toml's [files] up to date, build the site into dist.new/ and swap it
    in for dist/; return the fingerprint of the sources it was built from."""
    fresh, old = dist.with_name(dist.name + ".new"), dist.with_name(dist.name + ".old")
    gen_files.main([])
    seen = fingerprint()
    figures = build_dist.build(fresh)
    if old.exists():
        shutil.rmtree(old)
    if dist.exists():
        dist.rename(old)
    fresh.rename(dist)
    if old.exists():
        shutil.rmtree(old)
    print(f"play: built dist/ (version {figures['version']})", file=sys.stderr, flush=True)
    return seen


def main(argv: list[str]) -> int:
    """Build, serve, and rebuild on change until interrupted; return the exit code."""
    if any(arg == "--root" or arg.startswith("--root=") for arg in argv):
        print("play: dist/ is the root; `scripts/play --dev` serves the sources", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # stop the server too (finally, below)
    seen = rebuild()
    server = subprocess.Popen([sys.executable, str(ROOT / "serve.py"), "--root", str(DIST), *argv])
    try:
        while server.poll() is None:
            time.sleep(POLL_SECONDS)
            if fingerprint() != seen:
                time.sleep(0.3)   # let an editor finish writing
                try:
                    seen = rebuild()
                except (SystemExit, Exception) as error:   # keep serving the last good build
                    print(f"play: could not rebuild dist/: {error}", file=sys.stderr, flush=True)
                    seen = fingerprint()   # try again at the next change
        return server.returncode
    except KeyboardInterrupt:
        return 0
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
