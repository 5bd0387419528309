"""Tool provider rules beyond the schema: icons, the provider class file, duplicate tool names."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import check_asset, check_source, documents
from generator.diagnostics import Diagnostic, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule

ICON_MISSING = rule(
    "P005",
    "provider-icon-missing",
    Severity.ERROR,
    "provider icon {path} does not exist",
    "Put the icon file into `_assets/` or correct its name; the name is relative to `_assets/`.",
    """
A tool provider's `identity.icon` (and `icon_dark`, when given) names a file in `_assets/`. The
packager checks that it exists and refuses the plugin otherwise; Dify shows it for every tool of the
provider.
""",
)
SOURCE_MISSING = rule(
    "P006",
    "provider-source-missing",
    Severity.ERROR,
    "provider class file {path} does not exist",
    "Create the file or correct `extra.python.source` (relative to the plugin folder).",
    """
The SDK imports the provider class from `extra.python.source` when the plugin starts. A missing file
stops the plugin from starting.
""",
)
SOURCE_NOT_PYTHON = rule(
    "P007",
    "provider-source-not-python",
    Severity.ERROR,
    "provider class file {path} is not a .py file",
    "Point `extra.python.source` at the Python module that defines the provider class.",
    """
`extra.python.source` names a Python module; the SDK turns the path into a module name by dropping
`.py`, so any other file cannot be imported.
""",
)
DUPLICATE_TOOL = rule(
    "P008",
    "duplicate-tool-name",
    Severity.WARNING,
    "tool name {name} is used by {first} and {second}",
    "Give every tool of a provider its own `identity.name`.",
    """
Dify finds a provider's tools by `identity.name`. When two tool YAMLs of one provider share a name,
only one of them can be reached; the other silently disappears from the tool list.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Diagnostic]:
    """Provider findings that a schema cannot express."""
    for _relative, provider in documents(loaded, "tools provider"):
        for field in ("icon", "icon_dark"):
            yield from check_asset(
                loaded,
                provider.at("identity", field),
                dig(provider.data, "identity", field),
                ICON_MISSING,
                "provider icon",
            )
        yield from check_source(loaded, provider, SOURCE_MISSING, SOURCE_NOT_PYTHON, "provider class file")
    if loaded.plugin is None:
        return
    for provider_model in loaded.plugin.providers:
        first_file: dict[str, str] = {}
        for tool in provider_model.tools:
            if not tool.name:
                continue
            if tool.name in first_file:
                yield DUPLICATE_TOOL.at(
                    loaded.documents[tool.file].at("identity", "name"),
                    name=tool.name,
                    first=first_file[tool.name],
                    second=tool.file,
                )
            else:
                first_file[tool.name] = tool.file
