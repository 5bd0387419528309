"""Tool provider rules beyond the schema: icons, the provider class file, duplicate tool names."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import SourceRules, check_asset, check_source, documents
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
    "provider class file {path} is not a .py file, and no module of its name exists",
    "Point `extra.python.source` at the Python module that defines the provider class.",
    """
`extra.python.source` names a Python module. The SDK (`dify_plugin/core/utils/class_loader.py`)
looks its module name up with `importlib.util.find_spec(module_name)` and, when that finds nothing,
loads the path with `importlib.util.spec_from_file_location`, which has no loader for a file that
is not Python: `raise Exception(f"Failed to load module ...")`. When the module name does find a
file, the source works by that accident: rule P010, a warning.
""",
)
SOURCE_NOT_IMPORTABLE = rule(
    "P009",
    "provider-source-not-importable",
    Severity.ERROR,
    "provider class file {path} cannot be imported as module {module}: {problem}",
    "Use file and folder names without dots, under folders that are not also modules (`provider/search.py`).",
    """
The SDK imports the provider class under the module name made from the source
(`dify_plugin/core/plugin_registration.py`, `_source_to_module_name`) and asks
`importlib.util.find_spec(module_name)` first, which imports the parent packages of a dotted name
and raises when one is missing (a file named `provider/v1.2.py`), or finds only a folder without
`__init__.py`, which has no loader. Either way the plugin does not start; see T008.
""",
)
SOURCE_BY_NAME = rule(
    "P010",
    "provider-source-by-module-name",
    Severity.WARNING,
    "provider class file {path} is not the file the SDK loads: module {module} is {loaded}",
    "Write `source: {loaded}`, the file that is actually loaded.",
    """
The SDK asks `importlib.util.find_spec` for the module name made from the source
(`Path(source).with_suffix("").as_posix().replace("/", ".")`) before it tries the path itself
(`dify_plugin/core/utils/class_loader.py`), so `source: provider/search.yaml` loads
`provider/search.py`. The plugin works, but the file named is not the code that runs; see T007.
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

SOURCE_RULES = SourceRules(SOURCE_MISSING, SOURCE_NOT_PYTHON, SOURCE_NOT_IMPORTABLE, SOURCE_BY_NAME)


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
        yield from check_source(loaded, provider, SOURCE_RULES, "provider class file")
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
