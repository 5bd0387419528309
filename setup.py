"""Build hook: ship the registry's published schemas inside the package.

A wheel (as pre-commit installs) has no repository around it, so `schemas/` is copied into
`generator/schemas/published/`, where `generator.shipped.shipped_schemas_root()` finds it. An
editable install reads the repository's `schemas/` folder directly and needs no copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "schemas"


class BuildWithSchemas(build_py):  # type: ignore[misc]
    """build_py that also copies `schemas/vN/**/*.json` and the lock into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "generator" / "schemas" / "published"
        for path in sorted(SOURCE.rglob("*.json")):
            relative = path.relative_to(SOURCE)
            if relative.parts[0] == "lock.json" or relative.parts[0].startswith("v"):
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target / relative)


setup(cmdclass={"build_py": BuildWithSchemas})
