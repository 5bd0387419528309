"""R073 against the environment a run builds: a module that a package the registry's index does not
know installs (a wheel whose distribution is named unlike its module, a dependency's extras) is
warned about without running, and not once the run has built the environment that holds it."""

from __future__ import annotations

from pathlib import Path

from generator.check.missing_imports import NOT_INSTALLED
from generator.pipeline import Pipeline, resolve_schemas
from generator.run import RunOptions
from tests.conftest import REPO
from tests.test_run_cases import LIMITS

CASE = REPO / "tests" / "cases" / "run" / "import_from_unindexed_wheel"


def _not_installed(run: RunOptions | None) -> list[str]:
    catalog = Pipeline((CASE,), resolve_schemas((CASE,)), run=run).catalog()
    found = [f for f in catalog.findings if f.rule == NOT_INSTALLED.code]
    return [f"{f.severity} {f.file.rsplit('/', 2)[-2]}/{f.file.rsplit('/', 1)[-1]}:{f.line}" for f in found]


def test_unknown_package_is_a_warning_without_running() -> None:
    """The index cannot tell what the shipped wheel installs: a warning at the import."""
    assert _not_installed(None) == ["warning tools/case.py:6"]


def test_built_environment_holds_the_module(tmp_path: Path) -> None:
    """The run builds the environment; the module is in it, so nothing is reported."""
    assert _not_installed(RunOptions(cache_dir=tmp_path, limits=LIMITS, jobs=1)) == []
