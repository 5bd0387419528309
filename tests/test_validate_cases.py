"""Data-driven validator tests: every folder under tests/cases/validate is one case.

`good/<case>/` plugins must produce no finding at all; `bad/<case>/expect.yaml` lists exactly the
findings (rule, severity, file, line, column) the plugin must produce. An optional `case.yaml` sets
options such as `submission: true`. Adding a case is adding a folder.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

from generator.interpreters import find_interpreters
from generator.ruleset import all_rules
from tests.validate_cases import case_folders, case_options, findings_of, rows

GOOD = case_folders("good")
BAD = case_folders("bad")
# Rules whose trigger cannot live in a small committed folder; each is covered by the named test.
COVERED_ELSEWHERE = {
    "Y005": "test_validate_limits.py::test_oversized_yaml_file",
    "F007": "test_validate_limits.py::test_too_many_yaml_files",
    "M014": "test_validate_limits.py::test_plugin_over_50_mb",
    "U007": "test_validate_limits.py::test_more_than_5000_files",
    "K001": "test_validate_package.py::test_corrupt_package",
    "K002": "test_validate_package.py::test_unsafe_entries_are_refused",
    "K003": "test_validate_package.py::test_package_over_the_size_limit",
    "U027": "test_compile_check.py::test_a_missing_python_is_a_note_not_an_error",
}
OUR_PREFIXES = ("M", "P", "T", "A", "L", "U", "Y", "F", "K", "E")


def expected(folder: Path) -> list[dict[str, object]]:
    data = yaml.safe_load((folder / "expect.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, list), f"{folder}/expect.yaml must be a list of findings"
    return data


@pytest.mark.parametrize("folder", GOOD, ids=[f.name for f in GOOD])
def test_good_plugin_has_no_findings(folder: Path) -> None:
    """A well-formed plugin produces no finding, not even info."""
    submission = bool(case_options(folder).get("submission"))
    assert rows(findings_of(folder, submission), folder) == []


def skip_without_python(folder: Path) -> None:
    """Skip a case that needs a newer Python (its `needs_python`) when this machine has none."""
    wanted = case_options(folder).get("needs_python")
    if wanted is None:
        return
    version = tuple(int(part) for part in str(wanted).split("."))
    here = sys.version_info[:2] >= version or any(i.version >= version for i in find_interpreters())
    if not here:
        pytest.skip(f"needs Python {wanted}, which is not installed here")


@pytest.mark.parametrize("folder", BAD, ids=[f.name for f in BAD])
def test_bad_plugin_has_exactly_the_expected_findings(folder: Path) -> None:
    """A broken plugin produces exactly the listed findings, at the listed places."""
    skip_without_python(folder)
    submission = bool(case_options(folder).get("submission"))
    wanted = expected(folder)
    assert rows(findings_of(folder, submission), folder, wanted) == wanted


@pytest.mark.parametrize("folder", BAD, ids=[f.name for f in BAD])
def test_submission_only_adds_findings(folder: Path) -> None:
    """`--submission` never hides a finding of the ordinary checks."""
    plain = {(d.rule, d.file, d.line, d.column) for d in findings_of(folder)}
    strict = {(d.rule, d.file, d.line, d.column) for d in findings_of(folder, submission=True)}
    assert plain <= strict


def test_every_rule_is_exercised() -> None:
    """Each rule of the loader and the checks is produced by some case (or a named test)."""
    produced = {row["rule"] for folder in BAD for row in expected(folder)}
    defined = {code for code in all_rules() if code.startswith(OUR_PREFIXES)}
    assert defined - produced - set(COVERED_ELSEWHERE) == set()


def test_rules_are_documented() -> None:
    """Every rule has a kebab-case name, a one-line message, a hint and a documentation paragraph."""
    rules = all_rules()
    names = [r.name for r in rules.values()]
    assert len(names) == len(set(names))
    for code, rule in rules.items():
        assert re.fullmatch(r"[A-Z]\d{3}", code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), code
        assert rule.message, code
        assert "\n" not in rule.message, code
        assert rule.hint, code
        assert "\n" not in rule.hint, code
        assert len(rule.doc) > 40, code


def test_every_check_module_registers_its_rules() -> None:
    """`all_rules()` sees the rules of every check module, so the site documents all of them."""
    import sys

    from generator.check.all_checks import CHECKS

    all_rules()
    assert {f"generator.check.{name}" for name in CHECKS} <= set(sys.modules)


def test_documentation_lists_every_rule(repo: Path) -> None:
    """The validation page's rule tables name every rule with its current severity."""
    page = (repo / "registry" / "docs" / "validation.md").read_text(encoding="utf-8")
    for code, rule in all_rules().items():
        if code.startswith(OUR_PREFIXES):
            assert f"| {code} | `{rule.name}` | {rule.severity.value} |" in page


def test_a_locale_key_dify_ignores_is_one_finding_listing_its_uses() -> None:
    """A misspelled key used twice in a plugin is reported once, at its first use, naming both."""
    folder = next(f for f in BAD if f.name == "locales")
    found = [f for f in findings_of(folder, False) if f.rule == "L003" and "ja_Jp" in f.message]
    assert len(found) == 1, found
    assert found[0].line == 8
    assert "used 2 times: tools/echo.yaml:8, tools/echo.yaml:23" in found[0].message
