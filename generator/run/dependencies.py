"""Which file a plugin's dependencies are installed from, as Dify's plugin daemon decides, and what
its two dependency files say of each other.

The daemon (`LocalPluginRuntime.detectDependencyFileType` in `internal/core/local_runtime/
setup_python_environment.go`, since its 0.5.3) takes `pyproject.toml` when the plugin has one and
installs it with `uv sync --no-dev` (`--frozen` beside a `uv.lock`, since 0.5.5); it takes
`requirements.txt` (`uv pip install -r requirements.txt`) only when there is no `pyproject.toml`,
or when a pip mirror is configured (`PIP_MIRROR_URL`, since 0.6.3) and the plugin has one. Daemons
before 0.5.3 read `requirements.txt` only.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from generator.findings import Finding, Location, Severity
from generator.load import reqlines
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.rules import Listing, Phrase, rule
from generator.run.uvsync import left_out, place_in

PYPROJECT = "pyproject.toml"
REQUIREMENTS = "requirements.txt"
LOCK = "uv.lock"
SDK = "dify-plugin"

FILES_DISAGREE = rule(
    "R055",
    "dependency-files-disagree",
    Severity.WARNING,
    "pyproject.toml and requirements.txt list different packages: {missing!s}",
    "List the same packages in both files: Dify's daemon installs pyproject.toml, but one with a pip "
    "mirror configured, and every daemon before 0.5.3, installs requirements.txt.",
    """
Dify's plugin daemon installs a plugin's dependencies from `pyproject.toml` (with `uv sync`) when the
plugin has one, and from `requirements.txt` otherwise (`detectDependencyFileType`). A daemon with a
pip mirror configured (`PIP_MIRROR_URL`) prefers `requirements.txt`, and daemons before 0.5.3 read
only `requirements.txt`. A package listed in one file and not in the other is installed on some
Dify installations and missing on others, where the tool fails with "No module named ...". The
runner builds as today's daemon does, from `pyproject.toml`. Beside a `uv.lock`, `uv sync` installs
every package the lock resolves, so a `requirements.txt` exported from it (`uv export`, which also
names the dependencies of dependencies) agrees with `pyproject.toml`.
""",
)
NO_SDK = rule(
    "R056",
    "environment-without-sdk",
    Severity.ERROR,
    "the environment Dify builds from {source!s} has no dify_plugin: {why!s}",
    "Add dify_plugin (with a version constraint) to the dependencies of {source!s}{lock!s}.",
    """
Dify's daemon builds a plugin's environment from `pyproject.toml` when there is one, else from
`requirements.txt`, and starts the plugin with that environment's Python. When the file it builds
from does not bring `dify_plugin` (a `pyproject.toml` whose dependencies are empty, with a `uv.lock`
holding only the project itself), the environment is empty and the plugin cannot start, whatever
the other file lists.

A `pyproject.toml` is installed with `prepareSyncArgs` (`internal/core/local_runtime/
setup_python_environment.go`): `args := []string{"sync", "--no-dev"}`, plus `--frozen` beside a
`uv.lock`, and nothing that names a group or an extra. So `dify_plugin` listed only in
`[dependency-groups]` (a group such as `dify`, which uv installs only with `--group`, unless
`tool.uv.default-groups` names it), in the `dev` group, or in `[project.optional-dependencies]`
is not installed. Only a daemon with a pip mirror configured (`PipMirrorUrl`), which then prefers
`requirements.txt` (`detectDependencyFileType`), would start such a plugin from a
`requirements.txt` that lists the SDK.

Found without running when the file the daemon installs from, the packages it lists and those they
depend on (the shipped `uv.lock`, else the registry's index of packages) hold no `dify_plugin`, or
when `pyproject.toml` names it only where `uv sync --no-dev` does not install from; a run that
builds the environment finds it again, and says it once. When the file does not list `dify_plugin`
and only packages the registry does not know could bring it, a warning naming them: most often a
misspelt SDK (`dify-plugin-sdk`: pip finds no package of that name, so the install fails before
the plugin starts), though a package built on the SDK would bring it. Listing
`dify_plugin` itself is right either way (the marketplace requires it: U012).
""",
)


@dataclass(frozen=True, slots=True)
class Declared:
    """A package named in a dependency file, at its line."""

    name: str
    line: int
    column: int


def installed_from(reader: PluginReader) -> str:
    """The file the daemon installs from: pyproject.toml, requirements.txt, or "" (neither)."""
    for name in (PYPROJECT, REQUIREMENTS):
        if reader.is_file(name):
            return name
    return ""


def pyproject_names(text: str) -> list[Declared] | None:
    """The packages of `[project] dependencies`; None when the file cannot be read as TOML."""
    found = pyproject_requirements(text)
    return None if found is None else [declared for declared, _requirement in found]


def pyproject_requirements(text: str) -> list[tuple[Declared, Requirement]] | None:
    """Each requirement of `[project] dependencies` with where it stands; None when the file
    cannot be read as TOML."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return None
    project = data.get("project")
    listed = project.get("dependencies") if isinstance(project, dict) else None
    lines = text.splitlines()
    found: list[tuple[Declared, Requirement]] = []
    for entry in listed if isinstance(listed, list) else ():
        requirement = _requirement(entry) if isinstance(entry, str) else None
        if requirement is not None:
            line, column = place_in(lines, entry)
            found.append((Declared(canonicalize_name(requirement.name), line, column), requirement))
    return found


def requirement_names(text: str) -> list[Declared]:
    """The packages named by requirement lines (options, paths and URLs aside)."""
    found: list[Declared] = []
    for number, line in reqlines.logical_lines(text):
        words = list(reqlines.tokens(line))
        if not words or words[0][1].startswith("-"):
            continue
        name = _name(line.strip())
        if name is not None:
            found.append(Declared(name, number, words[0][0]))
    return found


def _name(entry: str) -> str | None:
    requirement = _requirement(entry)
    return canonicalize_name(requirement.name) if requirement is not None else None


def _requirement(entry: str) -> Requirement | None:
    try:
        return Requirement(entry)
    except InvalidRequirement:
        return None


def disagreement(reader: PluginReader, shown: Callable[[str], str]) -> list[Finding]:
    """One warning when pyproject.toml and requirements.txt both exist and name different packages."""
    pyproject = reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES)
    plain = reader.text(REQUIREMENTS, MAX_REQUIREMENTS_BYTES)
    if pyproject is None or plain is None:
        return []
    declared = pyproject_names(pyproject)
    if declared is None:
        return []
    in_pyproject = {d.name for d in declared}
    in_requirements = {d.name for d in requirement_names(plain)}
    parts = []
    lacking = sorted(in_pyproject - in_requirements)
    if lacking:
        parts.append(f"requirements.txt lacks {Listing(lacking, most=10)}")
    # What `uv sync` installs is the lock's whole set, not only the direct dependencies: a
    # requirements.txt exported from the lock (`uv export`) names the same packages.
    locked = locked_names(reader.text(LOCK, MAX_REQUIREMENTS_BYTES) or "")
    lacking = sorted(in_requirements - in_pyproject - locked)
    if lacking:
        parts.append(f"pyproject.toml lacks {Listing(lacking, most=10)}")
    if not parts:
        return []
    line = next((n for n, text in enumerate(pyproject.splitlines(), 1) if text.startswith("dependencies")), 1)
    return [FILES_DISAGREE.at(Location(shown(PYPROJECT), line, 1), missing=Phrase("; ".join(parts)))]


def locked_names(text: str) -> set[str]:
    """The packages a `uv.lock` resolves (its `[[package]]` names); empty when it cannot be read."""
    return set(locked_versions(text))


def locked_versions(text: str) -> dict[str, set[str]]:
    """The versions a `uv.lock` resolves, by package (a lock forked by markers may hold several);
    empty when it cannot be read."""
    try:
        packages = tomllib.loads(text).get("package")
    except (tomllib.TOMLDecodeError, RecursionError):
        return {}
    found: dict[str, set[str]] = {}
    for entry in packages if isinstance(packages, list) else ():
        name = entry.get("name") if isinstance(entry, dict) else None
        if isinstance(name, str):
            version = entry.get("version")
            found.setdefault(canonicalize_name(name), set()).update(
                [version] if isinstance(version, str) else []
            )
    return found


def without_sdk(
    source: str, reader: PluginReader, shown: Callable[[str], str], unknown: frozenset[str] = frozenset()
) -> Finding:
    """The error for an environment built from `source` that holds no dify_plugin: at the line
    that names it where `uv sync` does not install from, else at the top of the file. A warning
    when packages the registry does not know (`unknown`) may bring it."""
    lock = f" and refresh {LOCK} (`uv lock`)" if source == PYPROJECT and reader.is_file(LOCK) else ""
    why = "the plugin cannot start"
    if unknown:
        named = Listing(sorted(unknown), most=4)
        why = (
            f"no package it lists is dify_plugin, and only {named}, which the registry does not know,"
            " could bring it; unless one does (a misspelt name such as `dify-plugin-sdk` brings nothing),"
            " `import dify_plugin` fails and the plugin cannot start"
        )
        return NO_SDK.at(
            Location(shown(source), 1, 1), Severity.WARNING, source=source, why=Phrase(why), lock=Phrase(lock)
        )
    where = Location(shown(source), 1, 1)
    if source == PYPROJECT:
        text = reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES) or ""
        declared = pyproject_names(text)
        placed = left_out(text, SDK)
        if placed is not None:
            why = (
                f"it names dify_plugin only in {placed.where}, which the daemon's `uv sync --no-dev` does not"
                " install, so `import dify_plugin` fails and the plugin cannot start"
            )
            where = Location(shown(source), placed.line, placed.column)
        elif declared == [] and not _has_project(text):
            # a file that only configures tools (black, ruff): still the one the daemon builds from
            why = (
                "it has no [project] table (it only configures tools), so uv sync installs nothing and "
                "the plugin cannot start; add a [project] table, or remove the file so that "
                "requirements.txt is read"
            )
        elif declared == []:
            why = "its [project] dependencies are empty, so the plugin cannot start"
        other = reader.text(REQUIREMENTS, MAX_REQUIREMENTS_BYTES)
        if other is not None and SDK in {d.name for d in requirement_names(other)}:
            why += (
                " (requirements.txt, which lists it, is read only by a daemon with a pip mirror configured)"
            )
    return NO_SDK.at(where, source=source, why=Phrase(why), lock=Phrase(lock))


def _has_project(text: str) -> bool:
    """Whether a pyproject.toml that reads as TOML has a [project] table."""
    try:
        return isinstance(tomllib.loads(text).get("project"), dict)
    except (tomllib.TOMLDecodeError, RecursionError):
        return True  # unreadable: not this finding's business


# Package names as uv's messages write them: `name`, name==1.0, "name (v1.0)", name>=1
_MENTIONED = re.compile(r"`?([A-Za-z0-9][A-Za-z0-9._-]*)(?:`|==|>=|<=|~=|!=|\s*\(v|\[)")


def failed_requirement(problem: str, declared: Iterable[Declared]) -> Declared | None:
    """The declared package that uv's error names first, if any."""
    by_name = {d.name: d for d in declared}
    for match in _MENTIONED.finditer(problem):
        found = by_name.get(canonicalize_name(match[1]))
        if found is not None:
            return found
    return None
