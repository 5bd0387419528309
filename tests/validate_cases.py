"""Shared helpers of the validator tests: run the checks on a case folder, findings as plain rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from generator.check import CheckContext
from generator.check.all_checks import check_plugin
from generator.findings import Finding, sort_findings
from generator.load.crawl import load_plugin

CASES = Path(__file__).resolve().parent / "cases" / "validate"


def case_options(folder: Path) -> dict[str, Any]:
    """The optional `case.yaml` of a case folder (for example `submission: true`)."""
    path = folder / "case.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None
    return data if isinstance(data, dict) else {}


def findings_of(folder: Path, submission: bool = False) -> list[Finding]:
    """Every finding for the plugin in `folder`, with file names relative to it."""
    loaded = load_plugin(folder, "")
    return sort_findings(check_plugin(loaded, CheckContext(submission=submission)))


def rows(
    findings: list[Finding], folder: Path, expected: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Findings as the rows `expect.yaml` lists; a finding about the folder itself names it `.`.

    An expected row may also hold `message` or `hint`, a part the finding's message or hint must
    contain: the row made of that finding then carries the expected part when its text holds it, else
    the whole text (which the comparison shows)."""
    made = [
        {
            "rule": d.rule,
            "severity": d.severity.value,
            "file": "." if d.file == str(folder) else d.file,
            "line": d.line,
            "column": d.column,
        }
        for d in findings
    ]
    for row, finding, wanted in zip(made, findings, expected or [], strict=False):
        for field, text in (("message", finding.message), ("hint", finding.hint)):
            part = wanted.get(field)
            if isinstance(part, str):
                row[field] = part if part in text else text
    return made


def case_folders(kind: str) -> list[Path]:
    """The case folders of one kind (`good` or `bad`), sorted."""
    return sorted(p for p in (CASES / kind).iterdir() if p.is_dir())
