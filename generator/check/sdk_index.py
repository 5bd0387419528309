"""The attributes of the SDK's `File` in each `dify_plugin` version, and the version a plugin's
requirements install.

The SDK's `File` grew: from 0.0.1b15 to 0.0.1b44 it has only `url`, `dify_model_identity` and the
property `blob`; 0.0.1b45 adds `mime_type` and `type`, 0.0.1b47 `filename`, `extension` and `size`.
So whether `file.filename` exists depends on the SDK the plugin runs with. `sdk_file_index.json`
(beside this module) lists every published version and, from the first version of each change on,
the attributes of `File`, read from the published wheels: `pip index versions --pre dify_plugin |
python -m generator.check.sdk_index WHEEL...` writes it again from the published versions and the
wheels of the versions around each change (the fields, properties and methods of
`dify_plugin/file/file.py`'s `File`).
"""

from __future__ import annotations

import ast
import json
import sys
import zipfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from generator.load import reqlines
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.run.dependencies import locked_versions, pyproject_requirements

INDEX = Path(__file__).with_name("sdk_file_index.json")
SDK = "dify-plugin"
FILE_MODULE = "dify_plugin/file/file.py"


def file_attributes_in(source: str) -> frozenset[str]:
    """The public fields, properties and methods of the class `File` in a module's source."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == "File":
            names = set()
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
                elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(item.name)
            return frozenset(name for name in names if not name.startswith("_"))
    return frozenset()


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(INDEX.read_text(encoding="utf-8"))
    return data


@cache
def _index() -> tuple[tuple[Version, frozenset[str]], ...]:
    return tuple((Version(entry["since"]), frozenset(entry["attributes"])) for entry in _data()["file"])


@cache
def known_versions() -> tuple[Version, ...]:
    """Every published version, oldest first."""
    return tuple(sorted(Version(v) for v in _data()["versions"]))


def file_attributes(version: Version) -> frozenset[str] | None:
    """`File`'s attributes in that SDK version; None before the first version the index knows."""
    found = None
    for since, attributes in _index():
        if version >= since:
            found = attributes
    return found


def installed_sdk(reader: PluginReader) -> Version | None:
    """The dify_plugin version the plugin's dependency files install, as Dify's daemon installs
    them: the version `uv.lock` pins beside `pyproject.toml`, else the newest published version its
    requirement allows (what uv picks). None when no file names it, or the range allows none."""
    # Told once per plugin: three checks ask, and a uv.lock (hundreds of kilobytes of TOML) took
    # a tenth of a second to parse each time.
    return reader.derived("installed-sdk", "", lambda: _installed_sdk(reader))


def _installed_sdk(reader: PluginReader) -> Version | None:
    lock = reader.text("uv.lock", MAX_REQUIREMENTS_BYTES) if reader.is_file("pyproject.toml") else None
    if lock:
        pinned = sorted(_versions(locked_versions(lock).get(SDK, ())))
        if pinned:
            return pinned[-1]
    specifier = _requested(reader)
    return None if specifier is None else _newest_allowed(specifier)


# Asked once per distinct requirement: a registry's plugins share a few, and matching every published
# version against one, again for each plugin, was most of this check's time.
@cache
def _newest_allowed(specifier: SpecifierSet) -> Version | None:
    """The newest published version `specifier` allows, as uv picks it: a pre-release only when the
    specifier names one, or when nothing else fits."""
    prereleases = _names_prerelease(specifier)
    allowed = [v for v in known_versions() if specifier.contains(v, prereleases=prereleases)]
    if not allowed:  # only pre-releases fit: uv then takes those
        allowed = [v for v in known_versions() if specifier.contains(v, prereleases=True)]
    return max(allowed) if allowed else None


def _requested(reader: PluginReader) -> SpecifierSet | None:
    """The specifier of dify_plugin in the file the daemon installs from."""
    declared = declared_requirements(reader)
    for requirement in declared[0] if declared is not None else ():
        if canonicalize_name(requirement.name) == SDK and not requirement.url:
            return requirement.specifier
    return None


def declared_requirements(reader: PluginReader) -> tuple[list[Requirement], bool] | None:
    """The requirements of the file the daemon installs from (`pyproject.toml` first, else
    `requirements.txt`), and whether every line was read (no option such as `-r` or `-e`, no line
    that is not a requirement); None when the plugin has neither file."""
    # Parsed once per plugin (two checks ask); each caller gets a list of its own.
    declared = reader.derived("declared-requirements", "", lambda: _declared_requirements(reader))
    return None if declared is None else (list(declared[0]), declared[1])


def _declared_requirements(reader: PluginReader) -> tuple[list[Requirement], bool] | None:
    if reader.is_file("pyproject.toml"):
        found = pyproject_requirements(reader.text("pyproject.toml", MAX_REQUIREMENTS_BYTES) or "")
        return ([requirement for _declared, requirement in found], True) if found is not None else ([], False)
    if not reader.is_file("requirements.txt"):
        return None
    text = reader.text("requirements.txt", MAX_REQUIREMENTS_BYTES)
    if text is None:
        return [], False
    requirements: list[Requirement] = []
    complete = True
    for _number, line in reqlines.logical_lines(text):
        requirement = _requirement_line(line)
        if requirement is None:
            complete = complete and not line.split(" #", 1)[0].strip()
        else:
            requirements.append(requirement)
    return requirements, complete


def _requirement_line(line: str) -> Requirement | None:
    text = line.split(" #", 1)[0].split(" --", 1)[0].strip()  # `--hash=` options after a requirement
    if not text or text.startswith("-"):
        return None
    try:
        return Requirement(text)
    except InvalidRequirement:
        return None


def _names_prerelease(specifier: SpecifierSet) -> bool:
    return any(Version(s.version).is_prerelease for s in specifier if _readable(s.version))


def _readable(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def _versions(texts: Iterable[str]) -> Iterable[Version]:
    return (Version(text) for text in texts if _readable(text))


def derive(published: Iterable[str], wheels: Iterable[Path]) -> dict[str, object]:
    """The index: every published version, and the attributes of `File` from each version on which
    they changed, read from the wheels."""
    read: dict[Version, frozenset[str]] = {}
    for wheel in wheels:
        version = Version(wheel.name.split("-")[1])
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            source = archive.read(FILE_MODULE).decode() if FILE_MODULE in names else ""
        read[version] = file_attributes_in(source) if source else frozenset()
    changes: list[dict[str, object]] = []
    previous: frozenset[str] | None = None
    for version in sorted(read):
        if read[version] and read[version] != previous:
            changes.append({"since": str(version), "attributes": sorted(read[version])})
            previous = read[version]
    versions = sorted({*read, *_versions(text.strip() for text in published)})
    return {"file": changes, "versions": [str(v) for v in versions]}


if __name__ == "__main__":
    listed = sys.stdin.read().split(":")[-1].split(",")  # what `pip index versions` prints
    index = derive(listed, (Path(p) for p in sys.argv[1:]))
    INDEX.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
