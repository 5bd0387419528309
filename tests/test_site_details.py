"""Details a visitor notices, read from the built pages: plural badges, cards sorted by label and
loaded from cards.json, translated tags and tabs, the outputs' Required column, one way of writing
types, English marks on schema descriptions, the schemas page, README images, icons as files, the
light pages, and llms.txt with the Markdown of every page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from PIL import Image as Pillow

from generator.media import MEDIA_FOLDER
from generator.site.cards import FIRST_SCREEN
from generator.site.languages import LANGUAGE_SITES
from generator.site.reencode import README_WIDTH
from generator.site.texts import texts_for
from tests.sitebuild import BuiltSite, cases_site

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site")]
__all__ = ["cases_site"]  # session fixture used below
# A Markdown link to anything but this site's own files or an http(s) address.
OUTSIDE_LINK = re.compile(r"(?<!\\)\]\((?!\.\./|plugins/|https?://|(?:[a-z]{2}/)?llms\.txt\))")
FOLDERS = {lang.code: lang.folder for lang in LANGUAGE_SITES}


def _cards(site: BuiltSite, language: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((site.root / FOLDERS[language] / "cards.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("language", list(FOLDERS))
def test_badges_count_in_the_plural_form_of_their_number(cases_site: BuiltSite, language: str) -> None:
    """Every card's badge agrees with index.json's counts, in the singular for exactly one."""
    words = texts_for(language)
    plugins: Any = cases_site.index()["plugins"]
    index = {p["pages"]["en_US"].rstrip("/").rsplit("/", 1)[-1]: p for p in plugins}
    cards = _cards(cases_site, language)["cards"]
    assert isinstance(cards, list)
    for card in cards:
        counts = index[card["slug"]]["findings"]
        kind, text = card["badge"]
        if counts["errors"]:
            one, many, number = words["error_one"], words["errors"], counts["errors"]
        elif counts["warnings"]:
            one, many, number = words["warning_one"], words["warnings"], counts["warnings"]
        else:
            # No finding: valid when an author's example ran, else neutral: not proven when every
            # run stopped (the run verdict's word), no findings when nothing but static checks or
            # invented inputs stood behind it.
            assert (kind, text) in {
                ("dr-ok", words["valid"]),
                ("dr-info", words["unproven"]),
                ("dr-info", words["badge_no_findings"]),
            }, card["slug"]
            continue
        assert text == f"{number} {one if number == 1 else many}"
    home = cases_site.page(FOLDERS[language])
    if language in ("en_US", "pt_BR"):
        assert not re.search(r">1 (errors|warnings|erros|avisos)<", home)


@pytest.mark.parametrize("language", list(FOLDERS))
def test_cards_are_sorted_by_label_and_the_first_screen_is_in_the_page(
    cases_site: BuiltSite, language: str
) -> None:
    """cards.json lists every plugin sorted by its label in the language; the home page holds the
    first screen of them as cards, in that order, and the rest as plain links."""
    cards = _cards(cases_site, language)["cards"]
    assert isinstance(cards, list)
    labels = [card["label"].casefold() for card in cards]
    assert labels == sorted(labels)
    assert len(cards) == len(cases_site.index()["plugins"])  # type: ignore[arg-type]
    home = cases_site.page(FOLDERS[language])
    shown = re.findall(r'<li class="dr-card"[^>]* data-plugin="([^"]+)"', home)
    assert shown == [card["slug"] for card in cards[:FIRST_SCREEN]]
    assert f"<span data-dr-count>{len(cards)}</span>" in home


def test_tags_and_the_docs_tab_are_translated(cases_site: BuiltSite) -> None:
    """The Japanese home page's tag filter, a plugin page's tags and the Docs tab are in Japanese."""
    home = cases_site.page("ja/")
    assert '<button type="button" class="dr-tag" data-tag="weather">天気</button>' in home
    assert '<span class="dr-chip">ユーティリティ</span>' in cases_site.page("ja/plugins/weather_demo")
    sections = re.findall(r'<span class="md-ellipsis">\s*([^<]+?)\s*</span>', home)
    assert "ドキュメント" in sections
    assert "Docs" not in sections


def test_outputs_say_whether_each_variable_is_required(cases_site: BuiltSite) -> None:
    """No cell of the Required column is blank: yes or no in the page's language."""
    for language, folder in FOLDERS.items():
        words = texts_for(language)
        page = cases_site.page(f"{folder}plugins/weather_demo/weather/forecast")
        table = page.split('<table class="dr-outputs">', 1)[1].split("</table>", 1)[0]
        cells = [
            re.sub(r"<[^>]+>", "", row[2])
            for row in re.findall(r"<tr id=[^>]*>(<td>.*?</td>)(<td>.*?</td>)\s*<td>(.*?)</td>", table, re.S)
        ]
        assert cells
        assert set(cells) <= {words["yes"], words["no"]}
        assert words["no"] in cells


def test_types_are_written_as_dify_writes_them(cases_site: BuiltSite) -> None:
    """`array[object]` everywhere, never `array<object>`."""
    for page in ("plugins/weather_demo/weather/forecast", "ja/schemas/v1/general_structure"):
        html = cases_site.page(page)
        assert "array&lt;" not in html
        assert "<code>array[string]</code>" in html
    assert "<code>array[object]</code>" in cases_site.page("ja/plugins/weather_demo/weather/forecast")


def test_schema_descriptions_are_marked_english_on_other_languages_pages(cases_site: BuiltSite) -> None:
    """An output described by its (English-only) schema carries the EN mark on ja, zh and pt pages."""
    for language, folder in FOLDERS.items():
        page = cases_site.page(f"{folder}plugins/weather_demo/weather/forecast")
        table = page.split('<table class="dr-outputs">', 1)[1].split("</table>", 1)[0]
        row = table.split('id="out-prop-temperature"', 1)[1].split("</tr>", 1)[0]
        assert ('class="dr-fallback"' in row) == (language != "en_US")


def test_schemas_page_has_versions_whole_ids_and_no_literal_cut_note(cases_site: BuiltSite) -> None:
    """Two schemas titled alike are told apart by a version column; `$id`s break only after a slash;
    no description ends in "(shortened)"."""
    page = cases_site.page("schemas")
    rows = re.findall(r"<tr><td><a [^>]*>([^<]+)</a></td><td>([^<]+)</td>", page)
    versions = {version for title, version in rows if title == "Dify Tool Examples"}
    assert len(versions) == 2
    ids = re.findall(r'<code class="dr-id">(.*?)</code>', page)
    assert ids
    assert all("dr-long" not in i and "/<wbr>" in i for i in ids)
    for folder in FOLDERS.values():
        assert "(shortened)" not in cases_site.page(f"{folder}schemas")


def test_readme_images_are_served_with_the_page(cases_site: BuiltSite) -> None:
    """An image the README names inside its plugin is shown from the site's media folder (the same
    file for every language), no wider than the page shows it; a remote image is a link; a missing
    one is its text."""
    sources = set()
    for folder in FOLDERS.values():
        readme = cases_site.page(f"{folder}plugins/weather_demo").split('<div class="dr-readme">', 1)[1]
        found = re.search(r'<img class="dr-readme-image" src="([^"]+)" alt="the radar"', readme)
        assert found
        served = (cases_site.root / f"{folder}plugins/weather_demo/" / found[1]).resolve()
        assert served.parent == (cases_site.root / MEDIA_FOLDER).resolve()
        assert served.read_bytes()[:4] in (b"\x89PNG", b"RIFF")
        sources.add(served)
        # Narrowed to the page's column and re-encoded; an animation stays animated.
        wide = re.search(r'<img class="dr-readme-image" src="([^"]+\.webp)" alt="the wide chart"', readme)
        assert wide
        with Pillow.open(cases_site.root / f"{folder}plugins/weather_demo/" / wide[1]) as image:
            assert image.format == "WEBP"
            assert image.width == README_WIDTH
        spinner = re.search(r'<img class="dr-readme-image" src="([^"]+\.webp)" alt="the spinner"', readme)
        assert spinner
        with Pillow.open(cases_site.root / f"{folder}plugins/weather_demo/" / spinner[1]) as image:
            assert getattr(image, "n_frames", 1) == 3
        assert (
            '<a href="https://example.com/radar.png" rel="nofollow noopener noreferrer">remote radar</a>'
            in readme
        )
        assert "missing map" in readme
        assert 'alt="missing map"' not in readme
    assert len(sources) == 1


def test_icons_are_files_referenced_by_every_page(cases_site: BuiltSite) -> None:
    """No page inlines an icon; the plugin's icon is one file under media/."""
    page = cases_site.page("ja/plugins/weather_demo")
    assert "data:image" not in page
    icon = re.search(r'<h1 id="plugin"><img class="dr-icon dr-icon--large" src="([^"]+)"', page)
    assert icon
    assert icon[1].startswith("../../../media/")
    assert icon[1].endswith(".svg")
    assert not [p for p in cases_site.root.rglob("*.html") if "data:image/svg" in p.read_text("utf-8")]


def test_languages_share_the_theme_assets(cases_site: BuiltSite) -> None:
    """Only the site root holds the theme's assets; other languages' pages load them from there."""
    for lang in LANGUAGE_SITES[1:]:
        assert not (cases_site.root / lang.prefix / "assets").exists()
        page = cases_site.page(f"{lang.folder}plugins/weather_demo")
        assert '"../../../assets/stylesheets/' in page or "../../../assets/stylesheets/" in page
    assert (cases_site.root / "assets" / "dify-registry.js").is_file()


def test_llms_txt_lists_every_plugin_and_tool_with_its_markdown(cases_site: BuiltSite) -> None:
    """Each language's llms.txt links every plugin's and tool's Markdown page, which exists and
    holds the parameters, the output variables and the example runs; index.json names them."""
    index = cases_site.index()
    assert index["llms"]["ja_JP"] == "https://dify.ai/ja/llms.txt"  # type: ignore[index]
    for language, folder in FOLDERS.items():
        text = (cases_site.root / folder / "llms.txt").read_text("utf-8")
        words = texts_for(language)
        targets = re.findall(r"\]\(([^)]+\.md)\)", text)
        for plugin in index["plugins"]:  # type: ignore[attr-defined]
            for entry in [plugin, *plugin["tools"]]:
                # Where the language serves a page only in English, its Markdown is the English one.
                path = entry["markdown"][language].removeprefix("https://dify.ai/")
                link = path.removeprefix(folder) if path.startswith(folder) else "../" + path
                assert link in targets
                assert (cases_site.root / path).is_file()
        tool = (cases_site.root / folder / "plugins/weather_demo/weather/forecast.md").read_text("utf-8")
        for heading in ("parameters", "outputs", "examples"):
            assert f"## {words[heading]}" in tool
        assert "`temperature`" in tool


def test_llms_markdown_escapes_strangers_texts(cases_site: BuiltSite) -> None:
    """The hostile plugin's labels open no link, image or HTML in its Markdown."""
    for folder in FOLDERS.values():
        text = (cases_site.root / folder / "llms.txt").read_text("utf-8")
        page = (cases_site.root / folder / "plugins/hostile/index.md").read_text("utf-8")
        for markdown in (text, page):
            assert not re.search(r"(?<!\\)<(script|img|i|b|iframe)\b", markdown)
            assert not OUTSIDE_LINK.search(markdown)


def test_home_page_and_translations_page_are_light(cases_site: BuiltSite) -> None:
    """The translations page lists counts and loads the missing texts from one shared file; pages
    carry no indentation."""
    page = cases_site.page("ja/translations")
    assert "data-dr-missing" in page
    assert (cases_site.root / "translations.json").is_file()
    assert "\n    <" not in cases_site.page("ja/plugins/weather_demo")


def test_generated_pages_have_the_light_frame(cases_site: BuiltSite) -> None:
    """Plugin, tool, schema and rule pages carry no navigation drawer, table of contents, web fonts
    or inline icons, nor the theme's script, and keep the search box, the language selector and the
    top navigation; the home page keeps the theme's whole frame."""
    for language, folder in FOLDERS.items():
        words = texts_for(language)
        for path in ("plugins/weather_demo", "plugins/weather_demo/weather/forecast", "schemas", "rules"):
            page = cases_site.page(folder + path)
            article = page.index("<article")
            frame = page[:article] + page[page.index("</article>") :]
            assert "md-sidebar" not in frame
            assert "fonts.googleapis.com" not in frame
            assert "<svg" not in frame
            assert "data-dr-search" in frame
            # None of the theme's script or its settings (these pages do not use it), and the
            # search box's words only: the script that searches builds the box.
            assert "bundle." not in frame
            assert "__config" not in frame
            assert "__md_scope" not in frame
            assert "<input" not in frame
            assert 'data-md-component="' not in frame
            selector = frame.split('<ul class="md-select__list">', 1)[1].split("</ul>", 1)[0]
            assert selector.count(" hreflang=") == len(LANGUAGE_SITES)
            tabs = re.search(r'<nav class="dr-tabs"[^>]*>(.*?)</nav>', frame)
            assert tabs
            assert f">{words['schemas']}</a>" in tabs[1]
            assert f">{words['rules']}</a>" in tabs[1]
            # The English mark's words are in the shared script, not in each page or each mark.
            assert words["fallback"] not in frame
            assert '<sup class="dr-fallback" title' not in page
        script = (cases_site.root / "assets" / "dify-registry.js").read_text(encoding="utf-8")
        assert json.dumps(words["fallback"], ensure_ascii=False) in script
        assert "md-sidebar--primary" in cases_site.page(folder)


def test_the_theme_files_no_page_loads_are_not_published(cases_site: BuiltSite) -> None:
    """Material's search (replaced by Pagefind) and the source maps are left out."""
    assets = cases_site.root / "assets"
    assert (assets / "javascripts").is_dir()
    assert not (assets / "javascripts" / "lunr").exists()
    assert not (assets / "javascripts" / "workers").exists()
    assert not list(cases_site.root.rglob("*.map"))


def test_pages_without_a_text_in_a_language_are_served_in_english_there(cases_site: BuiltSite) -> None:
    """A plugin without a text in a language (plain_notes in zh, ja, pt), a tool without one
    (verify_signature in ja) and every rule (their texts are English) are served in English only
    there: a small page in a plugin's or tool's place (none in a rule's) names the English page as
    canonical and leads to it, and the catalog, the other pages, llms.txt, index.json and the
    sitemap point at the English page."""
    stub = cases_site.page("zh/plugins/plain_notes")
    assert 'class="dr-page dr-stub"' in stub
    assert '<link rel="canonical" href="../../../plugins/plain_notes/">' in stub
    assert '<a href="../../../plugins/plain_notes/" hreflang="en">' in stub
    assert 'data-pagefind-meta="url:plugins/plain_notes/"' in stub
    assert "md-header" not in stub
    assert "md-select" not in stub
    assert "Plain Notes" in stub  # its title, and the labels search finds it by
    cards = _cards(cases_site, "zh_Hans")["cards"]
    assert isinstance(cards, list)
    assert next(c["href"] for c in cards if c["slug"] == "plain_notes") == "../plugins/plain_notes/"
    assert next(c["href"] for c in cards if c["slug"] == "weather_demo") == "plugins/weather_demo/"
    plugins: Any = cases_site.index()["plugins"]
    entry = next(p for p in plugins if p["name"] == "plain_notes")
    assert entry["pages"]["zh_Hans"] == "https://dify.ai/plugins/plain_notes/"
    assert entry["markdown"]["ja_JP"] == "https://dify.ai/plugins/plain_notes/index.md"
    assert not (cases_site.root / "zh" / "plugins" / "plain_notes" / "index.md").exists()
    assert "](../plugins/plain_notes/index.md)" in (cases_site.root / "zh" / "llms.txt").read_text("utf-8")
    sitemap = (cases_site.root / "zh" / "sitemap.xml").read_text("utf-8")
    assert "/plugins/plain_notes/" not in sitemap
    assert "/zh/plugins/weather_demo/" in sitemap
    # A tool without a Japanese text, in a plugin with some: the Japanese plugin page links the
    # English tool page; the tool's Chinese page is written in full.
    signer = cases_site.page("ja/plugins/webhook_signer")
    assert 'href="../../../plugins/webhook_signer/webhook_signer/verify_signature/"' in signer
    assert "dr-stub" in cases_site.page("ja/plugins/webhook_signer/webhook_signer/verify_signature")
    assert "dr-stub" not in cases_site.page("zh/plugins/webhook_signer/webhook_signer/verify_signature")
    # Rules: the English page only, and no page in their place; the Japanese rules index and
    # findings tables link it, and the English page's language selector leads to each language's
    # rules index.
    assert not (cases_site.root / "ja" / "rules" / "r001").exists()
    assert "dr-stub" not in cases_site.page("rules/r001")
    selector = re.findall(r'<a href="([^"]*)" hreflang="([^"]*)"', cases_site.page("rules/r001"))
    assert selector == [
        ("../../rules/r001/", "en"),
        ("../../zh/rules/", "zh"),
        ("../../ja/rules/", "ja"),
        ("../../pt/rules/", "pt-BR"),
    ]
    assert re.search(r'<a href="\.\./\.\./rules/r001/">R001</a>', cases_site.page("ja/rules"))
    assert re.search(r'<a href="\.\./\.\./\.\./rules/[a-z0-9]+/">', cases_site.page("ja/plugins/hostile"))
