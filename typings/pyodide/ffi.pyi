"""Type stub for the part of Pyodide's ``pyodide.ffi`` this game uses, derived from Pyodide's
own typed sources (``_pyodide/_core_docs.py`` in node_modules/pyodide/python_stdlib.zip).

Pyodide types a JavaScript object's attributes only where a program declares them
(``JsProxy.bind_sig``); here a `JsProxy`'s attributes are unchecked (``Any``), as at run time
any JavaScript property can be read or set."""

from collections.abc import Callable, Iterable
from typing import Any, Generic, ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

class JsProxy:
    """A JavaScript object seen from Python."""

    def __getattr__(self, name: str) -> Any: ...
    def __setattr__(self, name: str, value: Any) -> None: ...
    def new(self, *args: Any, **kwargs: Any) -> JsProxy: ...
    def to_py(self, *, depth: int = -1) -> Any: ...
    @property
    def typeof(self) -> str: ...

class JsDoubleProxy(JsProxy, Generic[_T]):
    """A JavaScript proxy of a Python object (`create_proxy`), alive until destroyed."""

    def destroy(self) -> None: ...
    def unwrap(self) -> _T: ...

class JsOnceCallable(JsProxy, Generic[_P, _T]):
    """A JavaScript function that calls a Python one once, then frees it (`create_once_callable`)."""

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _T: ...
    def destroy(self) -> None: ...

def create_proxy(obj: _T, /, *, capture_this: bool = False, roundtrip: bool = True) -> JsDoubleProxy[_T]: ...
def create_once_callable(obj: Callable[_P, _T], /) -> JsOnceCallable[_P, _T]: ...
def to_js(
    obj: Any,
    /,
    *,
    depth: int = -1,
    pyproxies: JsProxy | None = None,
    create_pyproxies: bool = True,
    dict_converter: Callable[[Iterable[Any]], Any] | None = None,
) -> Any: ...
