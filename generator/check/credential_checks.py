"""A provider's `_validate_credentials` that can never fail (R127): Dify saves whatever key the user
enters, found without running it (no run validates credentials).

Two shapes: the method catches every exception around its test and neither raises nor returns in
the handler; or it only iterates one of the plugin's tools (`Tool.from_credentials(credentials)
.invoke(...)`) whose `_invoke` answers a failed request as text and raises nowhere a wrong key
can reach.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import module_tree
from generator.check.credential_refusals import validators
from generator.check.passed_on import scope_of
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

NEVER_FAILS = rule(
    "R127",
    "credential-check-never-fails",
    Severity.WARNING,
    "{cls}._validate_credentials can never fail: {why!s}; Dify saves whatever credentials the user enters",
    'Let the check fail on wrong credentials: `raise ToolProviderCredentialValidationError("...")` (from'
    " dify_plugin.errors.tool) {place!s}.",
    """
Dify asks the plugin to validate a tool provider's credentials when the user saves them, and the
SDK answers that they are valid unless `_validate_credentials` raises
(`dify_plugin/core/plugin_executor.py`, `validate_tool_provider_credentials`:
`provider_instance.validate_credentials(data.credentials)` then `return {"result": True}`; what it
returns is dropped, see P012). Dify refuses only on that exception
(`PluginToolProviderController._validate_credentials`: `if not
manager.validate_provider_credentials(...): raise ToolProviderCredentialValidationError("Invalid
credentials")`). So a check that cannot raise lets any key be saved, and every tool then fails
later with the API's own error, far from the form where the user could fix it.

Found without running, in each tool provider class's `_validate_credentials` (a provider that
declares credentials):
- its body is a `try` (after a docstring) whose handlers include one that catches every exception
  (bare, `Exception`, `BaseException`), none of them raising or returning, and no `raise` in its
  `else` or `finally`: every failure of the test is swallowed;
- or its body only iterates the messages of one of the plugin's tools made by
  `from_credentials(...)` (`for _ in T.from_credentials(credentials).invoke(...): pass`, or `tool =
  T.from_credentials(credentials)` then `for _ in tool.invoke(...): pass`; in a `try` whose `else`
  and `finally` do not raise, or not; after plain statements such as `if not
  credentials.get("key"): return`), without looking at them, where the tool's `_invoke` has a
  `try` around its request whose `except` yields a message (one catching every exception, or
  request failures when the body calls `raise_for_status()`), calls nothing outside that `try`
  but its own methods, builtins, the methods of strings and dictionaries and `json`, `re`,
  `time`... (nothing else can send the request), and the tool's module holds no `raise` but those
  in `_invoke` before that `try` (they check the inputs, before any request) and those inside it
  that a handler catching every exception swallows: an HTTP 401 for a wrong key becomes a text
  message, which the loop drops. Run with the SDK (0.10.2), such a check returns for a key the
  service refuses with 401; one whose tool raises after its `try` when the answer is 401 refuses
  it.
A warning: the check may be meant as a formality, but then it should not pretend to test the key.
""",
)
# Exception classes a handler catches every failure of a call with.
EVERYTHING = frozenset({"Exception", "BaseException"})
# Exception classes whose handler catches what a request raises for a wrong key.
# Calls that cannot reach an API: builtins, and methods of strings, lists and dictionaries.
BUILTINS = frozenset(
    {"str", "int", "float", "bool", "len", "dict", "list", "tuple", "set", "isinstance", "min", "max"}
    | {"round", "any", "all", "sorted", "enumerate", "range", "print", "repr", "zip", "map", "filter"}
)
PLAIN_METHODS = frozenset(
    {"get", "strip", "lower", "upper", "split", "join", "format", "items", "keys", "values", "append"}
    | {"update", "replace", "startswith", "endswith", "rstrip", "lstrip", "extend", "pop", "setdefault"}
)
# Modules whose functions compute and send nothing (and a logger's methods).
PLAIN_MODULES = frozenset(
    {"json", "re", "math", "time", "datetime", "base64", "hashlib", "uuid", "logging", "logger"}
)
REQUEST_FAILURES = EVERYTHING | frozenset(
    {"HTTPError", "RequestException", "HTTPStatusError", "RequestError"}
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R127 for each provider class whose `_validate_credentials` cannot raise."""
    for provider in loaded.plugin.providers if loaded.plugin else ():
        found = module_tree(loaded, provider.source) if provider.source and provider.credentials else None
        if found is None:
            continue
        file, tree = found
        for cls, method in validators(tree):
            why = _swallowed(method) or _tool_answers(loaded, file, tree, method)
            if why is None:
                continue
            yield NEVER_FAILS.at(
                Location(loaded.display_path(file), method.lineno, method.col_offset + 1),
                cls=cls.name,
                why=Phrase(why[0]),
                place=Phrase(why[1]),
            )


def _body(method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The statements of the method but for its docstring."""
    body = method.body
    first = body[0] if body else None
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    return body[1:] if docstring else body


def _swallowed(method: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str] | None:
    """(why, where to raise) when the body is a `try` whose every failure a handler swallows."""
    body = _body(method)
    if len(body) != 1 or not isinstance(body[0], ast.Try):
        return None
    attempt = body[0]
    if not any(_catches(handler.type, EVERYTHING) for handler in attempt.handlers):
        return None
    ends = [*attempt.orelse, *attempt.finalbody, *(s for handler in attempt.handlers for s in handler.body)]
    if any(isinstance(node, ast.Raise | ast.Return) for statement in ends for node in _walk(statement)):
        return None
    handler = next(handler for handler in attempt.handlers if _catches(handler.type, EVERYTHING))
    return (
        f"the `except` at line {handler.lineno} catches every failure of its test and goes on",
        f"in the `except` at line {handler.lineno}",
    )


def _tool_answers(
    loaded: LoadedPlugin, file: str, tree: ast.Module, method: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[str, str] | None:
    """(why, where to raise) when the body only drops the messages of a plugin tool that answers
    its failures as text and never raises."""
    made = _tool_loop(_body(method))
    found = _tool_class(loaded, file, tree, made) if made is not None else None
    if found is None:
        return None
    cls, display, module = found
    methods = [m for m in cls.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]
    invoke = next((m for m in methods if m.name == "_invoke"), None)
    answer = _answering(invoke) if invoke is not None else None
    if answer is None or invoke is None or _escaping_raise(module, invoke, answer):
        return None  # the tool's module raises where a wrong key may reach: the run may fail
    return (
        f"it only runs tool {cls.name} and drops its messages, and {cls.name} never raises on a failed"
        f" request: its `except` at {display}:{answer[1].lineno} answers it (a wrong key) with a message",
        "where a failed request shows the key is wrong (test the API directly in `_validate_credentials`,"
        f" or look at the messages {cls.name} yields)",
    )


def _tool_loop(body: list[ast.stmt]) -> str | None:
    """`T` when, but for plain statements before it (reading credentials, returning when one is
    empty) and a `try` around it whose `else` and `finally` cannot raise, the check only makes tool
    `T` and iterates its messages without looking at them (`tool = T.from_credentials(credentials)`
    before the loop, or in its head)."""
    while body and _plain_statement(body[0]):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Try):
        ends = [*body[0].orelse, *body[0].finalbody]
        if any(isinstance(node, ast.Raise) for statement in ends for node in _walk(statement)):
            return None
        body = body[0].body
    loop = body[-1] if body and isinstance(body[-1], ast.For) and _drops(body[-1]) else None
    if loop is None or len(body) > 2:
        return None
    if len(body) == 1:
        return _made_tool(loop)
    made = body[0]
    named = made.targets[0] if isinstance(made, ast.Assign) and len(made.targets) == 1 else None
    iterated = _called_on(loop.iter, "invoke")
    if isinstance(made, ast.Assign) and isinstance(named, ast.Name) and iterated == named.id:
        return _called_on(made.value, "from_credentials")
    return None


def _plain_statement(statement: ast.stmt) -> bool:
    """An assignment, or an `if` that returns, with no raise and only plain calls (`.get`, builtins)."""
    if not isinstance(statement, ast.Assign | ast.If | ast.Return):
        return False
    for node in _walk(statement):
        if isinstance(node, ast.Raise):
            return False
        if isinstance(node, ast.Call) and not _plain_call(node.func):
            return False
    return True


def _called_on(node: ast.expr, method: str) -> str | None:
    """`X` of `X.method(...)`, for a name `X`."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and isinstance(node.func.value, ast.Name)
    ):
        return node.func.value.id
    return None


def _escaping_raise(
    module: ast.Module,
    invoke: ast.FunctionDef | ast.AsyncFunctionDef,
    answer: tuple[ast.Try, ast.ExceptHandler],
) -> bool:
    """True when the tool's module has a `raise` a wrong key could reach: any but those in
    `_invoke` before the answering `try` (they check the inputs, before any request) and those in
    that `try`'s body when its handler catches every exception."""
    attempt, _handler = answer
    swallows = any(
        _catches(other.type, EVERYTHING) and not any(isinstance(node, ast.Raise) for node in _walk(other))
        for other in attempt.handlers
    )
    caught = {id(node) for node in _walk(attempt)} if swallows else set()
    for statement in attempt.handlers:
        caught -= {id(node) for node in _walk(statement)}
    before = {
        id(node) for node in own_nodes(invoke) if isinstance(node, ast.Raise) and node.lineno < attempt.lineno
    }
    return any(
        isinstance(node, ast.Raise) and id(node) not in caught and id(node) not in before
        for node in ast.walk(module)
    )


def _answering(invoke: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[ast.Try, ast.ExceptHandler] | None:
    """The handler of a `try` in `_invoke` that answers a failed request with a message and does
    not raise, when the request can only fail there: it catches every exception, or request
    failures of a body that calls `raise_for_status()`; and before the `try` (after it too, unless
    the handler returns) `_invoke` calls nothing but its own methods, `.get` and the like."""
    for attempt in (node for node in own_nodes(invoke) if isinstance(node, ast.Try)):
        statuses = any(
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "raise_for_status"
            for statement in attempt.body
            for node in _walk(statement)
        )
        for handler in attempt.handlers:
            nodes = list(_walk(handler))
            if not any(isinstance(node, ast.Yield) for node in nodes) or any(
                isinstance(node, ast.Raise) for node in nodes
            ):
                continue
            if not (
                _catches(handler.type, EVERYTHING) or (statuses and _catches(handler.type, REQUEST_FAILURES))
            ):
                continue
            returns = bool(handler.body) and isinstance(handler.body[-1], ast.Return)
            if _plain_elsewhere(invoke, attempt, returns):
                return attempt, handler
    return None


def _plain_elsewhere(invoke: ast.FunctionDef | ast.AsyncFunctionDef, attempt: ast.Try, returns: bool) -> bool:
    """True when `_invoke`, outside `attempt` (and, when its handler returns, before it), calls
    nothing that could reach the API: only methods of `self`, builtins, and methods of strings and
    dictionaries."""
    inside = {id(node) for node in _walk(attempt)}
    for node in own_nodes(invoke):
        if not isinstance(node, ast.Call) or id(node) in inside:
            continue
        if returns and node.lineno > (attempt.end_lineno or attempt.lineno):
            continue  # after the `try`: a failed request has returned by then
        if not _plain_call(node.func) and not _own_method(node.func):
            return False
    return True


def _plain_call(func: ast.expr) -> bool:
    """A call that cannot reach an API: a builtin, a method of strings, lists and dictionaries, a
    function of a module of `PLAIN_MODULES` (`json.loads`)."""
    if isinstance(func, ast.Name):  # a builtin, or an exception being made for a `raise`
        return func.id in BUILTINS or func.id.endswith(("Error", "Exception"))
    return isinstance(func, ast.Attribute) and (
        func.attr in PLAIN_METHODS or (isinstance(func.value, ast.Name) and func.value.id in PLAIN_MODULES)
    )


def _own_method(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"


def _drops(loop: ast.For) -> bool:
    """True when the loop's body does nothing with the messages (`pass`, `...`, `continue`)."""
    return (
        all(
            isinstance(statement, ast.Pass | ast.Continue)
            or (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))
            for statement in loop.body
        )
        and not loop.orelse
    )


def _made_tool(loop: ast.For) -> str | None:
    """`T` of the loop's `T.from_credentials(...).invoke(...)`."""
    node = loop.iter
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "invoke"
    ):
        return None
    return _called_on(node.func.value, "from_credentials")


def _tool_class(
    loaded: LoadedPlugin, file: str, tree: ast.Module, name: str
) -> tuple[ast.ClassDef, str, ast.Module] | None:
    """The plugin's class `name` as the provider's module names it, with its file as findings show
    it and its module."""
    scope = scope_of(loaded, file, tree)
    home = scope
    if name in scope.imported:
        module, attribute = scope.imported[name]
        found = scope.code.modules.get(module)
        if found is None or not attribute:
            return None
        home, name = scope_of(loaded, *found), attribute
    bound = home.functions.get(name, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.ClassDef):
        return None
    return bound[0], home.display, home.tree


def _catches(kind: ast.expr | None, names: frozenset[str]) -> bool:
    if kind is None:
        return True  # a bare `except:`
    if isinstance(kind, ast.Tuple):
        return any(_catches(item, names) for item in kind.elts)
    if isinstance(kind, ast.Name):
        return kind.id in names
    return isinstance(kind, ast.Attribute) and kind.attr in names


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and what is below it, leaving out functions, lambdas and classes defined there (but
    for `node` itself)."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if current is node or not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(current))
