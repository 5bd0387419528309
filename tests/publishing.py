"""A registry to publish, made in a temporary folder: the repository's site configuration, pages and
schemas with a few of its plugins (enough for three shards, few enough to run in a test)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

# Two environments (book_finder needs requests), six plugins of different sizes.
PLUGINS = ("badge_maker", "book_finder", "scratchpad", "text_chunkers", "weather_station", "webhook_signer")
SCRIPTS = Path(sys.executable).parent  # dify-registry and make's .venv of this environment


def registry_copy(target: Path, plugins: tuple[str, ...] = PLUGINS) -> Path:
    """A registry folder at `target` holding `plugins` (file times kept: make compares them)."""
    target.mkdir(parents=True)
    for name in ("mkdocs.yml", "Makefile", "pyproject.toml"):
        shutil.copy2(REPO / name, target / name)
    for folder in ("registry", "schemas"):
        shutil.copytree(REPO / folder, target / folder)
    for plugin in plugins:
        shutil.copytree(REPO / "plugins" / plugin, target / "plugins" / plugin)
    return target


def command(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`dify-registry ARGS` in its own process, as a CI step runs it."""
    environment = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [str(SCRIPTS / "dify-registry"), *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
