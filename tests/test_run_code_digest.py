"""A cached run is keyed by the generator's code that shapes it: the runner and every module it
imports (the loader that decides what a run is given, the schemas that check what comes back), and
by nothing else the generator holds (the site, the static checks)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.run.own_code import PACKAGE, code_digest, run_code


@pytest.fixture
def package(tmp_path: Path) -> Path:
    copy = tmp_path / "generator"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def relative(paths: list[Path], root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in paths}


def test_the_loader_and_schemas_are_run_code_the_site_is_not() -> None:
    files = relative(run_code(PACKAGE), PACKAGE)
    assert {"run/runner.py", "run/child/__init__.py", "load/builders.py", "load/crawl.py"} <= files
    assert "schemas/output.py" in files
    assert not any(name.startswith(("site/", "commands/", "check/")) for name in files)


def test_a_change_to_what_a_run_is_given_changes_the_digest(package: Path) -> None:
    before = code_digest(package)
    builders = package / "load" / "builders.py"
    builders.write_text(builders.read_text() + "\n# credentials read elsewhere\n")
    assert code_digest(package) != before


def test_a_change_to_the_site_leaves_cached_runs_valid(package: Path) -> None:
    before = code_digest(package)
    for page in (package / "site").rglob("*.py"):
        page.write_text(page.read_text() + "\n# another page layout\n")
    assert code_digest(package) == before
