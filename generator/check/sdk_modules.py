"""The modules of `dify_plugin` and the names each binds, per release read, for `sdk_api_index.json`.

`from dify_plugin.interfaces.tool import Tool` works when `dify_plugin/interfaces/tool` is a module
or package of the installed release and `Tool` is a name that module binds at its top level (a
definition, an assignment, an import, what a star import brings) or one of its submodules. The
index keeps, under "modules", each module's dotted name with the first release read that has it
("since"), and the names it binds grouped by the first release read that binds each ("names":
{release: [names]}); a module that looks names up itself (a module-level `__getattr__`, a star
import of a module outside the wheel) has "names": null, its names unknown. A directory of the
wheel without `__init__.py` is a namespace package: importable, binding nothing but submodules.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from packaging.version import Version

PACKAGE = "dify_plugin"
Reader = Callable[[str], str | None]
# Statements whose bodies run at the module's top level when the module loads.
_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)


def module_files(members: Iterable[str]) -> dict[str, str | None]:
    """Each module of the package in a wheel's `members`, dotted, with the member holding its
    source (`__init__.py` for a package); None for a directory without one (a namespace package)."""
    found: dict[str, str | None] = {}
    for member in sorted(members):
        parts = member.split("/")
        if parts[0] != PACKAGE or not member.endswith(".py"):
            continue
        stem = [*parts[:-1], parts[-1].removesuffix(".py")]
        if stem[-1] == "__init__":
            stem = stem[:-1]
        if not all(part.isidentifier() for part in stem):
            continue
        for depth in range(1, len(stem)):
            found.setdefault(".".join(stem[:depth]), None)
        found[".".join(stem)] = member
    return found


def derive_modules(members: set[str], read: Reader) -> dict[str, list[str] | None]:
    """Every module of the release with the names it binds (sorted); None for one whose names
    cannot be told from its source."""
    files = module_files(members)
    trees: dict[str, ast.Module | None] = {}
    for module, member in files.items():
        source = read(member) if member else ""
        trees[module] = ast.parse(source) if source is not None else None
    done: dict[str, set[str] | None] = {}
    for module in files:
        _bound(module, trees, done, set())
    return {module: (sorted(names) if names is not None else None) for module, names in done.items()}


def _bound(
    module: str, trees: dict[str, ast.Module | None], done: dict[str, set[str] | None], seen: set[str]
) -> set[str] | None:
    """The names `module` binds, star imports followed inside the wheel (`seen` breaks cycles)."""
    if module in done:
        return done[module]
    tree = trees.get(module)
    if tree is None:  # no such module, or its source unreadable: its names are unknown
        return None
    if module in seen:  # a cycle of star imports: the names come in through the other modules
        return set()
    seen.add(module)
    names: set[str] = set()
    for statement in _top_statements(tree.body):
        if isinstance(statement, ast.FunctionDef) and statement.name == "__getattr__":
            done[module] = None
            return None
        if isinstance(statement, ast.ImportFrom) and any(alias.name == "*" for alias in statement.names):
            source = _absolute(module, statement, is_package=_is_package(module, trees))
            star = _bound(source, trees, done, seen) if source.split(".")[0] == PACKAGE else None
            if star is None:
                done[module] = None
                return None
            names.update(name for name in star if not name.startswith("_"))
            continue
        names.update(_binds(statement))
    for node in ast.walk(tree):
        # `global NAME` in a function binds NAME at the top level once the function runs.
        if isinstance(node, ast.Global):
            names.update(node.names)
    done[module] = names
    return names


def _is_package(module: str, trees: dict[str, ast.Module | None]) -> bool:
    return any(other.startswith(module + ".") for other in trees)


def _absolute(module: str, statement: ast.ImportFrom, is_package: bool) -> str:
    """The dotted module a `from ... import` in `module` names."""
    if not statement.level:
        return statement.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - statement.level + 1]
    return ".".join([*base, *([statement.module] if statement.module else [])])


def _top_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run at a module's top level, inside `if`, `try`, `with` and loops too."""
    for statement in body:
        yield statement
        if isinstance(statement, _BLOCKS):
            for field in ("body", "orelse", "finalbody"):
                yield from _top_statements(getattr(statement, field, []))
            for handler in getattr(statement, "handlers", []):
                yield from _top_statements(handler.body)
        elif isinstance(statement, ast.Match):
            for case in statement.cases:
                yield from _top_statements(case.body)


def _binds(statement: ast.stmt) -> set[str]:
    """The names one top-level statement binds."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    # `type X = ...` (Python 3.12, in the SDK's newer releases; the registry runs on 3.11 too)
    alias = getattr(statement, "name", None) if type(statement).__name__ == "TypeAlias" else None
    if isinstance(alias, ast.Name):
        return {alias.id}
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [item.optional_vars for item in statement.items if item.optional_vars]
    found = {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}
    if isinstance(statement, ast.Try | ast.TryStar):
        found.update(handler.name for handler in statement.handlers if handler.name)
    return found


def merge_modules(releases: list[tuple[str, dict[str, list[str] | None]]]) -> dict[str, dict[str, Any]]:
    """The index's "modules": for each module, the first release (oldest first in `releases`) that
    has it and each name by the first release that binds it; names None once a release's are
    unknown."""
    merged: dict[str, dict[str, Any]] = {}
    known: dict[str, set[str]] = {}
    for version, modules in releases:
        for module, names in sorted(modules.items()):
            entry = merged.setdefault(module, {"since": version, "names": {}})
            if names is None or entry["names"] is None:
                entry["names"] = None
                continue
            new = sorted(set(names) - known.setdefault(module, set()))
            if new:
                entry["names"][version] = new
                known[module].update(new)
    return dict(sorted(merged.items()))


def modules_upto(index: dict[str, dict[str, Any]], last: Version | None) -> dict[str, frozenset[str] | None]:
    """The modules some release read up to `last` (every one when None) has, each with every name
    one of those releases binds in it (None when unknown)."""
    found: dict[str, frozenset[str] | None] = {}
    for module, entry in index.items():
        if last is not None and Version(entry["since"]) > last:
            continue
        names = entry["names"]
        found[module] = (
            None
            if names is None
            else frozenset(
                name
                for since, added in names.items()
                if last is None or Version(since) <= last
                for name in added
            )
        )
    return found
