"""A variable set to a value of another JSON type than its `output_schema` declares (R113), found
without running.

`create_variable_message("scores", {...})` where `output_schema` declares `scores` an `array`: the
workflow editor offers the variable as an array, and the node that takes it as one (an iteration,
a code node's typed input) gets an object, on every call that sets it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from typing import Any

from generator.check import CheckContext
from generator.check.common import called_name, every_node, tool_module_tree
from generator.check.sdk_file import plain_bindings
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import rule
from generator.run.returned import declared_variables

TYPE_NOT_DECLARED = rule(
    "R113",
    "variable-type-not-declared",
    Severity.WARNING,
    "sets `{name}` to {kind_phrase}, but output_schema declares it `{declared}`: the workflow offers the"
    " variable as `{declared}`, and the node that takes it as one gets {kind_phrase}",
    "Declare `type: {kind}` for `{name}` in output_schema, or set a value of type `{declared}`.",
    """
Dify's tool node offers the variables of a tool's `output_schema` to the nodes after it with the
type each property declares, and fills them with what the tool's variable messages carry, as
they are (`ToolNode` puts each `VariableMessage`'s value into the node's outputs; neither the SDK's
`create_variable_message` nor Dify compares it with the schema). A value of another JSON type
reaches the node that trusts the declaration: an iteration over an `array` that is an object, a
code node's `number` input that is text.

Found without running, in the tool's own module: `create_variable_message("name", value)` with a
literal name that `output_schema.properties` declares with a literal `type`, and a value whose JSON
type is certain: a dict or list literal or comprehension, `dict(...)`, `list(...)`, text (a string,
an f-string, `str(...)`, `json.dumps(...)`), a number (`int(...)`, `float(...)`, `len(...)`, a
numeric literal), `True`/`False`, or a name every binding of which in the function is one of
these kinds. `integer` and `number` count as one kind. A warning.
""",
)
_CALL_KINDS = {
    "dict": "object",
    "list": "array",
    "sorted": "array",
    "str": "string",
    "json.dumps": "string",
    "int": "number",
    "float": "number",
    "len": "number",
    "bool": "boolean",
}
_PHRASES = {
    "object": "an object (a dict)",
    "array": "an array (a list)",
    "string": "text",
    "number": "a number",
    "boolean": "a boolean",
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R113 for every tool whose output_schema declares typed variables."""
    for tool in loaded.plugin.tools if loaded.plugin else ():
        declared = _declared_kinds(tool)
        found = tool_module_tree(loaded, tool) if declared else None
        if found is not None:
            relative, tree = found
            yield from _mismatches(loaded.display_path(relative), tree, declared)


def _declared_kinds(tool: Tool) -> dict[str, tuple[str, set[str]]]:
    """For each declared variable with a literal type: the type as written and the kinds it takes."""
    properties: Any = tool.output_schema.get("properties") if isinstance(tool.output_schema, dict) else None
    found: dict[str, tuple[str, set[str]]] = {}
    for name in declared_variables(tool.output_schema):
        declared = properties.get(name) if isinstance(properties, dict) else None
        kind = declared.get("type") if isinstance(declared, dict) else None
        types = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else []
        kinds = {_kind_of_type(t) for t in types if isinstance(t, str)} - {None}
        if kinds and all(isinstance(t, str) for t in types):
            found[name] = (kind if isinstance(kind, str) else "/".join(types), {k for k in kinds if k})
    return found


def _kind_of_type(declared: str) -> str | None:
    if declared == "integer":
        return "number"
    return declared if declared in _PHRASES else None


def _mismatches(
    display: str, tree: ast.Module, declared: dict[str, tuple[str, set[str]]]
) -> Iterator[Finding]:
    for function in every_node(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in every_node(function):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "create_variable_message"
                and len(node.args) >= 2
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value in declared
            ):
                continue
            name = str(node.args[0].value)
            written, kinds = declared[name]
            kind = _kind(node.args[1], function, set())
            if kind is None or kind in kinds:
                continue
            yield TYPE_NOT_DECLARED.at(
                Location(display, node.lineno, node.col_offset + 1),
                name=name,
                kind=kind,
                kind_phrase=_PHRASES[kind],
                declared=written,
            )


def _kind(value: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef, seen: set[str]) -> str | None:
    """The JSON type `value` certainly has, or None."""
    if isinstance(value, ast.Dict | ast.DictComp):
        return "object"
    if isinstance(value, ast.List | ast.ListComp):
        return "array"
    if isinstance(value, ast.JoinedStr):
        return "string"
    if isinstance(value, ast.Constant):
        if isinstance(value.value, bool):
            return "boolean"
        if isinstance(value.value, int | float):
            return "number"
        return "string" if isinstance(value.value, str) else None
    if isinstance(value, ast.Call):
        return _CALL_KINDS.get(called_name(value.func))
    if isinstance(value, ast.Name) and value.id not in seen:
        kinds = {
            _kind(bound, function, seen | {value.id}) if bound is not None else None
            for bound in plain_bindings(function, value.id)
        }
        return kinds.pop() if len(kinds) == 1 else None
    return None
