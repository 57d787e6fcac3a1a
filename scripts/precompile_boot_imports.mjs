// The standard library modules that Pyodide's own start imports, for dist/ (scripts/build_dist.py).
//
//   node scripts/precompile_boot_imports.mjs STDLIB.zip
//
// Prints, as a JSON list, the modules that loadPyodide imports after CPython's own start (its
// main()) and before it returns: ast, re, typing, inspect, logging, asyncio and the rest that
// Pyodide's _pyodide and pyodide packages pull in, about 140 in all. The browser runs them in
// one synchronous call (finalizeBootstrap: 0.7-0.9 s of one main-thread task on a first
// visit, bench/first_input.py), so web/snapshot.mjs imports them first, a few at a time in
// tasks of their own, and Pyodide then finds them imported.
//
// Recorded here with the vendored Pyodide under Node, on STDLIB.zip (dist's own standard
// library: a module it lacks is not listed), in the order the imports finished (sys.modules
// order: CPython moves a module to the end once it is executed), so each import in that order
// runs one module's body. Pyodide's own modules (_pyodide, pyodide, pyodide_js, js) are left
// out: they set up the FFI in an order Pyodide keeps to itself.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import createPyodideModule from "../node_modules/pyodide/pyodide.asm.mjs";

const [stdlib] = process.argv.slice(2);
if (!stdlib) {
  console.error("usage: node scripts/precompile_boot_imports.mjs STDLIB.zip");
  process.exit(2);
}

const OWN = /^(_pyodide|_pyodide_core|pyodide|pyodide_js|js)(\.|$)/;
let afterMain = null;   // sys.modules once CPython has started, before Pyodide's own imports
const pyodide = await loadPyodide({
  stdLibURL: stdlib,
  stdout: () => {},
  stderr: (line) => console.error(line),
  async createPyodideModule(settings) {
    const module = await createPyodideModule(settings);
    const [failed, error] = module.API.rawRun("import sys as _sys; _after_main = list(_sys.modules); del _sys");
    if (failed) throw new Error(`reading sys.modules failed: ${error}`);
    afterMain = true;
    return module;
  },
});
if (!afterMain) throw new Error("loadPyodide did not call createPyodideModule: the recording saw nothing");
const [before, after] = pyodide.runPython("import sys; [_after_main, list(sys.modules)]").toJs();
const imported = after.filter((name) => !before.includes(name) && !OWN.test(name));
console.log(JSON.stringify(imported));
