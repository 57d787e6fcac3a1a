"""Browser entry point: PyScript runs this file once pyscript.toml's [files] are in place.

The built site (scripts/build_dist.py) ships game/ and web/ as one zip of precompiled
bytecode, which its interpreter wrapper (web/snapshot.mjs) writes to app.zip; it goes first on sys.path, so zipimport loads
every module from it. The repository's own page has no app.zip and imports the sources.
Then it mounts the table (web.dom), which removes the loading line and sets the ready
marker (`<html data-ready="true">`) that tests and the benchmark wait for.
"""

import os
import sys

if os.path.isfile("app.zip"):
    sys.path.insert(0, os.path.abspath("app.zip"))

from pyscript import document, window  # noqa: E402

window.performance.mark("py:main")   # marks for bench/ready_path.py's timeline
from web.dom import start  # noqa: E402

window.performance.mark("py:imported")
document.getElementById("boot").remove()
start("table")
window.performance.mark("py:mounted")
