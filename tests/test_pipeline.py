"""Every command builds its catalog through `generator.pipeline.Pipeline`, never by calling stages."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from generator.catalog import Catalog
from generator.check import check_plugin
from generator.cli import main
from generator.diagnostics import Diagnostic, Severity, sort_diagnostics
from generator.inputs import Inputs
from generator.load.crawl import load_plugin
from generator.pipeline import Pipeline, _add_by_owner, resolve_schemas
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
    GENERATOR / "site" / "mkdocs_plugin.py",
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


def test_each_plugin_holds_the_findings_its_checks_made() -> None:
    """A plugin's findings are those its load and checks made, not those of a plugin in a folder
    below it, nor findings of the inputs that name a file in its folder."""
    outer = load_plugin(CASES / "bad" / "tool-fields", "plugins/a")
    inner = load_plugin(CASES / "bad" / "parameters", "plugins/a/b")
    stray = Diagnostic("plugins/a/stray.yaml", 1, 1, "", "R000", Severity.ERROR, "not a plugin's", "")
    pipeline = Pipeline((), shipped_schemas())
    catalog = pipeline.catalog_of(Inputs((outer, inner), (stray,)))
    for loaded in (outer, inner):
        assert catalog.findings_of(loaded) == tuple(sort_diagnostics(check_plugin(loaded, pipeline.context)))
        assert catalog.findings_of(loaded)
    assert stray in catalog.diagnostics
    assert stray not in catalog.findings_of(outer)
    assert list(catalog.diagnostics) == sort_diagnostics(
        [stray, *catalog.findings_of(outer), *catalog.findings_of(inner)]
    )


def test_a_run_finding_belongs_to_the_plugin_whose_folder_holds_its_file() -> None:
    """The run stage's findings go to the innermost plugin folder above their file; a plugin given
    as the only input (shown as "") owns every file; a file of no plugin stays the inputs'."""
    found = {name: Diagnostic(name, 1, 1, "", "R001", Severity.ERROR, "m", "") for name in FILES}
    owned: dict[str, list[Diagnostic]] = {"plugins/a": [], "plugins/a/b": [], "plugins/ab": []}
    assert _add_by_owner(owned, found.values()) == [found["elsewhere/x.py"]]
    assert owned == {
        "plugins/a": [found["plugins/a/tools/x.py"]],
        "plugins/a/b": [found["plugins/a/b/x.yaml"]],
        "plugins/ab": [found["plugins/ab"]],
    }
    alone: dict[str, list[Diagnostic]] = {"": []}
    assert _add_by_owner(alone, found.values()) == []
    assert alone[""] == list(found.values())


FILES = ("plugins/a/tools/x.py", "plugins/a/b/x.yaml", "plugins/ab", "elsewhere/x.py")
