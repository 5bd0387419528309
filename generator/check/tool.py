"""Tool rules beyond the schema: the tool-level icon and the tool class file."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import check_asset, check_source, documents
from generator.diagnostics import Diagnostic, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule

SOURCE_MISSING = rule(
    "T004",
    "tool-source-missing",
    Severity.ERROR,
    "tool class file {path} does not exist",
    "Create the file or correct `extra.python.source` (relative to the plugin folder).",
    """
The SDK imports each tool's class from `extra.python.source` when the provider is loaded. A missing
file makes the tool, and with it the plugin, fail to load.
""",
)
SOURCE_NOT_PYTHON = rule(
    "T005",
    "tool-source-not-python",
    Severity.ERROR,
    "tool class file {path} is not a .py file",
    "Point `extra.python.source` at the Python module that defines the tool class.",
    """
`extra.python.source` names a Python module containing exactly one subclass of `dify_plugin.Tool`;
the SDK imports it under a module name made from its path, so any other file cannot be imported.
""",
)
ICON_MISSING = rule(
    "T006",
    "tool-icon-missing",
    Severity.WARNING,
    "tool icon {path} does not exist",
    "Remove `identity.icon` from the tool, or put the file into `_assets/` (names are relative to it).",
    """
A tool's `identity.icon` names a file in `_assets/` that does not exist. The SDK ignores tool-level
icons (Dify shows the provider's icon), so the plugin works; the entry is misleading and usually a
copy-paste leftover.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Diagnostic]:
    """Tool findings that a schema cannot express."""
    for _relative, tool in documents(loaded, "tool"):
        yield from check_asset(
            loaded,
            tool.at("identity", "icon"),
            dig(tool.data, "identity", "icon"),
            ICON_MISSING,
            "tool icon",
            Severity.WARNING,
        )
        yield from check_source(loaded, tool, SOURCE_MISSING, SOURCE_NOT_PYTHON, "tool class file")
