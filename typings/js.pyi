"""Type stub for Pyodide's ``js`` module: the browser's global scope (``js.document``,
``js.window``, ``js.console``, ``js.WebSocket``...). Any global name is looked up in JavaScript
at run time, so every name is a `JsProxy`, whose attributes are unchecked (``Any``)."""

from typing import Any

from pyodide.ffi import JsProxy

def __getattr__(name: str) -> JsProxy: ...
def eval(code: str, /) -> Any: ...   # the code's value: a function it evaluates to comes back callable
