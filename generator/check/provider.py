"""Tool provider rules beyond the schema: icons, the provider class file, duplicate tool names."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import SourceRules, check_asset, check_source, documents
from generator.findings import Finding, Severity
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
    Severity.ERROR,
    "the tool of {file} can never run: {winner}, listed after it, has the same name {name}",
    "Give every tool of a provider its own `identity.name`; a user who picks this tool gets the "
    "code of {winner}.",
    """
The SDK keeps one class per tool name: it loads the provider's tools in the order of its `tools:`
list into a dict keyed by `identity.name` (`_resolve_tool_providers` in
`dify_plugin/core/plugin_registration.py`: `tools[tool.identity.name] = (tool, tool_cls)`), so
when two tool YAMLs of one provider share a name, the last one listed wins. The other tool's class
never runs: a user who picks it gets the other tool's code and configuration. That is an error when
the two YAMLs name different class files, and a warning when both name the same file (the tool is
then only listed twice). The runner runs only the tool the SDK keeps.
""",
)

SOURCE_RULES = SourceRules(SOURCE_MISSING, SOURCE_NOT_PYTHON, SOURCE_NOT_IMPORTABLE, SOURCE_BY_NAME)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
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
        for shadowed, winner in provider_model.shadowed_tools:
            same_code = shadowed.source == winner.source
            yield DUPLICATE_TOOL.at(
                loaded.documents[shadowed.file].at("identity", "name"),
                Severity.WARNING if same_code else None,
                file=shadowed.file,
                name=shadowed.name,
                winner=winner.file,
            )
