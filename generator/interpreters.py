"""The Python interpreters of this machine, and the one a plugin's `meta.runner.version` gets: used
by the runner to build environments and by the submission check that compiles the plugin's code."""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

_VERSION = re.compile(r"python(\d+)\.(\d+)$")
# The Python Dify's plugin daemon runs every plugin with, whatever `meta.runner.version` says: its
# image (docker/local.dockerfile, Ubuntu 24.04) installs python3.12 and creates each plugin's
# environment with `uv venv .venv --python 3.12` (createVirtualEnvironment).
DAEMON_PYTHON = "3.12"


@dataclass(frozen=True, slots=True)
class Interpreter:
    """A Python found on this machine."""

    path: Path
    version: tuple[int, int]

    @property
    def name(self) -> str:
        """`3.12` style."""
        return f"{self.version[0]}.{self.version[1]}"


def find_interpreters() -> list[Interpreter]:
    """Every `python3.N` on PATH or installed by pyenv (real paths: uv does not follow pyenv shims)."""
    found: dict[tuple[int, int], Path] = {}
    folders = [Path(p) for p in os.environ.get("PATH", "").split(os.pathsep) if p and "shims" not in p]
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    versions = pyenv_root / "versions"
    if versions.is_dir():
        folders.extend(sorted((p / "bin" for p in versions.iterdir()), reverse=True))
    for folder in folders:
        with contextlib.suppress(OSError):
            for candidate in folder.glob("python3.*"):
                match = _VERSION.match(candidate.name)
                if match and os.access(candidate, os.X_OK):
                    found.setdefault((int(match[1]), int(match[2])), candidate.resolve())
    return [Interpreter(path, version) for version, path in sorted(found.items())]


def choose_interpreter(requested: str, available: list[Interpreter]) -> Interpreter | None:
    """The interpreter named by `meta.runner.version`, else the nearest (newer preferred on ties)."""
    if not available:
        return None
    match = re.match(r"(\d+)\.(\d+)", requested or "")
    wanted = (int(match[1]), int(match[2])) if match else (3, 12)

    def distance(candidate: Interpreter) -> tuple[int, int]:
        gap = abs((candidate.version[0] - wanted[0]) * 100 + candidate.version[1] - wanted[1])
        return gap, -candidate.version[1]

    return min(available, key=distance)
