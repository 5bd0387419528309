"""The static checks of the tools' code (R020 thrown-away messages, R021 undeclared parameters) read
the file the SDK loads, which is not always the file the source names (rule T007): `source:
tools/search.yaml` runs `tools/search.py`; `run` reports them as `validate` does."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.check import CheckContext, unyielded
from generator.load.crawl import load_plugin
from generator.pipeline import Pipeline, resolve_schemas
from generator.run import RunOptions
from tests.conftest import REPO

STATIC = ("R020", "R021")  # thrown-away messages, undeclared parameters read
CASE = REPO / "tests" / "cases" / "validate" / "bad" / "source-by-module-name"
LOST = """from dify_plugin import Tool


class Search(Tool):
    def _invoke(self, tool_parameters):
        self.create_text_message("lost")
        yield self.create_text_message(tool_parameters["query"])
"""


def _plugin(tmp_path: Path) -> Path:
    root = tmp_path / "plugin"
    shutil.copytree(CASE, root)
    (root / "tools" / "search.py").write_text(LOST)
    return root


def test_static_checks_read_the_module_the_sdk_loads(tmp_path: Path) -> None:
    """The unyielded message in tools/search.py is found although the source names search.yaml."""
    loaded = load_plugin(_plugin(tmp_path), "p")
    assert loaded.plugin is not None
    tool = next(t for t in loaded.plugin.tools if t.name == "search")
    assert tool.source == "tools/search.yaml"
    found = list(unyielded.check(loaded, CheckContext()))
    assert [(f.rule, f.file, f.line) for f in found] == [("R020", "p/tools/search.py", 6)]


def test_validate_and_run_each_report_them_once(tmp_path: Path) -> None:
    """`validate` (all checks) and `run`'s check stage (no other check) both report R020 (a
    message thrown away) and R021 (`query` read, `text` declared), once each."""
    root = _plugin(tmp_path)
    for checks in (True, False):
        pipeline = Pipeline((root,), resolve_schemas((root,)), checks=checks)
        with pipeline.load() as inputs:
            found = [f for loaded in inputs.plugins for f in pipeline.check(loaded) if f.rule in STATIC]
        shown = sorted((f.rule, f.file.rsplit("/", 2)[-2:], f.line, f.severity.value) for f in found)
        assert shown == [
            ("R020", ["tools", "search.py"], 6, "error"),
            ("R021", ["tools", "search.py"], 7, "error"),
        ]


def test_run_of_another_tool_does_not_report_it(tmp_path: Path) -> None:
    """`run --tool echo` reports the findings of echo's code only, as it runs echo only."""
    root = _plugin(tmp_path)
    for tool, expected in (("echo", []), ("search", ["R020", "R021"])):
        options = RunOptions(cache_dir=tmp_path / "cache", tool=tool)
        pipeline = Pipeline((root,), resolve_schemas((root,)), checks=False, run=options)
        with pipeline.load() as inputs:
            found = [f.rule for loaded in inputs.plugins for f in pipeline.check(loaded) if f.rule in STATIC]
            assert sorted(found) == expected
