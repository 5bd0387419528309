"""The registry's own plugins: every example of every tool runs with the real SDK and passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.findings import Severity
from generator.inputs import open_inputs
from generator.run import RunOptions, all_findings, run_plugins
from generator.schemas import load_schemas
from tests.conftest import REPO

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("runner")]


def test_every_example_of_every_registry_plugin_passes(tmp_path: Path) -> None:
    """No run fails, no error is found, and every tool has at least one real (non-smoke) example."""
    with open_inputs([REPO]) as inputs:
        report = run_plugins(
            inputs.plugins, RunOptions(cache_dir=tmp_path / "cache", jobs=2), load_schemas(REPO / "schemas")
        )
        tools = {tool.key for loaded in inputs.plugins if loaded.plugin for tool in loaded.plugin.tools}
    failed = [f"{run.tool} {run.example}" for run in report.runs if not run.passed]
    assert failed == []
    errors = [d for d in all_findings(report) if d.severity is Severity.ERROR]
    assert errors == []
    assert {run.tool for run in report.runs if not run.smoke} == tools
    assert len(report.runs) >= 40
