"""The rule set is collected from declarations, completely, and refuses a code declared twice."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from generator.check.all_checks import CHECKS
from generator.findings import Severity
from generator.rules import Rule, rule
from generator.ruleset import RULE_MODULES, DuplicateRule, all_rules, collect


def _module(name: str, **values: object) -> ModuleType:
    module = ModuleType(name)
    vars(module).update(values)
    return module


def test_declaring_a_rule_registers_nothing() -> None:
    declared = rule("Z999", "planted", Severity.INFO, "m", "h", "d")
    assert isinstance(declared, Rule)
    assert "Z999" not in all_rules()


def test_a_code_declared_twice_is_refused() -> None:
    first = rule("Z998", "one", Severity.INFO, "m", "h", "d")
    second = rule("Z998", "two", Severity.INFO, "m", "h", "d")
    with pytest.raises(DuplicateRule, match="Z998"):
        collect([_module("a", FIRST=first), _module("b", SECOND=second)])
    # The same declaration imported by a second module counts once.
    assert list(collect([_module("a", FIRST=first), _module("b", FIRST=first)])) == ["Z998"]


def test_rules_held_in_tables_are_collected() -> None:
    one = rule("Z997", "one", Severity.INFO, "m", "h", "d")
    two = rule("Z996", "two", Severity.INFO, "m", "h", "d")
    assert list(collect([_module("a", TABLE={"x": one}, PAIR=(two,))])) == ["Z996", "Z997"]


def test_every_rule_a_check_module_holds_is_in_the_set() -> None:
    rules = all_rules()
    for name, check in CHECKS.items():
        module = importlib.import_module(f"generator.check.{name}")
        assert module is check
        held = collect([module])
        assert set(held) <= set(rules), name
        assert all(rules[code] is held[code] for code in held)


def _declares_rules(path: Path) -> bool:
    """Whether a statement at the module's top level calls a rule declarer (`rule(...)`,
    `change_rule(...)`): a rule table counts, a call inside a function does not."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("rule")
        for statement in tree.body
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for node in ast.walk(statement)
    )


def test_every_module_declaring_rules_is_collected() -> None:
    """A rule declared in a module `ruleset` does not list would be missing from the documentation,
    the site and the reports' rule names."""
    generator = Path(__file__).resolve().parents[1] / "generator"
    declaring = {
        ".".join(path.relative_to(generator.parent).with_suffix("").parts)
        for path in generator.rglob("*.py")
        if _declares_rules(path)
    }
    collected = {module.__name__ for module in RULE_MODULES} | {f"generator.check.{name}" for name in CHECKS}
    assert len(declaring) > 40  # the scan finds declarations at all
    assert declaring - collected == set()
