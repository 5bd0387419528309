"""A trigger plugin's pages in headless Chromium: an event page in two languages (its output
variables, how a workflow reads them, that it was checked statically only), and the catalog's
filter by plugin kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from generator.site.texts import texts_for
from tests.sitebuild import BuiltSite, build_site, serve, write_config
from tests.validate_cases import CASES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
EVENT = "plugins/shop_trigger/shop/order_paid/"


@pytest.fixture(scope="module")
def triggers_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of a trigger plugin and a tool plugin (the validator's good cases), without runs."""
    base = tmp_path_factory.mktemp("triggers-site")
    folders = [CASES / "good" / "trigger", CASES / "good" / "minimal"]
    built = build_site(write_config(base / "config", folders), base / "site", "--no-run")
    assert built.code == 0
    return built


@pytest.fixture(scope="module")
def site_url(triggers_site: BuiltSite) -> Iterator[str]:
    with serve(triggers_site.root) as url:
        yield url


@pytest.mark.parametrize(
    ("folder", "language", "label"),
    [("", "en_US", "Order paid"), ("zh/", "zh_Hans", "订单已支付")],
    ids=["en", "zh"],
)
def test_event_page_shows_its_variables_in_two_languages(
    page: Any, site_url: str, folder: str, language: str, label: str
) -> None:
    """The event's page, in English and in Chinese: its label, its parameters, its output variables
    from output_schema (nested ones included), the reference syntax of each, and no run."""
    words = texts_for(language)
    page.goto(site_url + folder + EVENT)
    assert page.locator("h1").first.inner_text().strip() == label
    assert page.locator("table.dr-parameters th").first.inner_text() == words["name"]
    outputs = page.locator("table.dr-outputs")
    assert outputs.is_visible()
    for anchor in ("out-prop-order_id", "out-prop-total", "out-prop-customer"):
        assert outputs.locator(f"#{anchor}").count() == 1
    assert "customer.email" in outputs.inner_text()
    references = page.locator("ul.dr-references").inner_text()
    assert "{{#node_id.order_id#}}" in references
    assert "{{#node_id.customer.name#}}" in references
    assert page.locator(".dr-static-only").inner_text() == words["static_only"]
    # The registry's stylesheet reached the page: the table has the theme's border.
    assert page.evaluate("t => getComputedStyle(t).borderTopStyle", outputs.element_handle()) == "solid"


def test_plugin_page_shows_how_to_subscribe_and_links_its_events(page: Any, site_url: str) -> None:
    """The plugin's page lists the subscription's fields, the constructor's parameters and
    credentials, and its events, each linked to its page."""
    page.goto(site_url + "plugins/shop_trigger/")
    text = page.locator(".dr-plugin").inner_text()
    for shown in ("signing_secret", "store", "api_token", "order_paid"):
        assert shown in text
    page.locator(f'a[href$="{EVENT.removeprefix("plugins/shop_trigger/")}"]').first.click()
    page.wait_for_url("**/" + EVENT)


def test_catalog_filters_by_kind(page: Any, site_url: str) -> None:
    """The catalog names each card's kind, and its kind filter shows the trigger plugin alone."""
    page.goto(site_url)
    page.wait_for_selector("[data-dr-loaded]")
    cards = page.locator("li.dr-card")
    assert cards.count() == 2
    page.locator('button.dr-tag[data-tag="kind:triggers"]').click()
    visible = page.locator("li.dr-card:visible")
    assert visible.count() == 1
    assert visible.first.get_attribute("data-plugin") == "shop_trigger"
    assert texts_for("en_US")["kind_triggers"] in visible.first.inner_text()
    page.locator('button.dr-tag[data-tag="kind:tools"]').click()
    assert page.locator("li.dr-card:visible").first.get_attribute("data-plugin") == "demo"
