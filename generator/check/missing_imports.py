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
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from generator.check import CheckContext
from generator.check.common import children, every_node
from generator.check.import_index import (
    ALIASES,
    SDK,
    closure,
    import_names,
    indexed,
    installed_imports,
    known_imports,
)
from generator.check.plugin_code import PluginCode, plugin_code, reachable_modules
from generator.check.sdk_index import declared_requirements
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.rules import Listing, Phrase, rule
from generator.run.dependencies import LOCK, PYPROJECT, installed_from, without_sdk
from generator.run.uvsync import left_out, locked_closure, synced_group_requirements

NOT_INSTALLED = rule(
    "R073",
    "import-not-installed",
    Severity.ERROR,
    "{module} is imported ({places}) but {provider!s}: {outcome!s}",
    "Add the package that provides `{top}` to {file}{package!s}, or ship the module in the plugin"
    " when it is one of your own.",
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
listed package's name (`tencentcloud`, `google`) counts as provided. Beside a `pyproject.toml`, a
`uv.lock` that holds every listed package says exactly what `uv sync --no-dev` installs: the
project's dependencies, the extras asked of them (`pandas[html]` brings `beautifulsoup4`) and every
package they depend on, on the daemon's platform (`generator/run/uvsync.py`); it is read instead
of the index. With `--run`, the environment the run builds (from the same files, as the daemon does)
is read instead of guessing: the modules its installed distributions hold (their `.dist-info`,
`top_level.txt` or `RECORD`) count as provided, so a module that a dependency's extras bring
(`records[all]` brings SQLAlchemy) or a package the index does not know installs under another
name is not reported once an environment holds it.

Severity: an error for an import at the top of a module the SDK loads, when everything the
plugin lists is known to the index (its dependencies are then all known): the module fails to
load, and with it the tool, for every user. A warning for an import inside a function (it breaks
the calls that reach it), and whenever the plugin lists a package whose dependencies the registry
does not know, or asks extras of a package without a lock that resolves them (it may bring the
module along: the finding then names those packages and says "if none of those brings it"; list
the module's package anyway, or the plugin breaks the day that package stops depending on it).
Imports under `if TYPE_CHECKING:` are never reported. An import inside a `try` whose handler
catches ImportError (or any Exception) and carries on is a warning: that handler's fallback runs on
every call, so whatever the import was for (a style module the plugin does not ship, an optional
accelerator) never works for anyone; a handler that raises again lets the import fail, as if
nothing caught it.
""",
)
_CATCHES = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
# Words of package names that say nothing of the module inside.
_GENERIC = frozenset({"python", "client", "sdk", "api", "lib", "tools", "plugin", "dify"})
# The beginning a package's and a module's names share to be taken for one another.
_SHARED_PREFIX = 5
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Imports in the code the SDK loads that no listed package provides, and an install that
    brings no SDK at all."""
    return not_installed(loaded)


def rechecked(loaded: LoadedPlugin, findings: Iterable[Finding], python: Path) -> list[Finding]:
    """`findings` with this check's import findings made again against the environment a run built
    (its interpreter `python`): what it installs is what the daemon installs, extras and the
    dependencies of packages the index does not know included."""
    present = installed_imports(python)
    if not present:
        return list(findings)  # nothing read from it: keep what the index said
    again = [f for f in not_installed(loaded, present) if f.rule == NOT_INSTALLED.code]
    return [*(f for f in findings if f.rule != NOT_INSTALLED.code), *again]


def not_installed(loaded: LoadedPlugin, present: frozenset[str] = frozenset()) -> Iterator[Finding]:
    """The check's findings; `present`, the modules a built environment of the plugin installs,
    when there is one."""
    if loaded.plugin is None:
        return
    declared = declared_requirements(loaded.reader)
    if declared is None:
        return  # no dependency file: the dependency rules say so, and nothing is installed to compare
    requirements, complete = declared
    names = [str(canonicalize_name(requirement.name)) for requirement in requirements]
    installed = installed_packages(loaded.reader, requirements)
    without = _without_sdk(loaded, installed, complete)
    if without is not None:
        yield without
    # the SDK's own absence is R056's; the modules it brings are not told again
    distributions = installed.distributions | closure([SDK])[0]
    provided = {module for distribution in distributions for module in import_names(distribution)} | present
    code = plugin_code(loaded)
    file = installed_from(loaded.reader)
    listed = Listing(names, most=8) if names else Phrase("nothing")
    certain = complete and not installed.unknown
    found: dict[str, list[tuple[str, Imported]]] = {}
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        for imported in absolute_imports(tree):
            if not _provided(imported.module, code, provided, sorted(installed.distributions)):
                top = imported.module.split(".")[0]
                found.setdefault(top, []).append((loaded.display_path(relative), imported))
    for top, uses in found.items():  # one finding per missing module, at its first import
        unguarded = [use for use in uses if not use[1].fallback]
        shown = unguarded or uses  # an import nothing catches fails, whatever the others do
        display, first = shown[0]
        top_level = any(use[1].top_level for use in shown)
        yield NOT_INSTALLED.at(
            Location(display, first.node.lineno, first.node.col_offset + 1),
            Severity.ERROR if top_level and certain and unguarded else Severity.WARNING,
            module=first.module,
            places=Listing([f"{use[0]}:{use[1].node.lineno}" for use in shown], most=8),
            provider=Phrase(provider_phrase(file, listed, installed.unknown, complete)),
            outcome=Phrase(_outcome(top_level, certain, 0 if unguarded else first.fallback)),
            file=file,
            package=Phrase(_package(first.module)),
            top=top,
        )


@dataclass(frozen=True, slots=True)
class Installed:
    """What the daemon installs for a plugin, as far as the registry can tell: the distributions,
    and those (or the extras asked of them) whose dependencies or modules it does not know."""

    distributions: frozenset[str]
    unknown: frozenset[str]


def installed_packages(reader: PluginReader, requirements: list[Requirement]) -> Installed:
    """The listed packages and those they bring: exactly what a `uv.lock` beside `pyproject.toml`
    resolves for `uv sync --no-dev` when it holds every listed package, else what the registry's
    index knows each listed package depends on (extras are not in the index)."""
    pyproject = (
        reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES) if installed_from(reader) == PYPROJECT else None
    )
    requirements = [*requirements, *synced_group_requirements(pyproject or "")]
    names = [canonicalize_name(requirement.name) for requirement in requirements]
    known, _complete = closure(names)
    unknown = {name for name in known if not indexed(name)}
    unknown |= {f"{r.name}[{','.join(sorted(r.extras))}]" for r in requirements if r.extras}
    if pyproject is not None and reader.is_file(LOCK):
        locked = locked_closure(reader.text(LOCK, MAX_REQUIREMENTS_BYTES) or "", pyproject)
        if locked is not None and set(names) <= locked:
            # the lock names every package; the modules of those the registry does not know are guessed
            return Installed(locked | known, frozenset(d for d in locked if not known_imports(d)))
    return Installed(known, frozenset(unknown))


def _without_sdk(loaded: LoadedPlugin, installed: Installed, complete: bool) -> Finding | None:
    """R056 without running: the install brings no dify_plugin, for certain (every listed package's
    dependencies are known), or the pyproject.toml names it only where `uv sync` does not install
    from and no listed package the registry does not know could be one built on the SDK."""
    if SDK in installed.distributions:
        return None
    source = installed_from(loaded.reader)
    text = loaded.reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES) if source == PYPROJECT else None
    placed = left_out(text, SDK) if text is not None else None
    suspects = [name for name in installed.unknown if "dify" in name]
    if (complete and not installed.unknown) or (placed is not None and not suspects):
        return without_sdk(source, loaded.reader, loaded.display_path)
    if complete and placed is None:
        # only packages the registry does not know could bring it: a misspelt SDK (`dify-plugin-sdk`)
        # brings nothing, a package built on the SDK would
        return without_sdk(source, loaded.reader, loaded.display_path, installed.unknown)
    return None


def provider_phrase(file: str, listed: Listing | Phrase, unknown: frozenset[str], complete: bool) -> str:
    if complete and not unknown:
        return f"no dependency of the plugin provides it ({file} lists {listed})"
    if not unknown:
        return f"no package {file} lists ({listed}) provides it, nor any package those depend on"
    return (
        f"no package {file} lists ({listed}) provides it, nor any package those depend on that the registry"
        f" knows of (it cannot tell what {Listing(sorted(unknown), most=4)}"
        f" {'installs' if len(unknown) == 1 else 'install'})"
    )


def _outcome(top_level: bool, certain: bool, fallback: int) -> str:
    if fallback:
        said = (
            f"the `except` that catches its ImportError (line {fallback}) runs instead, every time, so the"
            " code that needs it never runs"
        )
    elif top_level:
        said = "loading the module fails with ModuleNotFoundError, so every call of its tools fails"
    else:
        said = "every call that reaches this import fails with ModuleNotFoundError"
    if not certain:
        return f"if none of those brings it, {said}"
    if not top_level and not fallback:
        said += " (every import of it sits inside a function)"
    return said


def _package(name: str) -> str:
    top = name.split(".", maxsplit=1)[0]
    named = [package for package, modules in ALIASES.items() if top in modules]
    # `azure.identity` comes with `azure-identity`, not with the first package of the `azure` space
    named.sort(key=lambda package: package != "-".join(name.casefold().split(".")[:2]))
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
    # `webdavclient3` and `webdav3`: a long shared beginning
    pairs = zip(joined_package, joined_module, strict=False)
    shared = next(
        (n for n, (a, b) in enumerate(pairs) if a != b), min(len(joined_package), len(joined_module))
    )
    return (
        any(word in joined_module for word in package_words)
        or any(word in joined_package for word in module_words)
        or shared >= _SHARED_PREFIX
    )


def _words(name: str, shortest: int = 4) -> list[str]:
    words = re.split(r"[^a-z0-9]+", name.casefold())
    return [word for word in words if len(word) >= shortest and word not in _GENERIC]


@dataclass(frozen=True, slots=True)
class Imported:
    """An absolute import: its statement, the module, whether it runs when the module loads, and
    the first line of the handler that takes over when a `try` around it catches ImportError (0
    when nothing catches it)."""

    node: ast.stmt
    module: str
    top_level: bool
    fallback: int


def absolute_imports(tree: ast.Module) -> Iterator[Imported]:
    """Each absolute import, but those under `if TYPE_CHECKING:` (never run)."""
    parents = {child: node for node in every_node(tree) for child in children(node)}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module]
        else:
            continue
        checking, fallback, top_level = _context(node, parents)
        if not checking:
            yield from (Imported(node, module, top_level, fallback) for module in modules)


def _context(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> tuple[bool, int, bool]:
    """(under `if TYPE_CHECKING:`, the line of the handler of the innermost `try` catching
    ImportError around it or 0, at the top level: no function or class around it)."""
    top_level = True
    fallback = 0
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, _SCOPES):
            top_level = False
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body and not fallback:
            fallback = _catches(parent)
        if isinstance(parent, ast.If) and "TYPE_CHECKING" in ast.unparse(parent.test):
            return True, fallback, top_level
        child, parent = parent, parents.get(parent)
    return False, fallback, top_level


def _catches(statement: ast.Try | ast.TryStar) -> int:
    """The line of the first handler of `statement` that catches ImportError and carries on, else 0
    (a handler that raises again, with a friendlier message, lets the import fail)."""
    for handler in statement.handlers:
        kind = handler.type
        kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
        if kind is None or any(_name(k) in _CATCHES for k in kinds if k is not None):
            return 0 if isinstance(handler.body[-1], ast.Raise) else handler.lineno
    return 0


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
