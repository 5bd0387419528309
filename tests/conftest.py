"""Shared fixtures: where the repository, the shared corpus and the reference schemas are, and the
headless browser of the site tests."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
# CI clones the repository next to a copy of shared/, as in development.
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "dify-official-plugins"
REFERENCE_SCHEMAS = SHARED / "reference" / "dify-schemas-v1"
CHROMIUM = Path("/usr/bin/chromium")
LOCAL = "http://127.0.0.1:"  # where the tests serve built sites


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


# CI sets this: there ../shared is present, and a test that would skip without it must fail instead.
REQUIRE_SHARED = "DIFY_REGISTRY_REQUIRE_SHARED"


def shared(folder: Path) -> Path:
    """`folder` of ../shared (corpus, reference schemas, seeds); the test skips, naming the folder,
    when a clone has no ../shared beside it (and fails where CI requires it)."""
    if not folder.is_dir():
        reason = f"needs ../shared, missing: {folder}"
        if os.environ.get(REQUIRE_SHARED):
            pytest.fail(reason)
        pytest.skip(reason)
    return folder


@pytest.fixture(scope="session")
def corpus() -> Path:
    """Real manifests of Dify's official plugins (read in place, never copied)."""
    return shared(CORPUS)


@pytest.fixture(scope="session")
def reference_schemas() -> Path:
    """Dify's own copies of the v1 schemas."""
    return shared(REFERENCE_SCHEMAS)


@pytest.fixture(scope="session")
def corpus_copy(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's tool and datasource plugins, with placeholder modules for the code they name."""
    from tests.corpus_copy import copy_corpus

    return copy_corpus(corpus, tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, with a temporary HOME (one per worker)."""
    if not CHROMIUM.is_file():
        pytest.fail("chromium is missing: run `make browser-deps`")
    from playwright.sync_api import sync_playwright

    home = tmp_path_factory.mktemp("chromium-home")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), env={"HOME": str(home), "PATH": "/usr/bin:/bin"}
        )
        yield launched
        launched.close()


def offline_context(browser: Any) -> Any:
    """A new browser context in which requests that leave this machine (the theme's web fonts) are
    refused at once instead of waiting for a name lookup that cannot succeed."""
    context = browser.new_context()
    context.route(re.compile(f"^(?!{re.escape(LOCAL)})"), lambda route: route.abort())
    return context


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page in an offline context of its own."""
    context = offline_context(browser)
    yield context.new_page()
    context.close()
