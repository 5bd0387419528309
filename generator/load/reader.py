"""The one way the generator reads a plugin's files.

A plugin is a stranger's folder. Which paths may be read (none outside the plugin; a symbolic link
only when its target stays inside), how much of a file is read, and how the tree is walked are
decided here and nowhere else: every stage asks the `PluginReader` of its `LoadedPlugin`.

What the reader reads it keeps, and so do the values parsed from it (a syntax tree, a tool's
examples): a file asked for by three checks and the run planner is read and parsed once, and every
stage sees the same snapshot of the plugin, taken the first time each part was asked for.
"""

from __future__ import annotations

import ast
import errno
import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pathspec

from generator.load.paths import Resolved, resolve_inside
from generator.load.syntax import Parsed, parse_python

T = TypeVar("T")

IGNORE_FILES = (".difyignore", ".gitignore")
# Stop walking hostile trees early; the marketplace accepts at most 5000 files anyway.
MAX_WALK_ENTRIES = 20_000
# Files not packaged are listed too (they change a run), but a folder of a million of them must not
# cost the validation: past this many entries in all, the walk stops.
MAX_LISTED_ENTRIES = 200_000
# Folders the run's digests skip: tools' caches and environments, never the plugin's own code.
SKIPPED_FOLDERS = frozenset({".git", "__pycache__", ".venv", "venv", ".dify-registry-cache", "node_modules"})
# Files over this size are not read for content checks (secrets, code): the marketplace's pre-check
# skips them too, and a bundled data file is not where a token or a call hides.
MAX_TEXT_BYTES = 1 << 20
# README.md, PRIVACY.md and the ignore files: a document this long is read in part, never whole.
MAX_DOCUMENT_BYTES = 2_000_000
# requirements.txt, pyproject.toml and the files they include; pip refuses nothing smaller.
MAX_REQUIREMENTS_BYTES = 1_000_000
# Reads of up to this many bytes are kept for the next stage; larger ones (digests) are not.
_KEPT_BYTES = 4 * 1024 * 1024
_SNIFF_BYTES = 4096
# The kind of derived value that `python_tree` and `source_tree` keep.
SYNTAX_TREES = "ast"


@dataclass(frozen=True, slots=True)
class PluginFile:
    """One file of the plugin folder: its path relative to the root, its size, whether it is a
    link, and whether `dify plugin package` would put it in the package."""

    relative: str
    size: int
    is_link: bool
    packaged: bool = True


@dataclass(frozen=True, slots=True)
class PluginTree:
    """The packaged files, and whether the walk stopped at its entry limit."""

    files: tuple[PluginFile, ...]
    truncated: bool

    @property
    def size(self) -> int:
        """Total uncompressed size in bytes."""
        return sum(f.size for f in self.files)


@dataclass(frozen=True, slots=True)
class _Walk:
    listed: tuple[PluginFile, ...]
    tree: PluginTree


def _head(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a regular file: a file of gigabytes costs no more memory than that.
    Anything else (a folder, a FIFO that would block forever) raises OSError, as a missing file does."""
    if not path.is_file():
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        raise OSError(errno.EINVAL, "it is not a regular file")
    with path.open("rb") as stream:
        # Asked for no more than the file holds: a read of `limit` bytes allocates `limit` bytes first.
        return stream.read(min(limit, os.fstat(stream.fileno()).st_size + 1))


class PluginReader:
    """Bounded, contained reads of one plugin folder, each done once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._heads: dict[str, tuple[int, bytes | None]] = {}
        self._resolved: dict[str, Resolved] = {}
        self._derived: dict[tuple[str, str], Any] = {}
        self._walk: _Walk | None = None
        # Why a Python file has no syntax tree (its path -> the parse's answer), for the checks to
        # say which files they could not read.
        self._unparsed: dict[str, Parsed] = {}

    def resolve(self, named: str) -> Resolved:
        """Where `named` (a path written in the plugin) lives, or why it may not be read."""
        # Asked several times per file (is it a file, its size, its bytes): resolved once.
        if named not in self._resolved:
            self._resolved[named] = resolve_inside(self.root, named)
        return self._resolved[named]

    def is_file(self, named: str) -> bool:
        """True when `named` is a regular file inside the plugin (an inside link to one counts)."""
        resolved = self.resolve(named)
        return resolved.path is not None and resolved.path.is_file()

    def is_dir(self, named: str) -> bool:
        """True when `named` is a folder inside the plugin."""
        resolved = self.resolve(named)
        return resolved.path is not None and resolved.path.is_dir()

    def is_link(self, named: str) -> bool:
        """True when `named` itself is a symbolic link whose target stays inside (one pointing out
        is refused by `resolve`, so nothing reads it either way)."""
        resolved = self.resolve(named)
        return resolved.path is not None and resolved.path.is_symlink()

    def size(self, named: str) -> int | None:
        """The size of a file inside the plugin, or None when it cannot be read."""
        resolved = self.resolve(named)
        try:
            return resolved.path.stat().st_size if resolved.path is not None else None
        except OSError:
            return None

    def head(self, named: str, limit: int, keep: bool = True) -> bytes | None:
        """At most `limit` bytes of a file inside the plugin, or None when it is refused, missing,
        a folder or unreadable. `keep=False` for reads that only feed a digest."""
        resolved = self.resolve(named)
        return self._read(resolved.relative, resolved.path, limit, keep)

    def listed_head(self, file: PluginFile, limit: int, keep: bool = True) -> bytes | None:
        """`head` of a file the walk found. Its name comes from the folder, not from the plugin's
        words, so it is read whatever characters it holds; a link is never read this way."""
        if file.is_link:
            return None
        return self._read(file.relative, self.root / file.relative, limit, keep)

    def _read(self, relative: str, path: Path | None, limit: int, keep: bool) -> bytes | None:
        kept = self._heads.get(relative)
        # A kept read answers any smaller limit, and any limit at all once it holds the whole file.
        if kept is not None and (kept[0] >= limit or kept[1] is None or len(kept[1]) < kept[0]):
            return None if kept[1] is None else kept[1][:limit]
        data: bytes | None = None
        if path is not None:
            try:
                data = _head(path, limit)
            except OSError:  # missing, a folder, no permission
                data = None
        if keep and (data is None or len(data) <= _KEPT_BYTES):
            self._heads[relative] = (limit, data)
        return data

    def why_unreadable(self, named: str) -> str:
        """Why `head` gives None for `named`, in the system's words ("Is a directory")."""
        resolved = self.resolve(named)
        if resolved.path is None:
            return resolved.problem
        try:
            _head(resolved.path, 0)
        except OSError as problem:
            return problem.strerror or str(problem)
        return "it cannot be read"

    def text(self, named: str, limit: int) -> str | None:
        """`head` decoded as UTF-8, undecodable bytes replaced (never raised)."""
        data = self.head(named, limit)
        return None if data is None else data.decode("utf-8", errors="replace")

    def link_target(self, named: str) -> str:
        """What a symbolic link inside the plugin says (its text, never followed)."""
        resolved = self.resolve(named)
        try:
            return str((self.root / resolved.relative).readlink())
        except OSError:
            return ""

    def derived(self, kind: str, named: str, make: Callable[[], T]) -> T:
        """`make()`, computed once per `kind` and file: what the stages parse from a file (a
        syntax tree, a tool's examples) is part of the snapshot, like the file's bytes."""
        key = (kind, named)
        if key not in self._derived:
            self._derived[key] = make()
        value: T = self._derived[key]
        return value

    def forget(self, kind: str) -> None:
        """Drop what was derived as `kind`; asked again, it is derived again from the kept bytes,
        so the snapshot does not change. Syntax trees are the large part of a snapshot (about
        200 objects per kilobyte of code, each one the garbage collector scans again): the
        pipeline keeps them while a plugin's checks run and drops them after."""
        for key in [key for key in self._derived if key[0] == kind]:
            del self._derived[key]

    def release(self) -> None:
        """Let go of what was read and derived: the pipeline calls this once the catalog is frozen,
        as it holds everything the site and the reports show (at 10,000 tools the kept reads are
        90 MB that the site's build would otherwise carry). Nothing reads a plugin after that; a
        read that did would start a new snapshot from the disk."""
        self._heads.clear()
        self._derived.clear()
        self._unparsed.clear()
        self._resolved.clear()
        self._walk = None

    @property
    def tree(self) -> PluginTree:
        """Every file the package would hold, sorted (`.difyignore`, else `.gitignore`, decides,
        as `dify plugin package` does); links are listed, never followed."""
        return self._walked().tree

    def local_files(self, under: str = "") -> tuple[PluginFile, ...]:
        """Every file under the folder `under` that can change a run, packaged or not (a `.env`
        read by the code), minus tools' caches and environments (SKIPPED_FOLDERS)."""
        prefix = f"{under.rstrip('/')}/" if under else ""
        return tuple(
            f
            for f in self._walked().listed
            if f.relative.startswith(prefix) and not SKIPPED_FOLDERS.intersection(f.relative.split("/")[:-1])
        )

    def digest(self, files: Iterable[PluginFile], budget: int) -> str:
        """A digest of `files` (names and bytes, links by their text); past `budget` bytes in all,
        only names count."""
        digest = hashlib.sha256()
        for file in files:
            digest.update(file.relative.encode() + b"\0")
            if file.is_link:
                digest.update(b"link:" + self.link_target(file.relative).encode())
            elif budget > 0:
                data = self.listed_head(file, budget, keep=False) or b""
                budget -= len(data)
                digest.update(hashlib.sha256(data).digest())
        return digest.hexdigest()

    def packaged_text(self, file: PluginFile) -> str | None:
        """The text of a packaged file, or None when it is a link, too large or binary (a NUL byte
        in its first 4 KB, as the marketplace's pre-check decides)."""
        if file.is_link or file.size > MAX_TEXT_BYTES:
            return None
        return _code_text(self.listed_head(file, MAX_TEXT_BYTES))

    def python_tree(self, file: PluginFile) -> ast.Module | None:
        """The syntax tree of a packaged Python file, or None when it is not read (see
        `packaged_text`) or does not parse (U013 reports that)."""
        if file.is_link or file.size > MAX_TEXT_BYTES:
            return None
        return self.derived(
            SYNTAX_TREES, file.relative, lambda: self._parse(file.relative, self.packaged_text(file))
        )

    def source_tree(self, named: str) -> ast.Module | None:
        """The syntax tree of a Python file inside the plugin (its first MAX_TEXT_BYTES), parsed
        once however many checks ask; None when it cannot be read, is binary or does not parse."""
        relative = self.resolve(named).relative
        return self.derived(
            SYNTAX_TREES,
            relative,
            lambda: self._parse(relative, _code_text(self.head(relative, MAX_TEXT_BYTES))),
        )

    def unparsed(self, named: str) -> Parsed | None:
        """Why the Python file `named` has no syntax tree (after `source_tree` or `python_tree`
        asked for it): its syntax error under the grammar of Dify's Python, or None."""
        return self._unparsed.get(self.resolve(named).relative)

    def _parse(self, relative: str, text: str | None) -> ast.Module | None:
        if text is None:
            return None
        parsed = parse_python(text)
        if parsed.tree is None:
            self._unparsed[relative] = parsed
        return parsed.tree

    def _walked(self) -> _Walk:
        if self._walk is None:
            self._walk = self._walk_once()
        return self._walk

    def _ignore_spec(self) -> pathspec.GitIgnoreSpec:
        for name in IGNORE_FILES:
            if self.is_file(name) and not self.is_link(name):
                lines = (self.text(name, MAX_DOCUMENT_BYTES) or "").splitlines()
                return pathspec.GitIgnoreSpec.from_lines(lines)
        return pathspec.GitIgnoreSpec.from_lines([])

    def _walk_once(self) -> _Walk:
        spec = self._ignore_spec()
        listed: list[PluginFile] = []
        # Folders the ignore file excludes; a file below one is never packaged, whatever a later
        # `!pattern` says (git does not look inside an excluded folder either).
        ignored: set[str] = set()
        counted = 0  # entries of packaged folders, the count the package limit is about
        seen = 0
        for folder, dirs, names in os.walk(self.root, followlinks=False):
            base = Path(folder).relative_to(self.root).as_posix()
            prefix = "" if base == "." else base + "/"
            outside = prefix in ignored
            kept = []
            for name in sorted(dirs):
                child = f"{prefix}{name}/"
                child_ignored = outside or spec.match_file(child)
                # An ignored cache or environment is neither packaged nor digested: not walked.
                if name == ".git" or (child_ignored and name in SKIPPED_FOLDERS):
                    continue
                if child_ignored:
                    ignored.add(child)
                kept.append(name)
            dirs[:] = kept
            for name in sorted(names):
                seen += 1
                counted += not outside
                if counted > MAX_WALK_ENTRIES or seen > MAX_LISTED_ENTRIES:
                    return _finish(listed, truncated=True)
                relative = prefix + name
                path = Path(folder, name)
                try:
                    info = path.lstat()
                except OSError:
                    continue
                packaged = not outside and not spec.match_file(relative)
                listed.append(PluginFile(relative, info.st_size, path.is_symlink(), packaged))
        return _finish(listed, truncated=False)


def _finish(listed: list[PluginFile], truncated: bool) -> _Walk:
    return _Walk(tuple(listed), PluginTree(tuple(f for f in listed if f.packaged), truncated))


def _code_text(data: bytes | None) -> str | None:
    """Text of code or configuration, or None for no file or a binary one (a NUL byte in its
    first 4 KB, as the marketplace's pre-check decides); undecodable bytes are replaced."""
    if data is None or b"\0" in data[:_SNIFF_BYTES]:
        return None
    return data.decode("utf-8", errors="replace")
