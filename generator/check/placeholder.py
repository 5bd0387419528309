"""A tool that still answers the plugin template's placeholder (T017).

`dify plugin init` writes each new tool as `yield self.create_json_message({"result": "Hello,
world!"})`. A tool submitted with that body answers the same words whatever the inputs: its work
was never written, and no run on invented inputs can tell (the answer is a well-formed message).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import tool_invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

TEMPLATE_PLACEHOLDER = rule(
    "T017",
    "tool-is-template-placeholder",
    Severity.WARNING,
    'tool {tool} {answers!s} the plugin template\'s placeholder {{"result": "Hello, world!"}}: {outcome!s}',
    "Write the tool's work in `_invoke` (read its parameters, yield its result), or remove the tool from"
    " the provider's `tools:` until it is written.",
    """
The daemon's `plugin init` scaffold (`cmd/commandline/plugin/templates/python/tool.py`) writes a new
tool's `_invoke` as one `yield self.create_json_message({"result": "Hello, world!"})`. A tool whose
`_invoke` still yields that dictionary answers it for every input: it was listed before it was
written. A run shows nothing wrong (the message is valid), so the check reads `_invoke` for the
template's dictionary, a literal with the one key `result` and the value `Hello, world!`. A warning:
the tool works as Dify sees it; it just does nothing. When `_invoke` yields other messages too,
the placeholder is a leftover: Dify gathers a tool's JSON messages into its `json` output, so the
placeholder rides along with every answer that reaches it.
""",
)
PLACEHOLDER = ("result", "Hello, world!")


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """T017 at the placeholder's dictionary in each tool's `_invoke`."""
    for tool, file, _, invoke in tool_invokes(loaded):
        nodes = own_nodes(invoke)
        placeholder = next(
            (node for node in nodes if isinstance(node, ast.Dict) and _is_placeholder(node)), None
        )
        if placeholder is None:
            continue
        alone = sum(isinstance(node, ast.Yield | ast.YieldFrom) for node in nodes) == 1
        yield TEMPLATE_PLACEHOLDER.at(
            Location(loaded.display_path(file), placeholder.lineno, placeholder.col_offset + 1),
            tool=tool.name,
            answers=Phrase("answers" if alone else "also yields"),
            outcome=Phrase(
                "its `_invoke` yields the words `dify plugin init` wrote, whatever the inputs"
                if alone
                else "a leftover of `dify plugin init`, it joins the tool's `json` output beside its answer"
            ),
            hint=None if alone else "Remove the placeholder's `yield`.",
        )


def _is_placeholder(node: ast.Dict) -> bool:
    if len(node.keys) != 1 or not isinstance(node.keys[0], ast.Constant):
        return False
    value = node.values[0]
    return isinstance(value, ast.Constant) and (node.keys[0].value, value.value) == PLACEHOLDER
