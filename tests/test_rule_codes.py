"""A rule code is written once, in its declaration: code elsewhere names the `Rule` object (or a set
of them beside their declarations), so that renumbering or reading a rule never means a search for
its code as text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
CODE = re.compile(r"^[A-Z][0-9]{3}$")
# The functions that declare a rule: its code is their first argument.
DECLARING = ("rule", "change_rule")


def _callee(call: ast.Call) -> str:
    function = call.func
    return function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")


def stray_codes(source: str) -> list[tuple[int, str]]:
    """(line, code) of every rule code written as a string literal outside a declaration."""
    tree = ast.parse(source)
    declared = {
        id(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _callee(node) in DECLARING and node.args
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and CODE.match(node.value)
        and id(node) not in declared
    ]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('X = rule("R001", "name")', []),
        ('X = change_rule("D001", "name")', []),
        ('if finding.rule == "R044":\n    pass', [(1, "R044")]),
        ('STOPS = {"R001", "R002"}', [(1, "R001"), (1, "R002")]),
        ('X = rule("R001", "see R002")', []),  # prose naming a code is no control flow
    ],
)
def test_the_scan_finds_codes_outside_declarations(source: str, found: list[tuple[int, str]]) -> None:
    assert sorted(stray_codes(source)) == found


def test_no_rule_code_is_written_outside_its_declaration() -> None:
    stray = [
        f"{path.relative_to(GENERATOR.parent)}:{line}: {code}"
        for path in sorted(GENERATOR.rglob("*.py"))
        for line, code in stray_codes(path.read_text(encoding="utf-8"))
    ]
    assert stray == [], "name the Rule object (or a set of them beside their declarations)"
