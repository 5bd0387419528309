"""The files a plugin package would contain: the plugin folder minus what `.difyignore` (else
`.gitignore`) excludes, as `dify plugin package` does. Walked once per check, never followed out."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pathspec

from generator.load.paths import read_head

IGNORE_FILES = (".difyignore", ".gitignore")
# Stop walking hostile trees early; the marketplace accepts at most 5000 files anyway.
MAX_WALK_ENTRIES = 20_000


@dataclass(frozen=True, slots=True)
class PluginFile:
    """One file that would be packaged: its path relative to the plugin root, and its size."""

    relative: str
    size: int
    is_link: bool


@dataclass(frozen=True, slots=True)
class PluginTree:
    """The packaged files, and whether the walk stopped at its entry limit."""

    files: tuple[PluginFile, ...]
    truncated: bool

    @property
    def size(self) -> int:
        """Total uncompressed size in bytes."""
        return sum(f.size for f in self.files)


def ignore_spec(root: Path) -> pathspec.GitIgnoreSpec:
    """Patterns of the first ignore file present (`.difyignore` wins over `.gitignore`)."""
    for name in IGNORE_FILES:
        path = root / name
        if path.is_file() and not path.is_symlink():
            lines = read_head(path, 1_000_000).decode("utf-8", errors="replace").splitlines()
            return pathspec.GitIgnoreSpec.from_lines(lines)
    return pathspec.GitIgnoreSpec.from_lines([])


def walk_plugin(root: Path) -> PluginTree:
    """Every file the package would hold, sorted; symbolic links are listed, never followed."""
    spec = ignore_spec(root)
    found: list[PluginFile] = []
    seen = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        base = Path(folder).relative_to(root).as_posix()
        prefix = "" if base == "." else base + "/"
        dirs[:] = sorted(d for d in dirs if d != ".git" and not spec.match_file(prefix + d + "/"))
        for name in sorted(names):
            seen += 1
            if seen > MAX_WALK_ENTRIES:
                return PluginTree(tuple(found), truncated=True)
            relative = prefix + name
            if spec.match_file(relative):
                continue
            path = Path(folder, name)
            try:
                info = path.lstat()
            except OSError:
                continue
            found.append(PluginFile(relative, info.st_size, path.is_symlink()))
    return PluginTree(tuple(found), truncated=False)


# Files over this size are not read for content checks (secrets, code): the marketplace's pre-check
# skips them too, and a bundled data file is not where a token or a call hides.
MAX_TEXT_BYTES = 1 << 20
_SNIFF_BYTES = 4096


def packaged_files(root: Path, memo: dict[str, Any]) -> PluginTree:
    """`walk_plugin(root)`, walked once per check run however many checks ask (`memo` is the
    run's `CheckContext.memo`: files do not change while a run lasts)."""
    trees: dict[str, PluginTree] = memo.setdefault(__name__, {})
    key = str(root)
    if key not in trees:
        trees[key] = walk_plugin(root)
    return trees[key]


def read_text_file(root: Path, file: PluginFile) -> str | None:
    """The text of a packaged file, or None when it is a link, too large or binary (a NUL byte in its
    first 4 KB, as the pre-check decides); undecodable bytes are replaced, never raised."""
    if file.is_link or file.size > MAX_TEXT_BYTES:
        return None
    try:
        data = read_head(root / file.relative, MAX_TEXT_BYTES)
    except OSError:
        return None
    if b"\0" in data[:_SNIFF_BYTES]:
        return None
    return data.decode("utf-8", errors="replace")


def python_tree(root: Path, file: PluginFile, memo: dict[str, Any]) -> ast.Module | None:
    """The syntax tree of a packaged Python file, or None when it is not read (see
    `read_text_file`) or does not parse (U013 reports that). Parsed once for all the checks of one
    plugin: only the current plugin's trees are kept, since checks run plugin by plugin."""
    kept: tuple[str, dict[str, ast.Module | None]] = memo.get(f"{__name__}.ast", ("", {}))
    if kept[0] != str(root):
        kept = (str(root), {})
        memo[f"{__name__}.ast"] = kept
    trees = kept[1]
    if file.relative not in trees:
        text = read_text_file(root, file)
        try:
            trees[file.relative] = ast.parse(text) if text is not None else None
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            trees[file.relative] = None
    return trees[file.relative]
