"""Datasource provider and datasource rules beyond the schemas: the provider's icon, the class files
the SDK imports, and the class each datasource must define for its provider's `provider_type`."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import SourceRules, check_asset, check_source, documents
from generator.check.sdk_classes import plain_subclass, unbound
from generator.check.undeclared import is_tool_base, sdk_names
from generator.findings import Finding, Location, Severity
from generator.kind_models.datasource import Datasource, DatasourceProvider
from generator.load.crawl import LoadedPlugin
from generator.load.modules import module_of
from generator.load.values import dig
from generator.rules import rule

# The SDK's base class for each provider type and the methods it declares abstract
# (`dify_plugin/interfaces/datasource/`: `online_document.py`, `website.py`, `online_drive.py`).
BASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "online_document": ("OnlineDocumentDatasource", ("_get_pages", "_get_content")),
    "website_crawl": ("WebsiteCrawlDatasource", ("_get_website_crawl",)),
    "online_drive": ("OnlineDriveDatasource", ("_browse_files", "_download_file")),
}

ICON_MISSING = rule(
    "B006",
    "datasource-icon-missing",
    Severity.ERROR,
    "datasource provider icon {path} does not exist",
    "Put the icon file into `_assets/` or correct its name; the name is relative to `_assets/`.",
    """
A datasource provider's `identity.icon` names a file in `_assets/`. The plugin daemon checks it when
it decodes a package (`CheckAssetsValid` in `pkg/plugin_packager/decoder/helper.go`:
`if _, ok := assets[declaration.Datasource.Identity.Icon]; !ok` ... "datasource icon not found") and
refuses the plugin.
""",
)
SOURCE_MISSING = rule(
    "B007",
    "datasource-source-missing",
    Severity.ERROR,
    "{what} {path} does not exist",
    "Create the file or correct `extra.python.source` (relative to the plugin folder).",
    """
The SDK imports the datasource provider's class, and the class of each datasource it lists, from
their `extra.python.source` when the plugin starts (`_resolve_datasource_providers` in
`dify_plugin/core/plugin_registration.py`, through `load_single_subclass_from_source`). A missing
file stops the plugin from starting.
""",
)
SOURCE_NOT_PYTHON = rule(
    "B008",
    "datasource-source-not-python",
    Severity.ERROR,
    "{what} {path} is not a .py file, and no module of its name exists",
    "Point `extra.python.source` at the Python module that defines the class.",
    """
`extra.python.source` names a Python module; the SDK resolves it as for tools (rule T005): the
module name first (`importlib.util.find_spec`), then the path, which has no loader when it is not a
Python file, so the plugin does not start.
""",
)
SOURCE_NOT_IMPORTABLE = rule(
    "B009",
    "datasource-source-not-importable",
    Severity.ERROR,
    "{what} {path} cannot be imported as module {module}: {problem}",
    "Use file and folder names without dots, under folders that are not also modules.",
    """
The SDK imports the class under the module name made from the source and asks
`importlib.util.find_spec` first, which fails for a dotted file name or a folder beside a module of
the same name (see rule T008). The plugin does not start.
""",
)
SOURCE_BY_NAME = rule(
    "B010",
    "datasource-source-by-module-name",
    Severity.WARNING,
    "{what} {path} is not the file the SDK loads: module {module} is {loaded}",
    "Write `source: {loaded}`, the file that is actually loaded.",
    """
The SDK looks the module name made from the source up before the path itself (see rule T007), so
the file named is not the code that runs. The plugin works.
""",
)
WRONG_BASE = rule(
    "B011",
    "datasource-class-wrong-type",
    Severity.ERROR,
    "class {name} derives from {found}, but provider {provider} is of type {provider_type}, whose "
    "datasources the SDK looks up as subclasses of {wanted}: the plugin does not start",
    "Derive the class from {wanted} (`dify_plugin.interfaces.datasource`), or change the provider's "
    "`provider_type`.",
    """
The SDK picks the base class of every datasource from its provider's `provider_type`
(`_resolve_datasource_providers` in `dify_plugin/core/plugin_registration.py`:
`WEBSITE_CRAWL: (WebsiteCrawlDatasource, {})`, `ONLINE_DOCUMENT: (OnlineDocumentDatasource, {})`,
`ONLINE_DRIVE: (OnlineDriveDatasource, {})`) and loads the one subclass of it in the datasource's
file (`load_single_subclass_from_source`). A file whose class derives from another of the three
holds none: "Missing subclass of ... in ..." is raised at start-up. The check reads the file without
running it and reports only a module whose classes derive from the SDK's datasource bases by name
and none from the one wanted.
""",
)
MISSING_METHOD = rule(
    "B012",
    "datasource-without-method",
    Severity.ERROR,
    "class {name} derives from {base} but defines no {methods}: the SDK cannot create it "
    '("Can\'t instantiate abstract class"), so every use of datasource {datasource} fails',
    "Define {methods} in the class; see `dify_plugin/interfaces/datasource/`.",
    """
Each datasource base of the SDK declares the methods the daemon calls abstract
(`@abstractmethod` in `dify_plugin/interfaces/datasource/`): `OnlineDocumentDatasource._get_pages`
and `_get_content`, `WebsiteCrawlDatasource._get_website_crawl`,
`OnlineDriveDatasource._browse_files` and `_download_file`. The SDK creates the class on every
request, and Python refuses to create a class whose abstract methods are not all defined. The check
reports only a class whose one base is the SDK's class, whose body is plain methods and assignments,
with no subclass in the same file.
""",
)

SOURCE_RULES = SourceRules(SOURCE_MISSING, SOURCE_NOT_PYTHON, SOURCE_NOT_IMPORTABLE, SOURCE_BY_NAME)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Datasource findings that a schema cannot express."""
    for _relative, provider in documents(loaded, "datasources provider"):
        yield from check_asset(
            loaded,
            provider.at("identity", "icon"),
            dig(provider.data, "identity", "icon"),
            ICON_MISSING,
            "datasource provider icon",
        )
        yield from check_source(loaded, provider, SOURCE_RULES, "datasource provider class file")
    for _relative, document in documents(loaded, "datasource"):
        yield from check_source(loaded, document, SOURCE_RULES, "datasource class file")
    if loaded.plugin is None:
        return
    for part in loaded.plugin.parts_of(DatasourceProvider):
        if part.provider_type in BASES:
            for datasource in part.datasources:
                yield from _classes(loaded, part, datasource)


def _classes(loaded: LoadedPlugin, provider: DatasourceProvider, datasource: Datasource) -> Iterator[Finding]:
    module = module_of(loaded.reader, datasource.source) if datasource.source else None
    if module is None or not module.loaded:
        return  # the source rules say why there is nothing to read
    tree = loaded.reader.source_tree(module.loaded)
    if tree is None:
        return
    wanted, methods = BASES[provider.provider_type]
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    derived = {
        base_name: [node for node in classes if _derives(node, tree, base_name)]
        for base_name, _ in BASES.values()
    }
    display = loaded.display_path(module.loaded)
    if not derived[wanted]:
        for found, nodes in derived.items():
            for node in nodes:
                where = Location(display, node.lineno, node.col_offset + 1)
                yield WRONG_BASE.at(
                    where,
                    name=node.name,
                    found=found,
                    provider=provider.name,
                    provider_type=provider.provider_type,
                    wanted=wanted,
                )
        return
    chosen = plain_subclass(tree, wanted)  # one plain class: what it binds is what it defines
    lacking = unbound(chosen, methods) if chosen is not None else ()
    if chosen is not None and lacking:
        where = Location(display, chosen.lineno, chosen.col_offset + 1)
        shown = " or ".join(f"`{name}`" for name in lacking)
        yield MISSING_METHOD.at(
            where, name=chosen.name, base=wanted, methods=shown, datasource=datasource.name
        )


def _derives(node: ast.ClassDef, tree: ast.Module, base_name: str) -> bool:
    names = sdk_names(tree, base_name)
    return any(is_tool_base(base, names, base_name) for base in node.bases)
