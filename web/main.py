"""Browser entry point: PyScript runs this file once pyscript.toml's [files] are in place.

It mounts the table (web.dom), which removes the loading line and sets the ready marker
(`<html data-ready="true">`) that tests and the benchmark wait for.
"""

from pyscript import document

from web.dom import start

document.getElementById("boot").remove()
start("table")
