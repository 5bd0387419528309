"""A generator yielded as one message (R087): `yield self.helper(...)` where `helper` is itself a
generator function, found without running the tool.

Calling a generator function runs none of its body: it returns a generator object. `_invoke`
yielding that object hands the SDK one item that is no message; the messages the helper would
have made are never made. `yield from self.helper(...)` was meant.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import Function, class_members, tool_invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

Functions = dict[str, ast.FunctionDef]
GENERATOR_YIELDED = rule(
    "R087",
    "generator-yielded-as-message",
    Severity.ERROR,
    "`yield {call}` yields a generator, not a message: {helper} is a generator function, so the"
    " SDK receives a generator object it cannot send to Dify, and none of {helper}'s messages is made",
    "Write `yield from {call}`.",
    """
The SDK iterates what `_invoke` yields and sends each item to Dify as a message
(`dify_plugin/core/plugin_executor.py` hands the tool's generator to the session, which writes each
item's `model_dump()` as a JSON frame; the runner reports such an item as R014). Calling a
generator function, a `def` whose body holds a `yield`, runs none of its body: it returns a
generator object. So `yield self._download(...)`, with `_download` a generator method, yields one
object that is no `ToolInvokeMessage`: the invocation fails on that item, and the messages
`_download` would make (the image, its text) are never made. `yield from self._download(...)`
delegates to it. The check reads `_invoke` and the methods it delegates to with `yield from
self.m(...)`, and reports a `yield` whose value is a call of a generator method of the same class
or a generator function of the same module; an error: the line breaks the invocation each time it
runs.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R087 in each tool's class."""
    for _, file, tree, invoke in tool_invokes(loaded):
        cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and invoke in node.body)
        yield from _findings(tree, cls, invoke, loaded.display_path(file))


def _findings(tree: ast.Module, cls: ast.ClassDef, invoke: Function, display: str) -> Iterator[Finding]:
    methods = {
        name: statements[0]
        for name, statements in class_members(cls).items()
        if len(statements) == 1 and isinstance(statements[0], ast.FunctionDef)
    }
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    generators = {name for name, function in {**functions, **methods}.items() if _is_generator(function)}
    for function in _reached(invoke, methods):
        for node in own_nodes(function):
            if not isinstance(node, ast.Yield) or not isinstance(node.value, ast.Call):
                continue
            name = _called(node.value, methods, functions)
            if name in generators:
                call = ast.unparse(node.value)
                yield GENERATOR_YIELDED.at(
                    Location(display, node.lineno, node.col_offset + 1),
                    call=call if len(call) <= 80 else call[:77] + "...",
                    helper=name,
                )


def _reached(invoke: Function, methods: Functions) -> list[Function]:
    """`_invoke` and the methods it delegates to with `yield from self.m(...)`, at any depth."""
    reached: list[Function] = [invoke]
    for function in reached:
        for node in own_nodes(function):
            if isinstance(node, ast.YieldFrom) and isinstance(node.value, ast.Call):
                name = _self_method(node.value)
                method = methods.get(name) if name else None
                if method is not None and method not in reached:
                    reached.append(method)
    return reached


def _called(
    call: ast.Call, methods: dict[str, ast.FunctionDef], functions: dict[str, ast.FunctionDef]
) -> str:
    """The name of the class's method (`self.m(...)`) or the module's function (`f(...)`) called."""
    name = _self_method(call)
    if name in methods:
        return name
    if isinstance(call.func, ast.Name) and call.func.id in functions and call.func.id not in methods:
        return call.func.id
    return ""


def _self_method(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return func.attr
    return ""


def _is_generator(function: ast.FunctionDef) -> bool:
    """True when `function`'s own body yields (not a lambda's or an inner function's), and it is not
    decorated (a decorator may turn it into anything)."""
    if function.decorator_list:
        return False
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own_nodes(function))
