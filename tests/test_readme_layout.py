"""README's "How the code is laid out" names only files and folders that exist, so a rename that
forgets the README fails here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# A path in backticks is written from the repository, from generator/ or from generator/site/.
BASES = (REPO, REPO / "generator", REPO / "generator" / "site")
PATH = re.compile(r"`([\w.-]+/[\w/.-]*|[\w-]+\.py)`")


def layout_section() -> str:
    """The section's text, up to the next top-level heading."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("## How the code is laid out\n")
    return readme[start : readme.index("\n## ", start + 1)]


def missing(text: str) -> list[str]:
    """The paths in backticks in `text` that exist under none of the bases."""
    return [path for path in PATH.findall(text) if not any((base / path).exists() for base in BASES)]


def test_the_scan_finds_a_path_that_does_not_exist() -> None:
    assert missing("`generator/run/model.py` and `run/runtypes.py`, `check/all_checks.py`") == [
        "generator/run/model.py"
    ]


def test_every_path_of_the_layout_section_exists() -> None:
    section = layout_section()
    assert len(PATH.findall(section)) > 50
    assert missing(section) == []
