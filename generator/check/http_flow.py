"""How a tool's HTTP calls and the texts around them go wrong without failing to load (R115-R119),
found without running the tool.

A run on invented inputs rarely reaches a real service, so the ways a request quietly misbehaves
are read from the code: a test of an error response's truth that never passes (R115), a request
whose failure the tool swallows before answering as if it had been sent (R116), a text meant as an
f-string that shows its braces (R117), a parameter put into a URL's path unquoted (R118), and an
optional parameter used as the URL with no check (R119).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import (
    called_name,
    children,
    every_node,
    library_callables,
    statement_nodes,
    tool_module_tree,
)
from generator.check.error_answers import yields_message
from generator.check.optional_reads import looked_up
from generator.check.passed_on import Scope, once_per_place, receiving_parameter, resolve, scope_of
from generator.check.plugin_code import reachable_functions
from generator.check.safety import dotted_name
from generator.check.sdk_file import own_nodes, plain_bindings
from generator.check.undeclared import Function, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Parameter
from generator.rules import Phrase, rule

FALSE_RESPONSE = rule(
    "R115",
    "error-response-truth-test",
    Severity.WARNING,
    "`{test}` is always false in this `except {caught}`: the HTTPError carries a response whose"
    " status is 400 or more (or none), and a requests Response is true only when its status is below"
    " 400, so {outcome}",
    "Test `{name}.response is not None` instead of the response's truth.",
    """
`requests` raises `HTTPError` from `Response.raise_for_status()` only for a status from 400 to 599,
with that response attached (`requests/models.py`, `raise_for_status`: `if 400 <= self.status_code
< 500: http_error_msg = ...` / `elif 500 <= self.status_code < 600: ...` / `if http_error_msg: raise
HTTPError(http_error_msg, response=self)`), and a `Response`'s truth is its `ok` (`def __bool__(self)
-> bool: ... return self.ok`; `ok` is `False` when `raise_for_status()` raises). An HTTPError raised
by hand has `response = None` (`RequestException.__init__`: `response = kwargs.pop("response",
None)`). So inside `except requests.HTTPError as e:` the test `if e.response:` never passes:
the status code and body the branch would show are never read, and the `else` (often "Unknown") is
what the user sees, on every failing call. Checked with requests 2.34.2. `httpx.Response` defines
no `__bool__` (always true), so httpx handlers are not read.

Found without running, in every function of the modules the SDK loads: a truth test (`if`, `while`,
`assert`, a conditional expression, `and`/`or`, `not`, `bool(...)`) of `e.response` (or
`getattr(e, "response", None)`) in a handler that catches only requests' `HTTPError` as `e`. A
warning: the call still ends, with a poorer message.
""",
)
SWALLOWED = rule(
    "R116",
    "request-failure-swallowed",
    Severity.WARNING,
    "{request} fails silently: {how!s}, and the tool then answers at line {answer} as if the request"
    " had gone through, so the user is told it worked when it did not",
    "Let the exception reach the tool (or `raise` in the handler), or answer the failure: yield an"
    " error message and `return` (e.g. `except requests.RequestException as e: yield"
    ' self.create_text_message(f"Sending failed: {{e}}"); return`).',
    """
An HTTP call that fails raises (`requests` raises `ConnectionError`, `Timeout` or, after
`raise_for_status()`, `HTTPError`, all `RequestException`s; `httpx` raises `HTTPError`s), and an
exception that leaves `_invoke` reaches Dify as the call's error (the SDK sends it with
`stream_error_object`, `dify_plugin/plugin.py`, `_execute_request`). An `except` whose body only
passes, logs or prints turns that failure into a normal return: the code after it goes on, and a
tool that then yields its confirmation ("Message sent", the text it posted) tells the user and the
next node that the request went through when it did not. R112 covers the same handler when nothing
is yielded after it; this rule the case where the tool answers anyway.

Found without running, in each tool's `_invoke`: a `try` (not in a loop) whose body sends a request
(`post`, `put`, `patch`, `delete` of requests, httpx, a session or a client) with a handler that
catches it (a `RequestException` or `HTTPError` of requests or httpx, `Exception`, or a bare
`except`) and only passes, logs or prints, followed in `_invoke` by a yielded message; or a call,
as a statement of `_invoke` whose value is dropped, of a plugin function (a method, a function of
the plugin's modules, or one that returns such a call) holding such a `try`, followed by a
yielded message. Silent when the code after the `try` reads a name only its body binds (a failure
then raises UnboundLocalError: not silent). A warning: a request the author means as optional (a
notification beside the real work) is possible, though then the answer does not depend on it.
""",
)
NO_F_PREFIX = rule(
    "R117",
    "placeholder-without-f-prefix",
    Severity.WARNING,
    "this text holds `{{{placeholder}}}` but is no f-string: {names} is a name of {function}, yet the"
    " braces and the name reach {goes!s} as written",
    'Add the `f` prefix (`f"...{{{placeholder}}}..."`) so that the value is put in.',
    """
Only an f-string (`f"..."`) puts values into its `{...}` fields; a plain literal keeps its braces:
`"Error performing search: {str(e)}"` shows the user those words, not the error. This is the
idea of ruff's RUF027, written for the texts a tool hands on.

Found without running, in every function of the modules the SDK loads: a plain string literal
(not a docstring, not a part of an f-string) with a field `{...}` whose text parses as a Python
expression naming only names the function binds (its parameters, assignments, loop and `except`
targets), where the literal goes, on its own or joined with `+` or inside a list or dict, into a
yielded or returned value, a raised exception, or an argument of a call. Silent when the literal is
formatted later: `"...".format(...)`, `.format_map`, `%`, a call with a keyword argument or a dict
key named like the field (a template's values), a call whose name speaks of a template, a prompt,
a format, a translation or a log line (loguru formats `{}` with its arguments), a literal looked up
rather than shown (`text.replace("{date}", date)`, `re.sub`, `.split`, `.get`), `print` (no user
sees it), and a literal assigned to a name (which may be used as a template). Double braces
(`{{x}}`, a template's syntax) are passed over. A warning: the call works, its text is wrong.
""",
)
UNQUOTED_PATH = rule(
    "R118",
    "parameter-unquoted-in-url-path",
    Severity.WARNING,
    'parameter "{parameter}" (type: {type}) goes into the path of the URL of {call} unquoted: a `/`,'
    " `?` or `#` in the value changes the request (another path, a query, a fragment), and a `%` or a"
    " space may be read as another character",
    'Quote the value for a path segment: `urllib.parse.quote({shown}, safe="")`.',
    """
A URL's path is split on `/`, its query starts at `?` and its fragment at `#`. `requests` quotes
only what is illegal in a URL and leaves these alone: `requote_uri` (`requests/utils.py`) runs
`quote(unquote_unreserved(uri), safe="!#$%&'()*+,/:;=?@[]~")`, so `/`, `?`, `#`, `&` and `%`
pass as they are (checked with requests 2.34.2: `https://h/a/` + `x/y?z#w` is sent as path `/a/x/y`,
query `z`, fragment `w`). `httpx` parses the URL the same way (httpx 0.29.0: `httpx.URL("https://h/a/"
+ "x/y?z#w")` has path `/a/x/y`, query `z`, fragment `w`). A tool parameter
of type `string` is free text a user or a model fills; a title `a/b` or a question with `?` then
reaches another endpoint, or the server answers 404. `urllib.parse.quote(value, safe="")` keeps
the value one segment.

Found without running: the URL given to an HTTP call (`get`, `post`, ... of requests, httpx, a
session or client, `urllib.request.urlopen` or `Request`), built with an f-string or `+`, holds the
value of a `string` or `text-input` parameter of the tool (read from `_invoke`'s dictionary, through
names bound only to it and through the plugin functions it is handed to), after a `/` of the
literal text and before any `?` or `#`, and not through `quote()` or any other call. Only free
text is read: a parameter whose name holds a word such as `title`, `content`, `text`, `query`,
`message`, `keyword` or `topic` and none such as `id`, `key`, `slug`, `path` or `url`, and whose
label and descriptions do not call it a path or show a value with `/` (`guide/actions`): an
identifier a service gave (`people/c123`) or a path is meant to go in as it is, and quoting it
would break the call. Select, number and boolean parameters are not read. A warning: many values
hold no such character.
""",
)
OPTIONAL_URL = rule(
    "R119",
    "optional-parameter-as-url",
    Severity.WARNING,
    'parameter "{parameter}" is optional and has no default, but {call} uses it as its URL with no'
    " check: when the user leaves it empty, the call gets {empty} and raises {raised} instead of"
    " answering",
    "Test it first (`if not {shown}:` answer what is missing and `return`), give it a `default`, or"
    " declare it `required: true`.",
    """
A parameter declared `required: false` with no `default` may be left empty: a workflow's tool node
leaves it out of the dictionary (`tool_parameters.get("url")` is `None`) or, for a form field, Dify
casts the empty value to `""` (`cast_parameter_value`, api/core/plugin/entities/parameters.py:
`if value is None: return ""`). `requests` refuses either as a URL: `prepare_url` does `url =
str(url)` and `if not scheme: raise MissingSchema(f"Invalid URL {url!r}: No scheme supplied. ...")`
(requests 2.34.2: `requests.post(None)` and `requests.post("")` raise `MissingSchema`); `httpx`
0.29.0 raises `UnsupportedProtocol` for `""` (httpcore's `connection_pool.py`: `"Request URL is
missing an 'http://' or 'https://' protocol."`) and a TypeError for `None` (`httpx/_urls.py`:
`raise TypeError("Invalid type for url.  Expected str or httpx.URL, ...")`). The tool then fails with that
error, not with a message saying what is missing.

Found without running: the URL given to an HTTP call is, or starts with, the value of a tool
parameter declared optional with no default, read from `_invoke`'s dictionary (directly, through a
name bound only to it, or through the plugin functions it is handed to, also from a lambda), where
no function on the way tests that value (`if`, `or`, a comparison, a conditional expression) and
no handler around the call, or around a call on the way, catches the error. A warning at the
call, naming the parameter.
""",
)

WRITE_METHODS = frozenset({"post", "put", "patch", "delete"})
VERBS = WRITE_METHODS | {"get", "head", "options", "request", "stream"}
CLIENTS = {"requests": VERBS, "httpx": VERBS, "urllib.request": frozenset({"urlopen", "Request"})}
# Receivers of `.get(url)` that are HTTP clients, not dictionaries (`session.get`, `self.client.get`).
CLIENT_WORD = re.compile(r"session|client|http|requests|httpx", re.IGNORECASE)
REQUESTS_ERRORS = frozenset({"requests", "requests.exceptions"})
# Handlers that catch a failed request.
CATCHES_REQUEST = re.compile(
    r"(^|\.)(RequestException|HTTPError|RequestError|TransportError|Exception|BaseException)$"
)
LOGS = re.compile(r"(^|\.)(print|print_exc|debug|info|warning|warn|error|exception|critical|log)$")
# Calls that keep a parameter's text as it was (`x.strip()`).
KEEPS_TEXT = frozenset({"strip", "rstrip", "lstrip"})
TEXT_PARAMETERS = frozenset({"string", "text-input"})
# Words of a parameter's name that say it holds free text (a title, a message, a query), not an
# identifier: an id a service gave (`album_id`, `people/c123`) is meant to be pasted as it is.
FREE_TEXT = frozenset(
    {
        "text",
        "content",
        "contents",
        "title",
        "query",
        "message",
        "msg",
        "body",
        "keyword",
        "keywords",
        "question",
        "prompt",
        "search",
        "q",
        "term",
        "terms",
        "description",
        "comment",
        "subject",
        "note",
        "notes",
        "summary",
        "sentence",
        "word",
        "words",
        "phrase",
        "input",
        "topic",
    }
)
# A description that speaks of a path, or shows a value with `/` in it (`guide/actions`).
PATH_WORDS = re.compile(r"\bpaths?\b|\w/\w|路径", re.IGNORECASE)
IDENTIFIER_WORDS = frozenset(
    {"id", "ids", "key", "slug", "path", "url", "uri", "code", "token", "uuid", "resource"}
)
FIELD = re.compile(r"(?<!\{)\{([^{}\n]{1,80})\}(?!\})")
# Calls whose literal argument is a template, a prompt, a translation or a log line: formatted by
# the callee, or not shown.
FORMATS_LATER = re.compile(
    r"format|template|prompt|render|substitute|translat|gettext|^_$|log|debug|info|warn|critical|exception",
    re.IGNORECASE,
)
# Calls that look a literal up rather than show it (`text.replace("{date}", date)`, `re.sub`), and
# `print`, whose text no user sees.
SEARCHES = frozenset(
    {
        "replace",
        "split",
        "rsplit",
        "startswith",
        "endswith",
        "find",
        "rfind",
        "index",
        "rindex",
        "count",
        "partition",
        "rpartition",
        "removeprefix",
        "removesuffix",
        "sub",
        "subn",
        "search",
        "match",
        "fullmatch",
        "findall",
        "finditer",
        "compile",
        "get",
        "pop",
        "setdefault",
        "print",
    }
)
MAX_DEPTH = 4


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R115-R119 in the modules the SDK loads for the plugin's tools, each place once."""
    if loaded.plugin is None:
        return []
    return once_per_place(_findings(loaded))


def _findings(loaded: LoadedPlugin) -> Iterator[Finding]:
    for display, tree, function in reachable_functions(loaded):
        yield from _false_responses(display, tree, function)
        yield from _unformatted(display, function)
    yield from _parameter_urls(loaded)
    yield from _swallowed(loaded)


# R115 ------------------------------------------------------------------------------------------


def _false_responses(display: str, tree: ast.Module, function: Function) -> Iterator[Finding]:
    errors = _requests_http_errors(tree)
    if not errors:
        return
    for node in own_nodes(function):
        if not (isinstance(node, ast.ExceptHandler) and node.name and node.type is not None):
            continue
        types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        if not all(dotted_name(t) in errors for t in types) or _rebinds(node, node.name):
            continue
        for test, outcome in _truth_tests(node):
            if _is_response_of(test, node.name):
                yield FALSE_RESPONSE.at(
                    Location(display, test.lineno, test.col_offset + 1),
                    test=ast.unparse(test),
                    caught=ast.unparse(node.type),
                    outcome=outcome,
                    name=node.name,
                )


def _requests_http_errors(tree: ast.Module) -> set[str]:
    """How the module names requests' HTTPError: `requests.HTTPError`, `requests.exceptions.HTTPError`,
    or a name imported from requests (not urllib's HTTPError)."""
    names: set[str] = set()
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in REQUESTS_ERRORS:
                    names.add(f"{alias.asname or alias.name}.HTTPError")
                    names.add(f"{alias.asname or alias.name}.exceptions.HTTPError")
        elif isinstance(node, ast.ImportFrom) and node.module in REQUESTS_ERRORS and not node.level:
            for alias in node.names:
                if alias.name == "HTTPError":
                    names.add(alias.asname or alias.name)
                elif alias.name == "exceptions":
                    names.add(f"{alias.asname or alias.name}.HTTPError")
    return names


def _rebinds(handler: ast.ExceptHandler, name: str) -> bool:
    return any(
        isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
        for node in statement_nodes(handler.body)
    )


def _truth_tests(handler: ast.ExceptHandler) -> Iterator[tuple[ast.expr, str]]:
    """Each expression of the handler whose truth is tested, with what always happens."""
    for node in statement_nodes(handler.body):
        if isinstance(node, ast.If | ast.While):
            yield node.test, f"the branch at line {node.lineno} never runs"
        elif isinstance(node, ast.IfExp):
            yield node.test, f"the expression always gives `{_short(node.orelse)}`"
        elif isinstance(node, ast.Assert):
            yield node.test, "the assertion always fails"
        elif isinstance(node, ast.BoolOp):
            yield from ((value, "the test never passes") for value in node.values)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node.operand, "the test always passes"
        elif isinstance(node, ast.Call) and called_name(node.func) == "bool" and len(node.args) == 1:
            yield node.args[0], "the value is always False"


def _is_response_of(node: ast.expr, name: str) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "response" and isinstance(node.value, ast.Name) and node.value.id == name
    return (
        isinstance(node, ast.Call)
        and called_name(node.func) == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == name
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value == "response"
    )


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 50 else text[:47] + "..."


# R117 ------------------------------------------------------------------------------------------


def _unformatted(display: str, function: Function) -> Iterator[Finding]:
    nodes = own_nodes(function)
    parents = {child: node for node in nodes for child in children(node)}
    bound = _bound_names(function, nodes)
    keys = _keys(nodes)
    for node in nodes:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or "{" not in node.value:
            continue
        if isinstance(parents.get(node), ast.JoinedStr | ast.FormattedValue) or _docstring(node, parents):
            continue
        for placeholder, names in _fields(node.value, bound):
            goes = _consumer(node, parents, names, function) if not names & keys else None
            if goes is not None:
                yield NO_F_PREFIX.at(
                    Location(display, node.lineno, node.col_offset + 1),
                    placeholder=placeholder,
                    names=" and ".join(sorted(names)),
                    function=f"`{function.name}`",
                    goes=Phrase(goes),
                )
                break  # one finding per literal


def _bound_names(function: Function, nodes: list[ast.AST]) -> set[str]:
    arguments = function.args
    every = [
        *arguments.posonlyargs,
        *arguments.args,
        *arguments.kwonlyargs,
        arguments.vararg,
        arguments.kwarg,
    ]
    names = {argument.arg for argument in every if argument is not None} - {"self", "cls"}
    names |= {node.id for node in nodes if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    names |= {node.name for node in nodes if isinstance(node, ast.ExceptHandler) and node.name}
    return names


def _keys(nodes: list[ast.AST]) -> set[str]:
    """The keys the function stores values under (`d["k"] = ...`, `{"k": ...}`, `f(k=...)`): a field
    named like one is a template whose values travel by name (`fill("/repos/{slug}", {"slug": s})`)."""
    keys: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            keys |= (
                {node.slice.value}
                if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
                else set()
            )
        elif isinstance(node, ast.Dict):
            keys |= {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        elif isinstance(node, ast.keyword) and node.arg:
            keys.add(node.arg)
    return keys


def _docstring(node: ast.Constant, parents: dict[ast.AST, ast.AST]) -> bool:
    statement = parents.get(node)
    return isinstance(statement, ast.Expr)  # a bare literal statement shows nothing (a docstring, a note)


def _fields(text: str, bound: set[str]) -> Iterator[tuple[str, set[str]]]:
    """Each `{...}` field of `text` that parses as an expression naming only names in `bound`."""
    for match in FIELD.finditer(text):
        inner = match.group(1)
        expression = re.split(r"![rsa]$|![rsa]:|:(?![^\[]*\])", inner, maxsplit=1)[0].strip()
        try:
            parsed = ast.parse(expression, mode="eval")
        except (SyntaxError, ValueError):  # not an expression (null bytes raise ValueError before 3.12)
            continue
        names = {n.id for n in ast.walk(parsed) if isinstance(n, ast.Name)}
        calls = {id(n.func) for n in ast.walk(parsed) if isinstance(n, ast.Call)}
        read = {n.id for n in ast.walk(parsed) if isinstance(n, ast.Name) and id(n) not in calls}
        if read and read <= bound and names - read <= {"str", "repr", "len", "int", "float", "type"}:
            yield inner, read


def _consumer(
    node: ast.expr, parents: dict[ast.AST, ast.AST], names: set[str], function: Function
) -> str | None:
    """Where the literal's text goes as written (a yielded or returned value, an exception, a
    call's argument), or None when it may be formatted later or goes nowhere we read."""
    child: ast.AST = node
    parent = parents.get(child)
    while isinstance(parent, ast.BinOp | ast.List | ast.Tuple | ast.Dict | ast.IfExp | ast.keyword):
        if isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.Add):
            return None  # `"..." % x`
        if isinstance(parent, ast.Dict) and child in parent.keys:
            return None
        if isinstance(parent, ast.IfExp) and child is parent.test:
            return None
        child, parent = parent, parents.get(parent)
    if isinstance(parent, ast.Attribute):
        return None  # `"...".format(...)`, `"...".join(...)`
    if isinstance(parent, ast.Yield | ast.Return):
        return "the value the function gives back" if isinstance(parent, ast.Return) else "the yielded value"
    if isinstance(parent, ast.Raise):
        return "the raised exception"
    if isinstance(parent, ast.Call) and child is not parent.func:
        name = dotted_name(parent.func)
        last = name.rsplit(".", 1)[-1]
        if FORMATS_LATER.search(last) or last in SEARCHES or _names_values(parent, names):
            return None
        if any(
            isinstance(p, ast.Call) and FORMATS_LATER.search(dotted_name(p.func) or _method(p))
            for p in _above(parent, parents)  # `dedent("...{x}...").format(x=x)`
        ):
            return None
        return f"`{_short(parent.func)}(...)`"
    return None


def _above(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[ast.AST]:
    while node in parents:
        node = parents[node]
        yield node


def _names_values(call: ast.Call, names: set[str]) -> bool:
    """The call hands values by the fields' names: `render(t, name=name)`, `fill(t, {"name": name})`."""
    if any(keyword.arg in names or keyword.arg is None for keyword in call.keywords):
        return True
    return any(
        isinstance(key, ast.Constant) and key.value in names
        for argument in call.args
        if isinstance(argument, ast.Dict)
        for key in argument.keys
    )


# R118, R119 ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    """A function reached from `_invoke` with the names in it that hold a parameter's value."""

    function: Function
    scope: Scope
    display: str
    dictionary: str | None  # `_invoke`'s parameters' dictionary, read with `D["k"]` / `D.get("k")`
    held: dict[str, str]  # local name -> parameter
    tested: frozenset[str] = frozenset()  # parameters a caller on the way here tested


def _parameter_urls(loaded: LoadedPlugin) -> Iterator[Finding]:
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        declared = {parameter.name: parameter for parameter in invoke.tool.parameters}
        module = tool_module_tree(loaded, invoke.tool)
        if module is None or not declared:
            continue
        start = _Place(invoke.function, scope_of(loaded, *module), invoke.display, invoke.dictionary, {})
        for place in _places(start):
            callables = library_callables(place.scope.tree, CLIENTS)
            for call, given in _http_urls(place.function, callables):
                for where, url in _built(place, given):
                    yield from _unquoted(where, call, url, declared)
                    yield from _optional_url(where, call, url, declared)


def _built(place: _Place, url: ast.expr) -> Iterator[tuple[_Place, ast.expr]]:
    """The URL as given, and what built it: the f-strings or `+` a name given as the URL is bound to
    (`url = f"{base}/notes/{title}"`), and those a plugin function called for it returns, read with
    the parameters' values handed to it (`requests.get(address(base, title))`)."""
    yield place, url
    if isinstance(url, ast.Name):
        values = plain_bindings(place.function, url.id)
        for value in values:
            if isinstance(value, ast.JoinedStr | ast.BinOp):
                yield place, value
            elif isinstance(value, ast.Call):
                yield from _built(place, value)  # `url = address(base, title)`
    elif isinstance(url, ast.Call) and (target := resolve(url, place.function, place.scope)) is not None:
        handed = _handed(url, place, target[0])
        if not handed:
            return
        display = place.scope.loaded.display_path(target[1].relative)
        caught = set(handed.values()) if _caught(place.function, url) else set()
        tested = place.tested | caught | {p for p in handed.values() if _tested(place, p)}
        builder = _Place(target[0], target[1], display, None, handed)
        builder = _Place(builder.function, builder.scope, display, None, _held(builder), frozenset(tested))
        for node in own_nodes(target[0]):
            if isinstance(node, ast.Return) and isinstance(node.value, ast.JoinedStr | ast.BinOp):
                yield builder, node.value


def _places(start: _Place) -> Iterator[_Place]:
    """`start` and the plugin functions it hands a parameter's value to, at any depth up to
    MAX_DEPTH, each with the names that hold a value there."""
    pending = [(start, 0)]
    seen: set[tuple[int, tuple[tuple[str, str], ...], frozenset[str]]] = set()
    while pending:
        place, depth = pending.pop()
        place = _Place(
            place.function, place.scope, place.display, place.dictionary, _held(place), place.tested
        )
        key = (id(place.function), tuple(sorted(place.held.items())), place.tested)
        if key in seen:
            continue
        seen.add(key)
        yield place
        if depth >= MAX_DEPTH:
            continue
        for node in _with_lambdas(place.function):
            if isinstance(node, ast.Call):
                target = resolve(node, place.function, place.scope)
                handed = _handed(node, place, target[0]) if target is not None else {}
                if target is not None and handed:
                    display = place.scope.loaded.display_path(target[1].relative)
                    caught = set(handed.values()) if _caught(place.function, node) else set()
                    tested = place.tested | caught | {p for p in handed.values() if _tested(place, p)}
                    pending.append(
                        (_Place(target[0], target[1], display, None, handed, frozenset(tested)), depth + 1)
                    )


def _with_lambdas(function: Function) -> Iterator[ast.AST]:
    """The function's own nodes and those of the lambdas in it, which run with its names
    (`re.sub(pattern, lambda m: render(api_url, m), text)` hands `api_url` on)."""
    for node in own_nodes(function):
        yield node
        if isinstance(node, ast.Lambda):
            yield from ast.walk(node.body)


def _held(place: _Place) -> dict[str, str]:
    """The names of the function bound only to one parameter's value (its received parameters
    included, when the function does not rebind them)."""
    held = {
        name: parameter
        for name, parameter in place.held.items()
        if plain_bindings(place.function, name) == [None]
    }
    names = {
        n.id for n in own_nodes(place.function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    for name in sorted(names - set(held)):
        values = plain_bindings(place.function, name)
        found = {_parameter_of(v, place, held) if v is not None else None for v in values}
        if len(found) == 1 and (parameter := found.pop()) is not None:
            held[name] = parameter
    return held


def _parameter_of(node: ast.expr, place: _Place, held: dict[str, str]) -> str | None:
    """The parameter whose text `node` is: `D["k"]`, `D.get("k")`, a name holding it, `x.strip()`."""
    if place.dictionary is not None and (key := looked_up(node, place.dictionary)) is not None:
        return key
    if isinstance(node, ast.Name):
        return held.get(node.id)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in KEEPS_TEXT
        and not node.args
    ):
        return _parameter_of(node.func.value, place, held)
    return None


def _handed(call: ast.Call, place: _Place, target: Function) -> dict[str, str]:
    """The target's parameters that receive a parameter's value in `call`."""
    handed: dict[str, str] = {}
    given: list[tuple[int | str, ast.expr]] = [
        *enumerate(call.args),
        *((k.arg, k.value) for k in call.keywords if k.arg),
    ]
    for argument, value in given:
        parameter = _parameter_of(value, place, place.held)
        receiving = receiving_parameter(call, target, argument) if parameter is not None else None
        if receiving is not None and parameter is not None:
            handed[receiving] = parameter
    return handed


def _http_urls(function: Function, callables: dict[str, str]) -> Iterator[tuple[ast.Call, ast.expr]]:
    """Each HTTP call of the function with the URL it is given."""
    for node in own_nodes(function):
        if not isinstance(node, ast.Call) or not _is_http(node, callables):
            continue
        method = node.func.attr if isinstance(node.func, ast.Attribute) else called_name(node.func)
        index = 1 if method.endswith("request") and not method.endswith("Request") else 0
        url = next((k.value for k in node.keywords if k.arg == "url"), None)
        if url is None and len(node.args) > index:
            url = node.args[index]
        if url is not None:
            yield node, url


def _is_http(call: ast.Call, callables: dict[str, str]) -> bool:
    if dotted_name(call.func) in callables:
        return True
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in VERBS):
        return False
    return (
        bool(CLIENT_WORD.search(ast.unparse(func.value)))
        if func.attr in {"get", "request"}
        else (func.attr in WRITE_METHODS and bool(CLIENT_WORD.search(ast.unparse(func.value))))
    )


def _pieces(url: ast.expr) -> list[ast.expr]:
    """The parts of a URL built with an f-string or `+`, in order (constants as `ast.Constant`)."""
    if isinstance(url, ast.JoinedStr):
        return [value.value if isinstance(value, ast.FormattedValue) else value for value in url.values]
    if isinstance(url, ast.BinOp) and isinstance(url.op, ast.Add):
        return [*_pieces(url.left), *_pieces(url.right)]
    return [url]


def _unquoted(
    place: _Place, call: ast.Call, url: ast.expr, declared: dict[str, Parameter]
) -> Iterator[Finding]:
    pieces = _pieces(url)
    before = ""
    started = False  # a non-literal piece came before: a base URL whose literal path we cannot see
    for piece in pieces:
        if isinstance(piece, ast.Constant):
            before += str(piece.value)
            continue
        name = _parameter_of(piece, place, place.held)
        parameter = declared.get(name) if name is not None else None
        in_path = (started or "://" in before) and before.endswith("/") and not before.endswith("//")
        in_path = in_path and "?" not in before and "#" not in before
        if in_path and parameter is not None and parameter.type in TEXT_PARAMETERS and _free_text(parameter):
            yield UNQUOTED_PATH.at(
                Location(place.display, piece.lineno, piece.col_offset + 1),
                parameter=parameter.name,
                type=parameter.type,
                call=f"`{_short(call.func)}(...)`",
                shown=_short(piece),
            )
        started = True
        before += "\x00"  # a value stands here: the literal text before it is no longer at the end


def _free_text(parameter: Parameter) -> bool:
    """The parameter's name says it is free text (a word of FREE_TEXT and none of IDENTIFIER_WORDS),
    and its descriptions do not say it is a path (`guide/actions`): a value meant to hold `/`."""
    name = parameter.name
    words = set(re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower().replace("-", "_").split("_"))
    texts = [
        parameter.llm_description,
        *parameter.human_description.texts.values(),
        *parameter.label.texts.values(),
    ]
    path = any(PATH_WORDS.search(str(text)) for text in texts)
    return bool(words & FREE_TEXT) and not words & IDENTIFIER_WORDS and not path


def _optional_url(
    place: _Place, call: ast.Call, url: ast.expr, declared: dict[str, Parameter]
) -> Iterator[Finding]:
    first = _pieces(url)[0]
    name = _parameter_of(first, place, place.held)
    parameter = declared.get(name) if name is not None else None
    if parameter is None or parameter.required or parameter.default not in (None, ""):
        return
    if parameter.name in place.tested or _tested(place, parameter.name) or _caught(place.function, call):
        return
    library = dotted_name(call.func).startswith("httpx") or "httpx" in ast.unparse(call.func)
    yield OPTIONAL_URL.at(
        Location(place.display, call.lineno, call.col_offset + 1),
        parameter=parameter.name,
        call=f"`{_short(call.func)}(...)`",
        empty='None or ""' if parameter.form != "form" else '""',
        raised="httpx.UnsupportedProtocol (or a TypeError)" if library else "requests' MissingSchema",
        shown=_short(first),
    )


def _tested(place: _Place, parameter: str) -> bool:
    """Whether the function tests the parameter's value anywhere (`if x`, `x or ...`, `x == ...`,
    a conditional expression), or rebinds a name that holds it in a way we do not follow."""
    for node in own_nodes(place.function):
        tests: list[ast.expr] = []
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values)
        elif isinstance(node, ast.Compare):
            tests.extend([node.left, *node.comparators])
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tests.append(node.operand)
        for test in tests:
            if any(
                isinstance(part, ast.expr) and _parameter_of(part, place, place.held) == parameter
                for part in ast.walk(test)
            ):
                return True
    return False


def _caught(function: Function, call: ast.Call) -> bool:
    """A `try` of the function around the call has a handler that catches a failed request."""
    for node in own_nodes(function):
        if isinstance(node, ast.Try | ast.TryStar) and any(call in statement_nodes([s]) for s in node.body):
            for handler in node.handlers:
                types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                if any(
                    t is None or CATCHES_REQUEST.search(dotted_name(t)) or "Schema" in dotted_name(t)
                    for t in types
                ):
                    return True
                if any(
                    t is not None and dotted_name(t) in {"ValueError", "TypeError", "OSError"} for t in types
                ):
                    return True
    return False


# R116 ------------------------------------------------------------------------------------------


def _swallowed(loaded: LoadedPlugin) -> Iterator[Finding]:
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        module = tool_module_tree(loaded, invoke.tool)
        if module is None:
            continue
        scope = scope_of(loaded, *module)
        for block in _blocks(invoke.function):
            for index, statement in enumerate(block):
                answer = answer_after(block[index + 1 :])
                if answer is None:
                    continue
                following = block[index + 1 : block.index(answer) + 1]
                found = _swallowed_by(statement, following, invoke.function, scope)
                if found is not None:
                    node, request, how = found
                    yield SWALLOWED.at(
                        Location(invoke.display, node.lineno, node.col_offset + 1),
                        request=request,
                        how=Phrase(how),
                        answer=answer.lineno,
                    )


def _swallowed_by(
    statement: ast.stmt, following: list[ast.stmt], invoke: Function, scope: Scope
) -> tuple[ast.stmt | ast.expr, str, str] | None:
    """Where a request of `statement` fails silently, the request as shown and how: a `try` of
    `_invoke` around it, or a plugin function called for nothing that holds one."""
    if isinstance(statement, ast.Try):
        found = _swallowing_try(statement, library_callables(scope.tree, CLIENTS))
        if found is None or left_unbound(statement, following, invoke):
            return None
        request, handler = found
        return (
            request,
            f"`{_short(request.func)}(...)`",
            f"the `except` at line {handler.lineno} {_does(handler)}",
        )
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    inner = _helper_swallows(statement.value, invoke, scope, 0)
    if inner is None:
        return None
    request, handler, where = inner
    how = (
        f"its request `{_short(request.func)}(...)` is caught at {where}:{handler.lineno}, where the"
        f" `except` {_does(handler)}, and the call's value is dropped here"
    )
    return statement, f"`{_short(statement.value.func)}(...)`", how


def _blocks(function: Function) -> Iterator[list[ast.stmt]]:
    """The function's body and the bodies of its `if`s, `with`s and `try`s, not of its loops (an
    earlier round may have answered the failure)."""
    pending: list[list[ast.stmt]] = [function.body]
    while pending:
        block = pending.pop()
        yield block
        for statement in block:
            if isinstance(statement, ast.If):
                pending.extend([statement.body, statement.orelse])
            elif isinstance(statement, ast.With | ast.AsyncWith):
                pending.append(statement.body)
            elif isinstance(statement, ast.Try):
                pending.extend([statement.body, statement.orelse, statement.finalbody])


def answer_after(statements: list[ast.stmt]) -> ast.stmt | None:
    """The first statement of `statements` that yields a message, when none before it ends the flow
    or tests anything (a test may be of the failure)."""
    for statement in statements:
        if yields_message(statement):
            return statement
        if not isinstance(statement, ast.Assign | ast.AnnAssign | ast.Expr):
            return None
    return None


def _swallowing_try(node: ast.Try, callables: dict[str, str]) -> tuple[ast.Call, ast.ExceptHandler] | None:
    """The request that the `try` sends and the handler that only passes, logs or prints when it
    fails."""
    request = next(
        (
            n
            for n in statement_nodes(node.body)
            if isinstance(n, ast.Call) and _is_http(n, callables) and _method(n) in WRITE_METHODS
        ),
        None,
    )
    if request is None:
        return None
    for handler in node.handlers:
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        catches = any(t is None or CATCHES_REQUEST.search(dotted_name(t)) for t in types)
        if catches:
            return (request, handler) if only_notes(handler.body) else None
    return None


def _method(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def only_notes(body: list[ast.stmt]) -> bool:
    """The statements (a handler's) only pass, log or print."""
    for statement in body:
        if isinstance(statement, ast.Pass) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            continue
        value = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(value, ast.Call) and LOGS.search(dotted_name(value.func))):
            return False
    return True


def _does(handler: ast.ExceptHandler) -> str:
    if all(
        isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in handler.body
    ):
        return "only passes"
    return "only logs or prints it"


def _helper_swallows(
    call: ast.Call, caller: Function, scope: Scope, depth: int
) -> tuple[ast.Call, ast.ExceptHandler, str] | None:
    """The request a plugin function called here sends inside a `try` whose handler swallows its
    failure, following functions that return another such call."""
    target = resolve(call, caller, scope)
    if target is None or depth > 2 or _is_generator(target[0]):
        return None
    function, home = target
    callables = library_callables(home.tree, CLIENTS)
    for block in _blocks(function):
        for index, statement in enumerate(block):
            if not isinstance(statement, ast.Try) or left_unbound(statement, block[index + 1 :], function):
                continue
            found = _swallowing_try(statement, callables)
            if found is not None:
                return (*found, home.relative)
    for node in own_nodes(function):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            inner = _helper_swallows(node.value, function, home, depth + 1)
            if inner is not None:
                return inner
    return None


def left_unbound(node: ast.Try, following: list[ast.stmt], function: Function) -> bool:
    """The code after the `try` reads a name only its body binds: when the request fails, that read
    raises UnboundLocalError, and the failure is not silent (R092's concern, not this rule's)."""
    earlier = {
        n.id
        for n in own_nodes(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.lineno < node.lineno
    }
    arguments = function.args
    earlier |= {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    bound = {
        n.id for n in statement_nodes(node.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    read = {
        n.id for n in statement_nodes(following) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return bool((bound - earlier) & read)


def _is_generator(function: Function) -> bool:
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own_nodes(function))
