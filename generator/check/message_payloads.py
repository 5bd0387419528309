"""A message helper given a value of a type its message refuses (R097), found without running.

`create_json_message(json.dumps(data))` hands text to a `JsonMessage`, whose `json_object` is a
mapping or a list; `create_text_message({"a": 1})` hands a dictionary to a `TextMessage`, whose
`text` is a string. pydantic refuses both when the message is made, each time the line runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, library_callables
from generator.check.sdk_calls import SdkCall, sdk_object_calls
from generator.check.sdk_file import plain_bindings
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

PAYLOAD_REFUSED = rule(
    "R097",
    "message-payload-refused",
    Severity.ERROR,
    "{call}(...) is given {given!s}, but its message takes {takes!s}: the SDK's pydantic model refuses it"
    " (ValidationError) each time the line runs, whatever the inputs{caught!s}",
    "{fix!s}",
    """
The SDK's message helpers build pydantic models that check their fields when the message is made
(`dify_plugin/entities/tool.py`, `ToolInvokeMessage`): `create_json_message(json)` makes a
`JsonMessage` whose `json_object` is `Mapping | list` (`dict` in early releases);
`create_text_message(text)`, `create_image_message(image)` and `create_link_message(link)` make a
`TextMessage` whose `text` is `str`; `create_stream_variable_message(name, value)` makes a
`VariableMessage` whose validator refuses a value that is not a string ("When 'stream' is True,
'variable_value' must be a string."). pydantic's lax mode converts bytes to text, but not a number, a
dictionary or a list to text, nor text to a mapping; tried with SDK 0.10.2:
`JsonMessage(json_object='{"a": 1}')` and `TextMessage(text={"a": 1})`, `TextMessage(text=5)` raise
ValidationError. So `create_json_message(json.dumps(data))`, the most common form, fails on every
call that reaches it, and the user gets the SDK's error instead of the tool's answer.

Found without running, on the argument as written: text is a string constant, an f-string, a call of
`json.dumps` or `str`, or a `+` with a string constant; a dictionary or a list is a literal, a
comprehension, or a call of `dict` or `list`; the `.text` of a name bound only to a call of
`requests`' or `httpx`'s request functions is text; a number is a numeric constant or a call of
`len`, `int` or `float`. A name counts when every binding of it in the function is one of these.
Inside a `try` whose handler catches every exception, or in an `except` handler's body, a warning
(the handler answers instead), as R083.
""",
)
# helper -> (what its message takes, the kinds of value it refuses)
TAKES = {
    "create_json_message": ("a dictionary or a list (`json_object`)", frozenset({"text", "a number"})),
    "create_text_message": ("text (`text: str`)", frozenset({"a dictionary", "a list", "a number"})),
    "create_image_message": (
        "text, the image's URL (`text: str`)",
        frozenset({"a dictionary", "a list", "a number"}),
    ),
    "create_link_message": (
        "text, the link (`text: str`)",
        frozenset({"a dictionary", "a list", "a number"}),
    ),
    "create_stream_variable_message": (
        "text as the value (the SDK: \"When 'stream' is True, 'variable_value' must be a string.\")",
        frozenset({"a dictionary", "a list", "a number"}),
    ),
}
# helper -> how many arguments it takes; the value judged is the last
ARGUMENTS = {"create_stream_variable_message": 2}
FIXES = {
    "create_json_message": "Pass the dictionary or list itself, not its JSON text (drop the `json.dumps`),"
    " or send the text with `create_text_message`.",
}
TEXT_FIX = (
    "Pass text: `json.dumps(value, ensure_ascii=False)` for a dictionary or list, `str(value)` for a number."
)
DUMPS = {"json": frozenset({"dumps"})}
_VERBS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request"})
HTTP = {"requests": _VERBS, "httpx": _VERBS}
_MAKERS = {
    "str": "text",
    "dict": "a dictionary",
    "list": "a list",
    "len": "a number",
    "int": "a number",
    "float": "a number",
}


META_IGNORED = rule(
    "R098",
    "blob-meta-key-ignored",
    Severity.WARNING,
    "create_blob_message's meta names the file's {what} `{key}`, a key Dify does not read (it reads"
    " `{read}`): {outcome!s}",
    'Write `{read}` in meta: `meta={{"filename": ..., "mime_type": ...}}`.',
    """
Dify turns a blob message into a file with what the message's `meta` says
(`api/core/tools/utils/message_transformer.py`: `mimetype = meta.get("mime_type",
"application/octet-stream")`, `filename = meta.get("filename", None)`); it reads no other key. A
tool that writes the file's name or type under another key (`file_name`, `fileName`, `name`,
`mimetype`, `content_type`) gives a file without its name (Dify makes one up) or typed
`application/octet-stream` (a workflow then cannot tell a PDF from an image), for every call. The
check reads the literal dictionary given as `meta` to `create_blob_message` and reports a key that
is another spelling of `filename` or `mime_type`, when the dictionary lacks the right one, in a
tool's code only: Dify reads a datasource's blob meta with other keys
(`core/datasource/utils/message_transformer.py`: `meta.get("file_name", None)`).
""",
)
# Other spellings of the two keys Dify reads from a blob's meta.
META_KEYS = {
    "filename": ("name", frozenset({"file_name", "fileName", "FileName", "name"})),
    "mime_type": (
        "type",
        frozenset({"mimetype", "mimeType", "mime", "content_type", "contentType", "type", "media_type"}),
    ),
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R097 at each message helper given a value its message refuses; R098 at a blob's meta keys
    Dify does not read."""
    for found in sdk_object_calls(loaded):
        helper = found.path
        if helper == "create_blob_message" and found.cls == "Tool":  # a datasource's meta is read otherwise
            yield from _meta_keys(found)
        if helper not in TAKES or len(found.call.args) != ARGUMENTS.get(helper, 1) or found.call.keywords:
            continue
        takes, refused = TAKES[helper]
        dumps = {local for local, dotted in library_callables(found.tree, DUMPS).items()}
        http = set(library_callables(found.tree, HTTP))
        value = found.call.args[-1]
        kind = _kind(value, dumps, found.function, http)
        if kind not in refused:
            continue
        yield found.finding(
            PAYLOAD_REFUSED,
            "a ValidationError",
            given=Phrase(_shown(value, kind)),
            takes=Phrase(takes),
            fix=Phrase(FIXES.get(helper, TEXT_FIX)),
        )


def blob_meta(call: ast.Call) -> ast.expr | None:
    """The `meta` given to `create_blob_message(blob, meta)`, by keyword or position."""
    return next(
        (k.value for k in call.keywords if k.arg == "meta"), call.args[1] if len(call.args) > 1 else None
    )


def _meta_keys(found: SdkCall) -> Iterator[Finding]:
    meta = blob_meta(found.call)
    if not isinstance(meta, ast.Dict):
        return
    keys = {
        key.value: key for key in meta.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }
    for read, (what, spellings) in META_KEYS.items():
        if read in keys:
            continue
        for key in sorted(spellings & keys.keys()):
            node = keys[key]
            outcome = (
                "Dify names the file itself, for every call"
                if read == "filename"
                else "Dify types the file application/octet-stream, for every call"
            )
            yield META_IGNORED.at(
                Location(found.display, node.lineno, node.col_offset + 1),
                what=what,
                key=key,
                read=read,
                outcome=Phrase(outcome),
            )
            break


def _kind(
    node: ast.expr, dumps: set[str], function: ast.FunctionDef | ast.AsyncFunctionDef, http: set[str]
) -> str | None:
    """What kind of value `node` is, when it shows: "text", "a dictionary", "a list", "a number"."""
    if isinstance(node, ast.Name):
        kinds = {_literal_kind(value, dumps) for value in plain_bindings(function, node.id)}
        return kinds.pop() if len(kinds) == 1 else None
    if (
        isinstance(node, ast.Attribute)
        and node.attr == "text"
        and isinstance(node.value, ast.Name)
        and _is_response(node.value.id, function, http)
    ):
        return "text"
    return _literal_kind(node, dumps)


def _is_response(name: str, function: ast.FunctionDef | ast.AsyncFunctionDef, http: set[str]) -> bool:
    """True when every binding of `name` in the function is a call of requests' or httpx's request
    functions (`requests.get(...)`), whose `.text` is the body as text."""
    values = plain_bindings(function, name)
    return all(isinstance(value, ast.Call) and called_name(value.func) in http for value in values)


def _literal_kind(node: ast.expr | None, dumps: set[str]) -> str | None:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return "text"
        if isinstance(node.value, int | float) and not isinstance(node.value, bool):
            return "a number"
        return None
    if isinstance(node, ast.JoinedStr):
        return "text"
    if isinstance(node, ast.Dict | ast.DictComp):
        return "a dictionary"
    if isinstance(node, ast.List | ast.ListComp):
        return "a list"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        sides = (node.left, node.right)
        if any(
            isinstance(side, ast.Constant | ast.JoinedStr) and _literal_kind(side, dumps) == "text"
            for side in sides
        ):
            return "text"
        return None
    if isinstance(node, ast.Call):
        name = called_name(node.func)
        if name in dumps:
            return "text"
        return _MAKERS.get(name) if isinstance(node.func, ast.Name) else None
    return None


def _shown(node: ast.expr, kind: str) -> str:
    text = ast.unparse(node)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{kind} (`{text}`)"
