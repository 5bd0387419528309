"""JSON text handed to an HTTP client's `json=` (R095): the body is encoded twice.

`requests.post(url, json=json.dumps(payload))` serialises its `json=` argument itself, so text that
is already JSON goes out as one JSON string (`"{\\"q\\": 1}"`), and the API reads a string where it
expects an object, on every call. The check reads the plugin's own code, so it holds whatever a run
on invented inputs (which cannot reach the API) would show.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, library_callables
from generator.check.plugin_code import reachable_functions
from generator.check.sdk_file import own_nodes, plain_bindings
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

JSON_TEXT_BODY = rule(
    "R095",
    "json-text-as-json-body",
    Severity.WARNING,
    "{call}(json={argument}) sends JSON text as a JSON string: {origin!s}, and the client encodes its"
    " `json=` argument again, so the API receives one quoted string instead of the object, on every call",
    "Pass the object itself (`json=payload`), or send the text as `data=` with a"
    " `Content-Type: application/json` header.",
    """
`requests` (`requests/models.py`, `prepare_body`: `body = complexjson.dumps(json, allow_nan=False)`),
`httpx` (`httpx/_content.py`, `encode_json`: `json_dumps(json)`) and `aiohttp` (`JsonPayload`)
serialise the value given as `json=` and set `Content-Type: application/json`. A value that
`json.dumps` already turned into text is serialised a second time: the body is a JSON string
(`"{\\"query\\": \\"...\\"}"`), not the object, and an API that expects an object answers 400 or
ignores every field, for every user. The check reads calls of a method named like an HTTP verb
(`post`, `put`, `patch`, `get`, `delete`, `request`) in the modules the SDK loads whose `json=` is a
`json.dumps(...)` call, or a name that the same function binds only to `json.dumps(...)`. A
warning: a rare API does take a JSON string as its body.
""",
)
METHODS = frozenset({"post", "put", "patch", "get", "delete", "request", "options", "head"})
DUMPS = {"json": frozenset({"dumps"})}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R095 at each HTTP call whose `json=` is text `json.dumps` made."""
    if loaded.plugin is None:
        return
    for display, tree, function in reachable_functions(loaded):
        dumps = {local for local, dotted in library_callables(tree, DUMPS).items() if dotted == "json.dumps"}
        for call, argument, origin in _double_encoded(function, dumps) if dumps else ():
            text = ast.unparse(call.func)
            yield JSON_TEXT_BODY.at(
                Location(display, call.lineno, call.col_offset + 1),
                call=text if len(text) <= 60 else text[:57] + "...",
                argument=argument,
                origin=Phrase(origin),
            )


def _double_encoded(
    function: ast.FunctionDef | ast.AsyncFunctionDef, dumps: set[str]
) -> Iterator[tuple[ast.Call, str, str]]:
    for node in own_nodes(function):
        if not isinstance(node, ast.Call) or not _is_http_call(node.func):
            continue
        for keyword in node.keywords:
            if keyword.arg != "json":
                continue
            value = keyword.value
            if isinstance(value, ast.Call) and called_name(value.func) in dumps:
                yield node, _short(value), "the value is `json.dumps(...)`'s text"
            elif isinstance(value, ast.Name):
                # every binding of the name in the function a `json.dumps(...)` call
                values = plain_bindings(function, value.id)
                if all(isinstance(v, ast.Call) and called_name(v.func) in dumps for v in values):
                    line = min(v.lineno for v in values if v is not None)
                    yield node, value.id, f"{value.id} is the text `json.dumps(...)` made (line {line})"


def _is_http_call(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr in METHODS


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 50 else text[:47] + "..."
