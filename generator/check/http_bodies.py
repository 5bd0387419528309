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
from generator.check.sdk_file import own_nodes
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
    nodes = own_nodes(function)
    texts: dict[str, str] | None = None  # made for a function with an HTTP call only
    for node in nodes:
        if not isinstance(node, ast.Call) or not _is_http_call(node.func):
            continue
        for keyword in node.keywords:
            if keyword.arg != "json":
                continue
            value = keyword.value
            if isinstance(value, ast.Call) and called_name(value.func) in dumps:
                yield node, _short(value), "the value is `json.dumps(...)`'s text"
            elif isinstance(value, ast.Name):
                if texts is None:
                    texts = _dumped_names(nodes, dumps)
                line = texts.get(value.id)
                if line:
                    yield node, value.id, f"{value.id} is the text `json.dumps(...)` made ({line})"


def _is_http_call(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr in METHODS


def _dumped_names(nodes: list[ast.AST], dumps: set[str]) -> dict[str, str]:
    """Names every binding of which in the function is a `json.dumps(...)` call, with the line of the
    first: a name bound to anything else, or in a loop or `with` target, is not judged."""
    found: dict[str, str] = {}
    others: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            dumped = (
                isinstance(node.value, ast.Call) and called_name(node.value.func) in dumps
                if node.value is not None
                else False
            )
            for target in targets:
                if isinstance(target, ast.Name):
                    if dumped:
                        found.setdefault(target.id, f"line {node.lineno}")
                    else:
                        others.add(target.id)
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.withitem | ast.NamedExpr):
            bound: ast.expr | None = node.optional_vars if isinstance(node, ast.withitem) else node.target
            for name in ast.walk(bound) if bound is not None else ():
                if isinstance(name, ast.Name):
                    others.add(name.id)
        elif isinstance(node, ast.arg):
            others.add(node.arg)
    return {name: line for name, line in found.items() if name not in others}


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 50 else text[:47] + "..."
