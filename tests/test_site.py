"""The registry site built from the test plugins, the registry's plugins and the shared corpus."""

from __future__ import annotations

import gzip
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from generator.cli import main
from generator.ruleset import all_rules
from generator.site.search import whole
from generator.site.texts import texts_for
from tests.conftest import REPO
from tests.sitebuild import CASES, BuiltSite, broken_links, cases_site, corpus_site, html_files, write_config

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site")]
__all__ = ["cases_site", "corpus_site"]  # session fixtures used below
LANGUAGE_FOLDERS = ("", "zh/", "ja/", "pt/")


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend((name, value or "") for name, value in attrs)


def _attributes(html: str) -> list[tuple[str, str]]:
    parser = _Attributes()
    parser.feed(html)
    return parser.found


def _validate_index(site: BuiltSite) -> None:
    schema = json.loads((REPO / "schemas" / "v2" / "registry_index.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(site.index())]
    assert errors == []


def test_cases_site_builds_despite_errors(cases_site: BuiltSite) -> None:
    """The hostile plugin has errors, yet the site is built (findings show on its pages)."""
    assert cases_site.code == 0
    assert "dr-error" in cases_site.page("plugins/hostile")


def _check_pages(site: BuiltSite) -> list[Any]:
    """index.json names a page per language for each plugin and tool, and each exists; the plugins."""
    plugins = site.index()["plugins"]
    assert isinstance(plugins, list)
    for plugin in plugins:
        for entry in [plugin, *plugin["tools"]]:
            assert set(entry["pages"]) == {"en_US", "zh_Hans", "ja_JP", "pt_BR"}
            for url in entry["pages"].values():
                assert url.startswith("https://dify.ai/")
                assert (site.root / url.removeprefix("https://dify.ai/") / "index.html").is_file()
    return plugins


def _check_links(site: BuiltSite) -> None:
    """Every relative href and src of every page points at a file of the built site."""
    broken = {
        page.relative_to(site.root).as_posix(): found
        for page in html_files(site.root)
        if (found := broken_links(site.root, page))
    }
    assert broken == {}


def _check_schema_files(site: BuiltSite) -> None:
    """Every file under schemas/ is served at its $id path with the same bytes."""
    sources = sorted((REPO / "schemas").glob("v*/*.json"))
    assert len(sources) >= 7
    for source in sources:
        served = site.root / source.relative_to(REPO)
        assert served.read_bytes() == source.read_bytes(), source.name
        assert (
            json.loads(source.read_bytes()).get("$id")
            == "https://dify.ai/" + source.relative_to(REPO).as_posix()
        )


def test_every_plugin_and_tool_page_exists_in_every_language(cases_site: BuiltSite) -> None:
    """index.json names a page per language for each plugin and tool, and each exists."""
    plugins = _check_pages(cases_site)
    assert {p["name"] for p in plugins} >= {"weather_demo", "hostile", "plain_notes", "badge_maker"}


def test_index_json_validates_against_its_published_schema(cases_site: BuiltSite) -> None:
    """index.json follows schemas/v2/registry_index.json, which the site also serves."""
    _validate_index(cases_site)
    served = cases_site.root / "schemas" / "v2" / "registry_index.json"
    assert served.read_bytes() == (REPO / "schemas" / "v2" / "registry_index.json").read_bytes()


def test_schema_files_are_served_byte_identical(cases_site: BuiltSite) -> None:
    """Every file under schemas/ is served at its $id path with the same bytes."""
    _check_schema_files(cases_site)
    catalog = json.loads((cases_site.root / "schemas" / "catalog.json").read_text(encoding="utf-8"))
    assert {s["url"] for s in catalog["schemas"]} >= {"https://dify.ai/schemas/v1/file.json"}


def test_internal_links_resolve(cases_site: BuiltSite) -> None:
    """Every relative href and src of every page points at a file of the built site."""
    _check_links(cases_site)


def test_tool_page_shows_outputs_with_schema_links_and_runs(cases_site: BuiltSite) -> None:
    """Output variables: fixed ones, flattened nested properties with anchors, links to $ref pages;
    example runs with images copied into the site."""
    forecast = cases_site.page("plugins/weather_demo/weather/forecast")
    for row in ("#fixed-outputs", "conditions.wind[].speed", "result"):
        assert row in forecast
    assert 'href="../../../../schemas/v1/general_structure/"' in forecast
    badge = cases_site.page("plugins/badge_maker/badge_maker/draw_badge")
    images = re.findall(r'<img class="dr-output-image" src="([^"]+)"', badge)
    assert images
    assert "✓" in badge


def test_hostile_text_is_escaped_everywhere(cases_site: BuiltSite) -> None:
    """No tag, attribute or javascript: link from the hostile plugin reaches any page."""
    pages = [p for p in html_files(cases_site.root) if "hostile" in p.as_posix()]
    assert len(pages) >= 8  # plugin + tool page in four languages
    pages.append(cases_site.root / "index.html")
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "pwned" in html or page.name == "index.html"
        assert not re.search(r"<(script|img|iframe|svg|b|i|u|style)\b[^>]*pwned", html, re.IGNORECASE)
        assert not re.search(r"""<script[^>]*>\s*alert""", html)
        assert 'id="pwned' not in html
        attributes = _attributes(html)
        assert not [name for name, _ in attributes if name.startswith("on")]
        assert not [v for n, v in attributes if n in ("href", "src") and v.lower().startswith("javascript:")]
        assert not [v for n, v in attributes if n == "id" and v.startswith("pwned")]
        assert "<title>" in html
        assert "<" not in html.split("<title>", 1)[1].split("</title>", 1)[0]


def test_long_labels_are_shortened_with_a_marker(cases_site: BuiltSite) -> None:
    """A 100,000-character label is cut, and the cut is marked."""
    html = cases_site.page("pt/plugins/hostile")
    assert "x" * 100_000 not in html
    assert "dr-cut" in html


def test_fallback_marker_and_coverage(cases_site: BuiltSite) -> None:
    """Texts missing in a language show in English with a marker on the pages that language writes;
    the coverage page lists them."""
    ja = cases_site.page("ja/plugins/book_finder")
    assert "dr-stub" not in ja
    assert '</bdi><sup class="dr-fallback">EN</sup>' in ja
    assert 'class="dr-fallback"' not in cases_site.page("plugins/book_finder")
    coverage = cases_site.page("ja/translations")
    assert 'data-dr-lang="ja_JP"><summary>' in coverage
    # The lists of missing texts are one file for every language's page, read when a row is opened.
    missing = json.loads((cases_site.root / "translations.json").read_text(encoding="utf-8"))
    assert any("notes/add_note.label" in texts["ja_JP"] for texts in missing.values())


def test_language_builds(cases_site: BuiltSite) -> None:
    """Each language has its html lang, localized theme words and selector; one search bundle holds
    an index per language, and no page carries Material's whole-site index."""
    expected = {"": "en", "zh/": "zh", "ja/": "ja", "pt/": "pt-BR"}
    for folder, lang in expected.items():
        html = cases_site.page(f"{folder}plugins/weather_demo/weather/forecast")
        assert f'<html lang="{lang}"' in html
        selector = html.split('<ul class="md-select__list">', 1)[1].split("</ul>", 1)[0]
        links = re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', selector)
        assert [h for _, h in links] == ["en", "zh", "ja", "pt-BR"]
        assert all(href.endswith("plugins/weather_demo/weather/forecast/") for href, _ in links)
        assert not (cases_site.root / folder / "search" / "search_index.json").exists()
    # The search box's words are in the one published script, for every language.
    script = (cases_site.root / "assets" / "dify-registry.js").read_text(encoding="utf-8")
    assert '"search_placeholder": "搜索"' in script
    assert "data-placeholder" not in cases_site.page("zh/")
    entry = json.loads((cases_site.root / "pagefind" / "pagefind-entry.json").read_text())
    assert sorted(entry["languages"]) == ["en", "ja", "pt-br", "zh"]
    for language in entry["languages"].values():
        assert language["page_count"] > 10


def _indexed(site: BuiltSite) -> dict[str, dict[str, Any]]:
    """What Pagefind stored of each page (its fragments), by URL."""
    found: dict[str, dict[str, Any]] = {}
    for path in (site.root / "pagefind" / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd")
        fragment = json.loads(data)
        # Pagefind marks where it split Chinese and Japanese words with zero-width spaces.
        fragment["content"] = fragment["content"].replace("\u200b", "")
        found[fragment["url"]] = fragment
    return found


def test_search_indexes_what_a_page_says_of_itself(cases_site: BuiltSite) -> None:
    """A tool page's index holds its labels, descriptions and parameters, not the English marks
    (which joined the word before them, in the title too) nor what every tool page says alike."""
    indexed = _indexed(cases_site)
    words = texts_for("zh_Hans")
    plain = indexed["/zh/plugins/plain_notes/"]
    assert plain["meta"]["title"] == "Plain Notes"
    assert "EN" not in plain["content"]
    tool = indexed["/ja/plugins/weather_demo/weather/forecast/"]
    assert "天気予報" in tool["content"]
    assert "city" in tool["content"]
    for fixed in ("node_id", texts_for("ja_JP")["in_workflow_short"][8:]):
        assert fixed not in tool["content"]
    assert words["no_findings"][:6] not in indexed["/zh/plugins/plain_notes/"]["content"]


def test_tool_pages_carry_every_label_for_search(cases_site: BuiltSite) -> None:
    """A tool page in any language holds the tool's labels in all four languages, escaped, in the
    hidden block the search index weighs most, with its Han and kana one character a word and a
    word for each label whole."""
    labels = ("PDF to Text", "PDF 转文本", "PDFからテキスト抽出", "PDF para Texto")
    for folder in ("", "zh/", "ja/", "pt/"):
        html = cases_site.page(f"{folder}plugins/document_kit/documents/pdf_text")
        keys = re.search(
            r'<div class="dr-search-keys" hidden data-pagefind-weight="10" '
            r'data-pagefind-filter="kind:tool">(.*?)</div>',
            html,
        )
        assert keys is not None
        for label in labels:
            assert f"<bdi>{label}</bdi>" in keys.group(1)
        assert "PDF 转 文 本</bdi> <bdi>PDF か ら テ キ ス ト 抽 出" in keys.group(1)
        assert whole("PDFからテキスト抽出") in keys.group(1).split()
    hostile = cases_site.page("plugins/hostile")
    block = hostile[hostile.index('class="dr-search-keys"') :]
    assert "<script" not in block.split("</div>", 1)[0]


def test_alternate_links_name_each_language_root(cases_site: BuiltSite) -> None:
    """The head's rel=alternate links (which Material follows to each language's sitemap) name the
    root of each language from every language's pages of the theme's frame, not a folder nested in
    the current one; the generated pages' light frame names none (they would say that each
    language's version of a tool page is that language's home page)."""
    site_url = str(cases_site.index()["site_url"])
    expected = [
        (f"{site_url}{folder}", lang)
        for folder, lang in zip(LANGUAGE_FOLDERS, ("en", "zh", "ja", "pt-BR"), strict=True)
    ]
    alternate = r'<link rel="alternate" href="([^"]+)" hreflang="([^"]+)">'
    for folder in LANGUAGE_FOLDERS:
        assert re.findall(alternate, cases_site.page(folder)) == expected
        assert re.findall(alternate, cases_site.page(f"{folder}plugins/weather_demo/weather/forecast")) == []


def test_hand_written_pages_in_every_language(cases_site: BuiltSite) -> None:
    """A translated copy replaces the English page; otherwise the English page carries a note."""
    for folder, heading in (
        ("zh/", "关于本注册表"),
        ("ja/", "このレジストリについて"),
        ("pt/", "Sobre este registro"),
    ):
        about = cases_site.page(f"{folder}about")
        assert heading in about
        assert 'class="dr-note"' not in about
    ja_rules = cases_site.page("ja/docs/validation")
    assert "dify-registry validate" in ja_rules
    assert 'class="dr-note"' in ja_rules
    assert not (cases_site.root / "about.zh").exists()
    assert not (cases_site.root / "ja" / "about.ja").exists()


def test_every_rule_has_a_page_and_findings_link_to_it(cases_site: BuiltSite) -> None:
    """One page per rule; the hostile plugin's findings link to their rules."""
    for code in all_rules():
        assert (cases_site.root / "rules" / code.lower() / "index.html").is_file()
    hostile = cases_site.page("plugins/hostile")
    assert re.search(r'<a href="\.\./\.\./rules/[a-z0-9]+/">', hostile)


def test_catalog_lists_every_plugin(cases_site: BuiltSite) -> None:
    """The home page has one card per plugin, with tags for the filter."""
    home = cases_site.page("")
    plugins = cases_site.index()["plugins"]
    assert isinstance(plugins, list)
    names = [p["name"] for p in plugins]
    assert home.count('class="dr-card"') == len(names)
    assert 'data-tag="weather"' in home


def test_strict_build_stops_on_findings(tmp_path: Path) -> None:
    """--strict refuses to build a registry with errors; exit code 1."""
    config = write_config(tmp_path / "config", [CASES / "registry"])
    site = tmp_path / "site"
    assert (
        main(["build", str(config), "--site-dir", str(site), "--no-run", "--strict", "--format", "json"]) == 1
    )
    assert not (site / "index.html").exists()


def test_corpus_site(corpus_site: BuiltSite) -> None:
    """Every corpus plugin and tool gets its page in each language; every link of every page
    resolves; the schema files are served as they are; index.json is valid."""
    assert corpus_site.code == 0
    plugins = _check_pages(corpus_site)
    assert len(plugins) >= 100
    assert sum(len(p["tools"]) for p in plugins) >= 300
    _validate_index(corpus_site)
    _check_schema_files(corpus_site)
    _check_links(corpus_site)
