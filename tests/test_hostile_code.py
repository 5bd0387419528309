"""Hostile tool code: the runner's own cases (tests/cases/run/) plus this suite's code cases.

A known-good plugin run in the same `run_plugins` call as the hostile ones gets the same outputs
and findings as when it runs alone; each hostile run ends in a finding that names a file and says
what to do, and no process of the run survives it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.load.crawl import load_plugin
from generator.run import RunOptions, all_findings, run_plugins
from tests.hostile import GOOD, build_named, case_of, index, listener, plugin_name, processes_mentioning
from tests.test_run_cases import LIMITS, Outcome, outcome, reference_schemas

__all__ = ["outcome"]  # the runner suite's session run, shared on the same worker

pytestmark = pytest.mark.xdist_group("runner")
OWN_CODE = sorted(
    key for keys in index().values() for key in keys if key.startswith(("code/", "pages/output"))
)
RUN_CASES = sorted(
    key.removeprefix("run/") for keys in index().values() for key in keys if key.startswith("run/")
)


def comparable(run: Any) -> tuple[Any, ...]:
    return (run.example, run.passed, dict(run.outputs), [(f.filename, f.sha256) for f in run.files])


@pytest.fixture(scope="module")
def own_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """This suite's code cases run together with the good plugin, and the good plugin alone."""
    work = tmp_path_factory.mktemp("hostile-code")
    plugins = [load_plugin(GOOD, "good_basic")]
    for key in OWN_CODE:
        (work / key).mkdir(parents=True)
        root = build_named(key, work / key, 9)
        plugins.append(load_plugin(root, key))
    with listener() as (_, connections):
        together = run_plugins(
            plugins, RunOptions(cache_dir=work / "cache", limits=LIMITS, jobs=2), reference_schemas()
        )
        alone = run_plugins(plugins[:1], RunOptions(cache_dir=work / "cache-alone", limits=LIMITS, jobs=1))
    return {"together": together, "alone": alone, "connections": connections, "work": work}


def test_good_plugin_runs_as_if_alone(outcome: Outcome, own_runs: dict[str, Any]) -> None:
    """The good plugin's runs beside every hostile tool equal its run alone."""
    alone = [comparable(run) for run in own_runs["alone"].runs]
    assert alone
    assert [comparable(run) for run in outcome.runs["good_basic"]] == alone
    beside_own = [run for run in own_runs["together"].runs if run.tool.plugin == "good_basic"]
    assert [comparable(run) for run in beside_own] == alone


@pytest.mark.parametrize("name", RUN_CASES)
def test_runner_case_finding_is_actionable(outcome: Outcome, name: str) -> None:
    """Each of the runner's hostile cases ends in findings that name a file and say what to do."""
    for finding in outcome.findings[name]:
        assert finding.file.startswith(name), finding
        assert finding.hint.strip(), finding


@pytest.mark.parametrize("key", OWN_CODE)
def test_own_code_case(own_runs: dict[str, Any], key: str) -> None:
    """This suite's code cases: expected rules, pass mark, no connection, no process left."""
    expected = case_of(key).expect["run"]
    runs = [run for run in own_runs["together"].runs if run.tool.plugin == plugin_name(key)]
    findings = [f for f in all_findings(own_runs["together"]) if f.file.startswith(key)]
    assert [run.passed for run in runs] == [expected["passed"]], findings
    assert set(expected["rules"]) <= {f.rule for f in findings}, findings
    assert all(f.hint.strip() for f in findings)
    assert own_runs["connections"] == []
    assert processes_mentioning(str(Path(own_runs["work"]))) == []
