"""Datasource and model plugins' pages in headless Chromium: a datasource page and a model
provider's section in two languages, and the catalog's filter by those kinds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.site.texts import texts_for
from tests.sitebuild import BuiltSite, build_site, serve, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
KINDS = Path(__file__).parent / "cases" / "site" / "kinds"
DATASOURCE = "plugins/notes_drive/drive/files/"
MODELS = "plugins/acme_models/"


@pytest.fixture(scope="module")
def kinds_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of a datasource plugin and a model plugin, both translated into Chinese."""
    base = tmp_path_factory.mktemp("kinds-site")
    folders = [KINDS / "notes-datasource", KINDS / "acme-models"]
    built = build_site(write_config(base / "config", folders), base / "site", "--no-run")
    assert built.code == 0
    return built


@pytest.fixture(scope="module")
def site_url(kinds_site: BuiltSite) -> Iterator[str]:
    with serve(kinds_site.root) as url:
        yield url


@pytest.mark.parametrize(
    ("folder", "language", "label"),
    [("", "en_US", "Drive files"), ("zh/", "zh_Hans", "网盘文件")],
    ids=["en", "zh"],
)
def test_datasource_page_shows_its_variables_in_two_languages(
    page: Any, site_url: str, folder: str, language: str, label: str
) -> None:
    """The datasource's page: its label, provider type, parameters, its output variable from a
    `$ref` to a hosted schema (linked), the pipeline reference syntax, and that it never ran."""
    words = texts_for(language)
    page.goto(site_url + folder + DATASOURCE)
    assert page.locator("h1").first.inner_text().strip() == label
    assert "online_drive" in page.locator("table.dr-meta").inner_text()
    parameters = page.locator("table.dr-parameters").inner_text()
    assert "folder" in parameters
    assert "recursive" in parameters
    outputs = page.locator("table.dr-outputs")
    assert outputs.locator("#out-prop-file").count() == 1
    assert outputs.locator('a[href$="schemas/v1/file/"]').count() == 1
    assert "{{#node_id.file#}}" in page.locator("ul.dr-references").inner_text()
    assert page.locator(".dr-static-only").inner_text() == words["datasource_static_only"]


@pytest.mark.parametrize(("folder", "language"), [("", "en_US"), ("zh/", "zh_Hans")], ids=["en", "zh"])
def test_model_provider_lists_its_models_in_two_languages(
    page: Any, site_url: str, folder: str, language: str
) -> None:
    """The model plugin's page lists each model with its type, context size, features, parameter
    rules and declared pricing, under the words of the page's language."""
    words = texts_for(language)
    page.goto(site_url + folder + MODELS)
    models = page.locator("table.dr-models")
    headers = models.locator("th").all_inner_texts()
    assert words["context_size"] in headers
    assert words["pricing"] in headers
    chat = models.locator("tbody tr").filter(has_text="acme-chat")
    cells = chat.inner_text()
    for shown in ("llm", "128,000", "tool-call", "vision", "max_tokens", "1–8192", "0.50", "1.50", "USD"):
        assert shown in cells
    embed = models.locator("tbody tr").filter(has_text="acme-embed").inner_text()
    assert "text-embedding" in embed
    assert "8,192" in embed


def test_catalog_filters_by_datasource_and_model_kinds(page: Any, site_url: str) -> None:
    """Each card names its kind, and the kind filter shows the plugins of that kind alone."""
    page.goto(site_url)
    page.wait_for_selector("[data-dr-loaded]")
    assert page.locator("li.dr-card").count() == 2
    words = texts_for("en_US")
    for kind, plugin in (("datasources", "notes_drive"), ("models", "acme_models")):
        page.locator(f'button.dr-tag[data-tag="kind:{kind}"]').click()
        visible = page.locator("li.dr-card:visible")
        assert visible.count() == 1
        assert visible.first.get_attribute("data-plugin") == plugin
        assert words[f"kind_{kind}"] in visible.first.inner_text()
