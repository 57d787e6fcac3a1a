// PyScript `interpreter = "/bench/startup/wrapper.mjs"`: PyScript imports this module and calls
// loadPyodide({stdout, stderr, indexURL: <this folder>}); we add our start-up options
// (options.mjs) and put indexURL back on the vendored Pyodide.
import { loadPyodide as load, version } from "/web/vendor/pyodide/pyodide.mjs";
import { startupOptions } from "./options.mjs";

const options = startupOptions(); // starts the snapshot / lock fetches as soon as PyScript imports us

export { version };
export function loadPyodide(given = {}) {
  return load({ ...given, ...options });
}
