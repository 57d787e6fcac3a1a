// loadPyodide() from the vendored pyodide.mjs, no PyScript. Query string (see options.mjs too):
//   game=1       fetch the game/ files listed in /art/game-files.json, write them to the FS
//                and import every module (with snap=..., only check they are in sys.modules)
//   stdmods=1    leave in window.__stdmods the stdlib files Python has imported
//   prepare=snap      make a memory snapshot after the game import, PUT it to /upload/<out>
//   prepare=stdlib    build precompiled / reduced stdlib zips, PUT them to /upload/
import { loadPyodide } from "/web/vendor/pyodide/pyodide.mjs";
import { params, startupOptions } from "./options.mjs";

const marks = (window.__marks = { start: performance.now() });
const prepare = params.get("prepare");

const gameFiles = params.has("game")
  ? fetch("/art/game-files.json")
      .then((r) => r.json())
      .then((paths) => Promise.all(paths.map((p) => fetch("/" + p).then((r) => r.text()).then((t) => [p, t]))))
  : Promise.resolve([]);

function moduleName(path) {
  return path.replace(/\.py$/, "").replace(/\/__init__$/, "").replaceAll("/", ".");
}

async function upload(name, bytes) {
  const response = await fetch("/upload/" + name, { method: "PUT", body: bytes });
  if (!response.ok) throw new Error(`upload ${name}: HTTP ${response.status}`);
}

const STDMODS = `
import sys, json
prefix = sys.path[1] if sys.path[1].endswith(".zip") else [p for p in sys.path if p.endswith(".zip")][0]
files = sorted({m.__file__[len(prefix) + 1:] for m in list(sys.modules.values())
                if (getattr(m, "__file__", None) or "").startswith(prefix + "/")})
json.dumps(files)
`;

// Runs in Pyodide (Python 3.14): write python_stdlib variants. A .pyc is an unchecked
// hash-based one (PEP 552), so zipimport uses it without the source.
const BUILD_STDLIB = `
import importlib.util, io, json, marshal, sys, zipfile
src = [p for p in sys.path if p.endswith(".zip")][0]
keep = set(json.loads(KEEP))

def pyc(name, source):
    code = compile(source, src + "/" + name, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))

def build(path, compiled, only):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            name = info.filename
            if info.is_dir() or (only and name not in keep):
                continue
            data = zin.read(name)
            if compiled and name.endswith(".py"):
                try:
                    data, name = pyc(name, data), name + "c"
                except SyntaxError:
                    pass
            zout.writestr(name, data)

build("/tmp/stdlib-pyc.zip", True, False)
build("/tmp/stdlib-mini.zip", False, True)
build("/tmp/stdlib-mini-pyc.zip", True, True)
`;

try {
  const pyodide = await loadPyodide(startupOptions(prepare === "snap" ? { _makeSnapshot: true } : {}));
  marks.loaded = performance.now();
  const files = await gameFiles;
  const modules = files.map(([p]) => moduleName(p)).sort();
  pyodide.globals.set("MODULES", pyodide.toPy(modules));
  if (params.has("snap")) {
    if (!pyodide.runPython("import sys; all(m in sys.modules for m in MODULES)")) throw new Error("snapshot lacks the game");
  } else {
    for (const [path, text] of files) {
      pyodide.FS.mkdirTree(path.split("/").slice(0, -1).join("/") || ".");
      pyodide.FS.writeFile(path, text);
    }
    pyodide.runPython("import importlib\nfor m in MODULES: importlib.import_module(m)");
  }
  marks.imported = performance.now();
  if (params.has("stdmods")) window.__stdmods = pyodide.runPython(STDMODS);
  if (prepare === "snap") {
    const snapshot = pyodide.makeMemorySnapshot();
    marks.snapshotBytes = snapshot.length;
    await upload(params.get("out"), snapshot);
  } else if (prepare === "stdlib") {
    pyodide.globals.set("KEEP", await (await fetch("/art/stdmods.json")).text());
    pyodide.runPython(BUILD_STDLIB);
    for (const name of ["stdlib-pyc.zip", "stdlib-mini.zip", "stdlib-mini-pyc.zip"]) {
      await upload(name, pyodide.FS.readFile("/tmp/" + name));
    }
  }
  document.documentElement.dataset.ready = "true";
} catch (error) {
  console.error(error);
  document.documentElement.dataset.error = String(error);
}
