"""The kinds' tables load a kind's code only when a plugin of that kind is met: a command on tool
plugins imports none of it, and a lookup gives the module that satisfies the stage's protocol."""

from __future__ import annotations

import subprocess
import sys

from generator.load.kinds import LOADERS
from generator.site.kinds import PAGES

KIND_CODE = ("generator.kind_models.", "generator.load.kinds.", "generator.site.kinds.")


def test_reading_tool_plugins_imports_no_kind_code() -> None:
    script = (
        "import sys\n"
        "from generator.commands import validate, build\n"
        f"print('\\n'.join(m for m in sys.modules if m.startswith({KIND_CODE!r})))\n"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == []


def test_every_kind_of_each_table_is_its_module() -> None:
    kinds = {"triggers", "datasources", "models", "agent_strategies", "endpoints"}
    assert set(LOADERS) == set(PAGES) == kinds
    for kind in LOADERS:
        assert callable(LOADERS[kind].load), kind
        assert callable(PAGES[kind].section), kind
        assert callable(PAGES[kind].indexed), kind
    assert "tools" not in LOADERS
    assert LOADERS.get("tools") is None
