// Rebuild Pyodide's standard library zip with every module compiled to bytecode (.pyc).
//
//   node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip
//
// Pyodide ships the standard library as .py source, so the browser compiles every module it
// imports on every visit: about half of the start-up time (bench/startup/README.md). Compiling
// once here, with the vendored Pyodide itself (so the bytecode matches its Python exactly),
// removes that work. Run by scripts/setup; the result replaces web/vendor/pyodide/python_stdlib.zip.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";

const [source, target] = process.argv.slice(2);
if (!source || !target) {
  console.error("usage: node scripts/precompile_stdlib.mjs SOURCE.zip TARGET.zip");
  process.exit(2);
}
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
pyodide.FS.writeFile("/tmp/source.zip", readFileSync(source));
pyodide.runPython(`
import importlib.util, marshal, zipfile

def bytecode(name, source):
    code = compile(source, "/lib/python314.zip/" + name, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")    # checked-hash pyc
            + importlib.util.source_hash(source) + marshal.dumps(code))

with zipfile.ZipFile("/tmp/source.zip") as zin, \\
        zipfile.ZipFile("/tmp/target.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
    for info in zin.infolist():
        if info.is_dir():
            continue
        name, data = info.filename, zin.read(info.filename)
        if name.endswith(".py"):
            try:
                data, name = bytecode(name, data), name + "c"
            except SyntaxError:   # a few test fixtures are not valid Python on purpose
                pass
        zout.writestr(name, data)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/target.zip"));
console.error(`precompiled the standard library into ${target}`);
