"""Every command builds its catalog through `generator.pipeline.Pipeline`, never by calling stages."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from generator.catalog import Catalog
from generator.check.all_checks import check_plugin
from generator.cli import main
from generator.findings import Finding, Severity, sort_findings
from generator.inputs import Inputs
from generator.load.crawl import ORPHAN_TOOL, load_plugin
from generator.load.paths import display_path
from generator.load.recordings import BAD_RECORDING
from generator.pipeline import Pipeline, resolve_schemas
from generator.run import RunOptions
from generator.run.judge import CRASHED
from generator.run.replay import STALE as STALE_RECORDING
from generator.schemas import shipped_schemas
from tests.conftest import REPO
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
    stray = Finding("plugins/a/stray.yaml", 1, 1, "", "R000", Severity.ERROR, "not a plugin's", "")
    pipeline = Pipeline((), shipped_schemas())
    catalog = pipeline.catalog_of(Inputs((outer, inner), (stray,)))
    for loaded in (outer, inner):
        assert catalog.findings_of(loaded) == tuple(sort_findings(check_plugin(loaded, pipeline.context)))
        assert catalog.findings_of(loaded)
    assert stray in catalog.findings
    assert stray not in catalog.findings_of(outer)
    assert list(catalog.findings) == sort_findings(
        [stray, *catalog.findings_of(outer), *catalog.findings_of(inner)]
    )


EVERY_STAGE = REPO / "tests" / "cases" / "identity" / "every_stage"


def test_a_finding_of_every_stage_carries_its_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each plugin's findings hold one of every stage (loading, the checks, its run, reading its
    recordings and replaying one), all of its own files: two plugins whose display paths are
    prefixes of each other (`a/x`, `a/x2`) never get each other's, and no finding is left without
    its plugin. Their tools share a key (one manifest name): each plugin's runs are still its own."""
    for name in ("x", "x2"):
        shutil.copytree(EVERY_STAGE, tmp_path / "a" / name)
    monkeypatch.chdir(tmp_path)
    options = RunOptions(cache_dir=tmp_path / "cache", jobs=1, use_cache=False)
    pipeline = Pipeline((Path("a/x"), Path("a/x2")), shipped_schemas(), run=options)
    catalog = pipeline.catalog()
    assert sorted(loaded.display for loaded in catalog.plugins) == ["a/x", "a/x2"]
    for loaded in catalog.plugins:
        own = catalog.findings_of(loaded)
        checked = check_plugin(load_plugin(loaded.root, loaded.display), pipeline.context)
        stages = {
            "load": ORPHAN_TOOL.code,
            "run": CRASHED.code,
            "recording": BAD_RECORDING.code,
            "replay": STALE_RECORDING.code,
        }
        for stage, code in stages.items():
            assert code in {d.rule for d in own}, f"{loaded.display} lost its {stage} finding"
        assert set(checked) - set(loaded.findings), "the case makes no finding of the checks"
        assert set(checked) <= set(own), f"{loaded.display} lost its checks' findings"
        assert all(d.file.startswith(loaded.display + "/") for d in own), own
        runs = [
            run
            for tool in (loaded.plugin.tools if loaded.plugin else ())
            for run in catalog.runs_of(loaded, tool.key)
        ]
        assert [run.plugin for run in runs] == [loaded.display] * 2
    assert list(catalog.findings) == sort_findings(d for p in catalog.plugins for d in catalog.findings_of(p))


@pytest.mark.parametrize(
    ("display", "shown"), [("", "tools/x.py"), (".", "tools/x.py"), ("a/x", "a/x/tools/x.py")]
)
def test_one_function_names_a_plugin_file(display: str, shown: str) -> None:
    """A plugin given as the only input ("") or as the working folder (".") names its files as they
    are; a crash's place in such a plugin is never `/tools/x.py`."""
    loaded = load_plugin(EVERY_STAGE, display)
    assert display_path(display, "tools/x.py") == loaded.display_path("tools/x.py") == shown
