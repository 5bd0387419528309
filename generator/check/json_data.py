"""An attribute looked up on the data an HTTP response's `.json()` returns (R111), found without
running.

`resp.json()` gives plain Python data (a dict, a list, text, a number, a bool or None), so
`data = resp.json(); data.msg` raises AttributeError ("'dict' object has no attribute 'msg'") each
time the line runs, whatever the service answered: the author meant `data["msg"]`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, library_callables
from generator.check.plugin_code import Function, reachable_functions
from generator.check.sdk_file import own_nodes, plain_bindings
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

ATTRIBUTE_ON_JSON = rule(
    "R111",
    "attribute-on-json-data",
    Severity.WARNING,
    "{shown}: {holder!s} (a dict, a list, text or a number), which has no attribute `{attribute}`, so"
    " this line raises AttributeError each time it runs",
    'Read the key instead: `{receiver}["{attribute}"]` (or `{receiver}.get("{attribute}")`).',
    """
`requests`' `Response.json()` returns `complexjson.loads(self.content...)` (`requests/models.py`)
and `httpx`'s returns `jsonlib.loads(self.content, ...)` (`httpx/_models.py`): plain Python data,
built of `dict`, `list`, `str`, `int`, `float`, `bool` and `None`. None of them has attributes of
the service's fields, so `result.msg` or `resp.json().data` raises AttributeError ("'dict' object
has no attribute 'msg'") every time the line runs, whatever the service answered: the tool fails
where its author meant to read a key (`result["msg"]`).

Found without running, in the functions of the modules the SDK loads: an attribute looked up on
`r.json()`, or on a name every binding of which in the function is `r.json()`, where `r` is a name
every binding of which is a call of `requests` or `httpx` (`requests.post(...)`, `httpx.get(...)`,
`from requests import post`...), and the attribute is none of what those types have (`get`,
`items`, `keys`, `append`, `strip`...); once per receiver and attribute in a function. A warning:
the line may sit on a path few calls take (an error branch).
""",
)
_CLIENTS = {
    "requests": frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request"}),
    "httpx": frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request"}),
}
# What the data `.json()` returns may have: the attributes of every JSON type.
_JSON_ATTRIBUTES = frozenset(
    name for kind in (dict, list, str, int, float, bool, type(None)) for name in dir(kind)
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R111 at each attribute looked up on the data of a response's `.json()`."""
    if loaded.plugin is None:
        return
    for display, tree, function in reachable_functions(loaded):
        clients = library_callables(tree, _CLIENTS)
        if clients:
            yield from _lookups(display, function, frozenset(clients))


def _lookups(display: str, function: Function, clients: frozenset[str]) -> Iterator[Finding]:
    responses: dict[str, bool] = {}
    data: dict[str, str | None] = {}
    told: set[tuple[str, str]] = set()
    placed = [node for node in own_nodes(function) if isinstance(node, ast.Attribute)]
    for node in sorted(placed, key=lambda node: (node.lineno, node.col_offset)):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        if node.attr in _JSON_ATTRIBUTES:
            continue
        value = node.value
        if isinstance(value, ast.Name):
            if value.id not in data:
                data[value.id] = _json_of(function, value.id, clients, responses)
            response = data[value.id]
            receiver = value.id
            holder = f"`{receiver}` holds the data `{response}.json()` returned"
        else:
            response = _response_json(value, function, clients, responses)
            receiver = ast.unparse(value)
            holder = f"`{receiver}` returns plain data"
        if response is None or (receiver, node.attr) in told:
            continue
        told.add((receiver, node.attr))  # one cause: the first lookup tells it
        yield ATTRIBUTE_ON_JSON.at(
            Location(display, node.lineno, node.col_offset + 1),
            shown=ast.unparse(node)[:80],
            receiver=receiver[:60],
            holder=Phrase(holder),
            attribute=node.attr,
        )


def _json_of(
    function: Function, name: str, clients: frozenset[str], responses: dict[str, bool]
) -> str | None:
    """The response whose `.json()` every binding of `name` in the function is, if one."""
    found = {
        _response_json(value, function, clients, responses) if value is not None else None
        for value in plain_bindings(function, name)
    }
    if len(found) != 1:
        return None
    return found.pop()


def _response_json(
    node: ast.expr, function: Function, clients: frozenset[str], responses: dict[str, bool]
) -> str | None:
    """For `r.json()` with `r` a response of `requests` or `httpx`: `r`."""
    if not (isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr != "json" or not isinstance(node.func.value, ast.Name):
        return None
    name = node.func.value.id
    if name not in responses:
        bindings = plain_bindings(function, name)
        responses[name] = all(
            isinstance(value, ast.Call) and called_name(value.func) in clients for value in bindings
        )
    return name if responses[name] else None
