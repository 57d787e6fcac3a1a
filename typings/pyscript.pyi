"""Type stub for the part of PyScript's ``pyscript`` module this game uses: the main thread's
``document`` and ``window``."""

from pyodide.ffi import JsProxy

document: JsProxy
window: JsProxy
