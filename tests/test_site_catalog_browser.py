"""The catalog of a registry larger than one screen, in headless Chromium: the first cards come with
the page, the others from cards.json a screen at a time as the reader scrolls; without JavaScript the
others are plain links; the tag filter keeps the count in the heading right."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.synthetic import make_registry
from generator.site.cards import FIRST_SCREEN
from tests.conftest import LOCAL, REPO
from tests.sitebuild import BuiltSite, build_site, serve, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
_SCRIPT = (REPO / "generator" / "site" / "assets" / "dify-registry.js").read_text(encoding="utf-8")
_AT_ONCE = re.search(r"var CARDS_AT_ONCE = (\d+);", _SCRIPT)
assert _AT_ONCE is not None
CARDS_AT_ONCE = int(_AT_ONCE.group(1))
# More than the first screen and two draws of cards: the last ones wait for the reader to scroll.
PLUGINS = FIRST_SCREEN + 2 * CARDS_AT_ONCE + 7


@pytest.fixture(scope="module")
def catalog_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site of more plugins than the first screen holds, served on localhost."""
    base = tmp_path_factory.mktemp("catalog-site")
    registry = make_registry(base / "registry", PLUGINS, 1)
    site: BuiltSite = build_site(write_config(base / "config", [registry]), base / "site", "--no-run")
    assert site.code == 0
    with serve(site.root) as url:
        yield url


def _labels(page: Any) -> list[str]:
    labels: list[str] = page.locator("li.dr-card .dr-card__title strong").all_inner_texts()
    return labels


@pytest.mark.parametrize("folder", ["", "ja/"])
def test_the_other_cards_load_and_the_filter_counts(page: Any, catalog_url: str, folder: str) -> None:
    """The count covers every plugin at once; the cards are drawn as the reader scrolls, until every
    plugin is a card in label order, side by side in a grid; a tag shows its plugins and the count
    says how many."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(catalog_url + folder)
    page.wait_for_selector(".dr-cards__end", state="attached")
    assert page.locator("[data-dr-count]").inner_text() == str(PLUGINS)
    assert FIRST_SCREEN <= page.locator("li.dr-card").count() < PLUGINS
    tops = page.evaluate("[...document.querySelectorAll('li.dr-card')].slice(0, 2).map(c => c.offsetTop)")
    assert tops[0] == tops[1]  # two columns at least
    for _ in range(20):
        if page.locator("[data-dr-loaded]").count():
            break
        page.mouse.wheel(0, 20_000)
        page.wait_for_timeout(200)
    page.wait_for_selector("[data-dr-loaded]")
    assert page.locator("li.dr-card").count() == PLUGINS
    assert page.locator("[data-dr-rest]").count() == 0
    labels = _labels(page)
    assert labels == sorted(labels, key=str.casefold)
    count = page.locator("[data-dr-count]")
    assert count.inner_text() == str(PLUGINS)
    button = page.locator("button.dr-tag[data-tag]:not([data-tag=''])").first
    tag = button.get_attribute("data-tag")
    button.click()
    visible = page.locator("li.dr-card:visible")
    assert 0 < visible.count() < PLUGINS
    assert count.inner_text() == str(visible.count())
    assert all(
        tag in (visible.nth(i).get_attribute("data-tags") or "").split() for i in range(visible.count())
    )
    page.locator("button.dr-tag[data-tag='']").click()
    assert count.inner_text() == str(PLUGINS)


def test_without_javascript_every_plugin_is_linked(browser: Any, catalog_url: str) -> None:
    """The first screen is cards, the rest plain links to their pages."""
    context = browser.new_context(java_script_enabled=False)
    context.route(re.compile(f"^(?!{re.escape(LOCAL)})"), lambda route: route.abort())
    try:
        page = context.new_page()
        page.goto(catalog_url)
        assert page.locator("li.dr-card").count() == FIRST_SCREEN
        links = page.locator("[data-dr-rest] li a")
        assert links.count() == PLUGINS - FIRST_SCREEN
        response = page.request.get(catalog_url + (links.first.get_attribute("href") or ""))
        assert response.ok
    finally:
        context.close()
