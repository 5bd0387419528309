"""What a plugin's two dependency files say of each other (R055), on folders made here: a
requirements.txt exported from the plugin's uv.lock (`uv export`) names every locked package, and
agrees with pyproject.toml, which installs that same set through `uv sync`."""

from __future__ import annotations

from pathlib import Path

from generator.load.reader import PluginReader
from generator.run.dependencies import disagreement

PYPROJECT = """[project]
name = "case"
version = "0.0.1"
requires-python = ">=3.12"
dependencies = [
    "dify_plugin==0.10.2",
]
"""
LOCK = """version = 1
requires-python = ">=3.12"

[[package]]
name = "case"
version = "0.0.1"
source = { virtual = "." }

[[package]]
name = "dify-plugin"
version = "0.10.2"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "pydantic"
version = "2.11.7"
source = { registry = "https://pypi.org/simple" }
"""
EXPORTED = "dify-plugin==0.10.2\npydantic==2.11.7\n"


def _findings(folder: Path, files: dict[str, str]) -> list[str]:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [finding.message for finding in disagreement(PluginReader(folder), lambda path: path)]


def test_requirements_exported_from_the_lock_agree(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "uv.lock": LOCK, "requirements.txt": EXPORTED}
    assert _findings(tmp_path / "plugin", files) == []


def test_a_package_neither_declared_nor_locked_is_named(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": PYPROJECT,
        "uv.lock": LOCK,
        "requirements.txt": EXPORTED + "requests==2.32.4\n",
    }
    (message,) = _findings(tmp_path / "plugin", files)
    assert "pyproject.toml lacks requests" in message
    assert "pydantic" not in message


def test_without_a_lock_only_direct_dependencies_count(tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "requirements.txt": EXPORTED}
    (message,) = _findings(tmp_path / "plugin", files)
    assert "pyproject.toml lacks pydantic" in message
