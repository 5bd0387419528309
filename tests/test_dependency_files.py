"""What a plugin's two dependency files say of each other (R055), on folders made here: a
requirements.txt exported from the plugin's uv.lock (`uv export`) names every locked package, and
agrees with pyproject.toml, which installs that same set through `uv sync`. And a uv.lock out of
date against its pyproject.toml (R059): a pin outside the range and a dependency the lock lacks are
named; a lock that fits (a pre-release pin, a dependency for another platform) is not."""

from __future__ import annotations

from pathlib import Path

from generator.load.reader import PluginReader
from generator.run.dependencies import disagreement
from generator.run.environment import lock_shipped, read_requirements
from generator.run.lockfile import stale_lock

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


def _stale(folder: Path, dependencies: list[str]) -> list[str]:
    folder.mkdir()
    listed = "".join(f'    "{entry}",\n' for entry in dependencies)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "case"\ndependencies = [\n{listed}]\n')
    # a pre-release pin: within a range that names none, as uv chose it
    (folder / "uv.lock").write_text(LOCK.replace("2.11.7", "2.12.0b1"))
    return [f.message for f in stale_lock(PluginReader(folder), lambda path: path)]


def test_a_lock_that_fits_is_quiet(tmp_path: Path) -> None:
    fitting = ["dify_plugin==0.10.2", "pydantic>=2.11", 'pywin32>=300; sys_platform == "win32"']
    assert _stale(tmp_path / "plugin", fitting) == []


def test_pins_outside_the_range_and_missing_packages_are_named(tmp_path: Path) -> None:
    (message,) = _stale(tmp_path / "plugin", ["dify_plugin>=0.11", "pydantic>=2.11", "requests>=2"])
    assert "dify-plugin is locked at 0.10.2, outside >=0.11" in message
    assert "requests (>=2) is not in the lock" in message


def test_no_lock_no_finding(tmp_path: Path) -> None:
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[project]\nname = "case"\ndependencies = ["six>=1"]\n')
    assert stale_lock(PluginReader(folder), lambda path: path) == []


def test_a_lock_the_package_leaves_out_is_not_installed_from(tmp_path: Path) -> None:
    """A uv.lock that `.difyignore` leaves out never reaches the daemon: the build resolves afresh
    (not `--frozen`), and without it in the build's copy of the folder."""
    folder = tmp_path / "plugin"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (folder / "uv.lock").write_text(LOCK, encoding="utf-8")
    assert read_requirements(PluginReader(folder)).frozen
    (folder / ".difyignore").write_text("uv.lock\n", encoding="utf-8")
    reader = PluginReader(folder)
    assert not read_requirements(reader).frozen
    assert not lock_shipped(reader)
