"""What a failed environment build's uv output says, in few words: the failure with the package it
names, and the line that names the cause (uv puts it last, after pages of a build's own output),
and the system library a source build looked for and did not find.

The text is uv's error on one line (`envbuild.readable`): `error: Failed to build `pycairo==1.29.2``
then `cause:` lines, the build backend's `[stdout]` and `[stderr]`, and `hint:` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.shorten import shorten

# The marks that begin a part of uv's message: its error, its causes, its hints, and the build
# backend's own output.
# (uv's own marks are lower-case; a build tool's "ERROR:" is text of the part it stands in)
_MARK = re.compile(r"(?:^|\s)(error|cause|[Cc]aused by|hint|help):\s|\[(std)(?:out|err)\]")
# Hints uv gives for every build failure: they name no cause.
_GENERIC = re.compile(r"usually indicate|might be a problem|this indicates an issue", re.IGNORECASE)
# A build tool's own line that says what stopped it (meson, setuptools, a compiler).
_BUILD_ERROR = re.compile(r"(?:\bERROR|\berror|fatal error):\s.{5,200}?(?=\s(?:A full log|\[std|error:)|$)")
PART = 240  # characters of each part shown


def _parts(problem: str) -> list[tuple[str, str]]:
    """uv's message as (mark, text) parts, the mark lower-cased ("" for text before any mark)."""
    marks = list(_MARK.finditer(problem))
    parts = [("", problem[: marks[0].start()] if marks else problem)]
    for mark, after in zip(marks, [*marks[1:], None][: len(marks)], strict=True):
        kind = (mark.group(1) or mark.group(2)).lower()
        parts.append((kind, problem[mark.end() : after.start() if after else len(problem)]))
    return [(kind, text.strip()) for kind, text in parts if text.strip()]


def summary(problem: str) -> str:
    """uv's failure and the part that names its cause: its last specific hint, else the error the
    build tool printed, else its first cause; each part shortened. A text without uv's marks is
    shown as it is, shortened."""
    parts = _parts(problem)
    if len(parts) < 2:
        return shorten(problem.strip(), 2 * PART)
    head = parts[0][1]
    hints = [text for kind, text in parts if kind == "hint" and not _GENERIC.search(text)]
    built = next((found for _kind, text in parts[1:] if (found := _BUILD_ERROR.search(text))), None)
    causes = [text for kind, text in parts[1:] if kind in ("cause", "caused by")]
    cause = hints[-1] if hints else built.group(0) if built else causes[0] if causes else ""
    shown = [shorten(head, PART)]
    if cause and cause not in head:
        shown.append(shorten(cause, PART))
    return "; ".join(shown)


@dataclass(frozen=True, slots=True)
class Missing:
    """A system library a source build looked for: its name, and the package whose build it was."""

    library: str
    package: str


# How build tools say that a system library (or its development files) is not installed.
_LIBRARY_MISSING = (
    re.compile(r"Dependency \"([\w.+-]{1,60})\" not found"),  # meson
    re.compile(
        r"Package '?([\w.+-]{1,60})'?,? (?:required by '[^']*',? )?(?:was )?not found in the pkg-config"
    ),
    re.compile(r"No package '([\w.+-]{1,60})' found"),  # older pkg-config
    re.compile(r"fatal error: ([\w/.+-]{1,80}\.h): No such file or directory"),  # a C header
    re.compile(
        r"\b(pg_config|mysql_config|mariadb_config|xml2-config|krb5-config) (?:executable )?not found"
    ),
)
_FAILED_PACKAGE = re.compile(r"Failed to build `([A-Za-z0-9][A-Za-z0-9._-]*)")


def missing_library(problem: str) -> Missing | None:
    """The system library a failed source build could not find, when that is why it failed."""
    for pattern in _LIBRARY_MISSING:
        found = pattern.search(problem)
        if found is not None:
            package = _FAILED_PACKAGE.search(problem)
            return Missing(found.group(1), package.group(1) if package else "")
    return None


# The words an operating system error prints when a disk is full (ENOSPC, errno 28).
_NO_SPACE = re.compile(r"no space left on device|os error 28|errno 28|enospc", re.IGNORECASE)


def out_of_space(problem: str) -> str:
    """The words of a failed build that say this machine's disk was full, or "": the build then
    says nothing about the plugin (the same requirements build where there is room)."""
    found = _NO_SPACE.search(problem)
    return found.group(0) if found else ""
