"""The copy button of code blocks on the generated pages, in headless Chromium: those pages do not
load the theme's script, so with the theme's `content.code.copy` on (as in the repository's
mkdocs.yml) the registry's script draws the button, in the page's language, and it copies the block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.synthetic import make_registry
from tests.conftest import offline_context
from tests.sitebuild import BuiltSite, build_site, serve, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
SCHEMA_PAGE = "ja/schemas/v1/file/"


@pytest.fixture(scope="module")
def copy_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site built with the theme's copy buttons on, served on localhost."""
    base = tmp_path_factory.mktemp("copy-site")
    folder = write_config(base / "config", [make_registry(base / "registry", 1, 1)])
    config = json.loads((folder / "mkdocs.yml").read_text(encoding="utf-8"))
    config["theme"]["features"].append("content.code.copy")
    (folder / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    site: BuiltSite = build_site(folder, base / "site", "--no-run")
    assert site.code == 0
    assert "data-dr-copy" in site.page(SCHEMA_PAGE)
    with serve(site.root) as url:
        yield url


def test_code_blocks_get_a_copy_button_that_copies(browser: Any, copy_site: str) -> None:
    """The schema's example block gets the theme's copy button, titled in Japanese, and a click puts
    the block's text on the clipboard."""
    context = offline_context(browser)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(copy_site + SCHEMA_PAGE)
    button = page.locator("pre nav.md-code__nav button.md-code__button[data-md-type=copy]")
    assert button.count() == 1
    assert button.get_attribute("title") == "クリップボードへコピー"
    button.click()
    page.wait_for_function("() => document.querySelector('pre button').title === 'コピーしました'")
    code = page.locator("pre code").first.inner_text()
    assert page.evaluate("navigator.clipboard.readText()") == code
    context.close()


TOOL_PAGE = "plugins/synthetic_00000/synthetic_00000/tool_000/"


def test_output_rows_get_their_deep_link_from_the_script(browser: Any, copy_site: str) -> None:
    """The "#" link of each output variable is not written in the page (it repeated itself in every
    row of every tool page); the script draws it, and it leads to its own row."""
    context = offline_context(browser)
    page = context.new_page()
    page.goto(copy_site + TOOL_PAGE)
    links = page.locator(".dr-outputs tr[id] > td:first-child > a.dr-anchor")
    rows = page.locator(".dr-outputs tbody tr[id]")
    assert rows.count() >= 2  # summary and count, and result when the tool has it
    assert links.count() == rows.count()
    assert links.first.inner_text() == "#"
    assert links.first.get_attribute("href") == "#" + (rows.first.get_attribute("id") or "")
    assert "dr-anchor" not in page.evaluate("() => fetch(location.href).then(r => r.text())")
    context.close()
