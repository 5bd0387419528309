"""What the daemon's `uv sync --no-dev` installs from a plugin's `pyproject.toml`, beside its
`uv.lock` or without one: the `[project]` dependencies and the dependency groups uv installs by
default, never the `dev` group, another group or an extra.

uv's documentation of `uv sync`: "By default, uv includes the `dev` dependency group"; the groups
installed by default are `tool.uv.default-groups` (`["dev"]` unless set, or `"all"`), and
`--no-dev` is "an alias of `--no-group dev`". Extras (`[project.optional-dependencies]`) are
installed only with `--extra` or `--all-extras`, which the daemon never passes.
"""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from packaging.markers import InvalidMarker, Marker, UndefinedComparison, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

DEV = "dev"
# The platform Dify's daemon installs on (its images: Linux, Python 3.12), for a lock's markers.
DAEMON_MARKERS = {
    "python_version": "3.12",
    "python_full_version": "3.12.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "extra": "",
}


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A package the pyproject.toml names only where `uv sync --no-dev` does not install from."""

    where: str  # `[dependency-groups] dify`, `[project.optional-dependencies] all`
    line: int
    column: int


def read_toml(text: str) -> dict[str, Any] | None:
    """The TOML document, or None when it cannot be read."""
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None


def place_in(lines: list[str], entry: str) -> tuple[int, int]:
    """Where a dependency string stands in pyproject.toml (1, 1 when it cannot be found)."""
    for number, line in enumerate(lines, start=1):
        column = line.find(entry)
        if column >= 0:
            return number, column + 1
    return 1, 1


def synced_groups(data: dict[str, Any]) -> frozenset[str] | None:
    """The dependency groups `uv sync --no-dev` installs; None for every group but `dev`."""
    tool = data.get("tool")
    uv = tool.get("uv") if isinstance(tool, dict) else None
    default = uv.get("default-groups", [DEV]) if isinstance(uv, dict) else [DEV]
    if default == "all":
        return None
    return (
        frozenset(g for g in default if isinstance(g, str) and g != DEV)
        if isinstance(default, list)
        else frozenset()
    )


def synced_group_requirements(text: str) -> list[Requirement]:
    """The requirements of the dependency groups `uv sync --no-dev` installs besides the project's."""
    data = read_toml(text)
    if data is None:
        return []
    project = _project(data)
    installed = synced_groups(data)
    found = []
    for _where, group, entries in _elsewhere(data, project):
        if group and group != DEV and (installed is None or group in installed):
            for entry in entries if isinstance(entries, list) else ():
                with contextlib.suppress(InvalidRequirement, TypeError):
                    found.append(Requirement(entry))
    return found


def left_out(text: str, package: str) -> LeftOut | None:
    """Where pyproject.toml names `package` only in a group or an extra that `uv sync --no-dev`
    leaves out; None when it is not named there, or is among the `[project]` dependencies."""
    data = read_toml(text)
    if data is None:
        return None
    wanted = canonicalize_name(package)
    project = _project(data)
    if any(name == wanted for name, _entry in _named(project.get("dependencies"))):
        return None
    installed = synced_groups(data)
    lists = list(_elsewhere(data, project))
    synced = [
        entries
        for where, group, entries in lists
        if group and group != DEV and (installed is None or group in installed)
    ]
    if any(name == wanted for entries in synced for name, _entry in _named(entries)):
        return None  # in a group uv installs by default
    lines = text.splitlines()
    for where, _group, entries in lists:
        for name, entry in _named(entries):
            if name == wanted:
                line, column = place_in(lines, entry)
                return LeftOut(where, line, column)
    return None


def _project(data: dict[str, Any]) -> dict[str, Any]:
    project = data.get("project")
    return project if isinstance(project, dict) else {}


def _elsewhere(data: dict[str, Any], project: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(where, group or "", entries) of every list of requirements besides `[project] dependencies`."""
    groups = data.get("dependency-groups")
    for name, entries in groups.items() if isinstance(groups, dict) else ():
        yield f"[dependency-groups] {name}", str(name), entries
    tool = data.get("tool")
    uv = tool.get("uv") if isinstance(tool, dict) else None
    if isinstance(uv, dict):
        yield "[tool.uv] dev-dependencies (the dev group)", DEV, uv.get("dev-dependencies")
    extras = project.get("optional-dependencies")
    for name, entries in extras.items() if isinstance(extras, dict) else ():
        yield f"[project.optional-dependencies] {name}", "", entries


def _named(entries: Any) -> Iterator[tuple[str, str]]:
    """(canonical name, the entry as written) of each requirement string of a list."""
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, str):
            try:
                yield canonicalize_name(Requirement(entry).name), entry
            except InvalidRequirement:
                continue


def locked_closure(lock_text: str, pyproject_text: str) -> frozenset[str] | None:
    """The packages `uv sync --no-dev --frozen` installs from this lock: from the project's own
    entry, its dependencies and the groups uv installs by default, each package's dependencies and
    the extras asked of it, on the daemon's platform; None when the lock or the project's entry in
    it cannot be read."""
    lock, project = read_toml(lock_text), read_toml(pyproject_text)
    if lock is None or project is None:
        return None
    packages = [entry for entry in lock.get("package", []) if isinstance(entry, dict)]
    by_name: dict[str, list[dict[str, Any]]] = {}
    for entry in packages:
        if isinstance(entry.get("name"), str):
            by_name.setdefault(canonicalize_name(entry["name"]), []).append(entry)
    root = next((entry for entry in packages if _is_project(entry)), None)
    if root is None:
        return None
    groups = synced_groups(project)
    pending = list(_edges(root.get("dependencies")))
    dev = root.get("dev-dependencies")
    for group, entries in dev.items() if isinstance(dev, dict) else ():
        if group != DEV and (groups is None or group in groups):
            pending.extend(_edges(entries))
    seen: set[tuple[str, str]] = set()
    while pending:
        name, extra = pending.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        for entry in by_name.get(name, []):
            if extra:
                optional = entry.get("optional-dependencies")
                pending.extend(_edges(optional.get(extra) if isinstance(optional, dict) else None))
            else:
                pending.extend(_edges(entry.get("dependencies")))
    return frozenset(name for name, _extra in seen)


def _is_project(entry: dict[str, Any]) -> bool:
    source = entry.get("source")
    return isinstance(source, dict) and (source.get("editable") == "." or source.get("virtual") == ".")


def _edges(entries: Any) -> Iterable[tuple[str, str]]:
    """(package, "") and (package, extra) for each dependency of a lock entry that applies on the
    daemon's platform."""
    for entry in entries if isinstance(entries, list) else ():
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not _applies(entry.get("marker")):
            continue
        yield canonicalize_name(name), ""
        extras = entry.get("extra")
        yield from (
            ((canonicalize_name(name), extra) for extra in extras if isinstance(extra, str))
            if isinstance(extras, list)
            else ()
        )


def _applies(marker: Any) -> bool:
    if not isinstance(marker, str):
        return True
    try:
        return Marker(marker).evaluate(DAEMON_MARKERS)
    except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
        return True  # a marker packaging cannot read: count the package as installed
