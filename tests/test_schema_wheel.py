"""A wheel (what pre-commit and the publishing workflow of `dify-registry init` install) carries
the published schemas and every file the package reads, and uses them.

In a wheel the schemas lie inside the package, so every module must find them through the one
lookup (`generator.shipped`): one that went from its own file to the checkout's `schemas/` would
look beside `site-packages/` and find nothing. The site's own files (stylesheets, scripts, theme
overrides) are read from beside the modules: a pattern missing from the package data leaves them
out of the wheel, which an editable install never shows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.validate_cases import CASES

PROBE = """
import json, generator, generator.schemas as s
root = s.shipped_schemas_root()
print(json.dumps({"module": generator.__file__, "root": str(root), "ids": list(s.shipped_schemas().ids)}))
"""
# The modules that read one shipped schema file by itself, not through the schema set.
FILE_PROBE = """
import sys
from pathlib import Path
from generator.schemas.validators import SCHEMA_ROOT, published_data
from generator.load.recordings import RECORDING_SCHEMA, _validator
installed = Path(sys.argv[1]).resolve()
for path in (SCHEMA_ROOT, RECORDING_SCHEMA):
    assert path.exists() and path.resolve().is_relative_to(installed), path
assert published_data("tool")["$id"].endswith("/tool.json")
assert _validator().schema["$id"].endswith("/tool_recording.json")
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources, unpacked (what an installer does with it)."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "generator", source / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "schemas", source / "schemas")
    uv = Path(sys.executable).parent / "uv"
    built = subprocess.run(
        [str(uv), "build", "--wheel", "-q", "-o", str(folder / "dist"), str(source)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (folder / "dist").glob("*.whl")
    target = folder / "installed"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def _python(installed: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(installed), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, check=False, cwd=cwd, env=env, timeout=300
    )


@pytest.mark.slow
def test_wheel_ships_schemas(installed: Path, tmp_path: Path) -> None:
    """Built from a copy of the sources, the wheel's generator loads schemas from inside itself."""
    probe = _python(installed, tmp_path, "-c", PROBE)
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found["module"].startswith(str(installed))
    assert found["root"] == str(installed / "generator" / "schemas" / "published")
    assert "https://dify.ai/schemas/v1/multimodal_parent_child_structure.json" in found["ids"]
    packaged = installed / "generator" / "schemas" / "published"
    assert (packaged / "lock.json").read_bytes() == (REPO / "schemas" / "lock.json").read_bytes()


@pytest.mark.slow
def test_every_module_finds_the_packaged_schemas(installed: Path, tmp_path: Path) -> None:
    """The schema check's fallback and the recording format are read from the wheel too."""
    probe = _python(installed, tmp_path, "-c", FILE_PROBE, str(installed))
    assert probe.returncode == 0, probe.stderr


@pytest.mark.slow
def test_the_wheel_holds_every_file_of_the_package(installed: Path) -> None:
    """Each file of `generator/` that is not Python source is in the wheel, at the same place."""
    holds = {
        path.relative_to(REPO).as_posix()
        for path in (REPO / "generator").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".py", ".pyc"}
    }
    missing = sorted(name for name in holds if not (installed / name).is_file())
    assert missing == []


@pytest.mark.slow
def test_a_site_builds_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """The publishing workflow's build job, with the package installed from a wheel: a plugin's
    site is built (stylesheet and script included) and `check-site` finds no problem in it."""
    shutil.copytree(CASES / "good" / "minimal", tmp_path / "plugin")
    built = _python(
        installed, tmp_path, "-m", "generator", "build", "plugin", "--no-run", "--site-dir", "site"
    )
    assert built.returncode == 0, built.stdout + built.stderr[-3000:]
    for asset in ("dify-registry.css", "dify-registry.js"):
        assert (tmp_path / "site" / "assets" / asset).stat().st_size > 0, asset
    checked = _python(installed, tmp_path, "-m", "generator", "check-site", "site")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.slow
def test_validate_runs_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    shutil.copytree(CASES / "good" / "minimal", tmp_path / "plugin")
    result = _python(installed, tmp_path, "-m", "generator", "validate", "plugin")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.endswith("1 plugin, 1 tool, 3 files: 0 errors, 0 warnings, 0 info\n")
