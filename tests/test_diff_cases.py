"""Data-driven tests of `diff`: every folder under tests/cases/diff holds two versions of a plugin.

`<case>/old/` and `<case>/new/` are the versions; `<case>/expect.yaml` lists the bump the changes
need, the smallest correct next version, and exactly the findings (rule, class, severity, file,
line, column). Adding a case is adding a folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.diff.changes import class_of
from generator.diff.compare import compare
from generator.findings import Location
from generator.load.crawl import load_plugin
from generator.ruleset import all_rules
from generator.schemas import shipped_schemas
from tests.diff_cases import case_folders, compare_case, outcome

CASES = case_folders()


def expected(folder: Path) -> object:
    return yaml.safe_load((folder / "expect.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", CASES, ids=[f.name for f in CASES])
def test_case_has_exactly_the_expected_outcome(folder: Path) -> None:
    """The comparison finds exactly the listed changes, classes and places, and the listed bump."""
    assert outcome(compare_case(folder)) == expected(folder)


@pytest.mark.parametrize("folder", CASES, ids=[f.name for f in CASES])
def test_case_against_itself_reports_nothing(folder: Path) -> None:
    """Each version compared with itself has no change and needs no bump."""
    for side in ("old", "new"):
        same = compare(load_plugin(folder / side, side), load_plugin(folder / side, side), shipped_schemas())
        assert same.findings == ()


def test_every_diff_rule_is_exercised() -> None:
    """Each `D` rule is produced by some case."""
    produced = {row["rule"] for folder in CASES for row in expected(folder)["findings"]}  # type: ignore[index]
    defined = {code for code in all_rules() if code.startswith("D")}
    assert defined - produced == set()


def test_every_change_has_a_class_and_the_verdicts_none() -> None:
    """Change rules carry a class; the version verdicts (D06x) do not."""
    for code, rule in all_rules().items():
        if code.startswith("D"):
            kind = class_of(rule.at(Location("manifest.yaml", 1, 1)))
            assert (kind is None) == code.startswith("D06"), code
            assert kind is None or rule.message.startswith(f"{kind}: "), code


def test_real_looking_pairs_are_present() -> None:
    """The issue's three real-looking pairs are among the cases, with their breaking findings."""
    wanted = {
        "tool-gains-required-parameter": "D012",
        "output-variable-renamed": "D030",
        "option-value-removed": "D022",
    }
    for name, code in wanted.items():
        rows = expected(next(f for f in CASES if f.name == name))["findings"]  # type: ignore[index]
        assert {"rule": code, "class": "breaking"}.items() <= next(
            r for r in rows if r["rule"] == code
        ).items()


def test_documentation_lists_every_diff_rule(repo: Path) -> None:
    """The diff page's rule table names every `D` rule with its severity and class."""
    page = (repo / "registry" / "docs" / "diff.md").read_text(encoding="utf-8")
    for code, rule in all_rules().items():
        if code.startswith("D"):
            kind = class_of(rule.at(Location("manifest.yaml", 1, 1)))
            shown = kind.value if kind else "—"
            assert f"| {code} | `{rule.name}` | {rule.severity.value} | {shown} |" in page, code
