"""The dependencies a plugin declares, as the submission checks read them: `requirements.txt` with
the files it includes (`-r`, `-c`) and its pip options, and `pyproject.toml` (project dependencies,
optional dependencies, dependency groups and Poetry's tables)."""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.load import reqlines
from generator.load.crawl import LoadedPlugin
from generator.load.reader import MAX_REQUIREMENTS_BYTES

MAX_FILES = 20
INCLUDES = {"-r": False, "--requirement": False, "-c": True, "--constraint": True}
EDITABLE = ("-e", "--editable")
FIND_LINKS = ("-f", "--find-links")
INDEXES = ("-i", "--index-url", "--extra-index-url", "--index")


@dataclass(frozen=True, slots=True)
class Place:
    """A place in a dependency file (relative to the plugin root), 1-based."""

    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Declared:
    """One dependency as written (Poetry's tables turned into the requirement they mean), and where.
    `constraint` marks entries of a `-c` file, which limit versions but install nothing."""

    text: str
    place: Place
    constraint: bool = False
    poetry_exact: bool = False
    precheck: str = ""  # how the marketplace's pre-check spells a Poetry entry, when it differs


@dataclass(frozen=True, slots=True)
class Option:
    """A pip option line: the option, its value ("" for flags) and where."""

    option: str
    value: str
    place: Place


@dataclass
class Dependencies:
    """Everything the dependency files declare; `missing` holds includes the package lacks."""

    declared: list[Declared] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)
    missing: list[Option] = field(default_factory=list)
    # (file, text) of the requirements files the pre-check reads: requirements.txt and its `-r` includes
    texts: list[tuple[str, str]] = field(default_factory=list)


def read_dependencies(loaded: LoadedPlugin, packaged: frozenset[str]) -> Dependencies:
    """`requirements.txt` (and what it includes) and `pyproject.toml` of the plugin."""
    found = Dependencies()
    text = _read(loaded, "requirements.txt")
    if text is not None:
        _requirements(loaded, packaged, "requirements.txt", text, found)
    text = _read(loaded, "pyproject.toml")
    if text is not None:
        found.declared.extend(_pyproject(text))
    return found


def _read(loaded: LoadedPlugin, relative: str) -> str | None:
    return loaded.reader.text(relative, MAX_REQUIREMENTS_BYTES) if loaded.reader.is_file(relative) else None


def _requirements(
    loaded: LoadedPlugin, packaged: frozenset[str], first: str, text: str, found: Dependencies
) -> None:
    pending = [(first, text, False)]
    seen = {first}
    while pending and len(seen) <= MAX_FILES:
        name, body, constraint = pending.pop(0)
        if not constraint:  # the pre-check reads what `-r` includes, never a `-c` file
            found.texts.append((name, body))
        for number, line in reqlines.logical_lines(body):
            words = list(reqlines.tokens(line))
            if not words:
                continue
            column, word = words[0]
            place = Place(name, number, column)
            if not word.startswith("-"):
                found.declared.append(Declared(line.strip(), place, constraint))
                continue
            option = _option(word, words, place)
            if option.option in EDITABLE:
                found.declared.append(Declared(line.strip(), place, constraint))
            elif option.option in INCLUDES and option.value:
                target = _include(loaded, name, option.value)
                if target is None or target not in packaged:
                    found.missing.append(option)
                elif target not in seen:
                    seen.add(target)
                    included = _read(loaded, target) or ""
                    pending.append((target, included, constraint or INCLUDES[option.option]))
            else:
                found.options.append(option)


def _option(word: str, words: list[tuple[int, str]], place: Place) -> Option:
    """`--opt value`, `--opt=value` and `-rfile` all name the option and its value."""
    option, _, inline = word.partition("=")
    if not option.startswith("--") and len(option) > 2:
        option, inline = option[:2], option[2:]
    value = inline or (words[1][1] if len(words) > 1 else "")
    return Option(option, value, place)


def _include(loaded: LoadedPlugin, including: str, value: str) -> str | None:
    """The plugin-relative path of an included file (pip reads it beside the file naming it)."""
    folder = posixpath.dirname(including)
    resolved = loaded.reader.resolve(posixpath.join(folder, value) if folder else value)
    return resolved.relative if resolved.path is not None else None


def _pyproject(text: str) -> Iterator[Declared]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # pip and uv report a broken pyproject.toml at install time
    lines = text.splitlines()
    project = _table(data, "project")
    strings = list(_strings(project.get("dependencies")))
    for extra in _table(project, "optional-dependencies").values():
        strings.extend(_strings(extra))
    for group in _table(data, "dependency-groups").values():
        strings.extend(_strings(group))  # `{include-group = ...}` entries name no package
    for dependency in strings:
        yield Declared(dependency, _find(lines, dependency))
    poetry = _table(_table(data, "tool"), "poetry")
    tables = [_table(poetry, "dependencies"), _table(poetry, "dev-dependencies")]
    tables.extend(_table(group, "dependencies") for group in _table(poetry, "group").values())
    for table in tables:
        for name, value in table.items():
            if name.lower() != "python":
                requirement, exact = poetry_requirement(name, value)
                yield Declared(
                    requirement, _find(lines, name), poetry_exact=exact, precheck=_precheck(name, value)
                )


def poetry_requirement(name: str, value: Any) -> tuple[str, bool]:
    """The requirement a Poetry entry means, and whether it is a bare version (`"1.2.3"`, exact in
    Poetry, read by the pre-check as no constraint at all)."""
    if isinstance(value, dict):
        if "git" in value:
            return f"{name} @ git+{value['git']}", False
        if "url" in value:
            return f"{name} @ {value['url']}", False
        if "path" in value:
            return f"{name} @ {value['path']}", False
        value = value.get("version", "")
    if not isinstance(value, str) or value.strip() in ("", "*"):
        return name, False
    spec = value.strip()
    if spec[0].isdigit():
        return f"{name}=={spec}", True
    if spec[0] in "^~" and spec[1:2] != "=":
        # Poetry's ^ and ~ ranges have an upper bound; packaging does not parse them.
        lower = spec[1:].strip()
        major = lower.split(".", 1)[0]
        upper = f",<{int(major) + 1}" if major.isdigit() else ""
        return f"{name}>={lower}{upper}", False
    return f"{name}{spec}", False


def _precheck(name: str, value: Any) -> str:
    """The requirement the pre-check makes of a Poetry entry: the version glued to the name when it
    starts with an operator, else after a space (`dify_plugin ^0.9.0`, which names no bound it reads)."""
    if isinstance(value, dict):
        version = value.get("version", "")
        return f"{name}{version}" if isinstance(version, str) else name
    if isinstance(value, str):
        return f"{name}{value}" if value.startswith(("=", "<", ">", "~", "!")) else f"{name} {value}"
    return name


def _table(data: Any, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> Iterator[str]:
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str):
            yield item


def _find(lines: list[str], needle: str) -> Place:
    for number, line in enumerate(lines, start=1):
        column = line.find(needle)
        if column >= 0:
            return Place("pyproject.toml", number, column + 1)
    return Place("pyproject.toml", 1, 1)
