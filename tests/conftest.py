"""Shared fixtures: where the repository, the shared corpus and the reference schemas are."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# CI clones the repository next to a copy of shared/, as in development.
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "dify-official-plugins"
REFERENCE_SCHEMAS = SHARED / "reference" / "dify-schemas-v1"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def corpus() -> Path:
    """Real manifests of Dify's official plugins (read in place, never copied)."""
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}")
    return CORPUS
