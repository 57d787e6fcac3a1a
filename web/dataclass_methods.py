"""Our dataclasses' methods, compiled when the site is built rather than at every start.

`@dataclass` writes the methods of each class (``__init__``, ``__eq__``, ``__hash__``,
``__setattr__`` ...) as Python source and compiles it while the module is imported. In the
browser that compile is about 2 ms a class, a third of what importing the start's modules
costs (bench/ready_path.py). So scripts/precompile_app.mjs imports our modules under the
vendored Pyodide, `record`s each source that dataclasses compiles with the code it compiles
to, and ships the table in web/app.zip (`MEMBER`; web/app_later.zip holds the table of its
own modules, web.lazy.LATER). Before the start's imports, web/main.py `install`s it (web.lazy
adds the later zip's when it brings that in): dataclasses then runs the table's code for a source it finds there. It is the
same source compiled by the same CPython, so the class is the same; a source not in the table
(a module edited since the build, another Python) is compiled as before.

>>> import dataclasses
>>> table = {}
>>> record(table)
>>> @dataclasses.dataclass(frozen=True)
... class Card:
...     rank: int
>>> install(table)
>>> @dataclasses.dataclass(frozen=True)
... class Card:
...     rank: int
>>> Card(5) == Card(5), COUNTS["from the table"] >= 1
(True, True)
>>> uninstall()
"""

import builtins
import dataclasses
import marshal
from collections.abc import Mapping
from types import CodeType

# No `from __future__ import annotations` here: exec inherits the caller's future flags, and would
# compile the sources dataclasses hands it with postponed annotations.
MEMBER = "dataclass_methods.marshal"   # at the top of web/app.zip, beside game/ and web/
COUNTS = {"from the table": 0, "compiled here": 0}


INSTALLED: dict[str, CodeType] = {}   # every installed table's entries (web/app.zip's, then web/app_later.zip's)


def install(table: dict[str, CodeType]) -> None:
    """Make dataclasses run `table`'s code for a source it holds (source text -> code), and
    that of the tables installed before."""
    INSTALLED.update(table)

    def exec_from_table(source: str | CodeType, globals: dict[str, object] | None = None,
                        locals: Mapping[str, object] | None = None, /) -> None:
        code = INSTALLED.get(source) if isinstance(source, str) else None
        COUNTS["compiled here" if code is None else "from the table"] += 1
        builtins.exec(source if code is None else code, globals, locals)

    vars(dataclasses)["exec"] = exec_from_table   # the name dataclasses calls: its module global shadows the builtin


def install_from(archive: str) -> bool:
    """`install` the table kept in the zip at path `archive`; False if it holds none."""
    import zipimport   # imported by the runtime already, to import from the same zip

    try:
        data = zipimport.zipimporter(archive).get_data(MEMBER)
    except OSError:
        return False
    install(marshal.loads(data))
    return True


def record(table: dict[str, CodeType]) -> None:
    """At build time: every source dataclasses compiles from now on goes into `table` with its
    code (compiled as the builtin exec would: no inherited __future__ flags, file "<string>")."""
    def exec_recording(source: str | CodeType, globals: dict[str, object] | None = None,
                       locals: Mapping[str, object] | None = None, /) -> None:
        if isinstance(source, str):
            source = table.setdefault(source, compile(source, "<string>", "exec", dont_inherit=True))
        builtins.exec(source, globals, locals)

    vars(dataclasses)["exec"] = exec_recording


def uninstall() -> None:
    """dataclasses compiles every source itself again (and forgets the tables installed)."""
    vars(dataclasses).pop("exec", None)
    INSTALLED.clear()
