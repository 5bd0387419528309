"""Modules the plugin imports that nothing it installs provides (R073), found without running it.

Dify installs a plugin's dependencies from its `pyproject.toml`, else its `requirements.txt`, and
nothing more: a module that neither the standard library, the plugin's own files, a listed package
nor one of their dependencies provides fails to import, for every user.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator

from packaging.utils import canonicalize_name

from generator.check import CheckContext
from generator.check.common import children, every_node
from generator.check.import_index import ALIASES, SDK, closure, import_names, known_imports
from generator.check.plugin_code import PluginCode, plugin_code, reachable_modules
from generator.check.sdk_index import declared_requirements
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

NOT_INSTALLED = rule(
    "R073",
    "import-not-installed",
    Severity.ERROR,
    "{module} is imported ({places}) but no dependency of the plugin provides it ({file} lists {listed}):"
    " {outcome!s}",
    "Add the package that provides `{top}` to {file}{package!s}.",
    """
Dify's daemon installs what the plugin's `pyproject.toml` lists (else its `requirements.txt`) and
the packages those depend on, nothing else. An import of any other module (not the standard
library, `sys.stdlib_module_names`; not one of the plugin's own files or folders) raises
ModuleNotFoundError. The check reads the modules the SDK loads (the entry point, the tool and
provider classes) and the plugin's modules they import, and compares each import with the import
names of the listed packages and of their dependencies. Those are read from real installs
(`generator/check/import_index.json`: dify_plugin, every module it brings in any version, and their
import names), with the names of common packages whose module is named otherwise (`PIL` from
`pillow`, `yaml` from `pyyaml`, `cv2` from `opencv-python`, `bs4` from `beautifulsoup4`, `mysql`
from `mysql-connector-python`, `dateutil` from `python-dateutil`); a module whose name is part of a
listed package's name (`tencentcloud`, `google`) counts as provided.

Severity: an error for an import at the top of a module the SDK loads, when everything the
plugin lists is known to the index (its dependencies are then all known): the module fails to
load, and with it the tool, for every user. A warning for an import inside a function (it breaks
the calls that reach it), and whenever the plugin lists a package whose dependencies the registry
does not know (it may bring the module along; list it anyway, or the plugin breaks the day that
package stops depending on it). Imports inside a `try` that catches ImportError, and under
`if TYPE_CHECKING:`, are never reported.
""",
)
_CATCHES = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
# Words of package names that say nothing of the module inside.
_GENERIC = frozenset({"python", "client", "sdk", "api", "lib", "tools", "plugin", "dify"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Imports in the code the SDK loads that no listed package provides."""
    if loaded.plugin is None:
        return
    declared = declared_requirements(loaded.reader)
    if declared is None:
        return  # no dependency file: the dependency rules say so, and nothing is installed to compare
    requirements, complete = declared
    names = [str(canonicalize_name(requirement.name)) for requirement in requirements]
    installed, known = closure([*names, SDK])  # without the SDK nothing runs: other rules say so
    provided = {module for distribution in installed for module in import_names(distribution)}
    code = plugin_code(loaded)
    file = "pyproject.toml" if loaded.reader.is_file("pyproject.toml") else "requirements.txt"
    listed = Listing(names, most=8) if names else Phrase("nothing")
    certain = complete and known
    found: dict[str, list[tuple[str, ast.stmt, bool, str]]] = {}
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        for node, name, top_level in _imports(tree):
            if not _provided(name, code, provided, names):
                found.setdefault(name.split(".")[0], []).append(
                    (loaded.display_path(relative), node, top_level, name)
                )
    for top, uses in found.items():  # one finding per missing module, at its first import
        display, node, _top_level, first = uses[0]
        top_level = any(use[2] for use in uses)
        yield NOT_INSTALLED.at(
            Location(display, node.lineno, node.col_offset + 1),
            Severity.ERROR if top_level and certain else Severity.WARNING,
            module=first,
            places=Listing([f"{use[0]}:{use[1].lineno}" for use in uses], most=8),
            file=file,
            listed=listed,
            outcome=Phrase(_outcome(top_level, certain)),
            package=Phrase(_package(top)),
            top=top,
        )


def _outcome(top_level: bool, certain: bool) -> str:
    said = (
        "loading the module fails with ModuleNotFoundError, so every call of its tools fails"
        if top_level
        else "every call that reaches this import fails with ModuleNotFoundError"
    )
    if not certain:
        said += " (unless a listed package whose dependencies the registry does not know brings it along)"
    elif not top_level:
        said += " (every import of it sits inside a function)"
    return said


def _package(name: str) -> str:
    top = name.split(".", maxsplit=1)[0]
    named = [package for package, modules in ALIASES.items() if top in modules]
    return f" (it comes with `{named[0]}`)" if named else ""


def _provided(name: str, code: PluginCode, provided: set[str], listed: list[str]) -> bool:
    top = name.split(".", maxsplit=1)[0]
    if top in sys.stdlib_module_names or top == "__future__" or code.is_own(name) or top in provided:
        return True
    return any(_may_provide(package, name) for package in listed if not known_imports(package))


def _may_provide(package: str, module: str) -> bool:
    """True when a package whose modules are not known may be the one named for `module`: a word
    of one is part of the other (`opensearch-py` and `opensearchpy`, `your-telegraph` and
    `ytelegraph`, `monday-api-python-sdk` and `monday_sdk`)."""
    package_words = _words(package)
    module_words = _words(module)
    joined_package, joined_module = "".join(_words(package, 1)), "".join(_words(module, 1))
    return any(word in joined_module for word in package_words) or any(
        word in joined_package for word in module_words
    )


def _words(name: str, shortest: int = 4) -> list[str]:
    words = re.split(r"[^a-z0-9]+", name.casefold())
    return [word for word in words if len(word) >= shortest and word not in _GENERIC]


def _imports(tree: ast.Module) -> Iterator[tuple[ast.stmt, str, bool]]:
    """(statement, module, at the top of the module) for each absolute import nothing guards."""
    parents = {child: node for node in every_node(tree) for child in children(node)}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module]
        else:
            continue
        guarded, top_level = _context(node, parents)
        if not guarded:
            yield from ((node, module, top_level) for module in modules)


def _context(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> tuple[bool, bool]:
    """(guarded, at the top level): a `try` catching ImportError or `if TYPE_CHECKING:` above it;
    no function or class around it."""
    top_level = True
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, _SCOPES):
            top_level = False
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body and _catches(parent):
            return True, top_level
        if isinstance(parent, ast.If) and "TYPE_CHECKING" in ast.unparse(parent.test):
            return True, top_level
        child, parent = parent, parents.get(parent)
    return False, top_level


def _catches(statement: ast.Try | ast.TryStar) -> bool:
    for handler in statement.handlers:
        kind = handler.type
        kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
        if kind is None or any(_name(k) in _CATCHES for k in kinds if k is not None):
            return True
    return False


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
