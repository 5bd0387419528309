"""The plugin's own Python modules, by the names the SDK imports them under, and how an import in
one of them resolves to another.

The SDK runs a plugin with its root as working folder and on `sys.path` (dify-facts): `utils/image.py`
is the module `utils.image`, a folder is a package whether or not it has an `__init__.py`
(namespace packages), and `from .image import X` inside `utils/` names `utils.image`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from generator.check.common import every_node, module_tree
from generator.load.crawl import LoadedPlugin

INIT = "__init__"
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True, slots=True)
class PluginCode:
    """Every packaged Python file of the plugin that parses, by module name."""

    modules: dict[str, tuple[str, ast.Module]]
    packages: frozenset[str]

    def is_own(self, dotted: str) -> bool:
        """True when the top of `dotted` names one of the plugin's modules or folders, at any depth:
        Python finds the plugin's root first on `sys.path`, and code that adds a folder of its own
        to `sys.path` imports that folder's modules by their bare names."""
        top = dotted.split(".", maxsplit=1)[0]
        return top in self.names

    @property
    def names(self) -> frozenset[str]:
        """The last part of every module and folder name of the plugin."""
        return frozenset(name.rsplit(".", 1)[-1] for name in (*self.modules, *self.packages))


def module_name(relative: str) -> str:
    """`utils/image.py` -> `utils.image`; `utils/__init__.py` -> `utils`."""
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == INIT:
        parts = parts[:-1]
    return ".".join(parts)


def plugin_code(loaded: LoadedPlugin) -> PluginCode:
    """The plugin's modules, read once per plugin through its reader."""
    return loaded.reader.derived("plugin-code", "", lambda: _read(loaded))


def _read(loaded: LoadedPlugin) -> PluginCode:
    modules: dict[str, tuple[str, ast.Module]] = {}
    packages: set[str] = set()
    for file in loaded.reader.tree.files:
        if not file.relative.endswith(".py"):
            continue
        name = module_name(file.relative)
        folders = file.relative.split("/")[:-1]
        packages.update(".".join(folders[: n + 1]) for n in range(len(folders)))
        tree = loaded.reader.python_tree(file)
        if tree is not None and name:
            modules[name] = (file.relative, tree)
    return PluginCode(modules, frozenset(packages))


def imported_module(importer: str, node: ast.ImportFrom) -> str | None:
    """The absolute module name a `from ... import` in the file `importer` (relative to the root)
    names; None for a relative import that climbs above the plugin's root."""
    if not node.level:
        return node.module
    package = importer.split("/")[:-1]  # a module's package and an `__init__.py`'s are its folder
    if node.level - 1 > len(package):
        return None
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])]) or None


def reachable_modules(loaded: LoadedPlugin, code: PluginCode) -> list[str]:
    """The plugin's modules the SDK loads (the entry point `main`, the tools' and providers'
    classes) and the plugin's modules they import, at any depth, in the order they were reached."""
    if code is not plugin_code(loaded):
        return list(_reachable(loaded, code))
    # Found once per plugin (four checks ask, and each search walks every reachable module); each
    # caller gets a list of its own.
    return list(loaded.reader.derived("reachable-modules", "", lambda: _reachable(loaded, code)))


def reachable_functions(loaded: LoadedPlugin) -> Iterator[tuple[str, ast.Module, Function]]:
    """Every function (and method) of the modules the SDK loads, with its file as shown and its
    module's tree: for the checks that judge calls inside functions."""
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        for node in every_node(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield display, tree, node


def _reachable(loaded: LoadedPlugin, code: PluginCode) -> tuple[str, ...]:
    sources = [tool.source for tool in loaded.plugin.tools] if loaded.plugin else []
    sources += [provider.source for provider in loaded.plugin.providers] if loaded.plugin else []
    return reachable_from(loaded, code, [source for source in sources if source])


def reachable_from(loaded: LoadedPlugin, code: PluginCode, sources: list[str]) -> tuple[str, ...]:
    """The modules of the class files `sources` (paths as the YAML writes them), the entry point
    `main`, and the plugin's modules they import, at any depth, in the order they were reached."""
    by_file = {relative: name for name, (relative, _tree) in code.modules.items()}
    found = [module_tree(loaded, source) for source in sources]
    pending = [by_file[entry[0]] for entry in found if entry is not None and entry[0] in by_file]
    pending += ["main"] if "main" in code.modules else []
    seen: list[str] = []
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.append(module)
        relative, tree = code.modules[module]
        for node in every_node(tree):
            for name in imported_names(relative, node):
                parts = name.split(".")
                heads = (".".join(parts[:n]) for n in range(1, len(parts) + 1))
                pending.extend(head for head in heads if head in code.modules)
    return tuple(seen)


def imported_names(relative: str, node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = imported_module(relative, node)
        if base is None:
            return []
        return [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return []


def single_bindings(relative: str, tree: ast.Module, module: str = "") -> dict[str, tuple[str, str]]:
    """Local name -> (module, attribute or "" for the module itself) for the names the module in
    the file `relative` binds once in all its code (a parameter, an assignment or a nested `def`
    anywhere counts), by an import or, given the module's own name `module`, by a top-level `def`
    or `class` (then (module, name))."""
    bindings: dict[str, list[tuple[str, str]]] = {}
    top_level = {id(statement) for statement in tree.body}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                bindings.setdefault(local, []).append((alias.name if alias.asname else local, ""))
        elif isinstance(node, ast.ImportFrom):
            source = imported_module(relative, node)
            for alias in node.names:
                bindings.setdefault(alias.asname or alias.name, []).append((source or "", alias.name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own = module and id(node) in top_level
            bindings.setdefault(node.name, []).append((module, node.name) if own else ("", ""))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bindings.setdefault(node.id, []).append(("", ""))
        elif isinstance(node, ast.arg):
            bindings.setdefault(node.arg, []).append(("", ""))
    return {local: bound[0] for local, bound in bindings.items() if len(bound) == 1 and bound[0][0]}
