"""A value the plugin's own function may return as None, handed to an SDK message helper that
refuses None (R079): `self.create_text_message(self.fetch(url))` where `fetch`'s `except` ends
without a `return`, found without running it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.passed_on import Scope, resolve, tool_functions
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import Function
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

NONE_TO_MESSAGE = rule(
    "R079",
    "message-from-none",
    Severity.WARNING,
    "{call}(...) receives what {helper}() returns, and {helper}() returns None when {path!s}: the SDK"
    " refuses None there ({field}), so the tool fails on that path instead of answering",
    "Make {helper}() return a value on every path (an error text, or raise with a clear message), or"
    " test its result before building the message.",
    """
The SDK's message helpers build pydantic models, which check their fields when the message is
made: `create_text_message(text)` makes `TextMessage(text=text)` with `text: str`,
`create_image_message` and `create_link_message` a `TextMessage` too, `create_json_message(json)`
a `JsonMessage` with `json_object: Mapping | list`, `create_blob_message(blob)` a `BlobMessage`
with `blob: bytes` (dify_plugin/entities/invoke_message.py, 0.7 to 0.10), and
`create_stream_variable_message` refuses any value that is not a string ("When 'stream' is True,
'variable_value' must be a string."). None is none of these: the call raises a ValidationError in
`_invoke`, and the user gets the SDK's error instead of the tool's answer. (`create_variable_message`
takes any value, None included, and is not read.)

Found without running: the argument is a call of one of the plugin's own functions (a method of the
tool class, a function of the module or one imported from the plugin's modules,
`check/passed_on.py`), or a name bound once to such a call and used nowhere else; that function
returns a value on some path and None on another: a `return` with no value, `return None`, or an
end it can reach without a `return` (an `except` that only prints, an `if` with no `else`). A
warning: only the calls that take that path fail; the finding names the path.
""",
)
# SDK helper -> (index of the refusing argument, its keyword, the field as the SDK declares it).
REFUSING: dict[str, tuple[int, str, str]] = {
    "create_text_message": (0, "text", "TextMessage.text: str"),
    "create_image_message": (0, "image_url", "TextMessage.text: str"),
    "create_link_message": (0, "link", "TextMessage.text: str"),
    "create_json_message": (0, "json", "JsonMessage.json_object: Mapping | list"),
    "create_blob_message": (0, "blob", "BlobMessage.blob: bytes"),
    "create_stream_variable_message": (1, "variable_value", "a streamed variable's value must be a string"),
}


@dataclass(frozen=True, slots=True)
class Handed:
    """A message helper's call, the call of the plugin's function whose value it receives, and
    that function."""

    message: ast.Call
    call: ast.Call
    helper: Function


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Values that may be None handed to message helpers that refuse None, in every tool module."""
    for function, scope in tool_functions(loaded):
        yield from _findings(function, scope)


def _findings(function: Function, scope: Scope) -> Iterator[Finding]:
    for handed in _handed(function, scope):
        path = none_path(handed.helper)
        if path is None:
            continue
        name = handed.message.func.attr if isinstance(handed.message.func, ast.Attribute) else ""
        yield NONE_TO_MESSAGE.at(
            Location(scope.display, handed.message.lineno, handed.message.col_offset + 1),
            call=name,
            helper=handed.helper.name,
            path=Phrase(path),
            field=REFUSING[name][2],
        )


def _handed(function: Function, scope: Scope) -> Iterator[Handed]:
    """Each message call in `function` whose refusing argument is a plugin function's value."""
    nodes = own_nodes(function)
    for node in nodes:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        refusing = REFUSING.get(node.func.attr)
        argument = _argument(node, *refusing[:2]) if refusing is not None else None
        call = _value_call(argument, function, nodes) if argument is not None else None
        target = resolve(call, function, scope) if call is not None else None
        if call is not None and target is not None:
            yield Handed(node, call, target[0])


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _value_call(argument: ast.expr, function: Function, nodes: Iterable[ast.AST]) -> ast.Call | None:
    """The call whose value `argument` is: itself, or the one call a name used only here is bound to."""
    if isinstance(argument, ast.Call):
        return argument
    if not isinstance(argument, ast.Name):
        return None
    uses = [node for node in nodes if isinstance(node, ast.Name) and node.id == argument.id]
    stores = [node for node in uses if not isinstance(node.ctx, ast.Load)]
    if len(uses) != 2 or len(stores) != 1 or any(a.arg == argument.id for a in _arguments(function)):
        return None  # tested, used again or bound elsewhere: the code may well handle None
    bound = [
        node.value
        for node in nodes
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and node.targets[0] is stores[0]
    ]
    return bound[0] if bound and isinstance(bound[0], ast.Call) else None


def _arguments(function: Function) -> list[ast.arg]:
    arguments = function.args
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]


def none_path(function: Function) -> str | None:
    """How `function` returns None on some path while it returns a value on another; None when it
    never returns None (or never returns a value, or is a generator, whose value is no return)."""
    nodes = own_nodes(function)
    generator = any(isinstance(node, ast.Yield | ast.YieldFrom) for node in nodes)
    if isinstance(function, ast.AsyncFunctionDef) or generator:
        return None
    returns = [node for node in nodes if isinstance(node, ast.Return)]
    if not any(node.value is not None and not _is_none(node.value) for node in returns):
        return None
    empty = sorted(node.lineno for node in returns if node.value is None or _is_none(node.value))
    if empty:
        return f"it takes the `return` at line {empty[0]}"
    return _falls_through(function.body)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _falls_through(block: list[ast.stmt]) -> str | None:
    """The path on which `block` completes without a `return` or `raise`, said in words; None when
    it never does (or when that cannot be told: a `match`, a loop that may not end)."""
    if not block:
        return "it reaches an empty block, with no `return`"
    last = block[-1]
    if isinstance(last, ast.Return | ast.Raise):
        return None
    if any(isinstance(statement, ast.Return | ast.Raise) for statement in block[:-1]):
        return None  # code after a return: unreachable, or too clever to judge
    if isinstance(last, ast.If):
        inside = _falls_through(last.body)
        if inside is not None:
            return inside
        if not last.orelse:
            return f"the test at line {last.lineno} is false (no `else`, and no `return` after it)"
        return _falls_through(last.orelse)
    if isinstance(last, ast.Try | ast.TryStar):
        if last.finalbody and _falls_through(last.finalbody) is None:
            return None
        for handler in last.handlers:
            if _falls_through(handler.body) is not None:
                return f"the `except` at line {handler.lineno} runs (it ends without a `return`)"
        return _falls_through(last.orelse or last.body)
    if isinstance(last, ast.With | ast.AsyncWith):
        return _falls_through(last.body)
    if isinstance(last, ast.While | ast.Match | ast.For | ast.AsyncFor):
        return None  # loops and matches: which paths end there is beyond a reading this simple
    return f"it runs past line {last.end_lineno or last.lineno}, its last, with no `return`"
