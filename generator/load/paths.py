"""Resolving paths named inside a plugin without ever leaving it."""

from __future__ import annotations

import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True, slots=True)
class Resolved:
    """A path named by a manifest: where it lives, or why it may not be used."""

    relative: str
    path: Path | None
    problem: str = ""

    @property
    def ok(self) -> bool:
        """True when the path stays inside the plugin."""
        return self.path is not None


def display_path(display: str, relative: str) -> str:
    """How the file `relative` (a POSIX path) of a plugin or folder shown as `display` is named in
    findings and pages: the one place a display path is built ("" and "." name the working folder)."""
    return relative if display in ("", ".") else f"{display}/{relative}"


def has_control_characters(text: str) -> bool:
    """True for names carrying control or format characters (newlines, NUL, bidi overrides)."""
    return any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


def printable(name: str) -> str:
    """`name` with control and format characters written as escapes, safe to print in a report."""
    return "".join(f"\\u{ord(ch):04x}" if has_control_characters(ch) else ch for ch in name)


def resolve_inside(root: Path, named: str) -> Resolved:
    """Resolve `named` (from a manifest) under `root`, refusing anything that escapes it.

    Refused: absolute paths, `..` that climbs out, control characters, and symbolic links whose
    target lies outside the plugin. A missing file is not refused here; callers check existence.
    """
    if not named or has_control_characters(named):
        return Resolved(named, None, "the name is empty or contains control characters")
    posix = PurePosixPath(named.replace("\\", "/"))
    if posix.is_absolute() or (posix.parts and posix.parts[0].endswith(":")):
        return Resolved(named, None, "absolute paths are not allowed")
    parts: list[str] = []
    for part in posix.parts:
        if part == "..":
            if not parts:
                return Resolved(named, None, "the path climbs out of the plugin folder")
            parts.pop()
        elif part != ".":
            parts.append(part)
    relative = "/".join(parts)
    candidate = root.joinpath(*parts)
    if _no_links_below(str(root), parts):
        return Resolved(relative, candidate)
    real_root = root.resolve()
    try:
        real = candidate.resolve()
    except (OSError, RuntimeError):  # symlink loops
        return Resolved(relative, None, "the path cannot be resolved (a symbolic link loop?)")
    if real != real_root and not real.is_relative_to(real_root):
        return Resolved(relative, None, "a symbolic link points outside the plugin folder")
    return Resolved(relative, candidate)


def _no_links_below(root: str, parts: list[str]) -> bool:
    """True when no existing component of `parts` under `root` is a symbolic link: the path then
    stays inside `root` whatever `root` itself resolves to, so neither needs resolving (resolving
    stats every component from `/`, most of a plugin's load time in deep folders)."""
    current = root
    for part in parts:
        current = f"{current}/{part}"
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return True  # nothing below exists, so nothing below can be a link
        except OSError:
            return False  # let the full resolution report it
        if stat.S_ISLNK(mode):
            return False
    return True
