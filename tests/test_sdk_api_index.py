"""What `from dify_plugin import X` can import and what the SDK's Plugin has, in the releases read
from the published wheels (`generator/check/sdk_api_index.json`)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from packaging.version import Version

from generator.check.sdk_api_index import derive, package_names, plugin_attributes


def test_the_package_exports_what_plugins_import() -> None:
    names = package_names()
    assert {"Tool", "ToolProvider", "Plugin", "DifyPluginEnv", "File", "ModelProvider", "entities"} <= names
    assert "DifyPluginRunner" not in names


def test_plugin_has_run_and_no_register_provider() -> None:
    attributes = plugin_attributes()
    assert attributes is not None
    assert {"run", "registration"} <= attributes
    assert "register_provider" not in attributes


def test_derive_reads_a_wheel(tmp_path: Path) -> None:
    """Names bound in `__init__.py` and the submodules; Plugin's methods, its base's (a relative
    import inside the wheel), and what its methods store on self; Tool's, wherever it lives, with
    those of a base in the same module, and the parameters its `__init__` requires."""
    wheel = tmp_path / "dify_plugin-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("dify_plugin/__init__.py", "from .plugin import Plugin\nVERSION = '9'\n")
        archive.writestr(
            "dify_plugin/plugin.py",
            "from .base import Server\n\nclass Plugin(Server):\n    def __init__(self):\n"
            "        self.routes = []\n    def run(self): ...\n",
        )
        archive.writestr("dify_plugin/base.py", "class Server:\n    def serve(self): ...\n")
        archive.writestr("dify_plugin/entities/__init__.py", "")
        archive.writestr(
            "dify_plugin/interfaces/tool.py",
            "from abc import ABC\n\nclass ToolLike(ABC):\n    def create_text_message(self): ...\n"
            "\nclass Tool(ToolLike):\n    def __init__(self, runtime, session=None):\n"
            "        self.runtime = runtime\n",
        )
    index = derive([wheel])
    assert index == {
        "releases": [
            {
                "version": "9.9.9",
                "package": ["Plugin", "VERSION", "__init__", "base", "entities", "interfaces", "plugin"],
                "plugin": ["__init__", "routes", "run", "serve"],
                "tool": ["__init__", "create_text_message", "runtime"],
                "tool_init": ["runtime"],
                "env": None,
                "signatures": {"Tool": {"create_text_message": ""}},
            }
        ],
        "modules": {
            "dify_plugin": {"since": "9.9.9", "names": {"9.9.9": ["Plugin", "VERSION"]}},
            "dify_plugin.base": {"since": "9.9.9", "names": {"9.9.9": ["Server"]}},
            "dify_plugin.entities": {"since": "9.9.9", "names": {}},
            "dify_plugin.interfaces": {"since": "9.9.9", "names": {}},
            "dify_plugin.interfaces.tool": {
                "since": "9.9.9",
                "names": {"9.9.9": ["ABC", "Tool", "ToolLike"]},
            },
            "dify_plugin.plugin": {"since": "9.9.9", "names": {"9.9.9": ["Plugin", "Server"]}},
        },
    }


def test_names_are_those_of_the_version_installed() -> None:
    """`get_current_session` is newer than 0.2: a plugin that installs 0.2.4 cannot import it; with
    no version told, every release counts."""
    assert "get_current_session" not in package_names(Version("0.2.4"))
    assert "get_current_session" in package_names(Version("0.10.2"))
    assert "get_current_session" in package_names()
