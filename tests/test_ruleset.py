"""The rule set is collected from declarations, completely, and refuses a code declared twice."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from generator.check import CHECK_MODULES
from generator.diagnostics import Severity
from generator.rules import Rule, rule
from generator.ruleset import DuplicateRule, all_rules, collect


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
    for name in CHECK_MODULES:
        module = importlib.import_module(f"generator.check.{name}")
        held = collect([module])
        assert set(held) <= set(rules), name
        assert all(rules[code] is held[code] for code in held)
