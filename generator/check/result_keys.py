"""A key read from what the plugin's own function returned, when one of its returns leaves that key
out (R144): `result["file"]` after a helper that answers `{"file": ...}` when it works and
`{"error": ...}` when it does not, read without a test, raises KeyError on the second path, and the
helper's own message is lost.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.own_calls import OwnCalls
from generator.check.plugin_code import Function, reachable_functions
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, rule

KEY_LEFT_OUT = rule(
    "R144",
    "result-key-left-out",
    Severity.WARNING,
    '{read} reads the key "{key}" from what {function} returned, but its return at {line} leaves'
    " that key out (it gives {given!s}): when that return is taken, the read raises KeyError and what"
    " {function} said there is lost",
    'Test the result before reading it (`if "{key}" not in {name}:` and answer what the other return says),'
    " or give every return of {function} the same keys.",
    """
A function of the plugin that answers with a dictionary literal on each of its paths, with other
keys on some of them (`return {"file": data}` when the work is done, `return {"error": str(e)}` in
its `except`), tells its caller which path it took through the keys. A caller that reads a key by
subscript (`result["file"]`) without testing first gets Python's KeyError whenever the function took
a path whose dictionary lacks it: the tool crashes (or its catch-all `except` answers `'file'`) where
the function had a message for the user.

Found without running: every `return` of the function (its own, not those of nested functions)
gives a dictionary literal whose keys are all constant strings, and they do not all have the same
keys; the caller binds the call's result to a name once and reads a key some returns leave out,
with no test of that name anywhere in the caller (`"k" in name`, `name.get(...)`, the name or one
of its keys in an `if`, `while`, `assert` or conditional expression, `isinstance`) and no handler
of KeyError around the read. The function is one the caller names as R136 follows it (`own_calls`): a name
bound once in its module to a function of the plugin's own modules, through their re-exports, or a
method of its own class (or of the plugin's bases it inherits) through `self`. A warning: the read
fails only on the path the function does not take when it works.
""",
)
# The handlers that expect the KeyError of a missing key.
_KEY_ERRORS = frozenset({"KeyError", "LookupError"})


@dataclass(frozen=True, slots=True)
class _Shape:
    """The keys of each return of a function whose every return gives a dictionary literal."""

    name: str
    file: str  # as shown
    returns: tuple[tuple[int, frozenset[str]], ...]  # (line, keys)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R144 in every function of the modules the SDK loads."""
    calls = OwnCalls(loaded)
    for display, tree, caller in reachable_functions(loaded):
        yield from _reads(caller, tree, display, calls)


def _shape(function: Function, display: str) -> _Shape | None:
    """The keys of each return, when every return gives a dictionary literal of constant string
    keys (no `**`) and the returns do not all give the same keys."""
    returns = [node for node in own_nodes(function) if isinstance(node, ast.Return)]
    if len(returns) < 2 or isinstance(function, ast.AsyncFunctionDef):
        return None
    shapes: list[tuple[int, frozenset[str]]] = []
    for node in returns:
        if not isinstance(node.value, ast.Dict):
            return None
        keys = node.value.keys
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
            return None
        shapes.append((node.lineno, frozenset(str(k.value) for k in keys if isinstance(k, ast.Constant))))
    if len({keys for _line, keys in shapes}) < 2:
        return None
    return _Shape(function.name, display, tuple(shapes))


def _reads(caller: Function, tree: ast.Module, display: str, calls: OwnCalls) -> Iterator[Finding]:
    nodes = own_nodes(caller)
    bound: dict[str, list[_Shape | None]] = {}
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.setdefault(node.id, [])
        if isinstance(node, ast.arg):
            bound.setdefault(node.arg, []).append(None)
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound[node.targets[0].id].append(_called(node.value, caller, tree, calls))
    stores = {
        name: sum(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in nodes)
        for name in bound
    }
    held = {
        name: values[0]
        for name, values in bound.items()
        if len(values) == 1 and values[0] is not None and stores[name] == 1
    }
    if not held:
        return
    tested = _tested(caller, nodes)
    guarded = _key_guarded(caller)
    told: set[tuple[str, str]] = set()
    for node in nodes:
        if not (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and (shape := held.get(node.value.id)) is not None
            and node.value.id not in tested
            and id(node) not in guarded
            and isinstance(node.slice, ast.Constant)
            and isinstance(key := node.slice.value, str)
        ):
            continue
        if not any(key in keys for _line, keys in shape.returns):
            continue  # a key no return gives: the reader of plain typos, not this rule
        lacking = [(line, keys) for line, keys in shape.returns if key not in keys]
        if not lacking or (node.value.id, key) in told:
            continue
        told.add((node.value.id, key))
        line, keys = lacking[0]
        yield KEY_LEFT_OUT.at(
            Location(display, node.lineno, node.col_offset + 1),
            read=f"`{ast.unparse(node)}`",
            key=key,
            function=f"`{shape.name}`",
            line=f"line {line}" if shape.file == display else f"{shape.file}:{line}",
            given=Listing([f'"{k}"' for k in sorted(keys)]) if keys else "an empty dictionary",
            name=node.value.id,
        )


def _called(value: ast.expr, caller: Function, tree: ast.Module, calls: OwnCalls) -> _Shape | None:
    """The shape of the plugin's function a call names, as R136 finds it (`f(...)` bound once in
    the module or imported from the plugin's modules, `self.m(...)`)."""
    called = calls.called(value, caller, tree) if isinstance(value, ast.Call) else None
    if called is None:
        return None
    _name, path, definition, _bound = called
    return _shape(definition, calls.own.file(path)) if isinstance(definition, ast.FunctionDef) else None


def _tested(caller: Function, nodes: list[ast.AST]) -> set[str]:
    """Names the caller tests in any way: in a condition, with `in`, `isinstance` or `len`, or
    through any of their methods (`.get`, `.keys()`)."""
    tested: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tested.update(_names(node.test))
        elif isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
            for side in node.comparators:
                tested.update(_names(side))
        elif isinstance(node, ast.BoolOp):
            tested.update(_names(node.values[0]))
        elif isinstance(node, ast.comprehension):
            for condition in node.ifs:
                tested.update(_names(condition))
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                tested.add(node.func.value.id)  # `.get`, `.keys()`, any method
            if isinstance(node.func, ast.Name) and node.func.id in {"isinstance", "len", "bool"}:
                for argument in node.args:
                    tested.update(_names(argument))
        elif isinstance(node, ast.Match):
            tested.update(_names(node.subject))
    return tested


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _key_guarded(caller: Function) -> set[int]:
    """Reads inside a `try` one of whose handlers expects a KeyError (or catches anything bare)."""
    guarded: set[int] = set()
    for node in ast.walk(caller):
        if isinstance(node, ast.Try | ast.TryStar) and any(_expects_key_error(h) for h in node.handlers):
            for statement in node.body:
                guarded.update(id(inner) for inner in ast.walk(statement))
    return guarded


def _expects_key_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(kind, ast.Name) and kind.id in _KEY_ERRORS for kind in kinds)
