"""A key or token that falls back to one written in the code (R114), found without running.

`app_key or "RPUYI4dbUf..."` and `credentials.get("api_key", "sk-...")` run every user who leaves
the field blank on the author's account (or on a key revoked since), and publish the key with the
package.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, every_node
from generator.check.plugin_code import plugin_code, reachable_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

LITERAL_KEY = rule(
    "R114",
    "key-falls-back-to-literal",
    Severity.WARNING,
    "`{what}` falls back to a key written in the code ({shown}) when it is blank: every user who leaves"
    " it blank runs on that key's account, and the key is published with the plugin",
    "Require the key (`required: true` in credentials_for_provider) and remove the literal; revoke the"
    " published key.",
    """
A provider's credentials reach a tool as the user saved them (`self.runtime.credentials`); a blank
optional field arrives missing or empty. Code that puts a literal key in its place
(`key or "RPUY..."`, `.get("api_key", "sk-...")`, `os.getenv("TOKEN", "...")`) makes every such
call use the author's key: the calls bill the author's account, stop working when the author
revokes it, and hand the user the author's data. The key also ships inside the package and its
repository, for anyone to read.

Found without running, in the modules the SDK loads: a string that looks like a key (16 or more
characters without spaces, letters and digits mixed, not a URL or a placeholder such as
`your-api-key`) as the last choice of an `or` whose first choice is named like a key (`key`,
`token`, `secret`, `password`, `appkey`...), or as the default of `.get(name, ...)` or
`os.getenv(name, ...)` with such a name. A warning.
""",
)
_KEY_NAME = re.compile(r"key|token|secret|password|passwd|appid|app_id|sid", re.IGNORECASE)
_KEY_TEXT = re.compile(r"[A-Za-z0-9_\-.+/=]{16,}")
_PLACEHOLDER = re.compile(r"your|xxxx|example|placeholder|dummy|test|default|changeme|<|\{", re.IGNORECASE)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R114 at each key that falls back to a literal."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        yield from _fallbacks(loaded.display_path(relative), tree)


def _fallbacks(display: str, tree: ast.Module) -> Iterator[Finding]:
    for node in every_node(tree):
        found = _fallback(node)
        if found is None:
            continue
        what, literal = found
        yield LITERAL_KEY.at(
            Location(display, literal.lineno, literal.col_offset + 1),
            what=what,
            shown=_masked(str(literal.value)),
        )


def _fallback(node: ast.AST) -> tuple[str, ast.Constant] | None:
    """(the key's name, the literal) for `key or "LITERAL"` or `.get("key", "LITERAL")`."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) >= 2:
        last = node.values[-1]
        name = _named(node.values[0])
        if name and _KEY_NAME.search(name) and _looks_like_key(last):
            assert isinstance(last, ast.Constant)
            return name, last
        return None
    if isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
        function = called_name(node.func)
        getter = isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "getenv")
        if not (getter or function == "getenv"):
            return None
        key, default = node.args
        name = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""
        if _KEY_NAME.search(name) and isinstance(default, ast.Constant) and _looks_like_key(default):
            return name, default
    return None


def _named(node: ast.expr) -> str:
    """The name a value goes by: `app_key`, `self.token`, `creds["api_key"]`, `d.get("api_key")`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)
    return ""


def _looks_like_key(node: ast.expr) -> bool:
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    text = node.value
    return (
        bool(_KEY_TEXT.fullmatch(text))
        and "://" not in text
        and not _PLACEHOLDER.search(text)
        and any(c.isdigit() for c in text)
        and any(c.isalpha() for c in text)
        and len(set(text)) >= 8
    )


def _masked(text: str) -> str:
    """The literal with most of it hidden: the finding must not republish the key."""
    return f'"{text[:4]}…" ({len(text)} characters)'
