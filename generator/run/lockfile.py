"""A `uv.lock` that no longer matches its `pyproject.toml`: a direct dependency the lock pins
outside the range `pyproject.toml` asks for, or does not hold at all.

Dify's plugin daemon installs a `pyproject.toml` plugin with `uv sync --no-dev`
(`prepareSyncArgs` in `internal/core/local_runtime/setup_python_environment.go`), without
`--locked` or `--frozen`: uv finds such a lock out of date and resolves the dependencies again, so
the plugin runs with versions no one tested (and a daemon that installs an uploaded package with
`--offline` can resolve only from what its cache holds). The install does not fail for every user,
so this is a warning.
"""

from __future__ import annotations

from collections.abc import Callable

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from generator.findings import Finding, Location, Severity
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.rules import Listing, Phrase, rule
from generator.run.dependencies import LOCK, PYPROJECT, locked_versions, pyproject_requirements
from generator.run.uvsync import DAEMON_MARKERS

STALE_LOCK = rule(
    "R059",
    "lock-out-of-date",
    Severity.WARNING,
    "uv.lock does not match pyproject.toml: {stale!s}",
    "Run `uv lock` in the plugin's folder and ship the new uv.lock: Dify's daemon (`uv sync`, neither "
    "--locked nor --frozen) resolves an out-of-date lock again, so the versions it installs are not the "
    "ones the lock pins.",
    """
Dify's plugin daemon installs a plugin that has a `pyproject.toml` with `uv sync --no-dev`
(`prepareSyncArgs` in `internal/core/local_runtime/setup_python_environment.go`), with neither
`--locked` nor `--frozen`. When `uv.lock` pins a direct dependency at a version outside the range
`pyproject.toml` gives it (or does not hold it at all), uv takes the lock as out of date and
resolves the dependencies again: the plugin is installed with versions that no one tested with it,
which may differ from one installation to the next, and a daemon installing an uploaded package
offline (`--offline`) can resolve only from what its cache holds. `uv sync --locked` refuses such a
lock. It does not fail for every user, so it is a warning; the hint is `uv lock`.
""",
)


def stale_lock(reader: PluginReader, shown: Callable[[str], str]) -> list[Finding]:
    """One warning when a `uv.lock` beside `pyproject.toml` pins a direct dependency outside its
    range or lacks it, naming each such package, its pin and its range."""
    pyproject = reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES)
    lock = reader.text(LOCK, MAX_REQUIREMENTS_BYTES)
    requirements = pyproject_requirements(pyproject) if pyproject is not None and lock is not None else None
    pinned = locked_versions(lock or "")
    if not requirements or not pinned:  # nothing to compare: no lock, or one that cannot be read
        return []
    stale: list[str] = []
    first = None
    for declared, requirement in requirements:
        if requirement.url or (requirement.marker and not requirement.marker.evaluate(DAEMON_MARKERS)):
            continue
        versions = pinned.get(declared.name)
        wanted = str(requirement.specifier) or "any version"
        if not versions:
            stale.append(f"{declared.name} ({wanted}) is not in the lock")
        elif not any(_within(version, requirement.specifier) for version in versions):
            stale.append(f"{declared.name} is locked at {', '.join(sorted(versions))}, outside {wanted}")
        else:
            continue
        first = first or declared
    if first is None:
        return []
    where = Location(shown(PYPROJECT), first.line, first.column)
    return [STALE_LOCK.at(where, stale=Phrase(str(Listing(stale, most=8))))]


def _within(version: str, specifier: SpecifierSet) -> bool:
    try:  # a locked pre-release is within a range that names none: uv chose it, the range allows it
        return specifier.contains(Version(version), prereleases=True)
    except InvalidVersion:
        return True  # a version uv wrote and packaging cannot read: not evidence of a stale lock
