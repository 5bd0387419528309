"""Messages a tool builds and throws away (R020), and values a generator `_invoke` returns (R077),
found in its code without running it.

A static check of the code, so `validate` and pre-commit report it; `run` reports it too (the
pipeline runs this check when it runs no other). The file read is the one the SDK executes, which
is not always the one the source names (rule T007)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import rule

HELPER = re.compile(r"^create_\w*message$")

UNYIELDED = rule(
    "R020",
    "message-not-yielded",
    Severity.ERROR,
    "the result of {call}(...) is thrown away: the message never reaches Dify",
    "Write `yield self.{call}(...)`: the helpers only build a message, they do not send it.",
    """
`create_text_message`, `create_variable_message` and the other helpers only build a message
object. A call whose result is neither yielded, returned nor kept is lost: the variable is never
set and the next node reads None. Dify's own documentation had this bug in its "Complex Structure
Example".

A log message (`create_log_message`) carries no output: Dify shows it in the run's trace and the
tool's result reaches the workflow without it. Throwing one away is a warning; any other message
thrown away loses output, an error.

A call inside an ordinary function of the plugin (one that does not `yield`, other than `_invoke`)
is a warning with another hint: writing `yield` there would turn the helper into a generator, and
its callers, which expect its return value, would get a generator object instead. Nothing fails
at run time: the message is built and dropped, and what reaches Dify is what `_invoke` yields.
The helper should return the message (`return self.create_text_message(...)`) for `_invoke` to
yield (`yield self.helper(...)`), or not build it.
""",
)
RETURNED = rule(
    "R077",
    "value-returned-by-generator",
    Severity.WARNING,
    "_invoke is a generator, so the value this `return` gives is thrown away: Dify receives nothing from it",
    "Yield it as a message (`yield self.create_json_message(...)`, or the message it is), then `return`.",
    """
A function with `yield` in its body is a generator: a `return value` there only ends it, and the
value travels in `StopIteration`, which nobody reads. The SDK takes a tool's messages with
`yield from tool.invoke(request.tool_parameters)` (`dify_plugin/core/plugin_executor.py`,
`invoke_tool`), a statement whose value it drops, so whatever `_invoke` returns after it has
yielded anywhere in its body never reaches Dify: the run that takes that path answers with no
output (or without the result the author meant to send).

A warning, whatever the value (a message, `{...}`, `result`): such a `return` usually ends one
path (inputs refused, nothing found), so only the calls that take it lose their answer, which is
not a failure for every user (Dify's official cogview tool returns its "require at least one of
prompt and image_url" message this way). A bare `return` or
`return None` ends the generator as intended and is not reported. Only `_invoke` itself is read: in
a helper generator that `_invoke` delegates to with `yield from`, a returned value is the value of
that expression, which the caller may use.
""",
)
LOG_HINT = "Write `yield self.{call}(...)`: the helpers only build a message; this log line is never shown."
HELPER_HINT = (
    "{function}() is not a generator: return the message (`return self.{call}(...)`) and yield what it "
    "returns in _invoke (`yield self.{function}(...)`), or remove the call; writing `yield` here would "
    "make {function}() a generator and break its callers."
)
# A log message only annotates the run: losing it loses no output.
LOG_HELPERS = frozenset({"create_log_message"})
Function = ast.FunctionDef | ast.AsyncFunctionDef
# Scopes of their own: what happens inside them is not the enclosing function's.
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Discarded `create_*_message(...)` calls in every tool's module, each file once."""
    return unyielded(loaded, loaded.plugin.tools if loaded.plugin else ())


def unyielded(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Discarded `create_*_message(...)` calls and values returned by a generator `_invoke` in the
    modules of `tools`, each file once."""
    for file, tree, _tool in tool_modules(loaded, tools):
        display = loaded.display_path(file)
        for value in _returned_by_generator(tree):
            yield RETURNED.at(Location(display, value.lineno, value.col_offset + 1))
        for call, plain in _discarded_helper_calls(tree):
            where = Location(display, call.lineno, call.col_offset + 1)
            name = _name(call)
            if plain is not None:
                hint = HELPER_HINT.format(function=plain, call=name)
                yield UNYIELDED.at(where, Severity.WARNING, hint, call=name)
            elif name in LOG_HELPERS:
                yield UNYIELDED.at(where, Severity.WARNING, LOG_HINT, call=name)
            else:
                yield UNYIELDED.at(where, call=name)


def _discarded_helper_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str | None]]:
    """Each discarded `create_*_message(...)` call, with the name of the ordinary function (not a
    generator, not `_invoke`) it stands in, or None."""
    calls = {
        id(node.value): node.value
        for node in every_node(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and HELPER.match(node.value.func.attr)
    }
    if not calls:  # most modules: no walk of scopes needed
        return
    for node, scope in _with_scope(tree, None):
        if id(node) in calls:
            assert isinstance(node, ast.Call)
            plain = isinstance(scope, Function) and scope.name != "_invoke" and not _yields(scope)
            yield node, scope.name if plain and isinstance(scope, Function) else None


def _returned_by_generator(tree: ast.AST) -> Iterator[ast.Return]:
    """Each `return <value>` (not None) in the own body of a method `_invoke` that yields."""
    for node in every_node(tree):
        if isinstance(node, Function) and node.name == "_invoke" and _yields(node):
            for inner in _own(node):
                if isinstance(inner, ast.Return) and inner.value is not None and not _is_none(inner.value):
                    yield inner


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _with_scope(node: ast.AST, scope: ast.AST | None) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    """Every node below `node`, with the innermost function, lambda or class around it."""
    for child in children(node):
        yield child, scope
        yield from _with_scope(child, child if isinstance(child, SCOPES) else scope)


def _yields(function: Function) -> bool:
    """True when the function is a generator: a `yield` in its own body, not in a nested scope."""
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in _own(function))


def _own(node: ast.AST) -> Iterator[ast.AST]:
    for child in children(node):
        yield child
        if not isinstance(child, SCOPES):
            yield from _own(child)


def _name(call: ast.Call) -> str:
    function = call.func
    return function.attr if isinstance(function, ast.Attribute) else "create_message"
