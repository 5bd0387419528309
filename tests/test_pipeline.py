"""Every command builds its catalog through `generator.pipeline.Pipeline`, never by calling stages."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from generator.catalog import Catalog
from generator.cli import main
from generator.inputs import Inputs
from generator.pipeline import Pipeline, resolve_schemas
from generator.schemas import shipped_schemas
from tests.validate_cases import CASES

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
# The stage functions only the pipeline calls.
STAGES = {
    "open_inputs",
    "load_plugin",
    "check_plugin",
    "run_plugins",
    "all_findings",
    "read_icons",
    "histories_of",
    "access_domains",
    "load_schemas",
    "shipped_schemas",
    "validate_paths",
    "validate_loaded",
}
# The commands that report on plugins, and the MkDocs plugin's catalog building (`schemas` and
# `diff` read schema folders and two versions of one plugin: they build no catalog).
SHELLS = [
    *(GENERATOR / "commands" / f"{name}.py" for name in ("validate", "run", "build", "serve")),
    GENERATOR / "site" / "publish.py",
    GENERATOR / "site" / "plugin.py",
]


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}


@pytest.mark.parametrize("path", SHELLS, ids=lambda p: p.name)
def test_commands_import_no_stage(path: Path) -> None:
    assert _imported_names(path) & STAGES == set()


def test_validate_and_run_build_their_catalog_through_the_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(CASES / "good" / "minimal", tmp_path / "plugin")
    monkeypatch.chdir(tmp_path)
    built: list[Pipeline] = []
    original = Pipeline.catalog_of

    def spy(self: Pipeline, inputs: Inputs) -> Catalog:
        built.append(self)
        return original(self, inputs)

    monkeypatch.setattr(Pipeline, "catalog_of", spy)
    assert main(["validate", "plugin", "--submission"]) == 1  # the marketplace wants more
    assert main(["run", "plugin", "--format", "json", "--cache-dir", str(tmp_path / "cache")]) == 0
    capsys.readouterr()
    assert [(p.checks, p.submission, p.run is not None) for p in built] == [
        (True, True, False),
        (False, False, True),
    ]


def test_the_schema_set_is_resolved_once_per_pipeline() -> None:
    pipeline = Pipeline((), resolve_schemas())
    assert pipeline.schemas is shipped_schemas()
    assert pipeline.context.schemas is pipeline.schemas
    # The memo is the instance's own: two pipelines share no per-run state.
    assert pipeline.context.memo is not Pipeline((), pipeline.schemas).context.memo
