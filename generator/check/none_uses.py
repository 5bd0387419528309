"""Where R075 follows what `.get` gives through a name: `desc = params.get("desc")`, then `len(desc)`,
`desc.strip()`, `desc[:10]`, `"x" + desc` or `for c in desc`. For an optional parameter nobody set,
the name holds None, and each of those raises for every such call.

The name must have that one binding in the function and never be tested (`if desc`, `desc is None`,
`desc or ""`, `isinstance(desc, str)`): a test anywhere says the author handles the empty value,
and the check stays silent, whatever the order.
"""

from __future__ import annotations

import ast
from collections.abc import Container, Iterator
from dataclasses import dataclass

from generator.check.sdk_file import own_nodes, plain_bindings
from generator.check.undeclared import Function, Parents, constant

# Builtins that raise TypeError on None (`len(None)`, `int(None)`).
NONE_REFUSED = frozenset({"len", "int", "float"})
# Builtins that look at a value's kind: `hasattr(x, "path")` is a test of x as well.
TYPE_TESTS = frozenset({"isinstance", "hasattr", "getattr", "bool", "type", "callable"})
# The comparisons that test a value for emptiness rather than use it.
EMPTINESS_TESTS = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)


@dataclass(frozen=True)
class NoneUse:
    """One use of a name that fails when the name holds None."""

    node: ast.expr  # the use, where it fails
    key: str  # the parameter the name was read from
    read: str  # the read and the use, as shown
    error: str  # what it raises
    what: str  # why, as said in the finding


def none_uses(
    function: Function, dictionary: str, keys: Container[str], parents: Parents
) -> Iterator[NoneUse]:
    """The first failing use of each untested name bound once to `dictionary.get("k")` (no default)
    for a `k` among `keys`, in source order."""
    held = _held(function, dictionary, keys)
    if not held:
        return
    tested = _tested_names(function, parents)
    told: set[str] = set()
    names = [
        node
        for node in own_nodes(function)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in held
    ]
    for node in sorted(names, key=lambda node: (node.lineno, node.col_offset)):
        if node.id in tested or node.id in told:
            continue
        failure = _failure(node, parents.get(node))
        if failure is None:
            continue
        told.add(node.id)
        use, error, what = failure
        key = held[node.id]
        called = parents.get(use)
        shown = called if isinstance(called, ast.Call) and called.func is use else use
        read = f'{dictionary}.get("{key}") (as `{node.id}`) in `{ast.unparse(shown)}`'
        yield NoneUse(use, key, read, error, what)


def _held(function: Function, dictionary: str, keys: Container[str]) -> dict[str, str]:
    """Names whose only binding is `dictionary.get("k")` or `dictionary.get("k", None)`, with k."""
    held: dict[str, str] = {}
    for node in own_nodes(function):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        key = _get_key(node.value, dictionary) if isinstance(target, ast.Name) else None
        name = target.id if isinstance(target, ast.Name) else ""
        if key is not None and key in keys and plain_bindings(function, name) == [node.value]:
            held[name] = key
    return held


def _get_key(value: ast.expr, dictionary: str) -> str | None:
    """k of `dictionary.get("k")` with no default or a None one."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == dictionary
        and not value.keywords
        and value.args
    ):
        return None
    if len(value.args) == 2 and not (isinstance(value.args[1], ast.Constant) and value.args[1].value is None):
        return None
    return constant(value.args[0]) if len(value.args) <= 2 else None


def _tested_names(function: Function, parents: Parents) -> set[str]:
    """Names the function tests for emptiness anywhere: a condition's own value, `not x`, an operand
    of `and`/`or`, `x is None`, `x == ""`, `x in (...)`, `isinstance(x, ...)` or `hasattr(x, ...)`, a
    `match` subject."""
    return {
        node.id
        for node in own_nodes(function)
        if isinstance(node, ast.Name) and _tests(node, parents.get(node))
    }


def _tests(node: ast.Name, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert):
        return parent.test is node
    if isinstance(parent, ast.Compare):
        return parent.left is node or any(isinstance(op, EMPTINESS_TESTS) for op in parent.ops)
    if isinstance(parent, ast.Call):
        return isinstance(parent.func, ast.Name) and parent.func.id in TYPE_TESTS
    return isinstance(parent, ast.UnaryOp | ast.BoolOp | ast.Match)  # `not x`; `x or ""`


def _failure(node: ast.Name, parent: ast.AST | None) -> tuple[ast.expr, str, str] | None:
    """(the use, the exception, why) when `node`, holding None, fails where it stands."""
    if isinstance(parent, ast.Attribute) and parent.value is node and isinstance(parent.ctx, ast.Load):
        return parent, "AttributeError", f"which has no attribute {parent.attr}"
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return parent, "TypeError", "and None cannot be indexed (TypeError)"
    if isinstance(parent, ast.Call) and parent.args == [node] and not parent.keywords:
        func = parent.func
        if isinstance(func, ast.Name) and func.id in NONE_REFUSED:
            return parent, "TypeError", f"and {func.id}(None) raises TypeError"
        if isinstance(func, ast.Attribute) and func.attr == "loads" and ast.unparse(func.value) == "json":
            return parent, "TypeError", "and json.loads(None) raises TypeError"
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        other = parent.right if parent.left is node else parent.left
        if _text(other):
            return parent, "TypeError", "and None cannot be joined to text (TypeError)"
    if isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) and parent.iter is node:
        return node, "TypeError", "and None cannot be looped over (TypeError)"
    return None


def _text(node: ast.expr) -> bool:
    """True for a str literal, an f-string, or a `+` chain holding one (`title + " - "`)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) or _text(node.right)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))
