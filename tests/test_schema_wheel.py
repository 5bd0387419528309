"""A wheel (what pre-commit installs) carries the published schemas and uses them."""

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

PROBE = """
import json, generator, generator.schemas as s
root = s.shipped_schemas_root()
print(json.dumps({"module": generator.__file__, "root": str(root), "ids": list(s.shipped_schemas().ids)}))
"""


@pytest.mark.slow
def test_wheel_ships_schemas(tmp_path: Path) -> None:
    """Built from a copy of the sources, the wheel's generator loads schemas from inside itself."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "generator", source / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "schemas", source / "schemas")
    uv = Path(sys.executable).parent / "uv"
    built = subprocess.run(
        [str(uv), "build", "--wheel", "-q", "-o", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    installed = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(installed)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False, cwd=tmp_path, env=env
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found["module"].startswith(str(installed))
    assert found["root"] == str(installed / "generator" / "schemas" / "published")
    assert "https://dify.ai/schemas/v1/multimodal_parent_child_structure.json" in found["ids"]
    packaged = installed / "generator" / "schemas" / "published"
    assert (packaged / "lock.json").read_bytes() == (REPO / "schemas" / "lock.json").read_bytes()
