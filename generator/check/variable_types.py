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
from generator.rules import Phrase, rule
from generator.run.returned import declared_variables

TYPE_NOT_DECLARED = rule(
    "R113",
    "variable-type-not-declared",
    Severity.WARNING,
    "sets `{name}` to {kind_phrase!s}, but output_schema declares it `{declared}`: the workflow offers the"
    " variable as `{declared}`, and the node that takes it as one gets {kind_phrase!s}",
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
numeric literal), `True`/`False`, a tuple (the SDK sends it as a JSON array), the rows a DB-API
cursor returns, or a name every binding of which in the function is one of these kinds. `integer`
and `number` count as one kind.

The items of an array too, when the property declares a literal `items.type`: a list or tuple
literal whose items are all of one such kind, a list comprehension whose item is (`[(a, b) for
...]` gives arrays), `list(...)` of these, or the rows of a DB-API cursor. PEP 249 (the DB-API)
says `fetchall` and `fetchmany` return "a sequence of sequences (e.g. a list of tuples)" and
`fetchone` "a single sequence": each row is a tuple, which the SDK sends as a JSON array (checked
with the SDK 0.10.2: a `VariableMessage` whose value is `[(1, "a")]` dumps as `[[1,"a"]]`). So a
variable declared `type: array, items: {type: object}` set to `cursor.fetchall()` holds arrays,
and a node that reads `row.name` gets nothing. A cursor is a name bound to `X.cursor(...)` (also
by `with ... as`) or the value of `X.execute(...)`; silent when the module names a cursor or row
kind that gives mappings (`RealDictCursor`, `DictCursor`, `cursor_factory`, `row_factory`,
`dictionary=True`, `as_dict=True`, `.mappings()`), or imports SQLAlchemy (whose `Row` is neither).
A warning.
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


# DB-API calls that give rows (tuples): the list of them, or one.
_ROWS = frozenset({"fetchall", "fetchmany"})
_ROW = "fetchone"
# Names and keywords that make a cursor give mappings instead of tuples.
_DICT_ROWS = frozenset(
    {"RealDictCursor", "DictCursor", "SSDictCursor", "cursor_factory", "row_factory", "DictRow", "mappings"}
)
_DICT_KEYWORDS = frozenset({"dictionary", "as_dict"})
_ROWS_HINT = " (a dict cursor, or `[dict(zip(columns, row)) for row in rows]`)."
_ITEM_PHRASES = {
    "object": "objects",
    "array": "arrays",
    "string": "texts",
    "number": "numbers",
    "boolean": "booleans",
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R113 for every tool whose output_schema declares typed variables."""
    for tool in loaded.plugin.tools if loaded.plugin else ():
        declared = _declared_kinds(tool)
        found = tool_module_tree(loaded, tool) if declared else None
        if found is not None:
            relative, tree = found
            yield from _mismatches(loaded.display_path(relative), tree, declared, _declared_items(tool))


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


def _declared_items(tool: Tool) -> dict[str, str]:
    """For each declared array variable with a literal `items.type`: the kind its items take."""
    properties: Any = tool.output_schema.get("properties") if isinstance(tool.output_schema, dict) else None
    found: dict[str, str] = {}
    for name in declared_variables(tool.output_schema):
        declared = properties.get(name) if isinstance(properties, dict) else None
        items = (
            declared.get("items") if isinstance(declared, dict) and declared.get("type") == "array" else None
        )
        kind = (
            _kind_of_type(items["type"])
            if isinstance(items, dict) and isinstance(items.get("type"), str)
            else None
        )
        if kind is not None:
            found[name] = kind
    return found


def _kind_of_type(declared: str) -> str | None:
    if declared == "integer":
        return "number"
    return declared if declared in _PHRASES else None


def _mismatches(
    display: str, tree: ast.Module, declared: dict[str, tuple[str, set[str]]], items: dict[str, str]
) -> Iterator[Finding]:
    rows = not _gives_mappings(tree)
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
            kind = _kind(node.args[1], function, set(), rows)
            where = Location(display, node.lineno, node.col_offset + 1)
            if kind is not None and kind not in kinds:
                phrase = Phrase(_PHRASES[kind])
                yield TYPE_NOT_DECLARED.at(where, name=name, kind=kind, kind_phrase=phrase, declared=written)
                continue
            item = _item_kind(node.args[1], function, set(), rows) if name in items else None
            if kind == "array" and item is not None and item != items[name]:
                shown = f"array of {items[name]}"
                note = _rows_note(node.args[1], function, item)
                phrase = Phrase(f"an array of {_ITEM_PHRASES[item]}{note}")
                hint = (
                    f"Declare `items: {{type: {item}}}` for `{name}` in output_schema, or set items of type"
                )
                hint += f" `{items[name]}`" + (_ROWS_HINT if note else ".")
                hint = hint.replace("{", "{{").replace("}", "}}")  # a template, already filled
                yield TYPE_NOT_DECLARED.at(
                    where, hint=hint, name=name, kind=kind, kind_phrase=phrase, declared=shown
                )


def _kind(
    value: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef, seen: set[str], rows: bool = False
) -> str | None:
    """The JSON type `value` certainly has, or None; `rows` when the module's cursors give tuples."""
    if isinstance(value, ast.Dict | ast.DictComp):
        return "object"
    if isinstance(value, ast.List | ast.ListComp | ast.Tuple):
        return "array"
    if rows and _fetch(value, function) is not None:
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
            _kind(bound, function, seen | {value.id}, rows) if bound is not None else None
            for bound in plain_bindings(function, value.id)
        }
        return kinds.pop() if len(kinds) == 1 else None
    return None


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _item_kind(value: ast.expr, function: Function, seen: set[str], rows: bool) -> str | None:
    """The JSON type every item of the array `value` certainly has, or None."""
    if isinstance(value, ast.List | ast.Tuple) and value.elts:
        kinds = {_kind(item, function, seen, rows) for item in value.elts}
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(value, ast.ListComp):
        targets = {n.id for g in value.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        if isinstance(value.elt, ast.Name) and value.elt.id in targets:
            return None  # the loop's own item, whose kind is the iterable's
        return _kind(value.elt, function, seen | targets, rows)
    if isinstance(value, ast.Call) and called_name(value.func) == "list" and len(value.args) == 1:
        return _item_kind(value.args[0], function, seen, rows)
    fetched = _fetch(value, function) if rows else None
    if fetched is not None:
        return "array" if fetched in _ROWS else None
    if isinstance(value, ast.Name) and value.id not in seen:
        kinds = {
            _item_kind(bound, function, seen | {value.id}, rows) if bound is not None else None
            for bound in plain_bindings(function, value.id)
        }
        return kinds.pop() if len(kinds) == 1 else None
    return None


def _fetch(value: ast.expr, function: Function) -> str | None:
    """`fetchall`, `fetchmany` or `fetchone` when `value` is that call on a DB-API cursor."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return None
    method = value.func.attr
    if method not in _ROWS and method != _ROW:
        return None
    return method if _is_cursor(value.func.value, function) else None


def _is_cursor(node: ast.expr, function: Function) -> bool:
    """`X.cursor(...)` or `X.execute(...)`, or a name bound to one (also by `with ... as`)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("cursor", "execute")
    if not isinstance(node, ast.Name):
        return False
    made = [
        item.context_expr
        for statement in every_node(function)
        if isinstance(statement, ast.With | ast.AsyncWith)
        for item in statement.items
        if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == node.id
    ]
    bound = [b for b in plain_bindings(function, node.id) if not _is_none(b)]
    values = [*made, *(b for b in bound if b is not None)]
    if len(bound) - (len(values) - len(made)) > len(made):
        return False  # bound otherwise too (a parameter, a loop)
    return bool(values) and all(isinstance(v, ast.Call) and _is_cursor(v, function) for v in values)


def _is_none(value: ast.expr | None) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _gives_mappings(tree: ast.Module) -> bool:
    """The module names a cursor or row kind that gives mappings (`RealDictCursor`, `row_factory`,
    `dictionary=True`...)."""
    for node in every_node(tree):
        named = (
            node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        )
        if named in _DICT_ROWS:
            return True
        if isinstance(node, ast.keyword) and node.arg in _DICT_KEYWORDS:
            return True
        if isinstance(node, ast.Import | ast.ImportFrom) and any(
            (getattr(node, "module", None) or alias.name).startswith("sqlalchemy") for alias in node.names
        ):
            return True  # its Row objects are neither tuples nor dicts
    return False


def _rows_note(value: ast.expr, function: Function, item: str) -> str:
    """`(the rows of `cursor.fetchmany(...)` are tuples)` when the array's items come from a cursor."""
    seen: set[str] = set()
    while isinstance(value, ast.Name) and value.id not in seen:
        seen.add(value.id)
        bound = [b for b in plain_bindings(function, value.id) if b is not None]
        if len(bound) != 1:
            break
        value = bound[0]
    fetched = _fetch(value, function)
    if fetched is None or item != "array" or not isinstance(value, ast.Call):
        return ""
    return f" (the rows `{ast.unparse(value.func)}(...)` returns are tuples)"
