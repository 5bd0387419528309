"""Names a plugin's module uses that nothing binds (R086), found without running it.

Python looks a name up when the line that uses it runs: in the function's scope, the module's, then
the builtins; a name bound in none of them raises NameError there (a local read before any binding
raises UnboundLocalError, its subclass). The check asks pyflakes, which reads the syntax trees the
other checks already hold, for `undefined name` and `local variable referenced before assignment`
in each module the SDK loads, and reports nothing else of its messages.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator

from pyflakes import checker, messages

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node
from generator.check.dead_code import unreached_functions
from generator.check.plugin_code import plugin_code
from generator.check.sdk_calls import loaded_modules
from generator.check.undeclared import Function, Parents, handlers_around, running_handler
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

NOT_DEFINED = rule(
    "R086",
    "name-not-defined",
    Severity.ERROR,
    "`{name}` is not defined {inside!s}: {outcome!s}",
    "{fix!s}{close!s}.",
    """
A plugin's modules run in the plugin daemon's Python as they are written: the SDK imports the entry
point, each provider's and tool's `extra.python.source` and what they import, and calls their
methods. Python resolves a name when the line that uses it runs, in the enclosing function, the
module, then the builtins; a name none of them binds raises `NameError` on that line ("name 'x' is
not defined"; a local variable read before any assignment raises `UnboundLocalError`). Nothing in
the SDK or the daemon looks at this before: the plugin installs and starts, and the line fails each
time it runs, whatever the inputs that lead there. Typical causes: an import left out
(`binascii.Error` in an `except` clause), a variable renamed on one line only, a name from another
module used without importing it, an exception class that does not exist (`RuntimeException`).

The names are resolved by pyflakes (PyCQA) on the syntax trees the other checks read, in every
module the SDK loads (tools, providers, the entry point, every kind's classes and what they import);
a module with a star import leaves its unknown names unreported, as pyflakes does. An error where
the line's failure reaches the SDK; a warning inside a `try` whose handler catches every exception
(`except Exception`): the tool then answers with that handler, so the feature the line served
never works; a warning too in an `except` clause or handler, which runs only when the code it
guards fails (that failure is then told as a NameError). Silent under a handler of `NameError`
itself, and inside an `if __name__ == "__main__":` block of any module but the entry point (the
daemon runs `exec.Command(pythonPath, "-m", r.Config.Meta.Runner.Entrypoint)`,
`internal/core/local_runtime/subprocess.go`; the other modules are imported, and such a block,
often a vendor's demo, never runs).
""",
)
# pyflakes's messages that mean a NameError (or UnboundLocalError) when the line runs.
UNDEFINED = (messages.UndefinedName, messages.UndefinedLocal)
# Handlers that say the code expects the failure, and handlers of every exception.
EXPECTED = frozenset({"NameError", "UnboundLocalError"})
EVERYTHING = frozenset({"Exception", "BaseException", ""})
# The module the daemon runs as `__main__` (`python -m main`).
ENTRY = "main"


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R086 in every module of the plugin the SDK loads."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    unreached = unreached_functions(loaded)
    for module in sorted(loaded_modules(loaded, code)):
        relative, tree = code.modules[module]
        # the daemon runs the entry point as `python -m main`, so only its own `__main__` block runs
        skipped = frozenset() if module == ENTRY else main_block_lines(tree)
        yield from _findings(tree, loaded.display_path(relative), unreached, skipped)


def main_block_lines(tree: ast.Module) -> frozenset[int]:
    """The lines of the module's top-level `if __name__ == "__main__":` blocks, which never run when
    the module is imported."""
    return frozenset(
        line
        for statement in tree.body
        if isinstance(statement, ast.If)
        and isinstance(test := statement.test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
        for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)
    )


def _findings(
    tree: ast.Module, display: str, unreached: frozenset[int], skipped: frozenset[int]
) -> Iterator[Finding]:
    names = {(node.lineno, node.col_offset): node for node in every_node(tree) if isinstance(node, ast.Name)}
    parents = {child: node for node in every_node(tree) for child in children(node)}
    bound = sorted({node.id for node in names.values() if not isinstance(node.ctx, ast.Load)})
    told: set[tuple[int, str]] = set()
    for lineno, column, name in _undefined(tree, display):
        if lineno in skipped:
            continue
        node = names.get((lineno, column))
        function = _enclosing(node, parents) if node is not None else None
        if (id(function), name) in told:
            continue  # one finding per name and function: the first line it fails on
        told.add((id(function), name))
        handlers = list(handlers_around(node, function or tree, parents)) if node is not None else []
        if any(kinds & EXPECTED for _handler, kinds in handlers):
            continue
        broad = next((handler for handler, kinds in handlers if kinds & EVERYTHING), None)
        clause = node is not None and _in_except_clause(node, parents)
        handling = (
            node is not None and not clause and running_handler(node, function or tree, parents) is not None
        )
        local = function is not None and name in _assigned(function)
        failure = "UnboundLocalError (it is read before the function assigns it)" if local else "NameError"
        if broad:
            outcome = f"the line raises {failure}, which the `except` at line {broad.lineno} catches, so that"
            outcome += " handler answers every time instead"
        elif clause:
            outcome = f"the `except` clause raises {failure} whenever the code it guards fails, instead of"
            outcome += " handling that failure"
        elif handling:
            outcome = f"the `except` handler raises {failure} when it runs, instead of answering the failure"
            outcome += " it caught"
        else:
            outcome = f"the line raises {failure} each time it runs, whatever the inputs that lead there"
        dead = function.name if function is not None and id(function) in unreached else ""
        if dead:  # a latent defect: nothing runs it yet
            outcome += f"; nothing in the plugin's code calls `{dead}`, so no run reaches it yet"
        close = closest_name(name, [*bound, *dir(builtins)])
        yield NOT_DEFINED.at(
            Location(display, lineno, column + 1),
            severity=Severity.WARNING if broad or clause or handling or dead else None,
            name=name,
            inside=Phrase(f"in {function.name}" if function is not None else "at module level"),
            outcome=Phrase(outcome),
            fix=Phrase(f"Assign `{name}` before this line" if local else f"Import or define `{name}`"),
            close=Phrase(f"; `{close}` is the closest name it has" if close and close != name else ""),
        )


def _in_except_clause(node: ast.AST, parents: Parents) -> bool:
    """True when `node` is in the exception types of an `except` clause (evaluated only when the
    code the `try` guards fails)."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt | ast.ExceptHandler):
        child, parent = parent, parents.get(parent)
    return isinstance(parent, ast.ExceptHandler) and parent.type is child


def _assigned(function: Function) -> set[str]:
    """The names `function`'s own body binds."""
    return {
        node.id
        for node in every_node(function)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }


def _undefined(tree: ast.Module, display: str) -> list[tuple[int, int, str]]:
    """(line, column, name) of each undefined name pyflakes finds; none when it cannot read the
    tree (a syntax it does not know: the compile checks report the module)."""
    try:
        found = checker.Checker(tree, filename=display).messages
    except Exception:  # a node type of a newer Python than pyflakes knows
        return []
    return [(m.lineno, m.col, str(m.message_args[0])) for m in found if isinstance(m, UNDEFINED)]


def _enclosing(
    node: ast.AST, parents: dict[ast.AST, ast.AST]
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    parent = parents.get(node)
    while parent is not None and not isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
        parent = parents.get(parent)
    return parent
