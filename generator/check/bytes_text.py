"""Bytes shown as text (R141): `create_text_message(str(result))` where `result` holds bytes, found
without running.

`str()` of bytes (or of a dictionary or list holding bytes, whose `str()` shows each item's
`repr()`) is their Python representation, `b'PK\\x03\\x04...'`, not their content: the user reads
escape codes where a file or its text should be.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, statement_nodes
from generator.check.passed_on import Scope, resolve, tool_functions
from generator.check.undeclared import Function
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

BYTES_AS_TEXT = rule(
    "R141",
    "bytes-shown-as-text",
    Severity.WARNING,
    "the text message shows {shown}, which holds bytes ({source}): `str()` of bytes, and of a"
    " dictionary or list holding them, is their Python representation (`b'...'`, an escape code for"
    " every byte that is not printable ASCII), so the user reads that, not the content",
    "Send the bytes with create_blob_message (a file), decode them if they are text"
    ' (`.decode("utf-8")`), or show only the fields that are text.',
    """
`create_text_message(text)` sends `text` as the message's text (dify_plugin
interfaces/tool/tool.py: `message=InvokeMessage.TextMessage(text=text)`, a `text: str` field),
which Dify shows the user and puts in the tool node's `text` output. `str()` of a `bytes` value is
its representation, `b'...'` with escape codes for every byte that is not printable ASCII, and
`str()` of a dictionary or list shows each item by its `repr()`, so a result dictionary holding a
zip archive's bytes becomes `{'file': {'data': b'PK\\x03\\x04\\x14\\x00...'}}` in the user's text:
unreadable, and as long as the file.

The check reads the functions of the tool modules and speaks when a text message gets `str(v)` or
an f-string showing `{v}` (also through a name bound once to either), where `v` is bytes or a
dictionary, list or tuple written in the code that holds bytes, directly or nested: the value
itself, a name the function binds once to it, or a name bound once to a call of the plugin's own
function (of the module, or imported from another of the plugin's modules) one of whose `return`s
is such a value. Bytes are what the code makes bytes without doubt: a `b"..."` literal, `bytes(...)`,
`bytearray(...)`, `base64.b64encode/b64decode(...)`, `zlib`/`gzip` `compress(...)`, `.read()` or
`.getvalue()` of a name bound to `io.BytesIO(...)`, and `.content` of a name bound to a call of
requests or httpx (`response = requests.get(...)`: "Content of the response, in bytes", requests'
`Response.content`; `.text` is the decoded text). A warning: the tool works, its text does not.
""",
)
# Functions whose result is bytes, whatever their arguments.
BYTES_CALLS = frozenset(
    {
        "bytes",
        "bytearray",
        "base64.b64encode",
        "base64.b64decode",
        "base64.urlsafe_b64encode",
        "base64.urlsafe_b64decode",
        "base64.standard_b64encode",
        "base64.standard_b64decode",
        "zlib.compress",
        "gzip.compress",
    }
)
# Calls of requests and httpx whose response's `.content` is the body as bytes.
HTTP_CALLS = frozenset(
    f"{library}.{method}"
    for library in ("requests", "httpx")
    for method in ("get", "post", "put", "patch", "delete", "head", "request")
)
# The SDK's helper whose one argument becomes the message's text.
TEXT_MESSAGE = "create_text_message"


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R141 at each text message that shows bytes by their representation."""
    if loaded.plugin is None:
        return
    for function, scope in tool_functions(loaded):
        yield from _shown_bytes(function, scope)


def _shown_bytes(function: Function, scope: Scope) -> Iterator[Finding]:
    nodes = list(statement_nodes(function.body))
    bound = _bound_once(nodes)
    for node in nodes:
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == TEXT_MESSAGE
            and len(node.args) == 1
        ):
            continue
        argument = node.args[0]
        if isinstance(argument, ast.Name) and argument.id in bound:
            argument = bound[argument.id]  # `info = str(result)`, then `create_text_message(info)`
        for shown in _stringified(argument):
            source = _bytes_source(shown, bound, function, scope, 0)
            if source is not None:
                yield BYTES_AS_TEXT.at(
                    Location(scope.display, argument.lineno, argument.col_offset + 1),
                    shown=Phrase(f"`{ast.unparse(shown)}`"),
                    source=Phrase(source),
                )
                break


def _stringified(node: ast.expr) -> list[ast.expr]:
    """The values `node` turns into text by their `str()`: `str(v)`, or each `{v}` of an f-string
    without a format spec or conversion other than `!s`."""
    if isinstance(node, ast.Call) and called_name(node.func) == "str" and len(node.args) == 1:
        return [node.args[0]]
    if isinstance(node, ast.JoinedStr):
        return [
            part.value
            for part in node.values
            if isinstance(part, ast.FormattedValue)
            and part.conversion in (-1, ord("s"))
            and part.format_spec is None
        ]
    return []


def _bound_once(nodes: list[ast.AST]) -> dict[str, ast.expr]:
    """The names the function binds exactly once, by a plain assignment, with their values."""
    counts: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, ast.arg):
            counts[node.arg] = counts.get(node.arg, 0) + 2  # a parameter: bound by the caller
    return {
        target.id: node.value
        for node in nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(target := node.targets[0], ast.Name)
        and counts.get(target.id) == 1
    }


def _bytes_source(
    node: ast.expr, bound: dict[str, ast.expr], function: Function, scope: Scope, depth: int
) -> str | None:
    """What makes `node` bytes or a literal container holding bytes (shown in the finding), or
    None when it is not surely that."""
    if isinstance(node, ast.Name) and node.id in bound:
        value = bound[node.id]
        if isinstance(value, ast.Call) and depth == 0:
            returned = _returned_bytes(value, function, scope)
            if returned is not None:
                return returned
        return _bytes_source(value, bound, function, scope, depth + 1) if depth < 4 else None
    if isinstance(node, ast.Dict | ast.List | ast.Tuple | ast.Set):
        items = node.values if isinstance(node, ast.Dict) else node.elts
        for item in items:
            found = _bytes_source(item, bound, function, scope, depth + 1) if depth < 4 else None
            if found is not None:
                return found
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        return f"a bytes literal, line {node.lineno}"
    if isinstance(node, ast.Call):
        name = called_name(node.func)
        if name in BYTES_CALLS:
            return f"`{name}(...)`, line {node.lineno}"
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("read", "getvalue") and not node.args:
            held = bound.get(func.value.id) if isinstance(func.value, ast.Name) else None
            if isinstance(held, ast.Call) and called_name(held.func) in ("io.BytesIO", "BytesIO"):
                return f"`{ast.unparse(node)}` of a BytesIO, line {node.lineno}"
    if isinstance(node, ast.Attribute) and node.attr == "content" and isinstance(node.value, ast.Name):
        # `response.content` of requests or httpx: the body as bytes (`.text` is the decoded one)
        held = bound.get(node.value.id)
        if isinstance(held, ast.Call) and called_name(held.func) in HTTP_CALLS:
            return f"the body of the `{called_name(held.func)}(...)` response, line {node.lineno}"
    return None


def _returned_bytes(call: ast.Call, caller: Function, scope: Scope) -> str | None:
    """For a call of one of the plugin's own functions: what makes one of its `return` values a
    literal container holding bytes, with the function's name; None otherwise."""
    target = resolve(call, caller, scope)
    if target is None:
        return None
    helper, home = target
    nodes = list(statement_nodes(helper.body))
    bound = _bound_once(nodes)
    for node in nodes:
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict | ast.List | ast.Tuple):
            found = _bytes_source(node.value, bound, helper, home, 1)
            if found is not None:
                where = "" if home.relative == scope.relative else f" of {home.display}"
                return f"{found}{where}, which `{helper.name}` returns"
    return None
