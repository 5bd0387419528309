"""A finding of the run stage gets a severity other than its rule's own in one module only,
`generator/run/verdict.py`: every other module of the run package makes findings of their rules'
severity (the chain of decisions is in `generator/run/__init__.py`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[1] / "generator" / "run"
DECIDING = RUN / "verdict.py"


def _callee(call: ast.Call) -> str:
    function = call.func
    return function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")


def severity_setters(source: str) -> list[int]:
    """The lines of every call that gives a finding its severity: `rule.at(..., severity=...)`,
    `replace(finding, severity=...)`, or a `Finding(...)` built field by field (one rebuilt from
    stored JSON with `**` keeps the severity it was given)."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and (
            any(keyword.arg == "severity" for keyword in node.keywords)
            or (
                _callee(node) == "Finding"
                and (bool(node.args) or any(keyword.arg is not None for keyword in node.keywords))
            )
        )
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("CRASHED.at(where, stage=stage)", []),
        ("CRASHED.at(where, severity=Severity.WARNING, stage=stage)", [1]),
        ("x = 1\nreplace(finding, severity=Severity.INFO)", [2]),
        ("replace(finding, message='m', hint='h')", []),
        ("dataclasses.replace(finding, severity=None)", [1]),
        ("Finding('f', 1, 1, '', 'R001', Severity.ERROR, 'm', 'h')", [1]),
        ("Finding(file='f', line=1, column=1, pointer='', rule=r, severity=s, message='', hint='')", [1]),
        ("Finding(**{**stored, 'severity': Severity(stored['severity'])})", []),
    ],
)
def test_the_scan_finds_every_way_to_set_a_severity(source: str, found: list[int]) -> None:
    assert severity_setters(source) == found


def test_only_the_verdict_gives_a_run_finding_another_severity() -> None:
    elsewhere = [
        f"{path.relative_to(RUN.parent.parent)}:{line}"
        for path in sorted(RUN.rglob("*.py"))
        if path != DECIDING
        for line in severity_setters(path.read_text(encoding="utf-8"))
    ]
    assert not elsewhere, f"only generator/run/verdict.py sets a severity: {elsewhere}"


def test_the_verdict_is_where_severities_are_decided() -> None:
    """The deciding module named above is the one that does it (the test would pass vacuously if the
    decisions had moved elsewhere under another name)."""
    assert severity_setters(DECIDING.read_text(encoding="utf-8"))
