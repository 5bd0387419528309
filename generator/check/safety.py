"""Submission warnings about the plugin's Python code, read from its syntax tree (never imported or
run): `requests` calls that can wait forever, credentials written to logs or put into exception
messages, and bare `except:` blocks that hide every error."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node, submission_only
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Rule, rule

HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request", "stream"})
LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_LOGGER = re.compile(r"^(logging|_?log|_?logger|LOGGER|LOG)$|[._](logger|log)$")
# Parts of a name that mean a credential, and parts that make it something else (`token_url`,
# `max_tokens`, `next_page_token` are not secrets).
_SECRET_PARTS = frozenset(
    {"token", "secret", "password", "passwd", "pwd", "credential", "credentials", "apikey"}
)
_OTHER_PARTS = frozenset(
    {"page", "cursor", "next", "count", "max", "num", "limit", "len", "length", "type", "name", "url"}
    | {"uri", "path", "id", "expires", "expiry", "expired", "endpoint", "field", "header", "prefix"}
    | {"suffix", "min", "format", "pattern", "regex", "label", "env", "var", "param", "error"}
)
# Calls whose result says something about a value without showing it.
_HARMLESS = frozenset({"len", "bool", "type", "isinstance", "hash", "id"})
# Words in the name of a helper that hides a value (`mask_key(api_key)`, `_redact(token)`).
_HIDING = ("mask", "redact", "obfuscat", "anonymi", "censor", "scrub", "hide")
# The words of a parser's names for a token (`token`, `current_token`, `tok`); `token_data`,
# `access_token` and the like are credentials.
_PARSER_PARTS = frozenset(
    {"token", "tok", "current", "cur", "curr", "last", "prev", "previous", "first", "this", "peek"}
)
MOST_PER_FILE = 20

NO_TIMEOUT = rule(
    "U024",
    "request-without-timeout",
    Severity.WARNING,
    "{call}(...) {problem}: if the server stops answering, the tool waits forever",
    "Pass `timeout=` (for example `timeout=30`); the workflow running the tool waits as long as it does.",
    """
`requests` has no default timeout: a call to a server that accepts the connection and then never
answers blocks the tool, and with it the workflow node, for as long as the plugin runs. The
marketplace's pre-check (`check-python-safety-warnings.py` of `langgenius/dify-marketplace-toolkit`)
warns about every `requests` call without `timeout=`, aliased imports (`import requests as rq`,
`from requests import get`) included; so does this rule. `httpx` waits 5 seconds by default, so only
an explicit `timeout=None` is reported for it. Calls that pass `**kwargs` may carry a timeout and are
not reported.
""",
)
CREDENTIAL_LEAK = rule(
    "U025",
    "credential-in-log",
    Severity.WARNING,
    "{what} includes {name}, which looks like a credential",
    "Log or raise without the value (its length or the last four characters at most): logs and error "
    "messages are shown to users and kept by Dify.",
    """
A logging call (`logger.info(...)`, `logging.error(...)`) or a raised exception's message contains a
name such as `api_key`, `access_token`, `client_secret`, `password` or `credentials`. Dify keeps
plugin logs, and shows exception messages in the workflow's run history to everyone who can open
it. The pre-check warns about these by name too. Names that only look alike are left out:
`max_tokens`, `token_url`, `next_page_token`, values wrapped in `len()` or `bool()` or in a helper
named for hiding them (`mask_key(api_key)`, `redact(token)`), a credential used only as a condition
or in a comparison (`"set" if api_key else "missing"`, `token is None`), `credentials.keys()`, which
shows the names of the entries and none of their values, and a parser's `token`: a name such as
`token` or `current_token` that its function takes from a loop or from other data, never from
credentials, the environment or a call named for a credential. Returned or
yielded credentials, which the pre-check also lists, are not reported: an OAuth provider must return
its tokens to Dify.
""",
)
BARE_EXCEPT = rule(
    "U026",
    "except-swallows-error",
    Severity.WARNING,
    "bare `except:` that {does}: every error there, an interrupt too, is hidden and the code goes on as "
    "if nothing failed",
    "Catch the exceptions you expect (`except requests.RequestException as error:`) and raise or report "
    "them; let the rest reach Dify, which shows the error to the user.",
    """
`except:` with no exception type catches everything, the interpreter's own `KeyboardInterrupt` and
`SystemExit` (the plugin's shutdown) included. When its block only passes, continues or returns,
the failure is gone: the tool goes on as if it had succeeded, and the workflow continues on wrong
or missing data with nothing in the logs. A block that raises, or sets a fallback value, is a
decision and not reported; so is catching `Exception`.
""",
)


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Safety warnings for every packaged Python file, only with `--submission`."""
    for file in loaded.reader.tree.files:
        if not file.relative.endswith(".py"):
            continue
        tree = loaded.reader.python_tree(file)
        if tree is None:
            continue  # U013 reports code that does not compile
        shown = loaded.display_path(file.relative)
        yield from _capped(shown, _findings(tree))


def _capped(shown: str, found: Iterator[tuple[Rule, ast.AST, dict[str, object]]]) -> Iterator[Finding]:
    counts: dict[str, int] = {}
    for which, node, values in found:
        counts[which.code] = counts.get(which.code, 0) + 1
        if counts[which.code] <= MOST_PER_FILE:
            line, column = getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
            yield which.at(Location(shown, line, column), None, None, **values)


def _findings(tree: ast.Module) -> Iterator[tuple[Rule, ast.AST, dict[str, object]]]:
    clients = http_call_names(tree)
    constants = _module_constants(tree)
    owners = _functions_of(tree)
    for node in every_node(tree):
        if isinstance(node, ast.Call):
            call = clients.get(dotted_name(node.func), "")
            if call and (problem := _waits_forever(call, node)):
                yield NO_TIMEOUT, node, {"call": call, "problem": problem}
            if _is_log_call(node) and (
                name := _secret_in(node.args + [k.value for k in node.keywords], constants | owners(node))
            ):
                yield CREDENTIAL_LEAK, node, {"what": "a log message", "name": name}
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            exc = node.exc
            if name := _secret_in(exc.args + [k.value for k in exc.keywords], constants | owners(node)):
                yield CREDENTIAL_LEAK, node, {"what": "an exception message", "name": name}
        elif isinstance(node, ast.ExceptHandler) and node.type is None and (does := _swallows(node)):
            yield BARE_EXCEPT, node, {"does": does}


def http_call_names(tree: ast.Module) -> dict[str, str]:
    """Dotted names that call requests or httpx functions, as the module imports them: `requests.get`,
    `rq.post` after `import requests as rq`, `get` after `from requests import get`."""
    found: dict[str, str] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("requests", "httpx"):
                    local = alias.asname or alias.name
                    found.update({f"{local}.{m}": f"{alias.name}.{m}" for m in HTTP_METHODS})
        elif isinstance(node, ast.ImportFrom) and node.module in ("requests", "httpx"):
            for alias in node.names:
                if alias.name in HTTP_METHODS:
                    found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def _waits_forever(call: str, node: ast.Call) -> str:
    """Why the call can wait forever (no timeout, or `timeout=None`); empty when it cannot."""
    if any(keyword.arg is None for keyword in node.keywords):
        return ""  # **kwargs may carry the timeout
    timeout = next((k.value for k in node.keywords if k.arg == "timeout"), None)
    if isinstance(timeout, ast.Constant) and timeout.value is None:
        return "sets timeout=None"
    return "has no timeout" if timeout is None and call.startswith("requests.") else ""


def _is_log_call(node: ast.Call) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in LOG_METHODS
        and bool(_LOGGER.search(dotted_name(func.value)))
    )


def _module_constants(tree: ast.Module) -> frozenset[str]:
    """Names the module binds to a literal (`SECRET_PREFIX = "whsec_"`): the source shows their value,
    so they carry no credential into a message (a secret literal is U014's finding)."""
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant):
            names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
    return frozenset(names)


def _functions_of(tree: ast.Module) -> Callable[[ast.AST], frozenset[str]]:
    """For a node, the names its function binds to something other than a credential: a `token`
    that a loop, a comprehension or an assignment from other data gives a value (a parser's
    token), where nothing in the function reads it from credentials."""
    owner: dict[int, ast.AST] = {}
    for node in every_node(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            owner.update((id(inner), node) for inner in ast.walk(node))
    plain: dict[int, frozenset[str]] = {}

    def names(node: ast.AST) -> frozenset[str]:
        function = owner.get(id(node))
        if function is None:
            return frozenset()
        if id(function) not in plain:
            plain[id(function)] = _plain_tokens(function)
        return plain[id(function)]

    return names


def _plain_tokens(function: ast.AST) -> frozenset[str]:
    bound: dict[str, bool] = {}  # name -> every binding is plain data
    for node in ast.walk(function):
        targets: list[tuple[ast.expr, ast.expr | None]] = []
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            targets.append((node.target, None))
        elif isinstance(node, ast.Assign):
            targets.extend((target, node.value) for target in node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr) and node.value is not None:
            targets.append((node.target, node.value))
        for target, value in targets:
            for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                if _parser_word(name):
                    plain = value is None or not _reads_credential(value)
                    bound[name] = bound.get(name, True) and plain
    return frozenset(name for name, plain in bound.items() if plain)


def _parser_word(name: str) -> bool:
    """A name such as `token` or `current_token`, which a parser uses as often as an API client."""
    parts = {p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)}
    return "token" in parts and parts <= _PARSER_PARTS


def _reads_credential(value: ast.expr) -> bool:
    """True when an expression may hold a credential: a lookup of a credential's key, anything
    named like a credential, the environment, a call whose name speaks of one, or a response's
    `.json()` (an OAuth token answer)."""
    for node in ast.walk(value):
        key = _looked_up(node)
        if key is not None and secret_name(key):
            return True
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
        if name and (secret_name(name) or name in ("environ", "getenv", "json")):
            return True
    return False


def _secret_in(expressions: list[ast.expr], known: frozenset[str]) -> str:
    """The first name in `expressions` that looks like a credential, outside harmless calls, the
    tests of conditions and comparisons (they show a truth value), and the `known` names (the
    module's own constants, a function's parser tokens)."""
    pending: list[ast.AST] = list(expressions)
    while pending:
        node = pending.pop(0)
        key = _looked_up(node)
        if key is not None:
            if secret_name(key):
                return key
            continue  # `credentials.get("max_tokens")` shows that entry only
        if isinstance(node, ast.IfExp):
            pending.extend((node.body, node.orelse))  # `"set" if api_key else "missing"`
            continue
        if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
            continue  # `api_key is None`, `not token`: a truth value
        if isinstance(node, ast.Call):
            called = dotted_name(node.func)
            hiding = any(word in called.rsplit(".", 1)[-1].lower() for word in _HIDING)
            if called in _HARMLESS or hiding or _names_keys_only(node):
                continue
            pending.extend(node.args + [k.value for k in node.keywords])
            if isinstance(node.func, ast.Attribute):
                pending.append(node.func.value)  # `token.strip()` shows the token
            continue
        if isinstance(node, ast.Attribute):
            # `credentials.server_type` shows the attribute, not the object it is read from
            if secret_name(node.attr):
                return node.attr
            continue
        if isinstance(node, ast.Name) and node.id not in known and secret_name(node.id):
            return node.id
        pending.extend(children(node))
    return ""


def _names_keys_only(call: ast.Call) -> bool:
    """`credentials.keys()`: the names of the entries, never their values."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "keys" and not call.args


def _looked_up(node: ast.AST) -> str | None:
    """The key of `mapping["key"]` or `mapping.get("key", ...)`, or None for anything else."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        key = node.slice.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        key = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
    else:
        return None
    return key if isinstance(key, str) else None


def secret_name(name: str) -> bool:
    """True when an identifier names a credential (`api_key`, `accessToken`), not a look-alike."""
    parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)]
    joined = "_".join(parts)
    if any(part in _OTHER_PARTS for part in parts):
        return False
    return any(part in _SECRET_PARTS for part in parts) or "api_key" in joined


def _swallows(handler: ast.ExceptHandler) -> str:
    """What a handler that hides the error does instead (passes, continues, returns); empty when it
    raises, or does something else (a fallback value is a decision, not a hidden failure)."""
    if any(isinstance(node, ast.Raise) for statement in handler.body for node in ast.walk(statement)):
        return ""
    kinds = {type(statement) for statement in handler.body}
    if ast.Return in kinds:
        return "returns"
    if kinds <= {ast.Pass, ast.Continue, ast.Expr} and all(
        not isinstance(s, ast.Expr) or isinstance(s.value, ast.Constant) for s in handler.body
    ):
        return "continues" if ast.Continue in kinds else "does nothing"
    return ""


def dotted_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""
