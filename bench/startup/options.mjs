// Start-up options for loadPyodide, read from the page's query string, shared by
// plain.mjs (our own loader) and wrapper.mjs (PyScript's `interpreter`).
//   index=URL  indexURL (default /web/vendor/pyodide/)
//   lock=URL   lockFileContents from a small lock file instead of the 119 KB pyodide-lock.json
//   std=URL    stdLibURL (a smaller or precompiled python_stdlib.zip)
//   snap=URL   _loadSnapshot (a memory snapshot made by plain.mjs?prepare=snap)
export const params = new URLSearchParams(location.search);
export const indexURL = new URL(params.get("index") || "/web/vendor/pyodide/", location).href;

function body(url, kind) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response[kind]();
  });
}

export function startupOptions(extra = {}) {
  const options = { indexURL };
  if (params.has("lock")) options.lockFileContents = body(params.get("lock"), "text");
  if (params.has("std")) options.stdLibURL = new URL(params.get("std"), location).href;
  if (params.has("snap")) options._loadSnapshot = body(params.get("snap"), "arrayBuffer");
  return Object.assign(options, extra);
}
