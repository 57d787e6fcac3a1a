"""Empty every docstring of a module (run inside Pyodide by precompile_app.mjs and
precompile_stdlib.mjs, before they compile what the browser gets): nothing in the browser reads
docstrings, and they are a fifth of the bytecode. A docstring becomes "" rather than going, so
``__doc__`` stays a string, a body that was only a docstring stays a body, and line numbers hold.

>>> function = without_docstrings("def f():\\n    'Say one.'\\n    return 1").body[0]
>>> function.body[0].value.value, len(function.body)
('', 2)
"""

import ast


def without_docstrings(source: str) -> ast.Module:
    """The module's tree with every docstring (module, class, function) emptied."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                first.value.value = ""
    return tree


def without_signature_annotations(tree: ast.Module) -> ast.Module:
    """The tree with every function's parameter and return annotations gone (our own modules
    only, run by precompile_app.mjs): they are for the type checker, and each is a string in
    the bytecode (``from __future__ import annotations``). Class and module annotations stay:
    dataclasses and TypedDicts read them. Nothing in game/ or web/ reads a function's
    ``__annotations__`` (no singledispatch, no get_type_hints).

    >>> tree = without_signature_annotations(ast.parse("def f(a: int, *b: str, c: 'X' = 1) -> bool: ..."))
    >>> ast.unparse(tree)
    'def f(a, *b, c=1):\\n    ...'
    """
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                             arguments.vararg, arguments.kwarg]:
                if argument is not None:
                    argument.annotation = None
            node.returns = None
    return tree
