// PyScript's own Python package as bytecode, for dist/ (scripts/build_dist.py).
//
//   node scripts/precompile_pyscript.mjs CORE.js TARGET.zip
//
// PyScript's core-*.js (CORE.js) carries the sources of its `pyscript` package as a JavaScript
// object ({pyscript: {"__init__.py": "...", ...}}) and, at every start, writes them to the
// browser's file system and imports them, so the browser compiles them each time: about a
// second under the mobile profile (bench/start_trace.py). This script reads that object out
// of CORE.js and compiles each module with the vendored Pyodide under Node, so the bytecode
// has exactly the browser's magic number, into TARGET.zip as the files CPython looks for next
// to a source: pyscript/__pycache__/NAME.cpython-3XX.pyc. web/snapshot.mjs unpacks it before
// PyScript writes the sources. Only the modules that `import pyscript` runs go in (not
// pyscript.web, fs, media: the game never imports them).
//
// The .pyc files are checked-hash pycs (PEP 552): CPython compares the hash of the source it
// finds with the one in the header and compiles the source as before if they differ, so a pyc
// that does not match the PyScript the page runs is never used.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";

const [core, target] = process.argv.slice(2);
if (!core || !target) {
  console.error("usage: node scripts/precompile_pyscript.mjs CORE.js TARGET.zip");
  process.exit(2);
}

// The object literal that starts at `{pyscript:{`, up to its closing brace (strings skipped).
function packageSources(text) {
  const start = text.indexOf("{pyscript:{");
  if (start < 0 || text.indexOf("{pyscript:{", start + 1) >= 0) {
    throw new Error("CORE.js must hold the pyscript package's sources ({pyscript:{...}}) exactly once");
  }
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (char === '"' || char === "'" || char === "`") {
      for (at++; text[at] !== char; at++) if (text[at] === "\\") at++;
    } else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return Function(`"use strict"; return (${text.slice(start, at + 1)});`)();
  }
  throw new Error("the pyscript package's sources never end");
}

// {"pyscript/__init__.py": source, ...} from the nested object (folders are objects).
function files(tree, folder = "") {
  return Object.entries(tree).flatMap(([name, value]) =>
    typeof value === "string" ? [[folder + name, value]] : files(value, `${folder}${name}/`));
}

const sources = files(packageSources(readFileSync(core, "utf8"))).filter(([name]) => name.endsWith(".py"));
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.globals.set("SOURCES", pyodide.toPy(Object.fromEntries(sources)));
pyodide.runPython(`
import ast, importlib.util, marshal, zipfile

def imported_at_start(sources, first="pyscript/__init__.py"):
    """The files that importing the package runs: its __init__ and, however indirectly, the
    package's modules that those import at module level (not inside functions)."""
    found, todo = set(), [first]
    while todo:
        name = todo.pop()
        if name in found or name not in sources:
            continue
        found.add(name)
        tree = ast.parse(sources[name])
        for node in ast.walk(ast.Module(body=[n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))], type_ignores=[])):
            modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] + [f"{node.module}.{alias.name}" for alias in node.names]
                       if isinstance(node, ast.ImportFrom) else [])
            for module in modules:
                path = module.replace(".", "/")
                todo += [path + ".py", path + "/__init__.py"]
    return found

class Utf8Name(zipfile.ZipInfo):
    """A member whose name is flagged UTF-8 even when it is ASCII (zipfile flags only others):
    unflagged names are read as cp437, a codec dist's trimmed stdlib does not ship."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits | 0x800

with zipfile.ZipFile("/tmp/pyscript.zip", "w", zipfile.ZIP_STORED) as zout:
    for name in sorted(imported_at_start(SOURCES)):
        text = SOURCES[name]
        source = text.encode("utf-8")   # as PyScript writes it (write_text(..., encoding="utf-8"))
        code = compile(source, name, "exec", dont_inherit=True)
        pyc = (importlib.util.MAGIC_NUMBER + (3).to_bytes(4, "little")   # hash-based, checked
               + importlib.util.source_hash(source) + marshal.dumps(code))
        # A fixed date keeps the zip byte-identical for identical sources.
        zout.writestr(Utf8Name(importlib.util.cache_from_source(name), (2000, 1, 1, 0, 0, 0)), pyc)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/pyscript.zip"));
