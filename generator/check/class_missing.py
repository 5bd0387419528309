"""A class file that holds no class of the kind the SDK takes from it (P013, T022), or several
(P014, T023): the plugin cannot start.

The SDK takes a tool provider's class, and each of its tools' classes, from the file its
`extra.python.source` names, when the plugin starts, by listing that module's namespace; a file
with none stops the plugin for every user, whatever its environment holds. The check reads the
files without running them (so it holds when the plugin's environment cannot be built), and from
the declarations themselves (so it holds when the manifest cannot be read).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import documents, module_tree
from generator.check.plugin_code import PluginCode, imported_module, plugin_code
from generator.check.sdk_classes import census
from generator.check.sdk_names import OTHER_KINDS
from generator.check.undeclared import is_tool_base, sdk_names
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule

_LOADER = """
The SDK loads the classes when the plugin starts (`_resolve_tool_providers` in
`dify_plugin/core/plugin_registration.py`): for each tool provider,
`load_single_subclass_from_source(module_name=module_source, script_path=...,
parent_type=ToolProvider)`, then for each of its tools the same with `parent_type=Tool`.
`load_single_subclass_from_source` (`dify_plugin/core/utils/class_loader.py`) runs the module and
keeps `[x for x in vars(mod).values() if isinstance(x, type) and x != parent_type and issubclass(x,
parent_type)]`, every class bound in the module's namespace, imported ones included, then
`case 0: msg = f"Missing subclass of {parent_type.__name__} in {script_path}"; raise Exception(msg)`.
The exception stops the plugin while it starts, for every user. The check reads the file that the
SDK runs for the source (the module its name finds first) without running it, and reports only when
no top-level class derives from the SDK's class, directly or through another class of the file, and
nothing else could bind one in the namespace: no import from the plugin's own modules or a star
import, no class defined under an `if` or `try`, no class derived from a base imported from
elsewhere, no name ending in the class's name imported from another package, no capitalised name
bound to a computed value (`Search = make_tool()`). A file whose classes derive from another kind's
SDK class (a `ModelProvider` for a tool provider) is rule P011's.
"""

PROVIDER_CLASS_MISSING = rule(
    "P013",
    "provider-class-missing",
    Severity.ERROR,
    "{path} defines no subclass of dify_plugin's ToolProvider, and it is the class file of tool provider"
    ' {provider}: the SDK raises "Missing subclass of ToolProvider" and the plugin does not start',
    "Define the provider's class in {path}: `class {suggested}(ToolProvider)` with"
    " `_validate_credentials(self, credentials)` (`from dify_plugin import ToolProvider`).",
    _LOADER,
)
TOOL_CLASS_MISSING = rule(
    "T022",
    "tool-class-missing",
    Severity.ERROR,
    "{path} defines no subclass of dify_plugin's Tool, and it is the class file of tool {tool}:"
    ' the SDK raises "Missing subclass of Tool" and the plugin does not start',
    "Define the tool's class in {path}: `class {suggested}(Tool)` with"
    " `_invoke(self, tool_parameters)` (`from dify_plugin import Tool`).",
    _LOADER,
)
_SEVERAL = """
The same loader refuses a file whose namespace holds more than one such class: after
`subclasses = get_subclasses_from_module(module, parent_type)`, `case _: msg = f"Multiple subclasses
of {parent_type.__name__} in {script_path}"; raise Exception(msg)`. Every class bound in the module
counts, imported ones included: `from tools.base import BaseTool` (a `Tool` subclass of the plugin)
beside `class Search(BaseTool)` makes two, and the plugin stops while it starts, for every user.
Tried with the SDK 0.10.2: exactly that pair gives "Multiple subclasses of Tool in tools/search.py".
Found without running: the top-level classes of the file that derive from the SDK's class, directly
or through another class the file defines or imports from the plugin's own modules, and the names
it imports from those modules that are such classes there (followed across the plugin's modules).
Only classes known for certain are counted: a base from another package counts for nothing.
"""
PROVIDER_CLASS_SEVERAL = rule(
    "P014",
    "provider-class-ambiguous",
    Severity.ERROR,
    "{path} binds {count} subclasses of dify_plugin's ToolProvider ({names}), and it is the class file of"
    ' tool provider {provider}: the SDK raises "Multiple subclasses of ToolProvider" and the plugin'
    " does not start",
    "Keep one ToolProvider subclass in {path}: import a shared base class's module (`import"
    " provider.base as base`, `class X(base.Base)`) instead of the class itself, or move the others out.",
    _SEVERAL,
)
TOOL_CLASS_SEVERAL = rule(
    "T023",
    "tool-class-ambiguous",
    Severity.ERROR,
    "{path} binds {count} subclasses of dify_plugin's Tool ({names}), and it is the class file of tool"
    ' {tool}: the SDK raises "Multiple subclasses of Tool" and the plugin does not start',
    "Keep one Tool subclass in {path}: import a shared base class's module (`import tools.base as"
    " base`, `class X(base.Base)`) instead of the class itself, or move the others out.",
    _SEVERAL,
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """P013 and T022 (no class), P014 and T023 (several), once per class file, for every provider
    and tool declaration read."""
    done: set[str] = set()
    code = plugin_code(loaded)
    trees = dict(code.modules.values())  # once per plugin: every class file's search reads it
    for role, base, missing, several in (
        ("tools provider", "ToolProvider", PROVIDER_CLASS_MISSING, PROVIDER_CLASS_SEVERAL),
        ("tool", "Tool", TOOL_CLASS_MISSING, TOOL_CLASS_SEVERAL),
    ):
        for _relative, document in documents(loaded, role):
            source = dig(document.data, "extra", "python", "source")
            found = module_tree(loaded, source) if isinstance(source, str) else None
            if found is None or found[0] in done:
                continue  # no file to read, or one that does not parse: the source rules and T009 say so
            file, tree = found
            done.add(file)
            name = dig(document.data, "identity", "name")
            shown = str(name) if isinstance(name, str) and name else file
            bound = _subclasses(code, trees, file, base, set())
            if len(bound) > 1:
                yield several.at(
                    Location(loaded.display_path(file), 1, 1),
                    path=file,
                    provider=shown,
                    tool=shown,
                    count=len(bound),
                    names=", ".join(bound),
                )
                continue
            if not _lacks(loaded, tree, base):
                continue
            yield missing.at(
                Location(loaded.display_path(file), 1, 1),
                path=file,
                provider=shown,
                tool=shown,
                suggested=_class_name(shown, base),
            )


def _subclasses(
    code: PluginCode, trees: dict[str, ast.Module], file: str, base: str, seen: set[str]
) -> list[str]:
    """The names the module `file` binds at its top level that are, for certain, subclasses of
    dify_plugin's `base`: classes it defines on such a class, and such classes it imports from the
    plugin's own modules (`trees`: the plugin's syntax trees by file)."""
    tree = trees.get(file)
    if tree is None or file in seen:
        return []
    sdk = sdk_names(tree, base)
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            source = imported_module(file, node)
            imported = code.modules.get(source) if source else None
            if imported is None:
                continue
            there = _subclasses(code, trees, imported[0], base, seen | {file})
            found += [alias.asname or alias.name for alias in node.names if alias.name in there]
        elif isinstance(node, ast.ClassDef) and any(
            is_tool_base(b, sdk, base) or (isinstance(b, ast.Name) and b.id in found) for b in node.bases
        ):
            found.append(node.name)
    return found


def _lacks(loaded: LoadedPlugin, tree: ast.Module, base: str) -> bool:
    """True when nothing binds a subclass of dify_plugin's `base` in the module, for certain."""
    own = plugin_code(loaded)
    counted = census(tree, base, lambda node: node.level > 0 or own.is_own(node.module or ""))
    if counted.derived or counted.uncertain:
        return False
    known = {node.name for node in tree.body if isinstance(node, ast.ClassDef)} | _BUILTIN_BASES
    other_kinds = {name for kind in OTHER_KINDS for name in sdk_names(tree, kind)}
    return not any(_may_bind(node, base, known, other_kinds) for node in tree.body)


# Bases that are no SDK class, whatever the module imports.
_BUILTIN_BASES = frozenset(
    {"object", "Exception", "ValueError", "RuntimeError", "dict", "list", "str", "int"}
)


def _may_bind(node: ast.stmt, base: str, known: set[str], other_kinds: set[str]) -> bool:
    """True when a top-level statement could put a subclass of `base` into the namespace that the
    census cannot see, or leaves the file to another rule (a class of another kind: P011)."""
    if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] != "dify_plugin":
        return any((alias.asname or alias.name).endswith(base) for alias in node.names)
    if isinstance(node, ast.ClassDef):
        # a base from another package may derive from the SDK's class; another kind's is P011's
        names = [b.id for b in node.bases if isinstance(b, ast.Name)]
        return any(name in other_kinds or name not in known for name in names)
    targets = _assigned(node)
    value = getattr(node, "value", None)
    computed = value is not None and not isinstance(value, ast.Constant | ast.JoinedStr | ast.List | ast.Dict)
    return computed and any(target[:1].isupper() for target in targets)


def _assigned(node: ast.stmt) -> Iterator[str]:
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AnnAssign)
        else []
    )
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id


def _class_name(name: str, base: str) -> str:
    """A class name for the hint: `google_search` -> `GoogleSearchTool`."""
    words = [word for word in name.replace("-", "_").split("_") if word.isidentifier() or word.isalnum()]
    stem = "".join(word[:1].upper() + word[1:] for word in words) or "My"
    return stem if stem.endswith(base) else stem + base
