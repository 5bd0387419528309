"""The runner's static checks read the file the SDK loads, which is not always the file the
source names (rule T007): `source: tools/search.yaml` runs `tools/search.py`."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.load.crawl import load_plugin
from generator.run.runner import _static
from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "validate" / "bad" / "source-by-module-name"
LOST = """from dify_plugin import Tool


class Search(Tool):
    def _invoke(self, tool_parameters):
        self.create_text_message("lost")
        yield self.create_text_message("kept")
"""


def test_static_checks_read_the_module_the_sdk_loads(tmp_path: Path) -> None:
    """The unyielded message in tools/search.py is found although the source names search.yaml."""
    root = tmp_path / "plugin"
    shutil.copytree(CASE, root)
    (root / "tools" / "search.py").write_text(LOST)
    loaded = load_plugin(root, "p")
    assert loaded.plugin is not None
    tool = next(t for t in loaded.plugin.tools if t.name == "search")
    assert tool.source == "tools/search.yaml"
    found = _static(loaded, tool)
    assert [(f.rule, f.file, f.line) for f in found] == [("R020", "p/tools/search.py", 6)]
