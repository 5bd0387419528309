"""A float the plugin made itself, handed to a standard-library call that needs an integer (R074).

`random.randint(float(low), float(high))` fails on Python 3.12 ("'float' object cannot be
interpreted as an integer"; 3.10 and 3.11 only warned for whole floats), and `range(x / 2)` fails
on every Python. When the float comes from the plugin's own `float(...)`, a float literal or a `/`
in the same function, no input can avoid it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, every_node, library_callables
from generator.check.plugin_code import reachable_functions
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

FLOAT_ARGUMENT = rule(
    "R074",
    "float-where-integer-needed",
    Severity.ERROR,
    "{call}(...) receives {argument}, a float the plugin made ({origin!s}): {call} takes only integers,"
    " so the call fails with TypeError on Python 3.12 whatever the inputs",
    "Pass integers: convert with `int(...)` (or keep the bounds as integers) before calling {call}.",
    """
`random.randint`, `random.randrange` and `range` take integers only. Since Python 3.12 (the Python
Dify runs plugins with) `randrange`, and with it `randint`, refuses any float, a whole one too
("'float' object cannot be interpreted as an integer"; 3.10 and 3.11 accepted a whole float with a
DeprecationWarning); `range` always did. When the float is the plugin's own doing, visible in the
same function (an argument that is `float(...)`, a float literal or a `/` division, or a name every
binding of which is one of these), the call fails on every call that reaches it, whatever the
inputs; a run on invented inputs would otherwise blame the inputs or the library. Names bound
anywhere else (a parameter, a loop, an `int(...)`) are never judged.
""",
)
# module -> functions that refuse floats; `range` is a built-in.
INTEGER_ONLY = {"random": frozenset({"randint", "randrange"})}
BUILTINS = frozenset({"range"})
# Operators whose result is a float when either operand is one.
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.FloorDiv, ast.Pow)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Floats of the plugin's own making handed to calls that need integers."""
    if loaded.plugin is None:
        return
    for display, tree, function in reachable_functions(loaded):
        for call, name, argument, origin in _float_calls(function, _integer_only(tree)):
            yield FLOAT_ARGUMENT.at(
                Location(display, call.lineno, call.col_offset + 1),
                call=name,
                argument=argument,
                origin=Phrase(origin),
            )


def _integer_only(tree: ast.Module) -> dict[str, str]:
    """How the module names each integer-only function, and the built-ins."""
    return {**{name: name for name in BUILTINS}, **library_callables(tree, INTEGER_ONLY)}


def _float_calls(
    function: ast.FunctionDef | ast.AsyncFunctionDef, callables: dict[str, str]
) -> Iterator[tuple[ast.Call, str, str, str]]:
    nodes = own_nodes(function)
    floats: dict[str, str] | None = None  # told for a function that calls one of `callables` only
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        name = callables.get(called_name(node.func))
        if name is None or (name == "range" and _shadowed(function, nodes)):
            continue
        if floats is None:
            floats = _float_names(function, nodes)
        for argument in node.args:
            origin = _float_origin(argument, floats)
            if origin is not None:
                yield node, name, ast.unparse(argument)[:60], origin
                break


def _shadowed(function: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST]) -> bool:
    """True when the function binds `range` itself."""
    return any(isinstance(n, ast.Name) and n.id == "range" and not isinstance(n.ctx, ast.Load) for n in nodes)


def _float_names(function: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST]) -> dict[str, str]:
    """Names every binding of which in the function is a float of its own making, with where."""
    origins: dict[str, list[str | None]] = {}
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        origins.setdefault(argument.arg, []).append(None)
    single: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            single.add(id(node.targets[0]))
            origin = _float_origin(node.value, {})
            origins.setdefault(node.targets[0].id, []).append(
                f"{origin}, line {node.lineno}" if origin is not None else None
            )
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and id(node) not in single:
            origins.setdefault(node.id, []).append(None)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                origins.setdefault(name, []).append(None)
    for node in every_node(function):  # a nested function may rebind a name of this one
        if isinstance(node, ast.Nonlocal):
            for name in node.names:
                origins.setdefault(name, []).append(None)
    return {
        name: found[0]
        for name, found in origins.items()
        if found and all(origin is not None for origin in found) and found[0] is not None
    }


def _float_origin(node: ast.expr, floats: dict[str, str]) -> str | None:
    """How an expression is certainly a float: `float(...)`, a float literal, a `/` division, or
    a name bound only to these."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float":
        return "`float(...)`"
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        return "a float literal"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return "a `/` division, which always gives a float"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ARITHMETIC):
        return _float_origin(node.left, floats) or _float_origin(node.right, floats)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return _float_origin(node.operand, floats)
    if isinstance(node, ast.Name):
        return floats.get(node.id)
    return None
