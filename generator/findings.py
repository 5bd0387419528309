"""Findings as frozen data: where, which rule, how bad, what to do."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Severity(enum.StrEnum):
    """How much a finding matters; `error` is kept for what Dify refuses or what breaks a run."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is worse; used for sorting and thresholds."""
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, slots=True, order=True)
class Location:
    """A place in a file: display path, JSON pointer into the document, 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0
    pointer: str = ""


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding. Field names are the stable JSON contract of `--format json`."""

    file: str
    line: int
    column: int
    pointer: str
    rule: str
    severity: Severity
    message: str
    hint: str

    @property
    def location(self) -> Location:
        """The place this finding points at."""
        return Location(self.file, self.line, self.column, self.pointer)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Stable order: by file, position, then rule."""
        return (self.file, self.line, self.column, self.rule, self.message)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Deduplicate and order findings so output is stable across runs."""
    return sorted(set(findings), key=Finding.sort_key)


def count_by_severity(findings: Iterable[Finding]) -> dict[Severity, int]:
    """How many findings of each severity."""
    counts = dict.fromkeys(Severity, 0)
    for finding in findings:
        counts[finding.severity] += 1
    return counts
