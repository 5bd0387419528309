"""A name read on a path of a function that skips its only binding (R108), found without running.

Python decides a name's scope for the whole function body at compile time: a function that holds
`import json` in one branch reads its own, local `json` everywhere, and on every path that skips
that branch the read raises UnboundLocalError, although the module imports `json` at its top.
The same holds in an `except` that reads a name its `try` binds only after a call that can fail:
the handler runs exactly when that call failed, so the name is unbound (or, in a loop, still holds
the previous round's value). pyflakes (R086) reports a read that stands before every binding in
the text; this check reports a read that stands after a binding but on a path that can skip it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node, statement_nodes
from generator.check.dead_code import unreached_functions
from generator.check.plugin_code import Function, reachable_functions
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

UNBOUND_ON_PATH = rule(
    "R108",
    "name-unbound-on-some-paths",
    Severity.WARNING,
    "`{name}` is local to `{function}` because line {bound} binds it ({binding}), so this line reads"
    " that local and raises UnboundLocalError on every path that skips line {bound}; {why}",
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

Also judged: an `except` that catches every error (bare, `Exception`, `BaseException`), or a
`finally` (which runs on every failure too, and whose error then replaces the first one), that reads a
local name (reads it, calls its method, subscripts it or assigns into it) that the function binds
nowhere before the `try` and that the `try` binds only in or after a statement holding a call:
that call failing is what runs the handler, so the read raises UnboundLocalError in the handler
itself, which hides the first error; when the `try` sits in a loop, a later round reads the value
the previous round left (a handler that writes `info["error"] = ...` then writes into the previous
item's dict). Calls that do not fail in practice do not count: a dictionary's `get`, a text's own
methods, builtins that take any value, a class made without arguments, a function of `tempfile`,
`time`, `uuid` or `os` called without any. Silent when the handler binds the name before the
read, when the read sits in a `try` of its own that catches it, when the function calls `locals()`
or `vars()` (it tests which names are bound), and for handlers of narrower exceptions (which
statement raises those is not visible).
""",
)
_ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
Block = list[ast.stmt]


_BROAD = {"Exception", "BaseException"}
_INTROSPECTION = {"locals", "vars"}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R108 in each function of the modules the SDK loads."""
    unreached = unreached_functions(loaded)
    for display, tree, function in reachable_functions(loaded):
        if id(function) not in unreached:
            told: set[str] = set()
            yield from _in_function(display, _outer_names(tree), function, told)
            yield from _in_handlers(display, function, told)


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
            # `a.b = ...` and `a[k] = ...` store into `a`, they do not bind it
            stored = (n for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
            yield from (n.id for n in stored)


def _in_function(
    display: str, outer: dict[str, str], function: Function, told: set[str]
) -> Iterator[Finding]:
    nodes = own_nodes(function)
    declared = _declared(nodes)
    parameters = _parameters(function)
    bindings = _bindings(function)
    parents = {id(child): node for node in nodes for child in children(node)}
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
            why=Phrase(f"the {kind} is never used here"),
        )


def _declared(nodes: list[ast.AST]) -> set[str]:
    """The names the function declares `global` or `nonlocal` (not its own locals)."""
    return {name for node in nodes if isinstance(node, ast.Global | ast.Nonlocal) for name in node.names}


def _parameters(function: Function) -> set[str]:
    arguments = function.args
    found = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    return found | {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}


def _bindings(function: Function) -> dict[str, list[ast.stmt]]:
    """Each name the function binds, with the statements that bind it, in the order of the text."""
    found: dict[str, list[ast.stmt]] = {}
    for statement in _statements(function.body):
        for name in _bound_by(statement):
            found.setdefault(name, []).append(statement)
    return found


def _in_handlers(display: str, function: Function, told: set[str]) -> Iterator[Finding]:
    """Reads, in an `except` that catches every error, of a local its `try` binds only after a call
    that can fail: the failure that runs the handler left the name unbound (or last round's)."""
    nodes = own_nodes(function)
    if any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _INTROSPECTION
        for n in nodes
    ):
        return  # the function asks which names are bound
    skipped = _declared(nodes) | _parameters(function)
    bindings = _bindings(function)
    parents = {id(child): node for node in nodes for child in children(node)}
    for node in sorted((n for n in nodes if isinstance(n, ast.Try | ast.TryStar)), key=lambda n: n.lineno):
        inside = {id(s) for s in _statements(node.body)}
        for name in sorted({name for s in _statements(node.body) for name in _bound_by(s)}):
            if name in told or name in skipped:
                continue
            before = [b for b in bindings[name] if id(b) not in inside and b.lineno < node.lineno]
            raising = _raising_line(node.body, name)
            if before or raising is None:
                continue
            first = next(b for b in bindings[name] if id(b) in inside)
            # a `finally` runs on every failure too: a handler that catches all of them
            final = ast.ExceptHandler(type=None, name=None, body=node.finalbody)
            for handler in [*node.handlers, *([final] if node.finalbody else [])]:
                broad = catches_all(handler) and handler.name != name
                read = _handler_read(handler, name, parents) if broad else None
                if read is None:
                    continue
                told.add(name)
                looped = _in_loop(node, function, parents)
                clause = "`finally` also" if handler is final else "`except`"
                why = f"this {clause} runs when line {raising} fails, before line {first.lineno} binds it"
                if raising == first.lineno:
                    why = f"this {clause} runs when a call in line {raising}'s value fails, before it binds"
                if looped:
                    why += f", and on a later round of the loop it reads the `{name}` the previous round left"
                yield UNBOUND_ON_PATH.at(
                    Location(display, read.lineno, read.col_offset + 1),
                    hint=_HANDLER_HINT,
                    name=name,
                    function=function.name,
                    bound=first.lineno,
                    binding=_describe(first),
                    why=Phrase(why),
                )
                break


_HANDLER_HINT = (
    "Bind `{name}` before the `try` (e.g. `{name} = None`) and test it in the `except`, or write"
    " the error where the handler meant to (a name bound before the `try`)."
)


def catches_all(handler: ast.ExceptHandler) -> bool:
    """True for a bare `except`, `except Exception` and `except BaseException` (or a tuple holding
    one): any failure in the `try`, the first call's too, runs it."""
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    for kind in kinds:
        if kind is None:
            return True
        last = kind.attr if isinstance(kind, ast.Attribute) else kind.id if isinstance(kind, ast.Name) else ""
        if last in _BROAD:
            return True
    return False


def _raising_line(body: Block, name: str) -> int | None:
    """The line of the first statement of the `try` body that calls something before its first
    binding of `name` is done (a call in the bound value counts: it runs before the binding), or
    None when none does."""
    for statement in body:
        binding = next((s for s in _statements([statement]) if name in _bound_by(s)), None)
        if binding is None:
            if _first_call(statement_nodes([statement])):
                return statement.lineno
            continue
        inner = {id(n) for n in statement_nodes([binding])}
        earlier = [
            n
            for n in statement_nodes([statement])
            if id(n) not in inner and getattr(n, "lineno", 0) < binding.lineno
        ]
        if _first_call(earlier):
            return statement.lineno
        return binding.lineno if _first_call(_value_nodes(binding)) else None
    return None


def _value_nodes(binding: ast.stmt) -> list[ast.AST]:
    """The nodes evaluated before a binding statement binds: its value, iterable or context."""
    if isinstance(binding, ast.Assign | ast.AnnAssign | ast.AugAssign) and binding.value is not None:
        return list(statement_nodes([ast.Expr(binding.value)]))
    if isinstance(binding, ast.For | ast.AsyncFor):
        return list(statement_nodes([ast.Expr(binding.iter)]))
    if isinstance(binding, ast.With | ast.AsyncWith):
        return [n for item in binding.items for n in statement_nodes([ast.Expr(item.context_expr)])]
    return []


def _first_call(nodes: Iterable[ast.AST]) -> bool:
    """True when the nodes hold a call (or an await or a raise) that can fail for the inputs a tool
    gets: not a dictionary's `get`, a text method or a builtin that takes any value."""
    for node in nodes:
        if isinstance(node, ast.Await | ast.Raise):
            return True
        if isinstance(node, ast.Call) and not _safe_call(node):
            return True
    return False


def _safe_call(call: ast.Call) -> bool:
    """A call that does not fail for the values a tool reads: a name of `_SAFE_CALLS`, a class made
    with no arguments (`Client()`), or a module's function that takes none (`tempfile.mkdtemp()`)."""
    function = call.func
    called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    if called in _SAFE_CALLS:
        return True
    if call.args or call.keywords:
        return False
    if isinstance(function, ast.Name):
        return function.id[:1].isupper()
    return isinstance(function, ast.Attribute) and getattr(function.value, "id", "") in _SAFE_MODULES


# Modules whose functions without arguments do not fail in practice (`tempfile.mkdtemp()`).
_SAFE_MODULES = {"tempfile", "time", "uuid", "datetime", "os", "threading", "logging"}
# Calls that do not fail on the values a tool reads (a mapping's get, a text's own methods, builtins
# that take any value): a `try` whose only calls are these does not run its handler before binding.
_SAFE_CALLS = {
    "get",
    "str",
    "repr",
    "bool",
    "isinstance",
    "len",
    "print",
    "strip",
    "lstrip",
    "rstrip",
    "lower",
    "upper",
    "split",
    "replace",
    "startswith",
    "endswith",
    "format",
    "join",
    "items",
    "keys",
    "values",
    "append",
}


def _handler_read(handler: ast.ExceptHandler, name: str, parents: dict[int, ast.AST]) -> ast.Name | None:
    """The handler's first read of `name` that runs before the handler binds it, outside a `try`
    of its own that would catch the UnboundLocalError."""
    reads = sorted(
        (n for n in statement_nodes(handler.body) if isinstance(n, ast.Name) and n.id == name),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for read in reads:
        if not isinstance(read.ctx, ast.Load):
            return None  # the handler binds it first
        if not _comprehension_target(read, name, parents) and not _covered_in(read, name, handler, parents):
            return read
    return None


def _covered_in(read: ast.AST, name: str, handler: ast.ExceptHandler, parents: dict[int, ast.AST]) -> bool:
    """True when, inside the handler, a statement before the read binds the name (also a `with`
    or `for` around it), or a `try` around the read catches what it raises."""
    node: ast.AST = read
    while (parent := parents.get(id(node))) is not None and node is not handler:
        in_body = any(node is s for s in getattr(parent, "body", ()))
        if isinstance(parent, ast.Try | ast.TryStar) and in_body and parent.handlers:
            return True
        if isinstance(parent, (ast.With, ast.AsyncWith, *_LOOPS)) and in_body and name in _bound_by(parent):
            return True
        for block in _blocks(parent) if isinstance(parent, ast.stmt | ast.ExceptHandler) else ():
            index = next((i for i, statement in enumerate(block) if statement is node), None)
            if index is not None and _binds(block[:index], name):
                return True
        node = parent
    return False


def _in_loop(node: ast.AST, function: Function, parents: dict[int, ast.AST]) -> bool:
    while (parent := parents.get(id(node))) is not None and parent is not function:
        if isinstance(parent, _LOOPS) and any(node is s for s in parent.body):
            return True
        node = parent
    return False


def _statements(block: Block) -> Iterator[ast.stmt]:
    """Every statement of a function's own body, at any depth, not inside nested functions or
    classes (whose names are their own; the nested definition itself binds its name)."""
    for statement in block:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in _blocks(statement):
            yield from _statements(inner)


def _blocks(statement: ast.stmt | ast.ExceptHandler) -> Iterator[Block]:
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
