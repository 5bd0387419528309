"""Shared helpers of the diff tests: compare the two versions of a case folder, findings as rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.diff.changes import class_of
from generator.diff.compare import Comparison, compare
from generator.load.crawl import load_plugin
from generator.schemas import shipped_schemas

CASES = Path(__file__).resolve().parent / "cases" / "diff"


def compare_case(folder: Path) -> Comparison:
    """The comparison of `folder/old` with `folder/new`, files named `old/...` and `new/...`."""
    old = load_plugin(folder / "old", "old")
    new = load_plugin(folder / "new", "new")
    return compare(old, new, shipped_schemas())


def outcome(comparison: Comparison) -> dict[str, Any]:
    """What `expect.yaml` of a case lists: the bump, the next version and every finding."""
    return {
        "bump": comparison.verdict.needed.name.lower(),
        "next": comparison.verdict.next,
        "findings": [
            {
                "rule": d.rule,
                "class": kind.value if (kind := class_of(d)) else None,
                "severity": d.severity.value,
                "file": d.file,
                "line": d.line,
                "column": d.column,
            }
            for d in comparison.findings
        ],
    }


def case_folders() -> list[Path]:
    """Every case folder (each holds `old/`, `new/` and `expect.yaml`), sorted."""
    return sorted(p for p in CASES.iterdir() if p.is_dir())
