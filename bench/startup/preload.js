// Classic script in <head>: adds <link rel="preload"> / "modulepreload" for the files named
// by ?pre=wasm,asm,mjs,std,lock,snap (or pre=default: wasm,asm,mjs,std,lock) before any
// module script runs. Same effect as writing the links into the HTML.
{
  const q = new URLSearchParams(location.search);
  const index = q.get("index") || "/web/vendor/pyodide/";
  const urls = {
    wasm: [index + "pyodide.asm.wasm", "fetch"],
    asm: [index + "pyodide.asm.mjs", "module"],
    mjs: [index + "pyodide.mjs", "module"],
    std: [q.get("std") || index + "python_stdlib.zip", "fetch"],
    lock: [index + "pyodide-lock.json", "fetch"],
    snap: [q.get("snap"), "fetch"],
  };
  let wanted = (q.get("pre") || "").split(",").filter(Boolean);
  if (wanted.includes("default")) wanted = ["wasm", "asm", "mjs", "std", "lock"];
  for (const name of wanted) {
    const [href, as] = urls[name];
    if (!href) continue;
    const link = document.createElement("link");
    if (as === "module") {
      link.rel = "modulepreload";
    } else {
      link.rel = "preload";
      link.as = as;
      link.crossOrigin = "anonymous"; // fetch() is a CORS-mode request: the preload must match
    }
    link.href = href;
    document.head.append(link);
  }
}
