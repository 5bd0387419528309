"""The rule tables of registry/docs/ are the rules' own declarations, written by generator.ruledocs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from generator.ruledocs import RuleTableError, main, pages_in, placement, render, selected
from generator.ruleset import all_rules

DOCS = Path(__file__).resolve().parents[1] / "registry" / "docs"


def test_generated_tables_match_the_rules() -> None:
    """Every table between the comments is what `python -m generator.ruledocs` writes now."""
    rules = all_rules()
    stale = [name for name, text in pages_in(DOCS).items() if render(text, rules) != text]
    assert stale == [], f"run `python -m generator.ruledocs` (or `make rules-docs`): {stale}"


def test_every_rule_stands_in_exactly_one_table() -> None:
    """A new rule that no table selects, or that two select, is named here."""
    found = placement(pages_in(DOCS), all_rules())
    assert {code: pages for code, pages in found.items() if len(pages) != 1} == {}


def test_a_rule_added_or_changed_makes_the_tables_stale() -> None:
    """The comparison can fail: one more rule, or a changed severity, changes the page."""
    rules = dict(all_rules())
    page = pages_in(DOCS)["validation.md"]
    added = dataclasses.replace(rules["Y001"], code="Y099", name="new-rule")
    assert render(page, {**rules, "Y099": added}) != page
    milder = dataclasses.replace(rules["M013"], severity=rules["Y008"].severity)
    assert render(page, {**rules, "M013": milder}) != page
    assert placement({"validation.md": page}, {**rules, "Q001": added})["Q001"] == []


def test_selectors_name_letters_codes_and_ranges() -> None:
    """A letter, a code and a range of one letter; a selector that names nothing is refused."""
    rules = all_rules()
    assert [r.code for r in selected("K", rules)] == ["K001", "K002", "K003"]
    assert [r.code for r in selected("R055-R057 R009", rules)] == ["R009", "R055", "R056", "R057"]
    for bad in ("Q", "R9", "R055-S001", "R900"):
        with pytest.raises(RuleTableError):
            selected(bad, rules)


def test_a_row_shows_the_message_without_its_values_and_the_change_class() -> None:
    """Values become `…`, a `|` is escaped, and a `D` table has the change class without its prefix."""
    rules = dict(all_rules())
    rules["M010"] = dataclasses.replace(rules["M010"], message="{a} or {b}|{{c}}")
    page = "<!-- rules: D001 -->\n<!-- end of rules -->\n"
    page += "<!-- rules: M010 -->\n\n| stale |\n<!-- end of rules -->\n"
    written = render(page, rules)
    diff_row = (
        "| D001 | `plugin-identity-changed` | warning | breaking | the plugin's … changed from … to … |"
    )
    assert diff_row in written
    assert "| M010 | `no-plugin-kind` | error | … or …\\|{c} |" in written
    assert "| stale |" not in written
    assert written == render(written, rules)


def test_the_command_checks_and_rewrites_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--check` names a stale page and exits 1 without writing; without it the page is rewritten."""
    page = tmp_path / "rules.md"
    page.write_text("Intro.\n\n<!-- rules: K -->\n<!-- end of rules -->\n\nAfter.\n", encoding="utf-8")
    assert main(["--check", str(tmp_path)]) == 1
    assert "K001" not in page.read_text(encoding="utf-8")
    assert main([str(tmp_path)]) == 0
    assert "| K003 | `package-too-large` |" in page.read_text(encoding="utf-8")
    assert main(["--check", str(tmp_path)]) == 0
    page.write_text("<!-- rules: Q -->\n<!-- end of rules -->\n", encoding="utf-8")
    assert main([str(tmp_path)]) == 2
    assert "'Q' names no rule" in capsys.readouterr().err
