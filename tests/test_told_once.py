"""A run does not tell again what a static check already found at the same place (one cause, one
finding): the run's R056 where the checks named the environment without the SDK, and the run's
R036 where R075 found the optional parameter read by subscript; and R056's guess once the build
has answered it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.check.optional_reads import OPTIONAL_SUBSCRIPT
from generator.findings import Location, Severity
from generator.pipeline import Pipeline
from generator.run import RunOptions
from generator.run.dependencies import NO_SDK
from generator.run.runner import BROKEN_ENVIRONMENT
from generator.run.verdict import OPTIONAL_READ, told_without_running
from generator.schemas import shipped_schemas
from tests.validate_cases import CASES


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


def test_a_build_answers_the_guess_about_the_sdk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R056's warning (only an unknown package, the misspelt `dify-plugin-sdk`, could bring the SDK)
    is a guess the build settles: once the build has failed (R009, naming the package) the warning
    is not told beside it."""
    shutil.copytree(CASES / "bad" / "sdk-requirement-misspelt", tmp_path / "p")
    monkeypatch.chdir(tmp_path)
    static = Pipeline((Path("p"),), shipped_schemas()).catalog()
    assert [f.rule for f in static.findings if f.rule == NO_SDK.code] == [NO_SDK.code]
    options = RunOptions(cache_dir=tmp_path / "cache", jobs=1, use_cache=False)
    ran = Pipeline((Path("p"),), shipped_schemas(), run=options).catalog()
    rules = [f.rule for f in ran.findings]
    assert BROKEN_ENVIRONMENT.code in rules, ran.findings
    assert NO_SDK.code not in rules, ran.findings
    assert any("dify-plugin-sdk" in f.message for f in ran.findings if f.rule == BROKEN_ENVIRONMENT.code)
