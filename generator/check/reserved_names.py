"""Variable messages named `text`, `files` or `json` in the code (R071), found without running it.

The run reports such a message when it reaches it (R010); a run that stops earlier, at a credential
or a host it does not have, never does. A literal name is visible in the code whatever the inputs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_modules
from generator.check.undeclared import constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule
from generator.run.code_variables import VARIABLE_HELPERS, variable_name

# The tool node's fixed outputs: Dify refuses a variable of these names.
RESERVED = frozenset({"text", "files", "json"})

RESERVED_IN_CODE = rule(
    "R071",
    "reserved-variable-name-in-code",
    Severity.ERROR,
    '{call}("{name}", ...) names a variable {name}, which Dify reserves for the tool node\'s fixed outputs:'
    " Dify refuses the message",
    "Rename the variable (for example `{name}_result`) here and in the tool's `output_schema`.",
    """
Dify refuses a variable message named `text`, `files` or `json` while it reads the tool's messages
(those names are the tool node's fixed outputs; rule R010 reports it from a run). The name written
as a literal in `create_variable_message("text", ...)` or `create_stream_variable_message(...)`
(positionally or as `variable_name=`) is the same on every call, so the check finds it in the
tool's file without running it, also when a run stops before that line (at a credential or a host
the run does not have). Whenever that line runs, the tool fails.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Variable messages with a reserved literal name in every tool's module, each file once."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    for file, tree, _tool in tool_modules(loaded, tools):
        display = loaded.display_path(file)
        for call, helper, name in _reserved_calls(tree):
            where = Location(display, call.lineno, call.col_offset + 1)
            yield RESERVED_IN_CODE.at(where, call=helper, name=name)


def _reserved_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str, str]]:
    for node in every_node(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        helper = node.func.attr
        if helper not in VARIABLE_HELPERS:
            continue
        named = variable_name(node)
        name = constant(named) if named is not None else None
        if name in RESERVED:
            yield node, helper, name
