"""Lint of inline output schemas, case by case from tests/cases/output_schema/*.yaml.

Each case holds `expect` (a list of "RULE line:col") and the `output_schema` to lint; adding a case
is adding a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.findings import Location
from generator.load.yamlload import read_yaml
from generator.ruleset import all_rules
from generator.schemas.inline import lint_output_schema
from generator.schemas.walk import Parts
from tests.conftest import REPO
from tests.schema_helpers import repo_schemas, write_schemas

CASES = sorted((REPO / "tests" / "cases" / "output_schema").glob("*.yaml"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case(case: Path) -> None:
    """The case produces exactly its expected findings at their lines and columns."""
    document = read_yaml(case.read_bytes(), case.name)

    def locate(parts: Parts, key: bool) -> Location:
        full = ("output_schema", *parts)
        return document.key_at(*full) if key else document.at(*full)

    found = lint_output_schema(document.data["output_schema"], repo_schemas(), locate)
    assert sorted(f"{d.rule} {d.line}:{d.column}" for d in found) == sorted(document.data["expect"])


def test_output_schema_rules_are_warnings_but_one() -> None:
    """Dify accepts any map as output_schema: only a non-mapping is an error."""
    rules = all_rules()
    errors = sorted(code for code, r in rules.items() if code.startswith("O") and r.severity == "error")
    assert errors == ["O020"]
    assert all(r.doc and r.hint for code, r in rules.items() if code[0] in "OS")


def test_lint_finds_the_documented_defects_of_difys_files(tmp_path: Path, reference_schemas: Path) -> None:
    """Dify's own published copies get the findings their README documents."""
    files = {f"v1/{p.name}": p.read_text(encoding="utf-8") for p in reference_schemas.glob("*.json")}
    from generator.schemas import load_schemas

    schemas = load_schemas(write_schemas(tmp_path, files))
    found = {(s.name, d.rule, d.pointer) for s in schemas.hosted for d in s.lint}
    assert found == {
        ("multimodal_general_structure", "S003", "/properties"),
        ("multimodal_general_structure", "S004", "/type"),
        (
            "multimodal_general_structure",
            "S011",
            "/properties/general_chunks/items/properties/files/items/description",
        ),
        ("file", "S012", "/required/0"),
        (
            "multimodal_parent_child_structure",
            "S012",
            "/properties/parent_child_chunks/items/properties/files/items/required/0",
        ),
    }


def test_our_copies_keep_difys_defects() -> None:
    """The hosted copies stay faithful: the same findings as Dify's own files."""
    found = {
        (s.name, d.rule)
        for s in repo_schemas().hosted
        for d in s.lint
        if s.name.endswith("structure") or s.name == "file"
    }
    assert ("multimodal_general_structure", "S003") in found
    assert ("multimodal_general_structure", "S004") in found
    assert ("file", "S012") in found
