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

# Where one part of uv's message ends and the next begins.
_MARKS = re.compile(
    r"\s(?=(?:error|cause|hint|help|caused by):\s|\[std(?:out|err)\]|[×├╰]─*▶?\s)", re.IGNORECASE
)
_PREFIX = re.compile(r"^(?:error|cause|hint|help|caused by):\s*|^[×├╰│─▶\s]+", re.IGNORECASE)
# Hints uv gives for every build failure: they name no cause.
_GENERIC = re.compile(r"usually indicate|might be a problem|this indicates an issue", re.IGNORECASE)
# A build tool's own line that says what stopped it (meson, setuptools, a compiler).
_BUILD_ERROR = re.compile(r"(?:\bERROR|\berror|fatal error):\s.{5,200}?(?=\s(?:A full log|\[std|error:)|$)")
PART = 240  # characters of each part shown


def summary(problem: str) -> str:
    """uv's failure and the part that names its cause: its last specific hint, else the error a
    build tool printed, else its first `cause:`; each part shortened, in that order."""
    parts = [_PREFIX.sub("", part).strip() for part in _MARKS.split(problem)]
    parts = [part for part in parts if part]
    if not parts:
        return shorten(problem, PART)
    head = parts[0]
    hints = [p for p in parts[1:] if _is_hint(problem, p) and not _GENERIC.search(p)]
    output = problem.find("[std")  # the build backend's own output, after uv's lines
    built = _BUILD_ERROR.search(problem, output) if output >= 0 else None
    causes = [p for p in parts[1:] if p.startswith(("Because", "Call to", "Failed", "No "))]
    cause = hints[-1] if hints else built.group(0) if built else causes[0] if causes else ""
    shown = [shorten(head, PART)]
    if cause and cause not in head:
        shown.append(shorten(cause, PART))
    return "; ".join(shown)


def _is_hint(problem: str, part: str) -> bool:
    return f"hint: {part}" in problem


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
