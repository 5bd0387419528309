"""Messages a tool builds and throws away (R020), found in its code without running it.

A static check of the code, so `validate` and pre-commit report it; `run` reports it too (the
pipeline runs this check when it runs no other). The file read is the one the SDK executes, which
is not always the one the source names (rule T007)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import rule

HELPER = re.compile(r"^create_\w*message$")

UNYIELDED = rule(
    "R020",
    "message-not-yielded",
    Severity.ERROR,
    "the result of {call}(...) is thrown away: the message never reaches Dify",
    "Write `yield self.{call}(...)`: the helpers only build a message, they do not send it.",
    """
`create_text_message`, `create_variable_message` and the other helpers only build a message
object. A call whose result is neither yielded, returned nor kept is lost: the variable is never
set and the next node reads None. Dify's own documentation had this bug in its "Complex Structure
Example".

A log message (`create_log_message`) carries no output: Dify shows it in the run's trace and the
tool's result reaches the workflow without it. Throwing one away is a warning; any other message
thrown away loses output, an error.
""",
)
LOG_HINT = "Write `yield self.{call}(...)`: the helpers only build a message; this log line is never shown."
# A log message only annotates the run: losing it loses no output.
LOG_HELPERS = frozenset({"create_log_message"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Discarded `create_*_message(...)` calls in every tool's module, each file once."""
    return unyielded(loaded, loaded.plugin.tools if loaded.plugin else ())


def unyielded(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Discarded `create_*_message(...)` calls in the modules of `tools`, each file once."""
    for file, tree, _tool in tool_modules(loaded, tools):
        display = loaded.display_path(file)
        for call in _discarded_helper_calls(tree):
            where = Location(display, call.lineno, call.col_offset + 1)
            name = _name(call)
            if name in LOG_HELPERS:
                yield UNYIELDED.at(where, Severity.WARNING, LOG_HINT, call=name)
            else:
                yield UNYIELDED.at(where, call=name)


def _discarded_helper_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in every_node(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            function = node.value.func
            if isinstance(function, ast.Attribute) and HELPER.match(function.attr):
                yield node.value


def _name(call: ast.Call) -> str:
    function = call.func
    return function.attr if isinstance(function, ast.Attribute) else "create_message"
