"""JSON text handed to an HTTP client's `json=` (R095): the body is encoded twice.

`requests.post(url, json=json.dumps(payload))` serialises its `json=` argument itself, so text that
is already JSON goes out as one JSON string (`"{\\"q\\": 1}"`), and the API reads a string where it
expects an object, on every call. The same holds for a `string` parameter of the tool (the JSON a
user typed into a "body" field): Dify casts a string parameter to `str` before the tool sees it,
while an `object` or `array` parameter arrives parsed. The check reads the plugin's own code, so it
holds whatever a run on invented inputs (which cannot reach the API) would show.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, library_callables, tool_module_tree
from generator.check.optional_reads import TEXT_TYPES, looked_up
from generator.check.passed_on import follow
from generator.check.plugin_code import reachable_functions
from generator.check.sdk_file import own_nodes, plain_bindings
from generator.check.undeclared import Function, invokes
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
`json.dumps(...)` call, or a name that the same function binds only to `json.dumps(...)`.

The same goes for a parameter of the tool declared `type: string` (or `secret-input`): Dify's
`cast_parameter_value` (api/core/plugin/entities/parameters.py) gives such a value as text whatever
the user or the model filled in (`case PluginParameterType.STRING | PluginParameterType.SECRET_INPUT
| ...: if value is None: return "" else: return value if isinstance(value, str) else str(value)`),
so JSON typed into it reaches `_invoke` as a `str`; `type: object` and `type: array` are parsed for
the tool instead (`case PluginParameterType.OBJECT: ... parsed_value = json.loads(value)`), and are
not reported. The check reads `_invoke` (and the plugin's own functions it hands the parameters'
dictionary to) for `json=` given `params["x"]` or `params.get("x")` of such a parameter, or a name
that the function binds only to such a read. A warning: a rare API does take a JSON string as its
body.
""",
)
METHODS = frozenset({"post", "put", "patch", "get", "delete", "request", "options", "head"})
DUMPS = {"json": frozenset({"dumps"})}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R095 at each HTTP call whose `json=` is text `json.dumps` made, or a string parameter."""
    if loaded.plugin is None:
        return
    for display, tree, function in reachable_functions(loaded):
        dumps = {local for local, dotted in library_callables(tree, DUMPS).items() if dotted == "json.dumps"}
        for call, argument, origin in _double_encoded(function, dumps) if dumps else ():
            yield _finding(display, call, argument, origin)
    yield from _text_parameter_bodies(loaded)


def _finding(display: str, call: ast.Call, argument: str, origin: str) -> Finding:
    text = ast.unparse(call.func)
    return JSON_TEXT_BODY.at(
        Location(display, call.lineno, call.col_offset + 1),
        call=text if len(text) <= 60 else text[:57] + "...",
        argument=argument,
        origin=Phrase(origin),
    )


def _text_parameter_bodies(loaded: LoadedPlugin) -> Iterator[Finding]:
    """R095 at each HTTP call of a tool whose `json=` is the value of one of its string parameters."""
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        texts = {
            parameter.name: parameter.type
            for parameter in invoke.tool.parameters
            if parameter.type in TEXT_TYPES
        }
        module = tool_module_tree(loaded, invoke.tool) if texts else None
        if module is None:
            continue
        followed = follow(loaded, module, invoke.function, invoke.dictionary)
        scopes = [
            (invoke.display, invoke.function, invoke.dictionary),
            *((helper.display, helper.function, helper.name) for helper in followed.helpers),
        ]
        for display, function, name in scopes:
            for call, argument, origin in _parameter_bodies(function, name, texts):
                yield _finding(display, call, argument, origin)


def _json_arguments(function: Function) -> Iterator[tuple[ast.Call, ast.expr]]:
    """Each HTTP call of the function with the value it gives as `json=`."""
    for node in own_nodes(function):
        if isinstance(node, ast.Call) and _is_http_call(node.func):
            yield from ((node, keyword.value) for keyword in node.keywords if keyword.arg == "json")


def _parameter_bodies(
    function: Function, name: str, texts: dict[str, str]
) -> Iterator[tuple[ast.Call, str, str]]:
    """(call, argument, origin) for `json=` given a read of a text parameter of the dictionary
    `name`, directly or through a name bound only to such reads."""
    for node, value in _json_arguments(function):
        key = looked_up(value, name)
        if key in texts:
            yield (
                node,
                _short(value),
                f'the value is parameter "{key}" (type: {texts[key]}), which Dify passes as text',
            )
        elif isinstance(value, ast.Name):
            values = plain_bindings(function, value.id)
            keys = {looked_up(v, name) if v is not None else None for v in values}
            if len(keys) == 1 and (key := keys.pop()) in texts:
                line = min(v.lineno for v in values if v is not None)
                said = f'{value.id} is parameter "{key}" (type: {texts[key]}, line {line})'
                said += ", which Dify passes as text"
                yield node, value.id, said


def _double_encoded(function: Function, dumps: set[str]) -> Iterator[tuple[ast.Call, str, str]]:
    for node, value in _json_arguments(function):
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
