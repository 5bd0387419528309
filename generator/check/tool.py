"""Tool rules beyond the schema: the tool-level icon and the tool class file."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import SourceRules, check_asset, check_source, documents
from generator.findings import Finding, Severity
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
    "tool class file {path} is not a .py file, and no module of its name exists",
    "Point `extra.python.source` at the Python module that defines the tool class.",
    """
`extra.python.source` names a Python module containing exactly one subclass of `dify_plugin.Tool`.
The SDK (`dify_plugin/core/utils/class_loader.py`, `import_module_from_source`) first looks the
module name up, `existed_spec = importlib.util.find_spec(module_name)`, and only when that finds
nothing loads the path: `spec = importlib.util.spec_from_file_location(module_name, py_file_path)`
then `if not spec or not spec.loader: raise Exception(f"Failed to load module ...")`. Python has a
loader only for Python files, so a source such as `tools/search.yaml` fails, unless the module name
finds a file (`tools/search.py`): that is rule T007, a warning.
""",
)
SOURCE_BY_NAME = rule(
    "T007",
    "tool-source-by-module-name",
    Severity.WARNING,
    "tool class file {path} is not the file the SDK loads: module {module} is {loaded}",
    "Write `source: {loaded}`, the file that is actually loaded.",
    """
The SDK makes a module name of the source (`dify_plugin/core/plugin_registration.py`:
`Path(source).with_suffix("").as_posix().replace("/", ".")`) and asks
`importlib.util.find_spec(module_name)` before it tries the path itself
(`dify_plugin/core/utils/class_loader.py`). So `source: tools/search.yaml` loads
`tools/search.py` (an official plugin relies on this), and `source: tools/search.py` loads
`tools/search/__init__.py` when a package of that name exists, as Python prefers a package to a
module. The plugin works, but the file named is not the code that runs: renaming the YAML or adding
a folder changes which code runs.
""",
)
SOURCE_NOT_IMPORTABLE = rule(
    "T008",
    "tool-source-not-importable",
    Severity.ERROR,
    "tool class file {path} cannot be imported as module {module}: {problem}",
    "Use file and folder names without dots, under folders that are not also modules (`tools/search.py`).",
    """
The SDK imports the tool class under the module name made from the source
(`Path(source).with_suffix("").as_posix().replace("/", ".")`, `dify_plugin/core/plugin_registration.py`)
and calls `importlib.util.find_spec(module_name)` first (`dify_plugin/core/utils/class_loader.py`).
`find_spec` imports the parent packages of a dotted name and raises when one is missing, so a file
named `tools/v1.2.py` (module `tools.v1.2`, parent `tools.v1`) or a folder beside a module of the
same name (`tools.py` and `tools/`) makes the plugin fail to start, although the file exists. A name
that finds only a folder without `__init__.py` (a namespace package) has no loader: the SDK raises
`Failed to load module`.
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

SOURCE_RULES = SourceRules(SOURCE_MISSING, SOURCE_NOT_PYTHON, SOURCE_NOT_IMPORTABLE, SOURCE_BY_NAME)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
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
        yield from check_source(loaded, tool, SOURCE_RULES, "tool class file")
