// Rebuild Pyodide's standard library zip with every module compiled to bytecode (.pyc), and
// optionally two more: its sources made smaller (docstrings emptied, comments and blank lines
// gone: ast.unparse), and bytecode compiled with the docstrings emptied.
//
//   node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip [MIN_SOURCES.zip MIN_BYTECODE.zip]
//
// Pyodide ships the standard library as .py source, so the browser compiles every module it
// imports on every visit: about half of the start-up time (bench/startup/README.md). Compiling
// once here, with the vendored Pyodide itself (so the bytecode matches its Python exactly),
// removes that work. Run by scripts/setup; the result replaces web/vendor/pyodide/python_stdlib.zip.
// The smaller sources are what scripts/build_dist.py --stdlib py cuts the shipped zip from
// (scripts/stdlib_modules.py): bytecode is about three times the bytes of such sources once
// brotli has compressed both. A docstring becomes "" (not removed), so a module's __doc__ stays
// a string and a body that was only a docstring stays a body.
// All of it is compiled without column positions (PYTHONNODEBUGRANGES): they serve only the
// ^^^^ markers a traceback draws under a source line, and these zips hold no sources to show;
// line numbers stay. The column tables are about a third of the shipped stdlib's brotli bytes.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";

const [source, target, minSources, minBytecode] = process.argv.slice(2);
if (!source || !target || Boolean(minSources) !== Boolean(minBytecode)) {
  console.error("usage: node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip [MIN_SOURCES.zip MIN_BYTECODE.zip]");
  process.exit(2);
}
const pyodide = await loadPyodide({
  env: { PYTHONNODEBUGRANGES: "1" }, stdout: () => {}, stderr: (line) => console.error(line),
});
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(source));
pyodide.runPython(readFileSync(new URL("./docstrings.py", import.meta.url), "utf8"));   // without_docstrings
pyodide.globals.set("MINIFY", Boolean(minSources));
pyodide.runPython(`
import ast, importlib.util, marshal, zipfile

def bytecode(name, source, tree=None):
    code = compile(source if tree is None else tree, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")    # checked-hash pyc
            + importlib.util.source_hash(source) + marshal.dumps(code))

with zipfile.ZipFile("/tmp/source.zip") as zin, \\
        zipfile.ZipFile("/tmp/target.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout, \\
        zipfile.ZipFile("/tmp/min.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zmin, \\
        zipfile.ZipFile("/tmp/minpyc.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zminpyc:
    for info in zin.infolist():
        if info.is_dir():
            continue
        name, source = info.filename, zin.read(info.filename)
        data, small, small_name, small_pyc = source, source, name, source
        if name.endswith(".py"):
            try:
                data = bytecode(name, source)
                if MINIFY:
                    tree = without_docstrings(source)
                    small_pyc = bytecode(name, source, tree)   # line numbers still the source's
                    small = (ast.unparse(tree) + "\\n").encode("utf-8")
                small_name = name + "c"
            except SyntaxError:   # a few test fixtures are not valid Python on purpose
                small_name = name
        zout.writestr(small_name, data)
        if MINIFY:
            zmin.writestr(name, small)
            zminpyc.writestr(small_name, small_pyc)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/target.zip"));
console.error(`precompiled the standard library into ${target}`);
if (minSources) {
  writeFileSync(minSources, pyodide.FS.readFile("/tmp/min.zip"));
  writeFileSync(minBytecode, pyodide.FS.readFile("/tmp/minpyc.zip"));
  console.error(`wrote its smaller sources into ${minSources}, its bytecode without docstrings into ${minBytecode}`);
}
