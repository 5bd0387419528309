"""A provider's `_validate_credentials` that refuses by returning a value (P012): the SDK ignores what
it returns, so Dify saves the credentials it meant to refuse.

The SDK's executor calls `provider.validate_credentials(credentials)` and answers `{"result": True}`
unless it raised; `return False` (in the body, or in a handler that caught the failure) refuses
nothing. Found without running: no run validates credentials.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import module_tree
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

REFUSAL_RETURNED = rule(
    "P012",
    "credential-refusal-returned",
    Severity.WARNING,
    "{cls}._validate_credentials refuses by returning {value}{inside!s}, but the SDK ignores what it returns:"
    " Dify saves the credentials as valid{also!s}",
    'Refuse by raising: `raise ToolProviderCredentialValidationError("...")` (from'
    " dify_plugin.errors.tool) where it returns {value}.",
    """
Dify validates a tool provider's credentials when the user saves them: the daemon asks the plugin,
whose SDK runs `provider_instance.validate_credentials(data.credentials)` and answers
`{"result": True}` (`dify_plugin/core/plugin_executor.py`, `validate_tool_provider_credentials`);
`ToolProvider.validate_credentials` returns `self._validate_credentials(credentials)`, and the
executor drops that value. Only an exception refuses (the SDK's `ToolProviderCredentialValidationError`,
whose message Dify shows). So `return False` in `_validate_credentials`, in its body or in the
handler that caught the failed test call, refuses nothing: wrong credentials are saved, and every
tool then fails with the API's own error. The check reads the `_validate_credentials` of each tool
provider's class and reports its `return False` statements and returns of a verdict (a comparison, a `not`, a
response's `.ok`), one finding per method. A warning:
nothing fails at that line; the check it meant to make is lost.
""",
)


# attributes of a response that say whether it succeeded
VERDICTS = frozenset({"ok", "is_success", "success"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """P012 for each provider class whose `_validate_credentials` returns False."""
    for provider in loaded.plugin.providers if loaded.plugin else ():
        found = module_tree(loaded, provider.source) if provider.source else None
        if found is None:
            continue
        file, tree = found
        for cls, method in validators(tree):
            returns = sorted(_refusing_returns(method), key=lambda node: node.lineno)
            if not returns:
                continue
            first = returns[0]
            handler = _in_handler(method, first)
            others = [str(node.lineno) for node in returns[1:]]
            yield REFUSAL_RETURNED.at(
                Location(loaded.display_path(file), first.lineno, first.col_offset + 1),
                cls=cls.name,
                value=_shown(first),
                inside=Phrase(f" in the `except` at line {handler}" if handler else ""),
                also=Phrase(
                    f" (it also returns a verdict at {'lines' if len(others) > 1 else 'line'}"
                    f" {Listing(others, most=6)})"
                    if others
                    else ""
                ),
            )


def validators(tree: ast.Module) -> Iterator[tuple[ast.ClassDef, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if (
                    isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
                    and member.name == "_validate_credentials"
                ):
                    yield node, member


def _refusing_returns(method: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.Return]:
    """`return False`, and returns of a verdict: a comparison, a `not`, a response's `.ok`."""
    for node in own_nodes(method):
        if isinstance(node, ast.Return) and node.value is not None and _is_verdict(node.value):
            yield node


def _is_verdict(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return value.value is False
    if isinstance(value, ast.UnaryOp):
        return isinstance(value.op, ast.Not)
    if isinstance(value, ast.Attribute):
        return value.attr in VERDICTS
    return isinstance(value, ast.Compare)


def _shown(node: ast.Return) -> str:
    text = ast.unparse(node.value) if node.value is not None else "None"
    return text if len(text) <= 40 else text[:37] + "..."


def _in_handler(method: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.AST) -> int | None:
    """The line of the `except` whose body holds `node`, if one does."""
    for handler in own_nodes(method):
        if isinstance(handler, ast.ExceptHandler) and any(node is inner for inner in ast.walk(handler)):
            return handler.lineno
    return None
