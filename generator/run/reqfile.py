"""What a plugin's requirements point at, read as uv reads them in the plugin folder (Dify's
install runs there): local files and folders, nested requirement files, and package indexes.

A local path must stay inside the plugin: the package Dify installs holds nothing else, and the
registry must not read or hash files outside the plugin on a stranger's word.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from generator.findings import Finding, Location, Severity
from generator.load import reqlines
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.rules import rule
from generator.run.cache import MAX_HASHED_BYTES, folder_digest

PATH_OUTSIDE = rule(
    "R041",
    "requirement-path-outside",
    Severity.ERROR,
    "`{value}` is not a path inside the plugin: {why}",
    "Ship the file in the plugin and name it relative to the plugin root, for example "
    "./wheels/<name>.whl or --find-links ./wheels.",
    """
Dify installs a plugin's requirements with uv in the plugin's own folder, so a relative path such
as `./wheels/pkg.whl`, `--find-links ./wheels` or `-r more.txt` is read from the plugin root, and the
runner does the same whatever folder it was started in. A path that leaves the plugin (absolute,
`..` above the root, `~`, an environment variable, a symbolic link pointing out) names a file the
package does not ship, so Dify's install fails; the runner does not follow it and builds no
environment. So does a relative path to a file or folder the plugin does not ship (a
`--find-links ./wheels` without the `wheels` folder, which uv reports only as "relative URL without a
base").
""",
)

# Options whose value is a nested requirements file, read relative to the file that names it.
NESTED = frozenset({"-r", "--requirement", "-c", "--constraint"})
# Options whose value is a path (relative to the install's working folder) or a URL.
FIND_LINKS = frozenset({"-f", "--find-links"})
LOCATIONS = frozenset({"-e", "--editable"}) | FIND_LINKS
INDEXES = frozenset({"-i", "--index-url", "--extra-index-url", "--index"})
ARCHIVES = (".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")
MAX_FILES = 20


@dataclass(frozen=True, slots=True)
class Named:
    """A value of a requirements file at its place (file relative to the plugin root)."""

    value: str
    file: str
    line: int
    column: int

    def at(self, shown: Callable[[str], str]) -> Location:
        """The place for a finding; `shown` turns a plugin-relative path into its display path."""
        return Location(shown(self.file), self.line, self.column)


@dataclass
class Scan:
    """Everything a plugin's requirements name outside the package index."""

    local: set[str] = field(default_factory=set)
    indexes: list[Named] = field(default_factory=list)
    refused: list[tuple[Named, str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def findings(self, shown: Callable[[str], str]) -> list[Finding]:
        """One finding per path that leaves the plugin."""
        return [PATH_OUTSIDE.at(named.at(shown), value=named.value, why=why) for named, why in self.refused]

    def digest(self, reader: PluginReader) -> str:
        """The contents of everything local the install reads (nested files, wheels, folders)."""
        digest = hashlib.sha256()
        for text in self.texts:
            digest.update(text.encode() + b"\0")
        for relative in sorted(self.local):
            digest.update(relative.encode() + b"\0")
            if reader.is_file(relative):
                data = reader.head(relative, MAX_HASHED_BYTES, keep=False) or b""
                digest.update(hashlib.sha256(data).digest())
            elif reader.is_dir(relative):
                digest.update(folder_digest(reader, relative).encode())
        return digest.hexdigest()


def scan(reader: PluginReader, text: str, source: str) -> Scan:
    """Read `text` (the requirements of `source`, a plugin-relative file) and the files it nests."""
    found = Scan()
    pending = [(source, text)]
    seen = {source}
    while pending and len(seen) <= MAX_FILES:
        name, body = pending.pop()
        found.texts.append(body)
        for named, option in _values(body, name):
            nested = _classify(reader, named, option, found)
            if nested is not None and nested not in seen:
                seen.add(nested)
                nested_text = reader.text(nested, MAX_REQUIREMENTS_BYTES)
                if nested_text is not None:
                    pending.append((nested, nested_text))
    return found


def _classify(reader: PluginReader, named: Named, option: str, found: Scan) -> str | None:
    """Record what `named` points at; a nested requirements file inside the plugin is returned."""
    value = named.value
    if value.lower().startswith("file:"):
        value = value[len("file:") :]
        if value.startswith("//"):
            found.refused.append((named, "a file:// URL names an absolute path"))
            return None
    elif "://" in value:  # remote: an index, a link page, a VCS or an archive on a server
        if value.lower().startswith(("http://", "https://")) and option in INDEXES | FIND_LINKS:
            found.indexes.append(named)
        return None
    why = _unusable(value)
    if why:
        found.refused.append((named, why))
        return None
    folder = posixpath.dirname(named.file)
    # -r and -c are read relative to the file naming them; every other path relative to the
    # working folder (the plugin root), and uv also tries a nested file's links beside it
    bases = [folder] if option in NESTED else sorted({"", folder})
    places: list[str] = []
    for base in bases:
        result = reader.resolve(posixpath.join(base, value) if base else value)
        if result.path is None:
            found.refused.append((named, result.problem))
            return None
        places.append(result.relative)
    if not any(reader.is_file(place) or reader.is_dir(place) for place in places):
        # uv's own words for a missing --find-links folder are "relative URL without a base"
        kind = "folder" if option in FIND_LINKS else "file or folder"
        found.refused.append((named, f"the plugin ships no {kind} of that name"))
        return None
    found.local.update(places)
    return places[0] if option in NESTED else None


def _unusable(value: str) -> str:
    if value.startswith("~"):
        return "it starts in a home folder"
    if "$" in value:
        return "it names an environment variable, which differs on Dify's machine"
    return ""


def _values(body: str, file: str) -> Iterator[tuple[Named, str]]:
    """(value, option) pairs of every logical line: option values, and paths or `name @ url`
    targets of requirement lines (option "" for those)."""
    for number, line in reqlines.logical_lines(body):
        tokens = list(reqlines.tokens(line))
        index = 0
        while index < len(tokens):
            column, token = tokens[index]
            index += 1
            if token.startswith("-"):
                option, _, inline = token.partition("=")
                if option.startswith("-") and not option.startswith("--") and len(option) > 2:
                    option, inline = option[:2], option[2:]  # -rmore.txt
                if option not in NESTED | LOCATIONS | INDEXES:
                    continue
                if inline:
                    yield Named(inline, file, number, column + len(token) - len(inline)), option
                elif index < len(tokens):
                    yield Named(tokens[index][1], file, number, tokens[index][0]), option
                    index += 1
            elif index == 1:
                yield from _requirement(tokens, file, number)
                break


def _requirement(tokens: list[tuple[int, str]], file: str, number: int) -> Iterator[tuple[Named, str]]:
    words = [word for _column, word in tokens]
    at = next((i for i, word in enumerate(words[:2]) if word.endswith("@")), None)
    if at is not None:  # `name @ url` (a direct reference)
        if at + 1 < len(tokens):
            yield Named(words[at + 1].split(";", 1)[0], file, number, tokens[at + 1][0]), ""
        return
    first = words[0].split(";", 1)[0]
    # a bare path or URL in place of a name (`./wheels/pkg.whl`, `file:pkg.tar.gz`)
    looks_local = first.startswith((".", "/", "~", "$", "file:")) or "/" in first or "\\" in first
    if looks_local or first.endswith(ARCHIVES):
        yield Named(first, file, number, tokens[0][0]), ""
