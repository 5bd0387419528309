"""What the plugin and tool pages show, read cell by cell: metadata, credentials, tools, README,
parameters and every part of an example run, in the page's language."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest

from tests.fake_api import BOOK_KEY, RATES_TOKEN
from tests.sitebuild import BuiltSite, cases_site, html_files

# The forecast tool's outputs as its page lists them: each output_schema property followed by its
# nested ones (the fixed ones are on the schemas page).
FORECAST_OUTPUTS = (
    "temperature",
    "conditions",
    "conditions.sky",
    "conditions.wind",
    "conditions.wind[].speed",
    "result",
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site")]
__all__ = ["cases_site"]  # session fixture used below


class _Tables(HTMLParser):
    """The text of every cell of every table with a class, by the table's first class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[list[str]]]] = {}
        self._stack: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            rows: list[list[str]] = []
            classes = (dict(attrs).get("class") or "").split()
            self.tables.setdefault(classes[0] if classes else "", []).append(rows)
            self._stack.append(rows)
        elif tag == "tr" and self._stack:
            self._stack[-1].append([])
        elif tag in ("td", "th") and self._stack:
            self._cell = []
        elif tag in ("li", "br") and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._stack:
            self._stack[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table" and self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _tables(page: str) -> dict[str, list[list[list[str]]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def _runs(page: str) -> dict[str, str]:
    """Each example run's HTML by its name."""
    parts = re.split(r'<div class="dr-run">\s*<h3 id="example-\d+">', page)[1:]
    return {part.split(" ", 1)[0]: part.split('<div class="dr-run">', 1)[0] for part in parts}


def test_plugin_page_shows_metadata_tools_credentials_and_readme(cases_site: BuiltSite) -> None:
    """The Japanese plugin page: its labels in Japanese, a tools table that links each tool, the
    provider's credentials with their help and link, and the README rendered without raw HTML."""
    page = cases_site.page("ja/plugins/weather_demo")
    tables = _tables(page)
    meta = dict(row for row in tables["dr-meta"][0] if len(row) == 2)
    assert meta["名前"] == "weather_demo"
    assert meta["バージョン"] == "0.2.0"
    assert meta["作成者"] == "registry_demo"
    assert meta["タグ"] == "天気 ユーティリティ"
    assert meta["リポジトリ"] == "https://github.com/example/weather_demo"
    assert meta["検証"].startswith("6 エラー")
    assert '<h1 id="plugin"><img class="dr-icon dr-icon--large" src="../../../media/' in page
    assert tables["dr-tools"][0][1:] == [
        ["天気予報", "forecast", "weather", "都市の天気予報。"],
        ["天気図", "weather_map", "weather", "都市周辺の天気の地図画像。"],
    ]
    for href in re.findall(r'<table class="dr-tools">.*?</table>', page, re.S)[0].split('href="')[1:]:
        target = cases_site.root / "ja/plugins/weather_demo" / href.split('"', 1)[0] / "index.html"
        assert target.is_file()
    assert tables["dr-credentials"][0] == [
        ["名前", "ラベル", "型", "必須", "既定値", "ヘルプ"],
        ["api_key", "API キー", "secret-input", "はい", "—", "天気サービスでキーを取得してください リンク"],
    ]
    assert '<a href="https://example.com/keys" rel="nofollow noopener noreferrer">リンク</a>' in page
    readme = page.split('<div class="dr-readme">', 1)[1]
    assert "<strong>weather maps</strong>" in readme
    assert (
        '<a href="https://example.com/weather" rel="nofollow noopener noreferrer">the service</a>' in readme
    )
    assert '<code class="language-python">print(&quot;hello&quot;)' in readme
    assert _tables(readme)[""][0] == [
        ["Tool", "What it does"],
        ["Forecast", "temperature and sky"],
        ["Weather map", "an image"],
    ]


def test_tool_page_parameters_table(cases_site: BuiltSite) -> None:
    """Every column of the parameters table, with labels and option labels in the page's language."""
    expected = {
        "": (["City", "yes", "The city to forecast"], ["Units", "no", "metric Metric imperial Imperial"]),
        "pt/": (
            ["Cidade", "sim", "A cidade da previsão"],
            ["Unidades", "não", "metric Métrico imperial Imperial"],
        ),
    }
    for folder, (city, units) in expected.items():
        rows = _tables(cases_site.page(f"{folder}plugins/weather_demo/weather/forecast"))["dr-parameters"][0]
        assert len(rows[0]) == 9
        label, required, help_text = city
        model = "Name of the city, in English."
        assert rows[1] == ["city", label, "string", required, "—", "llm", "", help_text, model]
        label, required, options = units
        assert rows[2][:7] == ["units", label, "select", required, "metric", "form", options]


def test_a_parameter_taking_several_values_says_so_in_the_page_language(cases_site: BuiltSite) -> None:
    """A `multiple` select is marked in the type column in each language, not in English only."""
    expected = {"": "several values", "zh/": "多个值", "ja/": "複数の値", "pt/": "vários valores"}
    for folder, words in expected.items():
        page = cases_site.page(f"{folder}plugins/weather_demo/weather/weather_map")
        rows = _tables(page)["dr-parameters"][0]
        by_name = {row[0]: row for row in rows[1:]}
        assert by_name["city"][2] == "string"
        assert by_name["layers"][2] == f"select ({words})"
        assert "clouds" in by_name["layers"][4]


def test_output_variables_list_nested_properties_under_their_parent(cases_site: BuiltSite) -> None:
    """Each schema property followed by its own nested ones."""
    rows = _tables(cases_site.page("plugins/weather_demo/weather/forecast"))["dr-outputs"][0]
    names = [row[0].lstrip("# ") for row in rows[1:]]
    assert names == list(FORECAST_OUTPUTS)
    temperature = rows[1]
    assert temperature[1:4] == ["number", "yes", "Temperature in degrees"]


def test_fixed_outputs_are_said_once_on_the_schemas_page(cases_site: BuiltSite) -> None:
    """The three outputs every tool has are rows of the schemas page, in the page's language, with
    their workflow references; a tool page names them in one line that links there and lists
    neither their rows nor their references."""
    described = {"": "Text messages of the tool", "zh/": "工具的文本消息", "ja/": "テキストメッセージ"}
    for folder, words in described.items():
        schemas = cases_site.page(f"{folder}schemas")
        rows = _tables(schemas)["dr-outputs"][0]
        assert [row[0].lstrip("# ") for row in rows[1:]] == ["text", "files", "json"]
        assert [row[1] for row in rows[1:]] == ["string", "array[file]", "array[object]"]
        assert words in rows[1][3]
        for name in ("text", "files", "json"):
            assert f'<tr id="out-{name}">' in schemas
            assert f"{{{{#node_id.{name}#}}}}" in html.unescape(schemas)
        for tool in ("weather_demo/weather/forecast", "weather_demo/weather/weather_map"):
            page = cases_site.page(f"{folder}plugins/{tool}")
            assert 'href="../../../../schemas/#fixed-outputs"><code>text</code>' in page
            assert 'id="out-text"' not in page
            assert "{{#node_id.text#}}" not in html.unescape(page)


def test_example_runs_show_every_kind_of_output(cases_site: BuiltSite) -> None:
    """A real run of the registry's weather tool: its description in the page's language, inputs,
    text, a downloadable file served by the site, the link, pretty JSON and the variables table."""
    page = cases_site.page("pt/plugins/weather_station/weather_station/current_weather")
    runs = _runs(page)
    assert {"london", "lisbon-fahrenheit"} <= set(runs)
    lisbon = runs["lisbon-fahrenheit"]
    assert lisbon.startswith("lisbon-fahrenheit </h3>")
    assert '<span class="dr-badge dr-ok dr-result" data-result="passed">✓ passou</span>' in lisbon
    assert '<p class="dr-run__description">Uma temperatura decimal convertida para Fahrenheit</p>' in lisbon
    london = runs["london"]
    assert 'lang="en">The city of Dify&#39;s documentation example' in london  # marked as English
    inputs = re.search(r"<pre><code>(.*?)</code></pre>", london, re.S)
    assert inputs
    assert json.loads(html.unescape(inputs[1])) == {"location": "London"}
    assert "Weather in London: 22°C, Partly Cloudy." in london
    download = re.search(r'<a href="([^"]+)" download>[^<]*partly-cloudy\.svg</a>', london)
    assert download
    assert download[1].endswith(".svg.download")  # an SVG never runs as a page of the site
    here = cases_site.root / "pt/plugins/weather_station/weather_station/current_weather"
    served = (here / download[1]).resolve()
    assert cases_site.root.resolve() in served.parents
    assert served.read_bytes().startswith(b"<svg")
    assert '<a href="https://en.wikipedia.org/wiki/London" rel="nofollow noopener noreferrer">' in london
    produced = re.search(r'<pre class="dr-json"><code>(.*?)</code></pre>', london, re.S)
    assert produced
    assert "\n  " in html.unescape(produced[1])  # indented for people
    assert json.loads(html.unescape(produced[1]))[0]["humidity"] == 64
    assert _tables(london)["dr-variables"][0][1:] == [
        ["temperature", "22"],
        ["conditions", "Partly Cloudy"],
        ["forecast", "Sunny with occasional showers tomorrow"],
    ]


def test_a_failed_run_is_marked_with_its_findings(cases_site: BuiltSite) -> None:
    """A tool whose module is missing: its smoke run is marked as a crash and shows why."""
    runs = _runs(cases_site.page("plugins/weather_demo/weather/forecast"))
    assert list(runs) == ["smoke"]
    smoke = runs["smoke"]
    assert '<span class="dr-badge dr-error dr-result" data-result="crashed">✗ crashed in the plugin' in smoke
    findings = _tables(smoke)["dr-findings"][0]
    assert [row[:2] for row in findings[1:]] == [["error", "R001"]]


def test_run_files_are_copied_once_at_the_site_root(cases_site: BuiltSite) -> None:
    """Run files live under files/ once for all four languages, none with a name a browser would run."""
    files = [p for p in (cases_site.root / "files").rglob("*") if p.is_file()]
    assert any(p.suffix == ".png" for p in files)
    assert any(p.name.endswith(".svg.download") for p in files)
    assert not [p for p in files if p.suffix in (".svg", ".html", ".htm", ".xhtml", ".xml", ".js")]
    for folder in ("zh", "ja", "pt"):
        assert not (cases_site.root / folder / "files").exists()


def test_schema_pages_show_the_root_type_and_properties(cases_site: BuiltSite) -> None:
    """A schema's page names its root type; an object lists its properties, an array of strings
    says it has none instead of showing an empty table."""
    structure = cases_site.page("ja/schemas/v1/general_structure")
    meta = dict(row for row in _tables(structure)["dr-meta"][0] if len(row) == 2)
    assert meta["型"] == "array[string]"
    assert "dr-outputs" not in structure
    assert "このスキーマには名前付きのプロパティがありません。" in structure
    file_page = cases_site.page("schemas/v1/file")
    assert dict(row for row in _tables(file_page)["dr-meta"][0] if len(row) == 2)["Type"] == "object"
    names = [row[0].lstrip("# ") for row in _tables(file_page)["dr-outputs"][0][1:]]
    assert {"name", "size", "mime_type", "url"} <= set(names)


def test_a_replayed_run_says_so_and_lists_its_requests(cases_site: BuiltSite) -> None:
    """The registry's API tool, replayed from its committed recording: the date, the requests it
    made, and the outputs as for a live run, in every language."""
    words = {"": "Replayed from a recording of", "zh": "回放自录制于", "pt": "Reproduzido de uma gravação de"}
    for prefix, said in words.items():
        page = cases_site.page(f"{prefix}/plugins/book_finder/book_finder/search_books".lstrip("/"))
        gardening = _runs(page)["gardening"]
        assert re.search(f'<p class="dr-run__replay">{said} 20[0-9-]{{8}}</p>', gardening)
        assert "GET http://127.0.0.1:48371/api/v1/search?q=gardening&amp;limit=2" in gardening
        assert "GET http://127.0.0.1:48371/api/v1/books/bk-101" in gardening
        assert "The Small Garden by R. Meadows (2019)" in gardening
    live = _runs(cases_site.page("plugins/weather_station/weather_station/current_weather"))["london"]
    assert "dr-run__replay" not in live
    pages = [path.read_text(encoding="utf-8") for path in html_files(cases_site.root)]
    for secret in (BOOK_KEY, RATES_TOKEN):
        assert not [page for page in pages if secret in page]


def test_tool_page_shows_how_a_workflow_references_each_output(cases_site: BuiltSite) -> None:
    """Each output a workflow can name gets its `{{#node_id.path#}}` line, in every language;
    paths through an array (no selector reaches inside one) are left out."""
    page = cases_site.page("plugins/weather_demo/weather/forecast")
    listed = re.search(r'<ul class="dr-references">(.*?)</ul>', page, re.S)
    assert listed is not None
    shown = [html.unescape(code) for code in re.findall(r"<code>(.*?)</code>", listed.group(1))]
    assert shown == ["{{#node_id." + path + "#}}" for path in FORECAST_OUTPUTS if "[]" not in path]
    assert "工作流" in cases_site.page("zh/plugins/weather_demo/weather/forecast")
