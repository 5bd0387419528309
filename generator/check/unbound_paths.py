"""A module's name made local by a binding on one path of a function (R108), found without running.

Python decides a name's scope for the whole function body at compile time: a function that holds
`import json` in one branch reads its own, local `json` everywhere, and on every path that skips
that branch the read raises UnboundLocalError, although the module imports `json` at its top.
pyflakes (R086) reports a read that stands before every binding in the text; this check reports a
read that stands after a binding but on a path that can skip it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node
from generator.check.dead_code import unreached_functions
from generator.check.plugin_code import Function, reachable_functions
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

UNBOUND_ON_PATH = rule(
    "R108",
    "name-unbound-on-some-paths",
    Severity.WARNING,
    "`{name}` is local to `{function}` because line {bound} binds it ({binding}), so this line reads"
    " that local and raises UnboundLocalError on every path that skips line {bound}; the {outer} is"
    " never used here",
    "Remove the binding at line {bound} (use the {outer}), or bind `{name}` before the branches.",
    """
Python decides which names are local to a function when it compiles the function: "If a name
binding operation occurs anywhere within a code block, all uses of the name within the block are
treated as references to the current block" (the language reference, Execution model, Resolution
of names). So a function with `import json` (or `json = ...`, `for json in ...`) inside one `if`
branch, `try` or loop reads its own local `json` on every line, and a line that runs when that
binding did not raises UnboundLocalError ("cannot access local variable 'json' where it is not
associated with a value"), although the module imports `json` at its top: the author meant the
module's name. Tried with Python 3.12.

Judged in the functions of the modules the SDK loads: a name the module binds at its top level (an
import, a function, a class, an assignment) that the function imports again, without `global` or
`nonlocal` (a local import of a name the module already has says the author meant the module's
name), read at a line that follows one of the function's bindings of it in the text but that a
path reaches without passing one: the binding sits in a branch of an `if` the read is not inside,
or in a loop the read follows. A read that precedes every binding is R086's (pyflakes). Silent when
the read sits in a loop that binds the name (an earlier round may have bound it), when a `try`
whose body binds it stands before the read (R092 judges a handler that falls through), when both
branches of an `if` bind it or end, and in private helpers nothing calls. A warning: only the paths
that skip the binding fail. One finding per name and function, at the first such read.
""",
)
_ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
Block = list[ast.stmt]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R108 in each function of the modules the SDK loads."""
    unreached = unreached_functions(loaded)
    for display, tree, function in reachable_functions(loaded):
        if id(function) not in unreached:
            yield from _in_function(display, _outer_names(tree), function)


def _outer_names(tree: ast.Module) -> dict[str, str]:
    """The names the module binds at its top level, each with what to call it in a message."""
    found: dict[str, str] = {}
    for node in _top_level(tree.body):
        for name in _bound_by(node):
            found.setdefault(name, f"module's `{name}` (line {node.lineno})")
    return found


def _top_level(block: Block) -> Iterator[ast.stmt]:
    """The module's statements, inside its `if`, `try`, `with` and loops too, not inside functions
    or classes."""
    for statement in block:
        yield statement
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list):
                    yield from _top_level([s for s in inner if isinstance(s, ast.stmt)])
            for handler in getattr(statement, "handlers", []):
                yield from _top_level(handler.body)


def _bound_by(node: ast.AST) -> Iterator[str]:
    """The names a statement binds in its own scope."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Import | ast.ImportFrom):
        yield from ((alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*")
    elif isinstance(
        node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor | ast.With | ast.AsyncWith
    ):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target] if not isinstance(node, ast.AnnAssign) or node.value else []
        elif isinstance(node, ast.For | ast.AsyncFor):
            targets = [node.target]
        else:
            targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
        for target in targets:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))


def _in_function(display: str, outer: dict[str, str], function: Function) -> Iterator[Finding]:
    nodes = own_nodes(function)
    declared = {name for node in nodes if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names}
    arguments = function.args
    parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    parameters |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    bindings: dict[str, list[ast.stmt]] = {}
    for statement in _statements(function.body):
        for name in _bound_by(statement):
            bindings.setdefault(name, []).append(statement)
    parents = {id(child): node for node in nodes for child in children(node)}
    told: set[str] = set()
    reads = sorted(
        (n for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for read in reads:
        name = read.id
        if name in told or name in declared or name in parameters or name not in bindings:
            continue
        kind = outer.get(name)
        imported = any(isinstance(b, ast.Import | ast.ImportFrom) for b in bindings[name])
        if kind is None or not imported or _comprehension_target(read, name, parents):
            continue
        earlier = [b for b in bindings[name] if (b.lineno, b.col_offset) < (read.lineno, read.col_offset)]
        if not earlier or _covered(read, name, function, parents):
            continue
        told.add(name)
        first = earlier[0]
        yield UNBOUND_ON_PATH.at(
            Location(display, read.lineno, read.col_offset + 1),
            name=name,
            function=function.name,
            bound=first.lineno,
            binding=_describe(first),
            outer=kind,
        )


def _statements(block: Block) -> Iterator[ast.stmt]:
    """Every statement of a function's own body, at any depth, not inside nested functions or
    classes (whose names are their own; the nested definition itself binds its name)."""
    for statement in block:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in _blocks(statement):
            yield from _statements(inner)


def _blocks(statement: ast.stmt) -> Iterator[Block]:
    for field in ("body", "orelse", "finalbody"):
        inner = getattr(statement, field, None)
        if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
            yield inner
    for handler in getattr(statement, "handlers", []):
        yield handler.body
    for case in getattr(statement, "cases", []):
        yield case.body


def _comprehension_target(read: ast.Name, name: str, parents: dict[int, ast.AST]) -> bool:
    """True when a comprehension around the read binds the name itself (its own scope)."""
    node: ast.AST = read
    while (parent := parents.get(id(node))) is not None:
        if isinstance(parent, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            for generator in parent.generators:
                if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(generator.target)):
                    return True
        node = parent
    return False


def _covered(read: ast.Name, name: str, function: Function, parents: dict[int, ast.AST]) -> bool:
    """True when every path to the read passes a binding of the name, as far as the blocks show:
    a statement before it, in a block it sits in, that surely binds; or a loop around it that
    binds the name anywhere (an earlier round)."""
    node: ast.AST = read
    while (parent := parents.get(id(node))) is not None and node is not function:
        if isinstance(parent, _LOOPS) and any(name in _bound_by(s) for s in _statements(parent.body)):
            return True
        after_try = isinstance(parent, ast.Try) and any(
            node is s for s in (*parent.orelse, *parent.finalbody)
        )
        if after_try and _binds(getattr(parent, "body", []), name):
            return True
        if isinstance(node, ast.ExceptHandler) and _binds(getattr(parent, "body", [])[:1], name):
            return True  # only the binding itself can fail before it binds
        for block in _blocks(parent) if isinstance(parent, ast.stmt) else ():
            if any(statement is node for statement in block):
                index = next(i for i, statement in enumerate(block) if statement is node)
                if _binds(block[:index], name):
                    return True
        node = parent
    return _binds(function.body[: _index(function.body, node)], name)


def _index(block: Block, node: ast.AST) -> int:
    return next((i for i, statement in enumerate(block) if statement is node), 0)


def _binds(block: Block, name: str) -> bool:
    """True when running `block` to its end surely binds the name (or the block ends the flow)."""
    for statement in block:
        if name in _bound_by(statement) and not isinstance(statement, _LOOPS):
            return True
        if (
            isinstance(statement, ast.If)
            and statement.orelse
            and _binds_or_ends(statement.body, name)
            and _binds_or_ends(statement.orelse, name)
        ):
            return True
        if isinstance(statement, ast.Try) and (
            _binds(statement.body, name) or _binds(statement.finalbody, name)
        ):
            return True  # a handler that falls through is R092's
        if isinstance(statement, ast.With | ast.AsyncWith) and _binds(statement.body, name):
            return True
        if any(isinstance(n, ast.NamedExpr) and n.target.id == name for n in every_node(statement)):
            return True
    return False


def _binds_or_ends(block: Block, name: str) -> bool:
    return _binds(block, name) or any(isinstance(statement, _ENDS) for statement in block)


def _describe(statement: ast.stmt) -> str:
    words = {
        ast.Import: "an import",
        ast.ImportFrom: "an import",
        ast.For: "a loop variable",
        ast.AsyncFor: "a loop variable",
        ast.With: "`with ... as`",
        ast.FunctionDef: "a nested function",
        ast.AsyncFunctionDef: "a nested function",
        ast.ClassDef: "a nested class",
    }
    return words.get(type(statement), "an assignment")
