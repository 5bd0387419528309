"""A test of a name on the line right after it was set to an empty constant (R146): `answer = ""`
then `if answer:` never runs its body, whatever the inputs; what the body was meant to do (copy a
result's field, send an output) never happens.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.plugin_code import plugin_code, reachable_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

NEVER_TRUE = rule(
    "R146",
    "test-right-after-empty-value",
    Severity.WARNING,
    "`if {test}:` never runs its body: `{name}` was set to `{value}` on the line before ({line}), and"
    " nothing changes it in between, so the test is false on every call",
    "Test the value that was meant (most often the field the body reads), or remove the branch.",
    """
Python runs the statements of a block in order: after `suggest_answer = ""`, an `if
suggest_answer:` that comes next sees the empty string, which is false, so the body (often the one
place that sets the real value: `suggest_answer = result.suggest_answer`) never runs and the name
keeps its empty value for every user. It is usually a test of the wrong name: the author meant the
field the body reads.

Found without running, in the functions of the modules the SDK loads: an assignment of one name to
`""`, `None`, `0`, `False` or an empty list, dict or tuple, followed immediately in the same block
by an `if` whose test is that name, a conjunction (`and`) that starts with it, or `name is not
None` after `name = None`. Nothing can run between the two statements, so the outcome does not
depend on any input. Module-level switches (`DEBUG = False` then `if DEBUG:`) are left alone: they
are settings the author changes by hand. A warning: the tool still answers, without what the body
was meant to add.
""",
)
_EMPTY_CONSTANTS = ("", None, 0, False)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R146 in every function of the modules the SDK loads."""
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from _in_blocks(node, display)


def _in_blocks(function: ast.FunctionDef | ast.AsyncFunctionDef, display: str) -> Iterator[Finding]:
    """Each pair of adjacent statements of the function's own blocks (not nested functions')."""
    pending: list[ast.AST] = [function]
    while pending:
        node = pending.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            statements = [s for s in block if isinstance(s, ast.stmt)]
            for first, second in itertools.pairwise(statements):
                found = _never_true(first, second)
                if found is not None:
                    name, value = found
                    yield NEVER_TRUE.at(
                        Location(display, second.lineno, second.col_offset + 1),
                        test=ast.unparse(second.test) if isinstance(second, ast.If) else "",
                        name=name,
                        value=value,
                        line=first.lineno,
                    )
            pending.extend(
                inner
                for inner in block
                if not isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
            )


def _never_true(first: ast.stmt, second: ast.stmt) -> tuple[str, str] | None:
    """(name, value as written) when `first` sets a name to an empty constant and `second` is an
    `if` whose test is false because of it."""
    if not (
        isinstance(first, ast.Assign)
        and len(first.targets) == 1
        and isinstance(target := first.targets[0], ast.Name)
        and _empty(first.value)
        and isinstance(second, ast.If)
    ):
        return None
    name = target.id
    test = second.test
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        test = test.values[0]
    if isinstance(test, ast.Name) and test.id == name:
        return name, ast.unparse(first.value)
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == name
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
        and isinstance(first.value, ast.Constant)
        and first.value.value is None
    ):
        return name, "None"
    return None


def _empty(value: ast.expr) -> bool:
    """An empty constant: `""`, `None`, `0`, `False`, `[]`, `{}`, `()`."""
    if isinstance(value, ast.Constant):
        return any(type(value.value) is type(c) and value.value == c for c in _EMPTY_CONSTANTS)
    if isinstance(value, ast.List | ast.Tuple):
        return not value.elts
    return isinstance(value, ast.Dict) and not value.keys
