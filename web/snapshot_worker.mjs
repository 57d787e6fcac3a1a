// dist/ only (scripts/build_dist.py): makes a Pyodide memory snapshot for web/snapshot.mjs,
// in a dedicated worker so that the page stays responsive while it is made.
//
// The page sends {key, modules, bundleURL, bundlePath, stdlib, cache} once it is ready and idle, on a visit that
// started without a snapshot. We start a second, throw-away Pyodide here with _makeSnapshot
// (it then records how Python reaches JS objects, by path from globalThis, so the snapshot
// can be restored in another realm: the page's main thread), put our bundle where the page
// puts it (web/snapshot.mjs writes it to Python's working directory, web/main.py puts it first
// on sys.path), import the modules that need no browser API (`modules`: never js, pyodide or
// pyscript, which would tie the heap to this worker's JS objects; `stdlib`, {url, path} or null,
// is the zip of stdlib modules they may need that the page adds to sys.path), and store the heap in
// Cache Storage under `key`, which names the build. Replies {ok, bytes} or {ok: false, error}.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const indexURL = new URL("./vendor/pyodide/", import.meta.url).href;

// Runs in the worker's Python. The same sys.path entry as web/main.py's (an absolute path:
// zipimport keys its cache by it), then every module; anything else is left as it was.
const IMPORT = `
import importlib, os, sys
bundle = os.path.abspath(BUNDLE)
sys.path.insert(0, bundle)
if STDLIB:
    sys.path.append(STDLIB)
for name in MODULES:
    importlib.import_module(name)
missing = [name for name in MODULES if not sys.modules[name].__file__.startswith(bundle + "/")]
assert not missing, f"not imported from the bundle: {missing}"
`;

const bytes = (url) => fetch(url).then((response) => {
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
});

self.onmessage = async ({ data: { key, modules, bundleURL, bundlePath, stdlib, cache: cacheName } }) => {
  try {
    const [pyodide, zip, stdlibZip] = await Promise.all([
      loadPyodide({ indexURL, _makeSnapshot: true, stdout: () => {}, stderr: (line) => console.warn(line) }),
      bytes(bundleURL),
      stdlib && bytes(stdlib.url),
    ]);
    pyodide.FS.writeFile(bundlePath, new Uint8Array(zip));
    if (stdlib) pyodide.FS.writeFile(stdlib.path, new Uint8Array(stdlibZip));
    const globals = pyodide.toPy({ BUNDLE: bundlePath, MODULES: modules, STDLIB: stdlib && stdlib.path });
    pyodide.runPython(IMPORT, { globals });
    globals.destroy();   // no proxy may stay alive in the heap we save
    const snapshot = pyodide.makeMemorySnapshot();
    const cache = await caches.open(cacheName);
    // One snapshot at a time: another build's is of no use any more (and 31 MB).
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request);
    }
    await cache.put(key, new Response(snapshot, {
      headers: { "content-type": "application/octet-stream", "x-snapshot-bytes": String(snapshot.length) },
    }));
    self.postMessage({ ok: true, bytes: snapshot.length });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack || error) });
  }
};
