"""Submission checks on the plugin's Python dependencies (requirements.txt, pyproject.toml)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from generator.check import CheckContext
from generator.diagnostics import Diagnostic, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.paths import read_head, resolve_inside
from generator.rules import rule

SDK = "dify-plugin"
SDK_MINIMUM = Version("0.9.0")
_LOWER_BOUNDS = (">=", ">", "==", "~=", "===")
_DIRECT = re.compile(r"^(-e\s|--editable|git\+|hg\+|svn\+|bzr\+|[a-z]+://)|\s@\s", re.IGNORECASE)

UNPINNED = rule(
    "U010",
    "requirement-unpinned",
    Severity.ERROR,
    "dependency {name} has no version constraint",
    "Add a constraint such as `{name}>=1.2,<2` so installs stay reproducible.",
    """
The marketplace requires a version constraint on every dependency, so that a plugin installed next
year gets the libraries it was tested with.
""",
)
DIRECT_URL = rule(
    "U011",
    "requirement-from-url",
    Severity.ERROR,
    "dependency {text} is installed from a URL, a VCS or a local path",
    "Depend on a release published on PyPI instead.",
    """
Dify installs plugin dependencies from the package index. Dependencies from git, a URL or a local
path are refused by the marketplace: they can change or vanish after review.
""",
)
SDK_TOO_OLD = rule(
    "U012",
    "sdk-too-old",
    Severity.ERROR,
    "dify_plugin {problem}",
    "Require `dify_plugin>=0.9.0` (in requirements.txt or pyproject.toml).",
    """
The marketplace accepts plugins built on `dify_plugin` 0.9.0 or newer: the dependency must be listed
with a lower bound of at least 0.9.0.
""",
)


@dataclass(frozen=True, slots=True)
class Declared:
    """One dependency as written, and where."""

    text: str
    where: Location


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Diagnostic]:
    """Dependency findings, only with `--submission`."""
    if not context.submission or loaded.plugin is None:
        return
    declared = [*_requirements_txt(loaded), *_pyproject(loaded)]
    sdk_seen = False
    for item in declared:
        if _DIRECT.search(item.text):
            yield DIRECT_URL.at(item.where, text=item.text)
            continue
        try:
            requirement = Requirement(item.text)
        except InvalidRequirement:
            continue  # not a dependency line we understand; pip reports it at install time
        if requirement.url:
            yield DIRECT_URL.at(item.where, text=item.text)
        elif not requirement.specifier:
            yield UNPINNED.at(item.where, name=requirement.name)
        if canonicalize_name(requirement.name) == SDK:
            sdk_seen = True
            if not _allows_only_new(requirement):
                yield SDK_TOO_OLD.at(item.where, problem=f"is required as {item.text!r}, below 0.9.0")
    if not sdk_seen:
        yield SDK_TOO_OLD.at(
            Location(loaded.display_path("requirements.txt"), 1, 1),
            problem="is not listed as a dependency",
        )


def _allows_only_new(requirement: Requirement) -> bool:
    for spec in requirement.specifier:
        try:
            bound = Version(spec.version.removesuffix(".*"))
        except InvalidVersion:
            continue
        if spec.operator in _LOWER_BOUNDS and bound >= SDK_MINIMUM:
            return True
    return False


def _read(loaded: LoadedPlugin, name: str) -> str | None:
    resolved = resolve_inside(loaded.root, name)
    if resolved.path is None or not resolved.path.is_file():
        return None
    return read_head(resolved.path, 1_000_000).decode("utf-8", errors="replace")


def _requirements_txt(loaded: LoadedPlugin) -> Iterator[Declared]:
    text = _read(loaded, "requirements.txt")
    if text is None:
        return
    shown = loaded.display_path("requirements.txt")
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split(" #", 1)[0].strip()
        if not entry or entry.startswith("#"):
            continue
        if entry.startswith("-") and not entry.startswith(("-e", "--editable")):
            continue  # options such as -r or --index-url
        yield Declared(entry, Location(shown, number, len(line) - len(line.lstrip()) + 1))


def _pyproject(loaded: LoadedPlugin) -> Iterator[Declared]:
    text = _read(loaded, "pyproject.toml")
    if text is None:
        return
    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError:
        return
    dependencies = project.get("dependencies", []) if isinstance(project, dict) else []
    shown = loaded.display_path("pyproject.toml")
    lines = text.splitlines()
    for dependency in dependencies if isinstance(dependencies, list) else []:
        if isinstance(dependency, str):
            yield Declared(dependency, _find(lines, dependency, shown))


def _find(lines: list[str], needle: str, shown: str) -> Location:
    for number, line in enumerate(lines, start=1):
        column = line.find(needle)
        if column >= 0:
            return Location(shown, number, column + 1)
    return Location(shown, 1, 1)
