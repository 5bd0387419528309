"""A run does not tell again what a static check already found at the same place (one cause, one
finding): the run's R056 where the checks named the environment without the SDK, and the run's
R036 where R075 found the optional parameter read by subscript."""

from __future__ import annotations

from generator.check.optional_reads import OPTIONAL_SUBSCRIPT
from generator.findings import Location, Severity
from generator.run.dependencies import NO_SDK
from generator.run.verdict import OPTIONAL_READ, told_without_running


def test_the_same_rule_at_the_same_place_is_told_once() -> None:
    """The run's R056 at the place the static check named is dropped; elsewhere it stays."""
    static = NO_SDK.at(Location("p/pyproject.toml", 9, 6), source="pyproject.toml", why="x", lock="")
    same = NO_SDK.at(Location("p/pyproject.toml", 9, 6), source="pyproject.toml", why="x", lock="")
    other = NO_SDK.at(Location("q/pyproject.toml", 1, 1), source="pyproject.toml", why="x", lock="")
    assert told_without_running([same, other], [static]) == [other]


def test_a_crash_on_an_optional_parameter_found_statically_is_told_once() -> None:
    """R036 at a line where R075 is an error is dropped; beside a mere warning it stays."""
    where = Location("p/tools/t.py", 22, 25)
    crash = OPTIONAL_READ.at(where, name="x", type="KeyError", problem="'x'")
    error = OPTIONAL_SUBSCRIPT.at(where, tool="t", dict="p", key="x", form="llm", outcome="o")
    warning = OPTIONAL_SUBSCRIPT.at(
        where, Severity.WARNING, tool="t", dict="p", key="x", form="llm", outcome="o"
    )
    assert told_without_running([crash], [error]) == []
    assert told_without_running([crash], [warning]) == [crash]
