"""Static checks of tool code (parsed with `ast`, never imported)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from generator.diagnostics import Diagnostic, Location, Severity
from generator.rules import rule

HELPER = re.compile(r"^create_\w*message$")
MAX_SOURCE = 2 * 1024 * 1024

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
""",
)


def _discarded_helper_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            function = node.value.func
            if isinstance(function, ast.Attribute) and HELPER.match(function.attr):
                yield node.value


def unyielded_messages(source: bytes, display: str) -> list[Diagnostic]:
    """Findings for one tool source file; a file that does not parse is left to the run to report."""
    try:
        tree = ast.parse(source[:MAX_SOURCE], filename=display)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [
        UNYIELDED.at(Location(display, call.lineno, call.col_offset + 1), call=_name(call))
        for call in _discarded_helper_calls(tree)
    ]


def _name(call: ast.Call) -> str:
    function = call.func
    return function.attr if isinstance(function, ast.Attribute) else "create_message"
