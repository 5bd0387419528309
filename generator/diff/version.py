"""The version bump a set of changes needs, and whether the new version makes it.

Breaking changes need a major bump (a minor one below 1.0.0, where semantic versioning lets minor
releases break), compatible additions a minor bump, anything else a patch. The marketplace refuses a
version it already holds, so a changed plugin with the same version is an error too.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from generator.diff.changes import Change, class_of
from generator.findings import Finding, Location, Severity
from generator.rules import rule

# The daemon's pattern for `version`: three numbers and an optional pre-release word.
_VERSION = re.compile(r"^(\d{1,4})\.(\d{1,4})\.(\d{1,4})(?:-(\w{1,16}))?$")

BUMP_TOO_SMALL = rule(
    "D060",
    "version-bump-too-small",
    Severity.ERROR,
    "version {old} -> {new} is {made}, but the changes need a {needed} bump",
    "Release it as {next} (or later).",
    """
The version number tells users and Dify's upgrade prompts what to expect: a breaking change needs
a major bump (a minor one below 1.0.0), a compatible addition a minor bump, anything else a patch.
A version lower than the old one is never right.
""",
)
VERSION_UNCHANGED = rule(
    "D061",
    "version-unchanged",
    Severity.ERROR,
    "the plugin changed but its version is still {old}",
    "Release it as {next}: the marketplace refuses a version that it already holds.",
    """
A package with a version the marketplace already holds is refused, and a Dify that installed the
old package never sees the new one as an upgrade.
""",
)
BUMP_SUMMARY = rule(
    "D062",
    "version-bump",
    Severity.INFO,
    "{counts}; they need a {needed} bump: the smallest correct next version after {old} is {next}",
    "Version {new} is fine.",
    """
The summary of a comparison: how many changes of each class were found, which bump they need, and
the smallest version that makes it.
""",
)
VERSION_UNREADABLE = rule(
    "D063",
    "version-unreadable",
    Severity.WARNING,
    "version {version} is not MAJOR.MINOR.PATCH; the version bump is not checked",
    "Write the version as three numbers, for example 1.2.0.",
    """
Only a version of three numbers (with an optional `-word`) can be compared; Dify's daemon refuses
any other form.
""",
)


class Bump(enum.IntEnum):
    """A version step, smallest first."""

    NONE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3


@dataclass(frozen=True, slots=True, order=True)
class Version:
    """A plugin version; a pre-release word sorts before the release of the same numbers."""

    major: int
    minor: int
    patch: int
    release: tuple[int, str] = (1, "")

    def __str__(self) -> str:
        base = f"{self.major}.{self.minor}.{self.patch}"
        return f"{base}-{self.release[1]}" if self.release[1] else base

    def after(self, bump: Bump) -> Version:
        """The smallest version that is `bump` above this one."""
        if bump is Bump.MAJOR:
            return Version(self.major + 1, 0, 0)
        if bump is Bump.MINOR:
            return Version(self.major, self.minor + 1, 0)
        return Version(self.major, self.minor, self.patch + 1)


def parse_version(text: str) -> Version | None:
    """The version `text` names, or None when it is not MAJOR.MINOR.PATCH[-word]."""
    match = _VERSION.match(text)
    if match is None:
        return None
    word = match.group(4) or ""
    return Version(int(match[1]), int(match[2]), int(match[3]), (0, word) if word else (1, ""))


def bump_between(old: Version, new: Version) -> Bump:
    """The step from `old` to `new` (NONE when `new` is not above `old`)."""
    if new <= old:
        return Bump.NONE
    if new.major != old.major:
        return Bump.MAJOR
    if new.minor != old.minor:
        return Bump.MINOR
    return Bump.PATCH


def needed_bump(old: Version, changes: Iterable[Change], files_changed: bool) -> Bump:
    """The smallest bump these changes need from `old`."""
    kinds = set(changes)
    if Change.BREAKING in kinds:
        return Bump.MAJOR if old.major >= 1 else Bump.MINOR
    if Change.COMPATIBLE in kinds:
        return Bump.MINOR
    return Bump.PATCH if kinds or files_changed else Bump.NONE


@dataclass(frozen=True, slots=True)
class Verdict:
    """The bump the changes need, the smallest correct next version, and the findings about it."""

    needed: Bump
    next: str
    findings: tuple[Finding, ...]


def version_verdict(
    changes: list[Finding], old_text: str, new_text: str, files_changed: bool, where: Location
) -> Verdict:
    """The verdict on the version step from `old_text` to `new_text`, placed at `where` (the new
    manifest's version); no finding when nothing changed."""
    kinds = [kind for kind in map(class_of, changes) if kind is not None]
    old, new = parse_version(old_text), parse_version(new_text)
    if not kinds and not files_changed:
        return Verdict(Bump.NONE, new_text, ())
    if old is None or new is None:
        unreadable = new_text if old is not None else old_text
        return Verdict(Bump.NONE, "", (VERSION_UNREADABLE.at(where, version=unreadable),))
    needed = needed_bump(old, kinds, files_changed)
    following = str(old.after(needed))
    need = needed.name.lower()
    if old_text == new_text:
        finding = VERSION_UNCHANGED.at(where, old=old_text, next=following)
    elif (made := bump_between(old, new)) < needed:
        step = "not a step up" if made is Bump.NONE else f"a {made.name.lower()} bump"
        finding = BUMP_TOO_SMALL.at(where, old=old_text, new=new_text, made=step, needed=need, next=following)
    else:
        counts = _counts(kinds, files_changed)
        finding = BUMP_SUMMARY.at(
            where, counts=counts, needed=need, old=old_text, new=new_text, next=following
        )
    return Verdict(needed, following, (finding,))


def _counts(kinds: list[Change], files_changed: bool) -> str:
    if not kinds:
        return "no interface change, other files changed" if files_changed else "no change"
    return ", ".join(f"{kinds.count(kind)} {kind.value}" for kind in Change if kind in kinds)
