// dist/ only: PyScript's interpreter module (dist's pyscript.toml: interpreter = "./web/snapshot.mjs").
// scripts/build_dist.py writes the build's version and module list into the two constants below.
//
// A repeat visit spends most of its start in CPython's own start-up and imports. The first
// visit that starts normally therefore makes a Pyodide memory snapshot (the wasm heap after
// importing our pure-Python modules, ~31 MB) in the visitor's own browser, in a worker, once
// the table is ready and the page idle (web/snapshot_worker.mjs), and keeps it in Cache
// Storage under this build's version. Later visits of the same build start from it
// (loadPyodide's _loadSnapshot), which skips the interpreter's start-up and those imports.
//
// The snapshot options are private to Pyodide (underscore-prefixed, undocumented), so nothing
// may depend on them: a snapshot of another build is never looked at, one that fails to load
// is deleted and this build never tries one again in this browser (localStorage), and the
// page then starts exactly as it does without one. <html data-snapshot> tells what happened:
// "loaded", "failed" (then a normal start), "none" (a normal start), and after a normal start
// "stored" once a snapshot is saved (or "unsaved" if making it failed).
import { loadPyodide as load, version } from "./vendor/pyodide/pyodide.mjs";

export { version };   // PyScript reads the interpreter's version from its module

const BUILD = "__BUILD__";
const MODULES = ["__MODULES__"];   // what the worker imports before taking the snapshot
// The standard library's modules that Pyodide's own start imports, in the order their imports
// finish (scripts/precompile_boot_imports.mjs): imported a few per task before it (see createModule).
const BOOT_IMPORTS = ["__BOOT_IMPORTS__"];
const SNAPSHOTS = "__SNAPSHOTS__";  // false in a dist built with --no-snapshot: always a normal start
// Not "cribbage-...": sw.js deletes those caches when a new build takes over, and a snapshot
// being made then must not be lost. The key names the build, so no other build reads it.
const CACHE = "pyodide-snapshot";
const KEY = new URL(`./snapshot-${BUILD}.bin`, import.meta.url).href;
const SAVED = "cribbage.snapshot";          // localStorage: the build whose snapshot is stored
const FAILED = "cribbage.snapshot.failed";   // localStorage: the build whose snapshot failed
const BUNDLE = { url: new URL("./app.zip", import.meta.url).href, path: "app.zip" };   // see web/main.py
// What only tables with friends and linking a device import (web.lazy.LATER): not fetched at
// all unless the page is a table's (?table=...), whose start then needs it (web/main.py).
const LATER_BUNDLE = new URLSearchParams(location.search).has("table")
  && { url: new URL("./app_later.zip", import.meta.url).href, path: "app_later.zip" };   // web.lazy.ARCHIVE
// The stdlib modules that only PyScript and the game import, never the runtime's own start
// (scripts/stdlib_modules.py AFTER_START), in a zip of their own, or null: all in python_stdlib.zip.
const AFTER_START = "__AFTER_START__";
const STDLIB_AFTER_START = AFTER_START && { url: new URL(AFTER_START, import.meta.url).href, path: "/lib/stdlib_after_start.zip" };
// PyScript passes indexURL = this module's folder; the runtime lives in vendor/pyodide/.
const indexURL = new URL("./vendor/pyodide/", import.meta.url).href;
const root = document.documentElement;

// Our modules (web/app.zip; web/app_later.zip too for a table's link), the stdlib's modules that only they import (STDLIB_AFTER_START) and
// PyScript's own as bytecode (web/pyscript.zip, see unpackBytecode) are only read once the runtime has started, seconds of CPU after the wasm's
// last byte. So they are fetched from then on, not with the rest: on a slow network every byte
// fetched before the wasm's last one delays it (bench/ready_path.py shows the wasm's end).
// The moment is when WebAssembly.instantiateStreaming, Pyodide's one call of it, resolves: its
// last byte is in. The fetches start in that promise's first reaction, before Pyodide's own,
// which starts the runtime (a resource-timing observer's callback, a task of normal priority,
// would wait behind the start's slices; see createModule). install() starts them anyway if that
// never happened. This wrapper writes app.zip where web/main.py finds it (dist's PyScript config
// has no [files]).
const later = {};   // the promises of the files' bytes, once requested
function fetchLater() {
  if (later.bundle) return;
  const bytes = (url) => fetch(url).then((response) =>
    (response.ok ? response.arrayBuffer() : Promise.reject(new Error(`${response.status} ${url}`))));
  later.bundle = bytes(BUNDLE.url);
  later.bundle.catch(() => {});   // reported by install(); no "unhandled rejection" before that
  later.stdlib = STDLIB_AFTER_START ? bytes(STDLIB_AFTER_START.url) : Promise.resolve(null);
  later.stdlib.catch(() => {});
  later.bytecode = bytes(new URL("./pyscript.zip", import.meta.url).href).catch(() => null);
  // (failed: web.lazy fetches it again, and the page says why if that fails too)
  later.friends = LATER_BUNDLE ? bytes(LATER_BUNDLE.url).catch(() => null) : Promise.resolve(null);
}
const streaming = WebAssembly.instantiateStreaming;
if (streaming) {
  WebAssembly.instantiateStreaming = function (...args) {
    WebAssembly.instantiateStreaming = streaming;   // only this first call is watched
    const compiled = streaming.apply(this, args);
    compiled.then(fetchLater, fetchLater);
    return compiled;
  };
}

// Runs in the restored interpreter before PyScript uses it: the snapshot must hold the modules
// it was made for, and the random module must not replay the state saved with the snapshot
// (every visit would draw the same numbers; the game's seeds come from os.urandom anyway).
const AFTER_RESTORE = `
import sys
missing = [name for name in MODULES if name not in sys.modules]
if missing:
    raise RuntimeError(f"the snapshot lacks {missing}")
if "random" in sys.modules:
    sys.modules["random"].seed()
`;

function setting(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(key);
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* storage blocked (privacy settings): no snapshot then */ }
  return null;
}

function usable() {
  return SNAPSHOTS && "caches" in self && "Worker" in self && setting(FAILED) !== BUILD;
}

// The stored snapshot is gone (the browser may evict Cache Storage): make a new one.
class Missing extends Error {}

// Only when localStorage says this build's snapshot is stored: a first visit then never waits
// for Cache Storage. Read at once, while PyScript still reads its config; loadPyodide below
// hands the promise itself to Pyodide, which awaits it only after starting the runtime's
// downloads. Rejects if the snapshot is missing or truncated.
const stored = usable() && setting(SAVED) === BUILD ? readSnapshot() : null;
stored?.catch(() => {});   // handled in loadPyodide; no "unhandled rejection" before that

async function readSnapshot() {
  const response = await (await caches.open(CACHE)).match(KEY);
  if (!response) throw new Missing("no stored snapshot");
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (String(bytes.length) !== response.headers.get("x-snapshot-bytes")) throw new Error("the stored snapshot is truncated");
  return bytes;
}

// A snapshot that did not work: delete it, and do not make another for this build.
async function forget(error) {
  console.warn("Cribbage: starting without the saved start-up snapshot:", error);
  root.dataset.snapshot = "failed";
  setting(SAVED, null);
  setting(FAILED, BUILD);
  try {
    await (await caches.open(CACHE)).delete(KEY);
  } catch { /* nothing more to do */ }
}

export async function loadPyodide(given = {}) {
  const pyodide = await start({ ...given, indexURL });
  mark("pyodide");
  await nextTask();
  await install(pyodide);
  mark("installed");
  await nextTask();
  return pyodide;
}

// The start in slices. Pyodide's loadPyodide runs the runtime's start as a few long stretches
// of the main thread (on a first visit one of 0.24-0.33 s of the thread's time, 0.4-1.9 s of
// wall time on a busy machine: bench/first_input.py), during which the start form (index.html)
// echoes no tap and no key. It takes the factory of the Emscripten module as an option
// (createPyodideModule), so this one gives the page a turn (a new task: pending input, and a
// frame, come first) at every seam Emscripten and Pyodide leave:
//   1. once pyodide.asm.mjs (1.2 MB of script) is imported;
//   2. after the factory's own set-up, before the wasm is instantiated;
//   3. once the instance is ready, before Emscripten takes its exports in;
//   4. after that, before the file system is set up (preRun: the stdlib written into it): a run
//      dependency of ours holds it back;
//   5. before CPython's own start, main(), which Emscripten runs from a timer when the module
//      has setStatus;
//   6. after it, before Pyodide's own Python start (finalizeBootstrap), whose standard library
//      imports (BOOT_IMPORTS, most of its time) we make first, a few per task.
// One task each stays, 20-65 ms of the thread's time each: the factory's set-up (the body of
// pyodide.asm.mjs's function), finishing the instantiation, taking the exports in, main(), the
// rest of finalizeBootstrap (Pyodide's own modules) or, from a snapshot, restoring it.
// `imports` is BOOT_IMPORTS for a normal start, [] for a snapshot (whose restored heap holds
// them; main() does not run then).
async function createModule(settings, imports) {
  const { default: create } = await import("./vendor/pyodide/pyodide.asm.mjs");
  mark("asm");
  await nextTask();
  mark("factory");
  const instantiate = settings.instantiateWasm;   // Pyodide's (absent in its debug builds)
  if (instantiate) {
    settings.instantiateWasm = (wasmImports, receive) => {
      mark("instantiate");
      nextTask().then(() => instantiate(wasmImports, async (instance, module) => {
        mark("instance");
        await nextTask();
        settings.addRunDependency("cribbage-slice");
        receive(instance, module);   // Emscripten takes the exports in; run() then waits for us
        await nextTask();
        mark("prerun");
        settings.removeRunDependency("cribbage-slice");   // preRun, then main() from a timer
      }));
      return {};   // as Pyodide's own: the exports come later, through `receive`
    };
  }
  settings.setStatus ??= () => {};
  const initialized = settings.onRuntimeInitialized;
  settings.onRuntimeInitialized = () => {
    mark("main");
    initialized?.();
  };
  const module = await create(settings);
  mark("main done");
  await nextTask();
  await importSliced(module, imports);
  mark("imported");
  return module;
}

const SLICE_MS = 30;   // the longest a slice of imports may take, judged by its longest import

// `names` imported one by one, yielding to the page whenever the next import might not fit in
// the slice. Each through CPython's C API, which Pyodide exports for extension modules (a
// runPython costs 0.1-0.3 ms more an import); without it, none (Pyodide's start imports them
// all, in one task, as before). A module that fails to import is left to Pyodide's start,
// which reports it as it would have.
async function importSliced(module, names) {
  const { _PyImport_ImportModule: load, _Py_DecRef: release, _PyErr_Clear: clear, stringToNewUTF8: utf8, _free: free } = module;
  if (![load, release, clear, utf8, free].every((f) => typeof f === "function")) return;
  let began = performance.now(), longest = 0;
  for (const name of names) {
    const before = performance.now();
    const text = utf8(name);
    const imported = load(text);   // a new reference to the module, or NULL with an error set
    free(text);
    if (imported) release(imported);
    else clear();
    const now = performance.now();
    longest = Math.max(longest, now - before);
    if (now - began + longest > SLICE_MS) {
      await nextTask();
      began = performance.now();
    }
  }
}

// A new task: the page handles pending input and may paint before the start goes on.
function nextTask() {
  return globalThis.scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}

// Marks of the start's steps, for bench/first_input.py's list of long tasks.
function mark(name) {
  performance.mark(`js:${name}`);
}

// The runtime, from the stored snapshot when there is one that works, else started normally.
async function start(options) {
  if (stored) {
    try {
      const pyodide = await load({ ...options, _loadSnapshot: stored,
                                   createPyodideModule: (settings) => createModule(settings, []) });
      await nextTask();
      const globals = pyodide.toPy({ MODULES });
      try {
        pyodide.runPython(AFTER_RESTORE, { globals });
      } finally {
        globals.destroy();
      }
      root.dataset.snapshot = "loaded";
      return pyodide;
    } catch (error) {
      // Then start as if there had never been one.
      if (error instanceof Missing) setting(SAVED, null);
      else await forget(error);
    }
  }
  const pyodide = await load({ ...options, createPyodideModule: (settings) => createModule(settings, BOOT_IMPORTS) });
  root.dataset.snapshot ||= "none";
  if (usable()) whenReadyAndIdle(makeSnapshot);
  return pyodide;
}

// Our modules, the rest of the stdlib and PyScript's bytecode into the file system, once the
// runtime is up (and before PyScript runs any Python: it imports html).
async function install(pyodide) {
  fetchLater();
  const [bundle, stdlib, friends] = await Promise.all([later.bundle, later.stdlib, later.friends]);
  pyodide.FS.writeFile(BUNDLE.path, new Uint8Array(bundle));
  if (friends) pyodide.FS.writeFile(LATER_BUNDLE.path, new Uint8Array(friends));
  if (stdlib) addStdlib(pyodide, STDLIB_AFTER_START.path, stdlib);
  await nextTask();
  await unpackBytecode(pyodide);
}

// The zip of stdlib modules at `path`, at the end of sys.path (zipimport). A runtime restored
// from a snapshot has the entry already (the worker added it), not the file.
function addStdlib(pyodide, path, bytes) {
  pyodide.FS.writeFile(path, new Uint8Array(bytes));
  const literal = JSON.stringify(path);   // a Python string literal too (the path is ASCII)
  pyodide.runPython(`import sys\nif ${literal} not in sys.path:\n    sys.path.append(${literal})`);
}

// PyScript's own Python modules as bytecode (scripts/precompile_pyscript.mjs), unpacked into
// the working directory: PyScript then writes their sources next to them, and CPython imports
// the bytecode instead of compiling the sources (it checks the sources' hash, so a mismatch
// just compiles as before). Without it (not fetched, not unpacked), they are compiled as on
// any page.
async function unpackBytecode(pyodide) {
  const bytes = await later.bytecode;
  if (!bytes) return;
  try {
    pyodide.unpackArchive(bytes, "zip");
  } catch (error) {
    console.warn("Cribbage: PyScript's bytecode was not unpacked:", error);
  }
}

// After the table is ready (html[data-ready]) and a quiet moment: the snapshot's worker
// competes for the CPU, so never during the start itself.
function whenReadyAndIdle(task) {
  const later = () => setTimeout(() => (self.requestIdleCallback || setTimeout)(task, { timeout: 5000 }), 1000);
  if (root.dataset.ready === "true") return later();
  new MutationObserver((_, observer) => {
    if (root.dataset.ready === "true") { observer.disconnect(); later(); }
  }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
}

async function makeSnapshot() {
  // One tab at a time makes it (Web Locks, where the browser has them).
  const exclusive = (work) => (navigator.locks
    ? navigator.locks.request("cribbage-snapshot", { ifAvailable: true }, (lock) => lock && work())
    : work());
  try {
    await exclusive(async () => {
      if (!usable()) return;
      if (!await (await caches.open(CACHE)).match(KEY)) {   // else another tab made it meanwhile
        const reply = await makeInWorker();
        if (!reply.ok) throw new Error(reply.error);
      }
      setting(SAVED, BUILD);
      root.dataset.snapshot = "stored";
    });
  } catch (error) {
    // Not worth a retry on every visit: this build goes on without one.
    console.warn("Cribbage: could not save a start-up snapshot:", error);
    root.dataset.snapshot = "unsaved";
    setting(FAILED, BUILD);
  }
}

// web/snapshot_worker.mjs makes and stores it; resolves to its reply ({ok, bytes} or {ok: false, error}).
function makeInWorker() {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./snapshot_worker.mjs", import.meta.url), { type: "module" });
    const done = (message) => { clearTimeout(timer); worker.terminate(); resolve(message); };
    const timer = setTimeout(() => done({ ok: false, error: "timed out" }), 120000);
    worker.onmessage = ({ data }) => done(data);
    worker.onerror = (event) => done({ ok: false, error: event.message || "worker error" });
    worker.postMessage({ key: KEY, modules: MODULES, bundleURL: BUNDLE.url, bundlePath: BUNDLE.path,
                         stdlib: STDLIB_AFTER_START, cache: CACHE });
  });
}
