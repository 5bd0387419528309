"""Names a plugin takes from `dify_plugin` that no release has (T013, T014), and a tool provider
whose class is a provider of another kind (P011): the plugin cannot start.

What `dify_plugin` exports and what its `Plugin` has are read from the published wheels
(`sdk_api_index.py`); only a name that no release read has is reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from packaging.version import Version

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node, module_tree
from generator.check.missing_imports import absolute_imports
from generator.check.plugin_code import PluginCode, plugin_code, reachable_modules
from generator.check.sdk_api_index import (
    PACKAGE,
    env_attributes,
    first_release,
    oldest_release,
    plugin_attributes,
    sdk_modules,
)
from generator.check.sdk_index import installed_sdk
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.plugin_model import Provider
from generator.rules import Listing, Phrase, rule

NO_SUCH_NAME = rule(
    "T013",
    "sdk-name-missing",
    Severity.ERROR,
    "`{statement}`: {name} is not in {releases!s}, so the import fails and {outcome!s}",
    "Import a name the SDK has ({names}).{start!s}",
    """
`from dify_plugin import X` works only for what the package's `__init__.py` binds and for its
submodules; `from dify_plugin.a.b import X` and `import dify_plugin.a.b` only when `dify_plugin/a/b`
is a module (or package) of the release, and `X` a name that module binds at its top level or one
of its submodules. The check compares each such import, in the modules the SDK loads (the entry
point, the tool and provider classes, and the plugin's modules they import), with the names and
modules of every release read from the published wheels (`generator/check/sdk_api_index.json`,
0.0.1b15 to 0.10.2; `sdk_modules.py` says what counts as bound), for the version the plugin's
dependency files install (the pin of `uv.lock`, else the newest release the requirement allows;
every release when none can be told, as when the plugin does not list dify_plugin at all): the
releases read up to the first one at or after that version, so a name added later than the
installed version is reported and one that only a release between two read ones could have is
not. Such a name (`DifyPluginRunner`) raises ImportError, such a module ModuleNotFoundError (the
SDK's tool base is `dify_plugin.interfaces.tool`, `dify_plugin/interfaces/tool/__init__.py`; with
0.10.2, `from dify_plugin.interface.tool import Tool` raises "No module named
'dify_plugin.interface'"): in `main.py` the plugin cannot start; in a tool's module the tool
cannot load. An import under `if TYPE_CHECKING:` or inside a `try` whose handler catches
ImportError and carries on is not reported; one inside a function is a warning (only the calls
that reach it fail).
""",
)
# Said where the entry module fails: what it should do instead (T015 is then not told apart).
STARTS_WITH = (
    " A plugin starts with `Plugin(DifyPluginEnv()).run()` (`from dify_plugin import DifyPluginEnv, Plugin`):"
    " the SDK registers the providers the manifest lists by itself."
)
NO_SUCH_METHOD = rule(
    "T014",
    "plugin-attribute-missing",
    Severity.ERROR,
    "{receiver}.{attribute}: the SDK's {cls} has no attribute {attribute} in {releases!s}, so {outcome!s}",
    STARTS_WITH.strip(),
    """
The SDK's `Plugin` (`dify_plugin/plugin.py`) reads the manifest and registers every provider it
lists when it is created; `run()` then serves Dify's requests. It has no method to register
providers by hand: `plugin.register_provider(...)` and other names no release of `Plugin` has
(with the attributes of its base classes, read from every published wheel) fail with
AttributeError, so the plugin never starts. The same holds for `DifyPluginEnv`, the SDK's settings
(`dify_plugin/config/config.py`, a pydantic-settings `BaseSettings`): its attributes are its
settings (`MAX_REQUEST_TIMEOUT`, `INSTALL_METHOD`, ...) and pydantic's (`model_*` and the methods
kept from pydantic 1), so `DifyPluginEnv().register_provider(...)` fails the same way. Only a name
bound to `Plugin(...)` or `DifyPluginEnv(...)` alone, with the class imported from `dify_plugin`,
is judged.
""",
)
WRONG_KIND = rule(
    "P011",
    "provider-class-wrong-kind",
    Severity.ERROR,
    "class {name} derives from {base}, {kind}, but {file} is the source of tool provider {provider}:"
    " the SDK finds no ToolProvider subclass there, so the plugin cannot start",
    "Derive the class from `dify_plugin.ToolProvider` and implement"
    " `_validate_credentials(self, credentials)`.",
    """
For each tool provider the manifest lists, the SDK loads the class of `extra.python.source` as the
one subclass of `ToolProvider` in that file (`_resolve_tool_providers` in
`dify_plugin/core/plugin_registration.py`, `load_single_subclass_from_source(...,
parent_type=ToolProvider)`), and raises "Missing subclass of ToolProvider" when there is none: the
plugin stops while it starts. A class derived from `ModelProvider` (or another kind's provider)
is no ToolProvider. The check reports only a file whose classes all derive from such a base and
that imports nothing from the plugin's own modules (an imported class could be the subclass).
""",
)
# The SDK's providers of other kinds than tools, and what they provide.
OTHER_KINDS = {
    "ModelProvider": "a provider of models",
    "OAICompatProvider": "a provider of OpenAI-compatible models",
    "AgentProvider": "a provider of agent strategies",
    "AgentStrategy": "an agent strategy",
    "Endpoint": "an endpoint",
    "TriggerProvider": "a provider of triggers",
    "DatasourceProvider": "a provider of datasources",
    "Tool": "a tool, not a provider",
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """SDK names that no release has, and tool providers of the wrong kind."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    if _may_lack(loaded, code):
        yield from (finding for _module, finding in _lacking(loaded, code))
    for provider in loaded.plugin.providers:
        yield from _wrong_kind(loaded, provider)


def _may_lack(loaded: LoadedPlugin, code: PluginCode) -> bool:
    """True when a module the SDK loads imports a name, or reads an attribute of its Plugin, that
    the oldest release read lacks. Only then can the release the plugin installs lack it, so only
    then is that release told: reading it parses the plugin's uv.lock, hundreds of kilobytes of
    TOML, which for plugins that use nothing unusual cost more than the rest of this check."""
    oldest = oldest_release()
    modules, classes = sdk_modules(oldest), _class_attributes(oldest)
    for module in reachable_modules(loaded, code):
        tree = code.modules[module][1]
        if next(_missing_imports(tree, modules), None) is not None:
            return True
        if next(_missing_attributes(tree, classes), None) is not None:
            return True
    return False


def _class_attributes(version: Version | None) -> dict[str, frozenset[str]]:
    """The SDK classes whose instances' attributes are judged, with every attribute each has in the
    releases up to `version` (a class whose attributes could not be read whole is left out)."""
    found = {"Plugin": plugin_attributes(version), "DifyPluginEnv": env_attributes(version)}
    return {name: attributes for name, attributes in found.items() if attributes is not None}


def stops_at_start(loaded: LoadedPlugin, code: PluginCode) -> bool:
    """True when the entry module imports a name, or reads an attribute of the SDK's Plugin or
    DifyPluginEnv, that the release the plugin installs lacks (T013, T014 there)."""
    entry = entry_module(loaded)
    return _may_lack(loaded, code) and any(module == entry for module, _ in _lacking(loaded, code))


def entry_module(loaded: LoadedPlugin) -> str:
    """The module the daemon runs (`python -m <meta.runner.entrypoint>`), `main` when unreadable."""
    manifest = loaded.documents.get("manifest.yaml")
    entry = dig(manifest.data if manifest is not None else None, "meta", "runner", "entrypoint")
    return entry if isinstance(entry, str) else "main"


def _lacking(loaded: LoadedPlugin, code: PluginCode) -> Iterator[tuple[str, Finding]]:
    """The names, modules and Plugin attributes the release the plugin installs lacks, each with
    the module whose loading fails on it ("" for an import that runs only inside a function)."""
    version = installed_sdk(loaded.reader)
    modules = sdk_modules(version)
    classes = _class_attributes(version)
    releases = Phrase(
        f"dify_plugin {version} (the version the plugin installs)"
        if version
        else "any release of dify_plugin"
    )
    entry = entry_module(loaded)
    dependency_file = "pyproject.toml" if loaded.reader.is_file("pyproject.toml") else "requirements.txt"
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        outcome = "the plugin cannot start" if module == entry else "the module cannot load"
        for missing in _missing_imports(tree, modules):
            yield (
                module if missing.top_level else "",
                NO_SUCH_NAME.at(
                    Location(display, missing.node.lineno, missing.node.col_offset + 1),
                    severity=None if missing.top_level else Severity.WARNING,
                    hint=_hint(missing, version, dependency_file),
                    statement=missing.statement,
                    name=missing.name,
                    releases=releases,
                    outcome=Phrase(outcome if missing.top_level else "each call that reaches it fails"),
                    names=Listing(missing.choices, most=8),
                    start=Phrase(STARTS_WITH if module == entry and missing.top_level else ""),
                ),
            )
        for attribute, cls in _missing_attributes(tree, classes):
            yield (
                module,
                NO_SUCH_METHOD.at(
                    Location(display, attribute.lineno, attribute.col_offset + 1),
                    receiver=ast.unparse(attribute.value)[:60],
                    attribute=attribute.attr,
                    cls=cls,
                    releases=releases,
                    outcome=Phrase("the plugin never starts" if module == entry else "every use of it fails"),
                ),
            )


def _hint(missing: _Missing, version: Version | None, dependency_file: str) -> str:
    """What to do: require a newer release when a later one has what is missing, else write the
    closest name, else pick one of the SDK's (`{names}`, `{start}` filled by the finding)."""
    kind = "module" if missing.module else "name"
    if missing.since and version:
        return (
            f"dify_plugin {missing.since} has {missing.name}: require a release that has it in"
            f" {dependency_file} (`dify_plugin>={missing.since}`), or import what {version} has."
        )
    if missing.close:
        closest = f"`{missing.close}` instead of `{missing.wrong}`"
        return f"Write {closest}, the closest {kind} the SDK has.{{start!s}}"
    return f"Import a {kind} the SDK has ({{names}}).{{start!s}}"


@dataclass(frozen=True, slots=True)
class _Missing:
    """An import of a module or name no release read has: the statement (one name of it), what is
    missing, what the SDK has instead (the closest first when one is close), and whether the import
    runs when its module loads (else only inside a function)."""

    node: ast.stmt
    statement: str
    name: str
    wrong: str
    module: bool
    choices: list[str]
    close: str | None
    top_level: bool
    since: str | None = None


def _missing_imports(tree: ast.Module, modules: dict[str, frozenset[str] | None]) -> Iterator[_Missing]:
    """The imports of dify_plugin's modules and names that `modules` lacks; an import under `if
    TYPE_CHECKING:` or inside a `try` whose handler catches ImportError and carries on is not one
    (the plugin keeps working without it)."""
    for imported in absolute_imports(tree):
        node, dotted = imported.node, imported.module
        if dotted.split(".")[0] != PACKAGE or imported.fallback:
            continue
        gap = _missing_module(dotted, modules)
        if gap is not None:
            parent = gap.rsplit(".", 1)[0]
            siblings = sorted(
                m for m in modules if m.rsplit(".", 1)[0] == parent and m != parent and "._" not in m
            )
            close = closest_name(gap.rsplit(".", 1)[1], [m.rsplit(".", 1)[1] for m in siblings])
            yield _Missing(
                node,
                _from(node, dotted) if isinstance(node, ast.ImportFrom) else f"import {dotted}",
                f"module {gap}",
                gap,
                True,
                siblings,
                f"{parent}.{close}" if close else None,
                imported.top_level,
                first_release(gap),
            )
            continue
        names = modules.get(dotted)
        if not isinstance(node, ast.ImportFrom) or names is None:
            continue
        for alias in node.names:
            if alias.name == "*" or alias.name in names or f"{dotted}.{alias.name}" in modules:
                continue
            close = closest_name(alias.name, names)
            yield _Missing(
                node,
                f"from {dotted} import {alias.name}",
                alias.name if dotted == PACKAGE else f"{dotted}.{alias.name}",
                alias.name,
                False,
                sorted(n for n in names if n[:1].isupper() and n != n.upper()),
                close,
                imported.top_level,
                first_release(dotted, alias.name),
            )


def _missing_module(dotted: str, modules: dict[str, frozenset[str] | None]) -> str | None:
    """The shortest prefix of the dotted module name that is no module of the SDK, None when it is one."""
    parts = dotted.split(".")
    for depth in range(2, len(parts) + 1):
        prefix = ".".join(parts[:depth])
        if prefix not in modules:
            return prefix
    return None


def _from(node: ast.ImportFrom, dotted: str) -> str:
    names = ", ".join(alias.name for alias in node.names)
    return f"from {dotted} import {names if len(names) <= 40 else names[:37] + '...'}"


def _missing_attributes(
    tree: ast.Module, classes: dict[str, frozenset[str]]
) -> Iterator[tuple[ast.Attribute, str]]:
    """`x.name` where every binding of `x` in the module is `C(...)`, with `C` one of the SDK's
    `classes` the module imports from dify_plugin, and `C` has no attribute `name`."""
    imported = sdk_imports(tree)
    made_of = {local: name for name in classes for local in imported.get(name, set())}
    if not made_of:
        return
    parents = {child: node for node in every_node(tree) for child in children(node)}
    bindings: dict[str, list[str | None]] = {}
    for node in every_node(tree):
        for name in bound_names(node):
            parent = parents.get(node)
            made = (
                made_of.get(parent.value.func.id)
                if isinstance(parent, ast.Assign)
                and parent.targets == [node]
                and isinstance(parent.value, ast.Call)
                and isinstance(parent.value.func, ast.Name)
                else None
            )
            bindings.setdefault(name, []).append(made)
    instances = {name: made[0] for name, made in bindings.items() if made[0] and len(set(made)) == 1}
    for node in every_node(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in instances
            and not _has(instances[node.value.id], classes[instances[node.value.id]], node.attr)
        ):
            yield node, instances[node.value.id]


def _has(cls: str, attributes: frozenset[str], name: str) -> bool:
    """True when an instance of the SDK's `cls` has attribute `name` (dunder names always; pydantic
    gives the settings every `model_*` name)."""
    return (
        name in attributes or name.startswith("__") or (cls == "DifyPluginEnv" and name.startswith("model_"))
    )


def bound_names(node: ast.AST) -> list[str]:
    """The names a node binds."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Global | ast.Nonlocal):
        return list(node.names)
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    return []


def sdk_imports(tree: ast.Module) -> dict[str, set[str]]:
    """The local names under which the module imports each name of dify_plugin (any submodule)."""
    found: dict[str, set[str]] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and (node.module or "").split(".")[0] == PACKAGE
        ):
            for alias in node.names:
                found.setdefault(alias.name, set()).add(alias.asname or alias.name)
    return found


def _wrong_kind(loaded: LoadedPlugin, provider: Provider) -> Iterator[Finding]:
    found = module_tree(loaded, provider.source) if provider.source else None
    if found is None:
        return
    relative, tree = found
    code = plugin_code(loaded)
    imported = sdk_imports(tree)
    kinds = {local: name for name, locals_ in imported.items() if name in OTHER_KINDS for local in locals_}
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    own_imports = any(
        (isinstance(node, ast.ImportFrom) and (node.level or code.is_own(node.module or "")))
        or (isinstance(node, ast.Import) and any(code.is_own(alias.name) for alias in node.names))
        for node in tree.body
    )
    if (
        not classes
        or own_imports
        or ("ToolProvider" in imported and _derives(classes, imported["ToolProvider"]))
    ):
        return
    wrong = [node for node in classes if node.bases and all(_base(b) in kinds for b in node.bases)]
    if len(wrong) != len(classes):
        return
    for node in wrong:
        base = kinds[_base(node.bases[0])]
        yield WRONG_KIND.at(
            Location(loaded.display_path(relative), node.lineno, node.col_offset + 1),
            name=node.name,
            base=base,
            kind=Phrase(OTHER_KINDS[base]),
            file=loaded.display_path(relative),
            provider=provider.name,
        )


def _derives(classes: list[ast.ClassDef], names: set[str]) -> bool:
    return any(_base(base) in names for node in classes for base in node.bases)


def _base(base: ast.expr) -> str:
    return base.id if isinstance(base, ast.Name) else ""
