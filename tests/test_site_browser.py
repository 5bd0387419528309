"""The built site in headless Chromium: catalog, search, language selector, tool pages, schema URLs,
and no script from a hostile plugin ever runs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest

from generator.site.search import whole
from generator.site.texts import texts_for
from tests.conftest import REPO
from tests.sitebuild import BuiltSite, cases_site, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
__all__ = ["cases_site"]


@pytest.fixture(scope="session")
def site_url(cases_site: BuiltSite) -> Iterator[str]:
    """The built site served on localhost."""
    with serve(cases_site.root) as url:
        yield url


def test_catalog_lists_every_plugin(page: Any, site_url: str, cases_site: BuiltSite) -> None:
    """The home page shows one card per plugin, and the tag filter hides the others."""
    plugins = cases_site.index()["plugins"]
    assert isinstance(plugins, list)
    page.goto(site_url)
    page.wait_for_selector("[data-dr-loaded]")
    cards = page.locator("li.dr-card")
    assert cards.count() == len(plugins)
    for plugin in plugins:
        slug = plugin["pages"]["en_US"].rstrip("/").rsplit("/", 1)[-1]
        assert page.locator(f'li.dr-card[data-plugin="{slug}"]').count() == 1
    page.locator('button.dr-tag[data-tag="weather"]').click()
    visible = page.locator("li.dr-card:visible")
    assert 0 < visible.count() < len(plugins)
    assert all("weather" in (visible.nth(i).get_attribute("data-tags") or "") for i in range(visible.count()))
    assert page.locator("[data-dr-count]").inner_text() == str(visible.count())


# Pages and their labels in the four languages (en_US, zh_Hans, ja_JP, pt_BR): Japanese labels
# of kanji and kana only, and mixing kana, kanji and Latin letters, included.
LABELED_PAGES = {
    "plugins/weather_demo/": ("Weather Demo", "天气演示", "天気デモ", "Demonstração do Tempo"),
    "plugins/weather_demo/weather/forecast/": ("Forecast", "天气预报", "天気予報", "Previsão"),
    "plugins/document_kit/documents/pdf_text/": (
        "PDF to Text",
        "PDF 转文本",
        "PDFからテキスト抽出",
        "PDF para Texto",
    ),
    "plugins/document_kit/documents/receipt_ocr/": (
        "Receipt Reader",
        "收据文字识别",
        "レシートOCR読み取り",
        "Leitor de Recibos",
    ),
    "plugins/document_kit/documents/word_count/": (
        "Word Counter",
        "字数统计",
        "文字数を数える",
        "Contador de Palavras",
    ),
}
FIRST_RESULT = "document.querySelector('.dr-search__results a')?.pathname ?? null"


@pytest.mark.parametrize("folder", ["", "zh/", "ja/", "pt/"], ids=["en", "zh", "ja", "pt"])
def test_search_finds_by_label_in_any_language(page: Any, site_url: str, folder: str) -> None:
    """From each language's site, a plugin's or tool's full label in any of the four languages
    puts its page first, and the result links to that page in the site's own language."""
    page.goto(site_url + folder)
    box = page.locator("input.dr-search__input")
    missed = []
    for target, labels in LABELED_PAGES.items():
        for label in labels:
            box.fill("")  # empties the results, so the next ones can only answer this query
            box.fill(label)
            page.wait_for_selector(".dr-search__results a", timeout=20_000)
            first = page.evaluate(FIRST_RESULT)
            if first != f"/{folder}{target}":
                missed.append((label, first))
    assert missed == []


# Labels of pages a language serves only in English, and where their first result leads from each
# language's site: Plain Notes has no text in zh, ja or pt; the tool Verify Signature none in ja.
ENGLISH_ONLY = {
    "Plain Notes": dict.fromkeys(("", "zh/", "ja/", "pt/"), "/plugins/plain_notes/"),
    "Verify Signature": {
        "": "/plugins/webhook_signer/webhook_signer/verify_signature/",
        "zh/": "/zh/plugins/webhook_signer/webhook_signer/verify_signature/",
        "ja/": "/plugins/webhook_signer/webhook_signer/verify_signature/",
    },
}


@pytest.mark.parametrize("folder", ["", "zh/", "ja/", "pt/"], ids=["en", "zh", "ja", "pt"])
def test_search_opens_the_english_page_of_what_a_language_serves_in_english(
    page: Any, site_url: str, folder: str
) -> None:
    """A page that a language serves only in English is found from that language's site by its
    label, first, and its result opens the English page (not the small page in its place)."""
    for label, targets in ENGLISH_ONLY.items():
        if folder not in targets:
            continue
        page.goto(site_url + folder)
        page.locator("input.dr-search__input").fill(label)
        page.wait_for_selector(".dr-search__results a", timeout=20_000)
        assert page.evaluate(FIRST_RESULT) == targets[folder], label
        page.locator(".dr-search__results a").first.click()
        page.wait_for_url("**" + targets[folder])
        assert "dr-stub" not in page.content()


def test_search_lists_catalog_pages_before_documentation(page: Any, site_url: str) -> None:
    """A word that rule and documentation pages also hold lists plugin and tool pages first."""
    page.goto(site_url)
    box = page.locator("input.dr-search__input")
    box.fill("weather")
    page.wait_for_selector(".dr-search__results li:nth-child(3)", timeout=20_000)
    links = page.eval_on_selector_all(".dr-search__results a", "as => as.map(a => a.pathname)")
    catalog = [bool(re.match(r"^/plugins/[^/]+/", link)) for link in links]
    assert catalog[0]
    assert catalog == sorted(catalog, reverse=True), links  # no catalog page after another page


def test_search_results_are_text(page: Any, site_url: str) -> None:
    """A hostile label found by search shows as text: its markup is escaped in the excerpt."""
    page.goto(site_url)
    box = page.locator("input.dr-search__input")
    box.fill("pwned")
    page.wait_for_selector(".dr-search__results a", timeout=20_000)
    results = page.locator(".dr-search__results")
    assert results.locator("script, img, iframe, b, [onmouseover]").count() == 0
    assert page.evaluate("document.querySelectorAll('[id^=pwned]').length") == 0


def test_language_selector_switches_tool_page_to_japanese(page: Any, site_url: str) -> None:
    """The selector on a tool page leads to the same tool in Japanese."""
    page.goto(site_url + "plugins/weather_demo/weather/forecast/")
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__list a[hreflang="ja"]').click()
    page.wait_for_url("**/ja/plugins/weather_demo/weather/forecast/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert "天気予報" in page.locator("h1").first.inner_text()
    parameters = page.locator("table.dr-parameters")
    assert parameters.locator("th").first.inner_text() == "名前"
    assert page.evaluate("t => getComputedStyle(t).borderTopStyle", parameters.element_handle()) == "solid"
    assert page.locator('.md-select__list a[hreflang="pt-BR"]').count() == 1


# How many lines of text a table cell's content takes (the cell itself is as tall as its row).
LINES = """c => {
  const range = document.createRange();
  range.selectNodeContents(c);
  return range.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight);
}"""


def test_japanese_parameter_table_keeps_narrow_columns_on_one_line(page: Any, site_url: str) -> None:
    """Headings and the Required cells of the Japanese parameters table are one line each, not one
    character per line (also at a laptop's width)."""
    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(site_url + "ja/plugins/weather_demo/weather/forecast/")
        table = page.locator("table.dr-parameters")
        cells = [*table.locator("th").all(), *table.locator("tbody td:nth-child(4)").all()]
        assert len(cells) > 9
        for cell in cells:
            lines = page.evaluate(LINES, cell.element_handle())
            assert lines < 1.5, cell.inner_text()


def test_readme_image_is_shown(page: Any, site_url: str) -> None:
    """An image the README names inside its plugin loads on the plugin's page in every language."""
    for folder in ("", "ja/"):
        page.goto(site_url + folder + "plugins/weather_demo/")
        image = page.locator("img.dr-readme-image").first
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth === 24", arg=image.element_handle())


def test_tool_page_shows_outputs_and_example_images(page: Any, site_url: str) -> None:
    """The output-variables table is there and the example's PNG actually loads."""
    page.goto(site_url + "plugins/badge_maker/badge_maker/draw_badge/")
    table = page.locator("table.dr-outputs")
    assert table.is_visible()
    assert table.locator("#out-prop-width").count() == 1
    # The registry's stylesheet reached the page: generated tables have the theme's table border.
    assert page.evaluate("t => getComputedStyle(t).borderTopStyle", table.element_handle()) == "solid"
    image = page.locator("img.dr-output-image").first
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())


def test_fixed_outputs_link_opens_their_rows(page: Any, site_url: str) -> None:
    """A tool page's line on the fixed outputs opens the schemas page of its language at their rows."""
    for folder, name in (("", "Text messages of the tool"), ("ja/", "テキストメッセージ")):
        page.goto(site_url + folder + "plugins/badge_maker/badge_maker/draw_badge/")
        page.locator('a[href$="#fixed-outputs"]').click()
        page.wait_for_url(f"{site_url}{folder}schemas/#fixed-outputs")
        row = page.locator("#out-text")
        assert row.is_visible()
        assert name in row.inner_text()


def test_schema_url_returns_exact_bytes(page: Any, site_url: str) -> None:
    """A schema's $id path serves the repository file byte for byte."""
    for name in ("file", "general_structure", "registry_index"):
        response = page.request.get(f"{site_url}schemas/v1/{name}.json")
        assert response.ok
        assert response.body() == (REPO / "schemas" / "v1" / f"{name}.json").read_bytes()


def test_hostile_plugin_runs_no_script(page: Any, site_url: str) -> None:
    """Labels and README with script, HTML and javascript: links: no dialog, no injected element."""
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    urls = [""] + [
        f"{folder}plugins/hostile/{tail}" for folder in ("", "zh/", "ja/", "pt/") for tail in ("", "hostile-")
    ]
    for url in urls:
        target = url
        if url.endswith("hostile-"):
            # Follow the tool link as a visitor would, without depending on where the sticky
            # header happens to overlap it.
            href = page.locator('a[href*="/evil/"]').first.get_attribute("href") or ""
            page.goto(urljoin(page.url, href))
        else:
            page.goto(site_url + target)
        page.wait_for_load_state("load")
        for chip in page.locator(".dr-chip, .dr-tag").all()[:10]:
            chip.hover()
        assert page.evaluate("document.querySelectorAll('[id^=pwned]').length") == 0
        assert page.evaluate("document.querySelectorAll('iframe, object, embed').length") == 0
    assert dialogs == []
    assert not [m for m in messages if "pwned" in m]


def test_search_box_and_index_agree_on_whole_labels(page: Any, site_url: str) -> None:
    """The word the search box asks for a whole query is the word the index holds for that label."""
    script = (REPO / "generator" / "site" / "assets" / "dify-registry-search.js").read_text(encoding="utf-8")
    function = re.search(r"  function whole\(text\) \{.*?\n  \}\n", script, re.DOTALL)
    assert function is not None
    page.goto(site_url)
    for label in (
        "JSON Delete",
        "  json   DELETE ",
        "PDFからテキスト抽出",
        "文字数を数える",
        "Previsão",
        "ＡＰＩ キー",
    ):
        assert page.evaluate(f"label => {{ {function.group(0)}; return whole(label); }}", label) == whole(
            label
        )


# Parts of labels (none a whole label) and the pages whose labels hold them
# (tests/cases/site/registry): "文字" of 文字数 is also the Chinese label of the receipt reader.
_KIT = "plugins/document_kit/documents/"
PARTIAL_QUERIES = {
    "文字数": (f"{_KIT}word_count/", f"{_KIT}receipt_ocr/"),
    "字数": (f"{_KIT}word_count/",),
    "抽出": (f"{_KIT}pdf_text/",),
    "转文本": (f"{_KIT}pdf_text/",),
}


@pytest.mark.parametrize("folder", ["", "zh/", "ja/"], ids=["en", "zh", "ja"])
def test_a_part_of_a_label_is_not_taken_for_a_whole_label(page: Any, site_url: str, folder: str) -> None:
    """A query that is part of a label finds a page whose label holds it first, never a page whose
    label starts a word the query's whole-label key begins with (the tool "Dr. Note": Pagefind answers
    a key it lacks with the pages of the longest indexed word that begins it, here "dr")."""
    page.goto(site_url + folder)
    box = page.locator("input.dr-search__input")
    wrong = {}
    for query, targets in PARTIAL_QUERIES.items():
        box.fill("")
        box.fill(query)
        page.wait_for_function(COUNTED, timeout=20_000)
        first = page.evaluate(FIRST_RESULT)
        if first not in {f"/{folder}{target}" for target in targets}:
            wrong[query] = first
    assert wrong == {}


def test_light_frame_draws_its_icons_and_explains_the_english_mark(page: Any, site_url: str) -> None:
    """On a generated page the stylesheet draws the logo and the language icon, the top links show on
    a phone's width, and an English mark explains itself in the page's language."""
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site_url + "ja/plugins/book_finder/")
    for selector in (".dr-logo", ".dr-translate"):
        mask = page.evaluate(
            "s => getComputedStyle(document.querySelector(s), '::before').maskImage", selector
        )
        assert mask.startswith('url("data:image/svg+xml'), selector
    assert page.locator(".dr-tabs a").first.is_visible()
    mark = page.locator("sup.dr-fallback").first
    assert mark.get_attribute("title") == texts_for("ja_JP")["fallback"]


def test_a_full_label_shows_its_page_before_the_other_answers(page: Any, site_url: str) -> None:
    """The page whose label is the whole query shows alone first (asked by itself, only its own
    fragment fetched); the other results follow and complete the list."""
    tool = "/ja/plugins/document_kit/documents/pdf_text/"
    page.goto(site_url + "ja/")
    page.evaluate(FIRST_SHOWN)
    page.locator("input.dr-search__input").fill("PDFからテキスト抽出")
    # The count is written with the full list only.
    page.wait_for_function(COUNTED, timeout=20_000)
    assert page.evaluate("window.drFirstShown") == [tool]
    assert page.locator(".dr-search__results li").count() > 1
    assert page.evaluate(FIRST_RESULT) == tool


# The status line gives the count of results (neither empty nor the "loading" words).
COUNTED = """() => {
  const box = document.querySelector("[data-dr-search]");
  const status = box.querySelector(".dr-search__status").textContent;
  return status !== "" && status !== pageWords().search_loading;
}"""
# The links of the results list when it is first filled.
FIRST_SHOWN = """() => {
  const list = document.querySelector(".dr-search__results");
  window.drFirstShown = null;
  new MutationObserver(() => {
    if (window.drFirstShown === null && list.children.length) {
      window.drFirstShown = [...list.querySelectorAll("a")].map(a => a.pathname);
    }
  }).observe(list, { childList: true });
}"""


def test_without_script_the_language_menu_fits_and_leads_to_the_page(browser: Any, site_url: str) -> None:
    """Without script a tool page shows no search box (its script builds it) but keeps the place of
    one, so the language menu opens inside the window; its plain links lead to the same tool in
    another language."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 700})
    page = context.new_page()
    page.goto(site_url + "ja/plugins/weather_demo/weather/forecast/")
    assert page.locator("input").count() == 0
    page.locator(".md-header__option .md-select").hover()
    link = page.locator('.md-select__list a[hreflang="pt-BR"]')
    box = link.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 1280
    link.click()
    page.wait_for_url("**/pt/plugins/weather_demo/weather/forecast/")
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    context.close()
