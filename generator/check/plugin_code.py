"""The plugin's own Python modules, by the names the SDK imports them under, and how an import in
one of them resolves to another.

The SDK runs a plugin with its root as working folder and on `sys.path` (dify-facts): `utils/image.py`
is the module `utils.image`, a folder is a package whether or not it has an `__init__.py`
(namespace packages), and `from .image import X` inside `utils/` names `utils.image`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from generator.load.crawl import LoadedPlugin

INIT = "__init__"


@dataclass(frozen=True, slots=True)
class PluginCode:
    """Every packaged Python file of the plugin that parses, by module name."""

    modules: dict[str, tuple[str, ast.Module]]
    packages: frozenset[str]

    def is_own(self, dotted: str) -> bool:
        """True when the top of `dotted` is one of the plugin's modules or folders: Python finds
        the plugin's root first on `sys.path`."""
        top = dotted.split(".", maxsplit=1)[0]
        return top in self.modules or top in self.packages


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
