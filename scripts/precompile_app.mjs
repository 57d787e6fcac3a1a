// Compile our own Python modules (game/, web/) to bytecode and pack them into one zip.
//
//   node scripts/precompile_app.mjs ROOT TARGET.zip [--sources | --sources-only] FILE... [--later LATER.zip FILE...]
//
// FILE is a path relative to ROOT (game/cards.py, ...); those after --later LATER.zip go into
// that second zip instead (web/app_later.zip: web.lazy.LATER), with a table of their own. Every module becomes FILE + "c"
// (game/cards.pyc) in TARGET.zip: an unchecked-hash .pyc (PEP 552) compiled by the vendored
// Pyodide itself, so it carries that CPython's magic number. The header still holds the
// source's hash, which scripts/app_bundle.py uses to tell a stale bundle from a fresh one.
// Docstrings are emptied and functions' annotations dropped in the bytecode (not in --sources
// copies): the page never reads them (scripts/docstrings.py).
// Unless --sources-only, the zip also holds web/dataclass_methods.py's table (its MEMBER): the
// methods of every dataclass our modules make, compiled here, which the page installs at start.
// With --sources the .py files go in too, for tracebacks with source lines (zipimport never
// reads them to import); with --sources-only they go in alone (the browser compiles them). A module with a syntax error goes in as source only (with a warning),
// so the page raises the same SyntaxError as the repository's page rather than run old code. The members are stored, not deflated: the site's precompressed
// .br/.gz copy of the whole zip is smaller than per-member deflate.
// Without sources the bytecode has no column positions (PYTHONNODEBUGRANGES; line numbers
// stay): they serve only the ^^^^ markers a traceback draws under a source line, which a zip
// without sources cannot show, and are about a quarter of its brotli bytes.
// Run by scripts/app_bundle.py (scripts/build_dist.py); the page puts the zip on sys.path.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const sourcesOnly = args.includes("--sources-only");
const sources = sourcesOnly || args.includes("--sources");
const [root, target, ...named] = args.filter((arg) => arg !== "--sources" && arg !== "--sources-only");
const split = named.indexOf("--later");
const files = split < 0 ? named : named.slice(0, split);
const [laterTarget, ...laterFiles] = split < 0 ? [null] : named.slice(split + 1);
if (!root || !target || files.length === 0 || (split >= 0 && !laterTarget)) {
  console.error("usage: node scripts/precompile_app.mjs ROOT TARGET.zip [--sources] FILE... [--later LATER.zip FILE...]");
  process.exit(2);
}
const pyodide = await loadPyodide({
  env: sources ? {} : { PYTHONNODEBUGRANGES: "1" }, stdout: () => {}, stderr: (line) => console.error(line),
});
for (const file of [...files, ...laterFiles]) {
  const path = "/src/" + file;
  pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  pyodide.FS.writeFile(path, readFileSync(join(root, file)));
}
pyodide.runPython(readFileSync(new URL("./docstrings.py", import.meta.url), "utf8"));   // without_docstrings
pyodide.globals.set("FILES", pyodide.toPy(files));
pyodide.globals.set("LATER_FILES", pyodide.toPy(laterFiles));
pyodide.globals.set("DATACLASS_METHODS", readFileSync(new URL("../web/dataclass_methods.py", import.meta.url), "utf8"));
pyodide.globals.set("SOURCES", sources);
pyodide.globals.set("SOURCES_ONLY", sourcesOnly);
pyodide.runPython(`
import ast, importlib.util, marshal, sys, zipfile

def bytecode(name, source, archive):
    """An unchecked-hash pyc of one module; its code names the module's place in the zip."""
    code = compile(without_signature_annotations(without_docstrings(source)), f"{archive}/{name}", "exec",
                   dont_inherit=True, optimize=0)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))

def methods_table(names, known=()):
    """Import the modules (files) that make dataclasses, recording the methods' sources and code
    (web/dataclass_methods.py), but those of the table known. A module that cannot be imported
    here (it needs the page) is left out, with a warning: its classes are compiled in the
    browser, as without a table."""
    table = {}
    dataclass_methods.record(table)
    for name in names:
        try:
            importlib.import_module(name.removesuffix(".py").removesuffix("/__init__").replace("/", "."))
        except Exception as error:
            print(f"precompile_app.mjs: {name}: not imported ({error!r}); its dataclasses compile in the browser",
                  file=sys.stderr)
    dataclass_methods.uninstall()
    return {source: code for source, code in table.items() if source not in known}

import importlib, types
# The recorder is this repository's (as docstrings.py is), so that any ROOT can be bundled.
dataclass_methods = types.ModuleType("dataclass_methods")
exec(compile(DATACLASS_METHODS, "web/dataclass_methods.py", "exec"), vars(dataclass_methods))
sys.path.insert(0, "/src")

def pack(target, names):
    """Write the zip of names to target; return the compiled ones that make dataclasses."""
    makers = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
        for name in sorted(names):
            with open("/src/" + name, "rb") as stream:
                source = stream.read()
            try:
                pyc = None if SOURCES_ONLY else bytecode(name, source, target.rpartition("/")[2])
            except SyntaxError as error:
                print(f"precompile_app.mjs: {name}: {error}; bundled as source", file=sys.stderr)
                pyc = None
            # A fixed date keeps the zip byte-identical for identical sources.
            if pyc is not None:
                zout.writestr(zipfile.ZipInfo(name + "c", (2000, 1, 1, 0, 0, 0)), pyc)
                if b"@dataclass" in source:
                    makers.append(name)
            if SOURCES or pyc is None:
                zout.writestr(zipfile.ZipInfo(name, (2000, 1, 1, 0, 0, 0)), source)
    return makers

def add_table(target, table):
    with zipfile.ZipFile(target, "a", zipfile.ZIP_STORED) as zout:
        zout.writestr(zipfile.ZipInfo(dataclass_methods.MEMBER, (2000, 1, 1, 0, 0, 0)), marshal.dumps(table))

makers = pack("/tmp/app.zip", FILES)
later_makers = pack("/tmp/app_later.zip", LATER_FILES)
if not SOURCES_ONLY:
    # The first zip's modules never import the later's when imported (tests/test_lazy.py): its
    # table is theirs alone, and the later zip's holds what only its own modules add.
    first = methods_table(makers)
    add_table("/tmp/app.zip", first)
    if LATER_FILES:
        add_table("/tmp/app_later.zip", methods_table(later_makers, first))
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/app.zip"));
if (laterTarget) writeFileSync(laterTarget, pyodide.FS.readFile("/tmp/app_later.zip"));
