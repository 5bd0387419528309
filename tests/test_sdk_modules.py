"""The modules of dify_plugin and the names each binds, as `sdk_api_index.json` keeps them
(`generator/check/sdk_modules.py`)."""

from __future__ import annotations

from packaging.version import Version

from generator.check.sdk_api_index import first_release, sdk_modules
from generator.check.sdk_modules import derive_modules, merge_modules, modules_upto


def _release(files: dict[str, str]) -> dict[str, list[str] | None]:
    return derive_modules(set(files), files.get)


def test_names_a_module_binds() -> None:
    """Definitions, assignments and imports at the top level, inside `if` and `try` too, what a
    star import of a module of the wheel brings (its public names), a function's `global`; a
    module-level `__getattr__` or a star import from outside leaves the names unknown; a directory
    without `__init__.py` is a module binding nothing."""
    found = _release(
        {
            "dify_plugin/__init__.py": "from .a import *\n",
            "dify_plugin/a.py": (
                "import os.path\nfrom typing import Any as A\nX, (Y, Z) = 1, (2, 3)\n"
                "try:\n    import fast\nexcept ImportError as missing:\n    fast = None\n"
                "if X:\n    class K: ...\n_hidden = 1\ndef f():\n    global G\n    G = 1\n"
            ),
            "dify_plugin/lazy.py": "def __getattr__(name): ...\n",
            "dify_plugin/outside.py": "from typing import *\n",
            "dify_plugin/space/leaf.py": "V = 1\n",
        }
    )
    assert found == {
        "dify_plugin": ["A", "G", "K", "X", "Y", "Z", "f", "fast", "missing", "os"],
        "dify_plugin.a": ["A", "G", "K", "X", "Y", "Z", "_hidden", "f", "fast", "missing", "os"],
        "dify_plugin.lazy": None,
        "dify_plugin.outside": None,
        "dify_plugin.space": [],
        "dify_plugin.space.leaf": ["V"],
    }


def test_each_module_and_name_since_the_first_release_with_it() -> None:
    merged = merge_modules(
        [
            ("0.1.0", {"dify_plugin": ["Tool"], "dify_plugin.old": ["A"]}),
            ("0.2.0", {"dify_plugin": ["Tool", "Plugin"], "dify_plugin.new": None}),
        ]
    )
    assert merged == {
        "dify_plugin": {"since": "0.1.0", "names": {"0.1.0": ["Tool"], "0.2.0": ["Plugin"]}},
        "dify_plugin.new": {"since": "0.2.0", "names": None},
        "dify_plugin.old": {"since": "0.1.0", "names": {"0.1.0": ["A"]}},
    }
    assert modules_upto(merged, Version("0.1.0")) == {
        "dify_plugin": frozenset({"Tool"}),
        "dify_plugin.old": frozenset({"A"}),
    }
    assert modules_upto(merged, None)["dify_plugin"] == frozenset({"Tool", "Plugin"})


def test_the_index_knows_the_sdk_modules() -> None:
    """The tool base lives in `dify_plugin.interfaces.tool` in every release; there is no
    `dify_plugin.interface`; triggers came with 0.6."""
    every = sdk_modules()
    names = every["dify_plugin.interfaces.tool"]
    assert names is not None
    assert {"Tool", "ToolInvokeMessage"} <= names
    assert "dify_plugin.interface" not in every
    assert "dify_plugin.entities.trigger" not in sdk_modules(Version("0.2.4"))
    assert first_release("dify_plugin.entities.trigger") == "0.6.2"
    assert first_release("dify_plugin.interfaces", "tool") == "0.0.1b15"
    assert first_release("dify_plugin.interface") is None
