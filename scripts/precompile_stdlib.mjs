// Rebuild Pyodide's standard library zip with every module compiled to bytecode (.pyc), and
// optionally a second zip of its sources made smaller (docstrings emptied, comments and blank
// lines gone: ast.unparse).
//
//   node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip [MIN_SOURCES.zip]
//
// Pyodide ships the standard library as .py source, so the browser compiles every module it
// imports on every visit: about half of the start-up time (bench/startup/README.md). Compiling
// once here, with the vendored Pyodide itself (so the bytecode matches its Python exactly),
// removes that work. Run by scripts/setup; the result replaces web/vendor/pyodide/python_stdlib.zip.
// The smaller sources are what scripts/build_dist.py --stdlib py cuts the shipped zip from
// (scripts/stdlib_modules.py): bytecode is about three times the bytes of such sources once
// brotli has compressed both. A docstring becomes "" (not removed), so a module's __doc__ stays
// a string and a body that was only a docstring stays a body.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";

const [source, target, minSources] = process.argv.slice(2);
if (!source || !target) {
  console.error("usage: node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip [MIN_SOURCES.zip]");
  process.exit(2);
}
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(source));
pyodide.globals.set("MINIFY", Boolean(minSources));
pyodide.runPython(`
import ast, importlib.util, marshal, zipfile

def bytecode(name, source):
    code = compile(source, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")    # checked-hash pyc
            + importlib.util.source_hash(source) + marshal.dumps(code))

def smaller(source):
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                first.value.value = ""
    return (ast.unparse(tree) + "\\n").encode("utf-8")

with zipfile.ZipFile("/tmp/source.zip") as zin, \\
        zipfile.ZipFile("/tmp/target.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout, \\
        zipfile.ZipFile("/tmp/min.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zmin:
    for info in zin.infolist():
        if info.is_dir():
            continue
        name, data = info.filename, zin.read(info.filename)
        small = data
        if name.endswith(".py"):
            try:
                data, name = bytecode(name, data), name + "c"
                if MINIFY:
                    small = smaller(small)
            except SyntaxError:   # a few test fixtures are not valid Python on purpose
                pass
        zout.writestr(name, data)
        if MINIFY:
            zmin.writestr(info.filename, small)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/target.zip"));
console.error(`precompiled the standard library into ${target}`);
if (minSources) {
  writeFileSync(minSources, pyodide.FS.readFile("/tmp/min.zip"));
  console.error(`wrote its smaller sources into ${minSources}`);
}
