"""Build dist/: the whole game as a self-contained static site for any static file host.

    .venv/bin/python scripts/build_dist.py [--out dist] [--best]     (after scripts/setup)

dist/ holds the page, its config, our Python modules, the pinned runtime, the web app manifest
and icons, and a service worker (sw.js) that caches all of it on the first visit, so the bot
game then works offline and a repeat visit fetches almost nothing. Every compressible file also
gets .gz and .br copies for hosts that serve precompressed files (nginx gzip_static, serve.py);
the runtime's copies are those scripts/vendor.py made already, when they are up to date.
--best compresses with brotli's slowest setting (about a minute more, 10% smaller wasm).

The modules of pyscript.toml's [files] table (game/, web/) are not copied as sources: they go
into one zip of bytecode precompiled by the vendored Pyodide (scripts/app_bundle.py), web/app.zip
(--app both adds their sources, for tracebacks with source lines),
which web/snapshot.mjs writes where web/main.py puts it on sys.path; but those that only
tables with friends and linking a device import (web.lazy.LATER) go into web/app_later.zip,
which the page fetches when one of those is first opened (web.lazy), and the service worker
caches then (LATER_ON_USE): a visit that only plays the bots never downloads it. dist/ is made
afresh from the sources every time, so it never lags behind them (`scripts/play` rebuilds it
when they change); --sources ships the .py files instead, as the repository's page loads them.

With the bundle, dist's interpreter is web/snapshot.mjs, a wrapper around the vendored Pyodide:
after a first visit it makes a Pyodide memory snapshot in the visitor's browser (a worker,
web/snapshot_worker.mjs) and later visits of the same build start from it, falling back to the
normal start on any failure (--no-snapshot builds one that never makes one). Its build version
and the modules to import before the snapshot (snapshot_modules: those that need no browser
API) are written into web/snapshot.mjs here, with the standard library modules that Pyodide's own
start imports (boot_imports), which the wrapper imports a few per task so that the page stays
responsive while the runtime starts.

For a first visit on a slow network: the page's head preloads every file of the start at once
(preload_links), the config turns off PyScript's unused plugins, Pyodide's lock file loses its
package list (trim_lock), the trimmed stdlib is brotli'd at the best quality (best_brotli), and
so is every file under BEST_BELOW; PyScript's chunks the page never imports are left out
(UNFETCHED_CHUNKS), and the service worker caches the icons only when first fetched
(CACHED_ON_USE). The stdlib modules that Pyodide's own start never imports come in a second
zip fetched once the wasm is in (STDLIB_AFTER_START_PATH). The bytecode, ours and the stdlib's, has no column positions (see
scripts/precompile_app.mjs). PyScript's own modules come precompiled too (PYSCRIPT_BYTECODE). About 3.9 MB in all (bench/load_time.py measures it).
"""

import argparse
import ast
import filecmp
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))
import app_bundle  # noqa: E402
import rcssmin  # noqa: E402  -- our stylesheet goes out without its comments: 2 KB of a first visit
import stdlib_modules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COMPRESSIBLE = {".wasm", ".mjs", ".js", ".json", ".css", ".html", ".py", ".toml", ".svg",
                ".webmanifest", ".zip"}
MIN_COMPRESS = 1024
# The interpreter wrapper that makes and loads memory snapshots, and its worker (dist/ only).
SNAPSHOT_FILES = ("web/snapshot.mjs", "web/snapshot_worker.mjs")
SNAPSHOT_WRAPPER = SNAPSHOT_FILES[0]
# PyScript's own Python modules as bytecode (scripts/precompile_pyscript.mjs), which
# web/snapshot.mjs unpacks where PyScript writes their sources: the browser then imports them
# without compiling them first.
PYSCRIPT_BYTECODE = "web/pyscript.zip"
# Modules that reach the browser (or Pyodide's FFI): one that imports them, even indirectly,
# stays out of the snapshot, which must hold no JS object of the worker that made it.
BROWSER_MODULES = ("js", "pyodide", "pyscript", "_pyodide", "pyodide_js")
# Everything the start needs, fetched at once from the page's head. Without the hints each file
# waits for the one that names it: core.js -> core-*.js -> the config -> snapshot.mjs ->
# pyodide.mjs -> the wasm, the stdlib, the lock and pyodide.asm.mjs -> (runtime started) main.py:
# about a second of an idle network on the desktop and four seconds under the mobile profile
# (bench/ready_path.py) before the wasm, most of the bytes, starts to come. The scripts come
# first (the CPU needs them first), then the wasm, the largest; PyScript's and Pyodide's own
# fetches then find each file arriving (as="fetch" with crossorigin matches their fetch()).
PRELOAD_SCRIPTS = ("web/vendor/pyscript/core-*.js", "web/snapshot.mjs", "web/vendor/pyodide/pyodide.mjs",
                   "web/vendor/pyodide/pyodide.asm.mjs")
# Not web/app.zip nor PYSCRIPT_BYTECODE: web/snapshot.mjs fetches them once the wasm is in,
# since they are read only after the runtime's start.
PRELOAD_FETCHES = ("web/vendor/pyodide/pyodide.asm.wasm", "web/vendor/pyodide/python_stdlib.zip",
                   "web/vendor/pyodide/pyodide-lock.json", "web/main.py")
# PyScript's plugins that the game never uses: without "!name" in the config, core-*.js imports
# each of them (five small fetches). "error" stays: it shows a Python error on the page. PyScript
# reads a config per interpreter type, and one it has none for (MicroPython's) loads every
# plugin: the page gets an <mpy-config> that only turns them off (no MicroPython is loaded).
UNUSED_PLUGINS = ("deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal")
# PyScript's chunks that dist's page never fetches, left out of dist/ (and so of the service
# worker's download): the plugins above, and its TOML parser (the config is inline JSON).
UNFETCHED_CHUNKS = UNUSED_PLUGINS + ("toml",)
# Files the service worker caches when the browser first asks for them, not at install: the
# home-screen icons, which only installing the game asks for (an installed game keeps its own
# copy). Everything a game needs, offline too, is cached at install.
CACHED_ON_USE = ("web/icons/icon-192.png", "web/icons/icon-512.png")
# And the modules that only tables with friends and linking a device import (web.lazy.LATER),
# online by definition: the page fetches their zip when one of them is first opened.
LATER_ON_USE = (app_bundle.LATER_SITE_PATH,)
LOCK_PATH = "web/vendor/pyodide/pyodide-lock.json"


def preload_links(root: Path = ROOT) -> str:
    """The <link> hints of PRELOAD_SCRIPTS and PRELOAD_FETCHES (a glob names the one match)."""
    links = []
    for pattern in PRELOAD_SCRIPTS + PRELOAD_FETCHES:
        found = sorted(root.glob(pattern)) if "*" in pattern else [root / pattern]
        if len(found) != 1:
            sys.exit(f"build_dist: {pattern} matches {len(found)} files, not one")
        href = "./" + found[0].relative_to(root).as_posix()
        links.append(f'<link rel="modulepreload" href="{href}">' if pattern in PRELOAD_SCRIPTS
                     else f'<link rel="preload" href="{href}" as="fetch" crossorigin="anonymous">')
    return "".join(f"  {link}\n" for link in links)


HEAD_EXTRAS = """  <link rel="manifest" href="./manifest.webmanifest">
  <meta name="theme-color" content="#1f5135">
  <link rel="apple-touch-icon" href="./web/icons/icon-192.png">
"""
REGISTER_SW = """  <script>
    // Cache the game on the first visit: later visits start from the cache, even offline.
    // Registered once the table is ready, so its downloads never compete with the start.
    if ("serviceWorker" in navigator) {
      // A new version (a rebuilt or redeployed dist/) takes over as soon as it is cached: a page
      // that an older one served then reloads, so that it never goes on running old code.
      const updating = Boolean(navigator.serviceWorker.controller);
      navigator.serviceWorker.addEventListener("controllerchange", () => { if (updating) location.reload(); });
      const register = () => navigator.serviceWorker.register("./sw.js");
      new MutationObserver((_, observer) => {
        if (document.documentElement.dataset.ready === "true") { observer.disconnect(); register(); }
      }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ready"] });
    }
  </script>
"""


def pyscript_bytecode(out: Path, root: Path = ROOT) -> None:
    """Write out/PYSCRIPT_BYTECODE from the vendored PyScript's core-*.js (the sources it
    writes at start), compiled by the vendored Pyodide under Node."""
    cores = sorted((root / "web" / "vendor" / "pyscript").glob("core-*.js"))
    if len(cores) != 1:
        sys.exit(f"build_dist: web/vendor/pyscript/ holds {len(cores)} core-*.js files, not one")
    target = out / PYSCRIPT_BYTECODE
    target.parent.mkdir(parents=True, exist_ok=True)
    command = ["node", str(ROOT / "scripts" / "precompile_pyscript.mjs"), str(cores[0]), str(target)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0 or not target.is_file():
        sys.exit(f"build_dist: precompile_pyscript.mjs failed: {result.stderr.strip()[-600:]}")


def site_files(root: Path = ROOT, bundle: bool = True) -> list[str]:
    """Posix paths of everything the page needs, relative to the repository root; with
    `bundle`, without the Python modules that web/app.zip holds instead."""
    config = tomllib.loads((root / "pyscript.toml").read_text(encoding="utf-8"))
    files = {"index.html", "pyscript.toml", "web/main.py"}
    files |= {source.removeprefix("./") for source in config["files"]}
    if bundle:   # the modules go in web/app.zip, the config in the page (dist_config)
        files -= set(app_bundle.modules(root)) | {"pyscript.toml"}
        files |= set(SNAPSHOT_FILES)
    vendor = root / "web" / "vendor"
    if not (vendor / "pyodide" / "pyodide.asm.wasm").exists():
        sys.exit("build_dist: web/vendor/ is missing: run scripts/setup first")
    for path in (root / "web").rglob("*"):
        if path.suffix in (".gz", ".br", ".stamp"):   # .gz/.br are made again for dist/ below
            continue
        if path.is_relative_to(vendor / "stdlib"):   # an input of the trimmed stdlib, not served
            continue
        if bundle and path.parent == vendor / "pyscript" and path.stem.rpartition("-")[0] in UNFETCHED_CHUNKS:
            continue
        if path.suffix == ".webmanifest":   # dist/ has it at its root (build)
            continue
        if path.is_file() and (path.is_relative_to(vendor) or path.suffix in
                               (".css", ".png", ".svg")):
            files.add(path.relative_to(root).as_posix())
    return sorted(files)


def import_time_imports(source: str, name: str, is_package: bool, known: set[str]) -> set[str]:
    """Modules a module imports when it is imported (not inside functions), as dotted names;
    for `from package import name`, the submodule too when it is one of `known`."""
    package = name if is_package else name.rpartition(".")[0]   # what relative imports start from
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue   # runs when called, not when imported
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue   # for type checkers only (web.friends.glue's lazy classes)
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = package
                for _ in range(child.level - 1):
                    base = base.rpartition(".")[0]
                target = ".".join(part for part in (base if child.level else "", child.module or "") if part)
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in child.names if f"{target}.{alias.name}" in known)
            visit(child)

    visit(ast.parse(source))
    return found


def snapshot_modules(root: Path = ROOT) -> list[str]:
    """The bundle's modules that can go into a memory snapshot: none of them imports, at
    import time and however indirectly, a module that touches JS (BROWSER_MODULES)."""
    later = set(app_bundle.later_modules(root))   # not in web/app.zip, which the snapshot's worker imports from
    paths = {path.removesuffix(".py").removesuffix("/__init__").replace("/", "."): path
             for path in app_bundle.modules(root) if path not in later}
    imports = {}
    for name, path in paths.items():
        source = (root / path).read_text(encoding="utf-8")
        imports[name] = import_time_imports(source, name, path.endswith("/__init__.py"), set(paths))

    def touches_js(name: str, seen: set[str]) -> bool:
        if name.split(".")[0] in BROWSER_MODULES:
            return True
        if name in seen or name not in imports:
            return False   # the standard library, or a cycle already being looked at
        seen.add(name)
        parents = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)]
        return any(touches_js(other, seen) for other in parents + sorted(imports[name]))

    return sorted(name for name in paths if not touches_js(name, set()))


def boot_imports(out: Path) -> list[str]:
    """The standard library modules that Pyodide's own start imports from out's stdlib, in the
    order their imports finish (scripts/precompile_boot_imports.mjs, under Node): web/snapshot.mjs
    imports them a few per task before Pyodide's start would, all in one."""
    command = ["node", str(ROOT / "scripts" / "precompile_boot_imports.mjs"), str(out / STDLIB_PATH)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    try:
        names = json.loads(result.stdout) if result.returncode == 0 else None
    except json.JSONDecodeError:
        names = None
    if not isinstance(names, list) or not names or not all(isinstance(name, str) for name in names):
        sys.exit(f"build_dist: precompile_boot_imports.mjs failed: {result.stderr.strip()[-600:]}")
    return names


def write_snapshot_wrapper(out: Path, version: str, modules: list[str], snapshots: bool = True,
                           after_start: bool = False, boot: list[str] | None = None) -> None:
    """Fill in web/snapshot.mjs's build version, module list, whether it makes and loads
    snapshots at all, whether the build has STDLIB_AFTER_START_PATH and the modules it imports
    before Pyodide's start (`boot`, boot_imports; none by default) (each placeholder once)."""
    path = out / SNAPSHOT_WRAPPER
    text = path.read_text(encoding="utf-8")
    later = "./" + PurePosixPath(STDLIB_AFTER_START_PATH).relative_to(PurePosixPath(SNAPSHOT_WRAPPER).parent).as_posix()
    for placeholder, value in (('"__BUILD__"', json.dumps(version)), ('["__MODULES__"]', json.dumps(modules)),
                               ('"__SNAPSHOTS__"', json.dumps(snapshots)),
                               ('"__AFTER_START__"', json.dumps(later if after_start else None)),
                               ('["__BOOT_IMPORTS__"]', json.dumps(boot or []))):
        if text.count(placeholder) != 1:
            sys.exit(f"build_dist: {SNAPSHOT_WRAPPER} must hold {placeholder} exactly once")
        text = text.replace(placeholder, value)
    path.write_text(text, encoding="utf-8")


def service_worker(version: str, urls: list[str], on_use: tuple[str, ...] = CACHED_ON_USE) -> str:
    """sw.js: precache every file of `urls` at install, but those of `on_use`, which it keeps
    when first fetched; serve from the cache first; drop old caches. The page is cached once,
    as "./" (index.html is what the browser fetched for it)."""
    files = ["./"] + [f"./{url}" for url in urls if url != "index.html" and url not in on_use]
    return f"""// Generated by scripts/build_dist.py: do not edit.
const CACHE = "cribbage-{version}";
const FILES = {json.dumps(files, indent=0)};
const ON_USE = {json.dumps([f"./{url}" for url in on_use])}.map((url) => new URL(url, self.location).href);

self.addEventListener("install", (event) => {{
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
}});

self.addEventListener("activate", (event) => {{
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("cribbage-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
}});

// If this address no longer serves a build with this worker (`scripts/play --dev` serves the
// repository's sources here, which have no sw.js), step aside: unregister, drop the cache and
// reload the open pages, which then get what the server has, not this cache's old copy.
async function checkStillServed(event) {{
  if (!self.navigator.onLine) return;
  let response;
  try {{
    response = await fetch("./sw.js", {{ cache: "no-cache" }});
  }} catch {{
    return;   // offline: keep serving from the cache
  }}
  if (response.status !== 404) return;
  await self.registration.unregister();
  await caches.delete(CACHE);
  await caches.delete("pyodide-snapshot");   // web/snapshot.mjs's, of no use to the sources
  const open = await self.clients.matchAll({{ type: "window" }});
  for (const client of open) client.navigate(client.url);
  if (open.some((client) => client.id === event.resultingClientId)) return;
  // The page this navigation is making may not be a client yet: wait for it (up to 10 s).
  for (let tries = 0; tries < 100; tries++) {{
    const page = await self.clients.get(event.resultingClientId);
    if (page) return page.navigate(page.url);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }}
}}

self.addEventListener("fetch", (event) => {{
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") event.waitUntil(checkStillServed(event));
  // The page's own address may carry ?speed=... or #record=...: it is always the page.
  const key = request.mode === "navigate" ? "./" : request;
  event.respondWith(caches.match(key, {{ ignoreSearch: request.mode === "navigate" }})
    .then((hit) => hit || fetch(request).then((response) => keep(event, response))));
}});

// A file of ON_USE, fetched for the first time: a copy goes into the cache (the worker is kept
// alive until it is stored).
function keep(event, response) {{
  const url = event.request.url.split("?")[0];
  if (response.ok && ON_USE.includes(url)) {{
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url, copy)));
  }}
  return response;
}}
"""


# Files up to this size get brotli's best quality (11) always: a few seconds in all (web/app.zip
# 2.4 s), about 10% fewer bytes than quality 9. Larger ones only with --best.
BEST_BELOW = 2_000_000


def compress(path: Path, best: bool, made: Path | None = None) -> None:
    """Write path.gz and path.br (when the brotli module is there). Copies that scripts/vendor.py
    made of the same file (`made`: the source path.gz/.br next to it, with its modification
    time) are taken as they are (the wasm's and the scripts' at brotli quality 11), unless
    `best` asks for a smaller brotli."""
    try:
        import brotli
    except ImportError:
        brotli = None
    data = None
    quality = 11 if best or path.stat().st_size < BEST_BELOW else 9
    for suffix, pack in ((".gz", lambda d: gzip.compress(d, 9, mtime=0)),
                         (".br", brotli and (lambda d: brotli.compress(d, quality=quality)))):
        if pack is None:
            continue
        target = path.parent / (path.name + suffix)
        if made is not None and not (best and suffix == ".br"):
            copy = made.with_name(made.name + suffix)
            # scripts/vendor.py's copy carries its source's time, plus its brotli quality over 9 in ns
            if copy.is_file() and 0 <= copy.stat().st_mtime_ns - made.stat().st_mtime_ns <= 2:
                shutil.copyfile(copy, target)
                continue
        data = path.read_bytes() if data is None else data
        target.write_bytes(pack(data))


def dist_config(root: Path = ROOT) -> dict:
    """dist's PyScript config: the repository's pyscript.toml without its [files] (web/snapshot.mjs
    writes the bundle, web/app.zip, itself), web/snapshot.mjs (which loads the repository's
    Pyodide) as the interpreter, and the unused plugins turned off. The page carries it inline as JSON (config='{...}'), so
    PyScript neither fetches a config file nor imports its TOML parser."""
    config = tomllib.loads((root / "pyscript.toml").read_text(encoding="utf-8"))
    if config.get("interpreter") != "./web/vendor/pyodide/pyodide.mjs":
        sys.exit("build_dist: pyscript.toml's interpreter is not the vendored pyodide.mjs")
    config["interpreter"] = f"./{SNAPSHOT_WRAPPER}"
    del config["files"]
    config["plugins"] = [f"!{name}" for name in UNUSED_PLUGINS]
    return config


def inline_config(html: str, config: dict) -> str:
    """The page with its <script type="py">'s config="./pyscript.toml" replaced by `config`,
    and an <mpy-config> before it with the same plugins turned off (see UNUSED_PLUGINS)."""
    script = '<script type="py" src="./web/main.py" config="./pyscript.toml">'
    text = json.dumps(config, separators=(",", ":"))
    if html.count(script) != 1 or "'" in text:
        sys.exit("build_dist: index.html must load web/main.py with ./pyscript.toml once, and the config hold no '")
    plugins = json.dumps({"plugins": config["plugins"]}, separators=(",", ":"))
    return html.replace(script, f"<mpy-config hidden>{plugins}</mpy-config>\n  "
                        + script.replace('config="./pyscript.toml"', f"config='{text}'"))


def trim_lock(path: Path) -> None:
    """Pyodide's package lock without its packages: the game loads none (no micropip, no
    wheels), and the runtime reads only the lock's `info` then. 119 KB -> 0.2 KB."""
    lock = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({"info": lock["info"], "packages": {}}), encoding="utf-8")


def best_brotli(path: Path, cache: Path = ROOT / "web" / "vendor" / "stdlib") -> None:
    """path.br at brotli's best quality (11), which takes about a minute for the 3.2 MB stdlib
    zip, -11% against quality 9; kept in `cache` under the content's hash, so it is paid once
    per stdlib, not per build."""
    import brotli
    data = path.read_bytes()
    kept = cache / f"{hashlib.sha256(data).hexdigest()[:16]}.{path.name}.br"
    if not kept.is_file():
        for old in cache.glob(f"*.{path.name}.br"):
            old.unlink()
        kept.write_bytes(brotli.compress(data, quality=11))
    shutil.copyfile(kept, path.with_name(path.name + ".br"))


# Where the page's Pyodide finds the standard library (loadPyodide's default stdLibURL).
STDLIB_PATH = "web/vendor/pyodide/python_stdlib.zip"
# --stdlib: the whole precompiled standard library as vendored, or only the modules of
# scripts/stdlib_modules.txt (scripts/stdlib_modules.py), as bytecode compiled with their
# docstrings emptied (the default), or as sources without docstrings and comments: a third of
# the bytes, but the browser then compiles them at every first visit, which cost more time than
# the bytes saved in bench/load_time.py, on the desktop and under the mobile profile alike.
STDLIB_KINDS = ("full", "pyc", "py")
STDLIB_SOURCES = {"pyc": stdlib_modules.MIN_BYTECODE, "py": stdlib_modules.MIN_SOURCES}


# The listed modules that only PyScript and the game import (stdlib_modules.AFTER_START), when
# web/snapshot.mjs installs the bundle: fetched with it, once the wasm is in.
STDLIB_AFTER_START_PATH = "web/stdlib_after_start.zip"


def write_stdlib(out: Path, kind: str, after_start: bool) -> str:
    """Replace dist's copy of the standard library by the `kind` one; with `after_start`, the
    modules of AFTER_START go in STDLIB_AFTER_START_PATH instead. Returns a summary."""
    if kind == "full":
        return "the whole standard library"
    source = STDLIB_SOURCES[kind]
    if not source.is_file():
        sys.exit(f"build_dist: {source.relative_to(ROOT)} is missing: run scripts/setup")
    listed = stdlib_modules.read_list()
    later = [name for name in listed if after_start and name in stdlib_modules.AFTER_START]
    if after_start and len(later) != len(stdlib_modules.AFTER_START):
        sys.exit(f"build_dist: AFTER_START names modules that {stdlib_modules.STDLIB_LIST.name} lacks")
    try:
        count, size = stdlib_modules.trim([name for name in listed if name not in later], out / STDLIB_PATH, source)
        if later:
            stdlib_modules.trim(later, out / STDLIB_AFTER_START_PATH, source)
    except KeyError as error:
        sys.exit(f"build_dist: {stdlib_modules.STDLIB_LIST.name} names {error}, which {source.name} lacks")
    return f"{count} + {len(later)} stdlib modules as {kind}, {size / 1e6:.1f} MB"


# --app: what web/app.zip holds of each module: bytecode and source (tracebacks show source
# lines, +80 KB brotli), bytecode only (the default), or source only (compiled in the browser).
APP_KINDS = ("both", "pyc", "py")


def build(out: Path, best: bool = False, bundle: bool = True, stdlib: str = "pyc",
          app: str = "pyc", snapshots: bool = True) -> dict:
    """Write the site into ``out`` (replacing it); returns a few figures. With `bundle` (the
    default) our modules go in as web/app.zip, as `app` (one of APP_KINDS) says; without, as
    sources. `stdlib` is one of STDLIB_KINDS. Without `snapshots`, no visitor's browser makes
    or loads a memory snapshot (the browser tests start hundreds of first visits: each would
    start a second interpreter to make one)."""
    files = site_files(bundle=bundle)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    if bundle:
        (out / app_bundle.SITE_PATH).parent.mkdir(parents=True, exist_ok=True)
        try:
            app_bundle.build(out / app_bundle.SITE_PATH, sources=app != "pyc", bytecode=app != "py",
                             later=out / app_bundle.LATER_SITE_PATH)
        except app_bundle.BundleError as error:
            sys.exit(f"build_dist: {error}")
        pyscript_bytecode(out)
    digest = hashlib.sha256()
    for rel in files:
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
        if target.suffix == ".css" and "vendor" not in target.parts:
            target.write_text(rcssmin.cssmin(target.read_text(encoding="utf-8")), encoding="utf-8")
    stdlib_note = write_stdlib(out, stdlib, after_start=bundle)
    after_start = (out / STDLIB_AFTER_START_PATH).is_file()
    page = out / "index.html"
    html = page.read_text(encoding="utf-8")
    if bundle:
        trim_lock(out / LOCK_PATH)
        html = inline_config(html, dist_config())
        files = sorted(files + [app_bundle.SITE_PATH, app_bundle.LATER_SITE_PATH, PYSCRIPT_BYTECODE]
                       + [STDLIB_AFTER_START_PATH] * after_start)
    extras = (preload_links() if bundle else "") + HEAD_EXTRAS
    html = html.replace("</head>", extras + "</head>", 1).replace("</body>", REGISTER_SW + "</body>", 1)
    page.write_text(html, encoding="utf-8")
    digest.update(b"snapshots" if snapshots else b"no snapshots")
    for rel in files:   # what the visitor gets, as written: the cache's name changes with any of it
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes())
    version = digest.hexdigest()[:12]
    if bundle:   # hashed above as the template; the values it gets derive from the rest
        write_snapshot_wrapper(out, version, snapshot_modules(), snapshots, after_start, boot_imports(out))
    shutil.copy2(ROOT / "web" / "manifest.webmanifest", out / "manifest.webmanifest")
    on_use = CACHED_ON_USE + (LATER_ON_USE if bundle else ())
    (out / "sw.js").write_text(service_worker(version, files + ["manifest.webmanifest"], on_use), encoding="utf-8")
    raw = packed = 0
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in COMPRESSIBLE and path.stat().st_size >= MIN_COMPRESS:
            rel = path.relative_to(out)
            vendored = ROOT / rel if rel.parts[:2] == ("web", "vendor") else None
            if vendored is not None and not filecmp.cmp(vendored, path, shallow=False):
                vendored = None   # changed here (the stdlib, the lock): vendor.py's copies do not fit
            compress(path, best, vendored)
            if rel.as_posix() == STDLIB_PATH and stdlib != "full":
                best_brotli(path)
    for path in out.rglob("*"):
        if path.is_file() and path.suffix not in (".gz", ".br"):
            raw += path.stat().st_size
            smaller = [path.with_name(path.name + ext) for ext in (".br", ".gz")]
            packed += min([p.stat().st_size for p in smaller if p.exists()] + [path.stat().st_size])
    return {"version": version, "files": len(files) + 2, "bytes": raw, "compressed": packed, "stdlib": stdlib_note}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--best", action="store_true", help="slowest, smallest brotli")
    parser.add_argument("--sources", action="store_true",
                        help="ship game/ and web/ as .py sources instead of the precompiled web/app.zip")
    parser.add_argument("--stdlib", choices=STDLIB_KINDS, default="pyc",
                        help="the standard library shipped: whole (full), or only the modules the game "
                             "imports as bytecode (pyc, the default) or as smaller sources (py)")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="visitors' browsers neither make nor load a start-up memory snapshot")
    parser.add_argument("--app", choices=APP_KINDS, default="pyc",
                        help="web/app.zip's modules as bytecode only (pyc, the default), with their "
                             "sources for tracebacks with source lines (both) or as sources only (py)")
    args = parser.parse_args()
    figures = build(args.out.resolve(), args.best, bundle=not args.sources, stdlib=args.stdlib, app=args.app,
                    snapshots=not args.no_snapshot)
    print(f"built {args.out} (version {figures['version']}): {figures['files']} files, "
          f"{figures['bytes'] / 1e6:.1f} MB, {figures['compressed'] / 1e6:.1f} MB precompressed; "
          f"{figures['stdlib']}")


if __name__ == "__main__":
    main()
