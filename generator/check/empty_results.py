"""The first item of a result that the plugin's own function returns empty on one of its paths
(R080): `total, data = self.search(q)` then `data[0]`, where `search` ends with `return 0, []` when
nothing matched, found without running it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node
from generator.check.passed_on import Scope, resolve, tool_functions
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import Function, Parents, always_runs, handlers_around
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

EMPTY_INDEXED = rule(
    "R080",
    "index-of-empty-result",
    Severity.WARNING,
    "{read} fails with IndexError whenever {helper}() takes the `return` at line {line}, which gives"
    ' {empty} there: on that path (often "nothing found") the tool fails instead of answering',
    "Test the result before taking an item (`if not {name}: ...` with an answer for the empty case), or"
    " make {helper}() say the empty case otherwise.",
    """
Python raises IndexError for `x[0]` (or any constant index) on an empty list or tuple. When a tool
takes an item of what one of the plugin's own functions returned, and that function returns a
literal empty list or tuple on one of its paths (`if total == 0: return 0, []`, the path of a search
that found nothing), every call that takes that path fails at the index, for every user who meets
it: the tool answers with the SDK's error instead of saying that nothing was found.

Found without running: the value is bound once, in the same function, to the call (or to one
element of a tuple unpacked from it, `total, data = search(...)`), the function the call runs is
the plugin's own (`check/passed_on.py`: a method of the class, a function of the module or one it
imports from the plugin), and it has a `return` of a literal `[]` or `()` (or of a tuple holding one
at the unpacked position). The index must run on every call that reaches the binding, the name be
used for nothing but such indexes (no test of its length or truth, no other use that might stand
for a test), and no handler of IndexError be around it. A warning: the other paths work.
""",
)
# Calls that look at a value's length or truth.
LOOKS = frozenset({"len", "bool", "any", "all"})
# Handlers that catch the IndexError.
CATCHES = frozenset({"IndexError", "LookupError", "Exception", "BaseException"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Constant indexes of results that a plugin function returns empty on one of its paths."""
    for function, scope in tool_functions(loaded):
        yield from _indexed(function, scope)


def _indexed(function: Function, scope: Scope) -> Iterator[Finding]:
    nodes = own_nodes(function)
    parents: Parents = {child: node for node in every_node(function) for child in children(node)}
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        target = resolve(node.value, function, scope)
        if target is None:
            continue
        for name, position in _bound_names(node.targets[0]):
            empty = _empty_return(target[0], position)
            read = _only_indexed(name, function, nodes, parents) if empty is not None else None
            if empty is None or read is None:
                continue
            home = target[1]
            line = str(empty[0]) if home.relative == scope.relative else f"{empty[0]} of {home.display}"
            yield EMPTY_INDEXED.at(
                Location(scope.display, read.lineno, read.col_offset + 1),
                read=ast.unparse(read),
                helper=target[0].name,
                line=line,
                empty=empty[1],
                name=name,
            )


def _bound_names(target: ast.expr) -> Iterator[tuple[str, int | None]]:
    """`x = ...` gives (x, None); `a, b = ...` gives (a, 0) and (b, 1)."""
    if isinstance(target, ast.Name):
        yield target.id, None
    elif isinstance(target, ast.Tuple | ast.List):
        if any(isinstance(element, ast.Starred) for element in target.elts):
            return
        for position, element in enumerate(target.elts):
            if isinstance(element, ast.Name):
                yield element.id, position


def _empty_return(helper: Function, position: int | None) -> tuple[int, str] | None:
    """The line of a `return` of `helper` that gives an empty literal (at `position` of a returned
    tuple), and that literal; None when it has none (or is a generator)."""
    nodes = own_nodes(helper)
    generator = any(isinstance(node, ast.Yield | ast.YieldFrom) for node in nodes)
    if isinstance(helper, ast.AsyncFunctionDef) or generator:
        return None
    found = []
    for node in nodes:
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value: ast.expr | None = node.value
        if position is not None:
            elements = value.elts if isinstance(value, ast.Tuple) else None
            value = elements[position] if elements is not None and position < len(elements) else None
        if isinstance(value, ast.List | ast.Tuple) and not value.elts:
            found.append((node.lineno, "an empty list" if isinstance(value, ast.List) else "an empty tuple"))
    return min(found) if found else None


def _only_indexed(
    name: str, function: Function, nodes: list[ast.AST], parents: Parents
) -> ast.Subscript | None:
    """The first constant index of `name` when `name` is bound once and every other use of it is
    such an index, the first of them running on every call and caught by no handler."""
    uses = [node for node in nodes if isinstance(node, ast.Name) and node.id == name]
    if sum(not isinstance(use.ctx, ast.Load) for use in uses) != 1:
        return None
    loads = [use for use in uses if isinstance(use.ctx, ast.Load)]
    if any(_tested(use, parents) for use in loads):
        return None  # its emptiness may well be handled
    reads = [
        read
        for use in loads
        if isinstance(read := parents.get(use), ast.Subscript) and _constant_index(read, use)
    ]
    if not reads:
        return None
    first = min(reads, key=lambda read: (read.lineno, read.col_offset))
    earlier = [use for use in loads if (use.lineno, use.col_offset) < (first.lineno, first.col_offset)]
    if earlier or not always_runs(first, function, parents) or _caught(first, function, parents):
        return None  # handed on or looked at before: what happens there is not read
    return first


def _tested(use: ast.Name, parents: Parents) -> bool:
    """True when a use of the name looks at its truth or length (`if data`, `len(data)`, `data or
    []`, `data == []`)."""
    child: ast.AST = use
    parent = parents.get(use)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.BoolOp | ast.Compare | ast.IfExp) or (
            isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
        ):
            return True
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in LOOKS:
            return True
        child, parent = parent, parents.get(parent)
    return isinstance(parent, ast.If | ast.While | ast.Assert) and child is parent.test


def _constant_index(read: ast.Subscript, use: ast.Name) -> bool:
    return (
        isinstance(read, ast.Subscript)
        and read.value is use
        and isinstance(read.ctx, ast.Load)
        and isinstance(read.slice, ast.Constant)
        and isinstance(read.slice.value, int)
    )


def _caught(node: ast.AST, function: Function, parents: Parents) -> bool:
    return any(
        names == {""} or names & CATCHES for _handler, names in handlers_around(node, function, parents)
    )
