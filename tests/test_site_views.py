"""The site's pages rendered from a catalog, without MkDocs: the parts built once for every language
or every page (words written into templates, cached texts and rows, the site model) show what the
templates showed, escape what they must, and agree across languages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from markupsafe import Markup, escape

from generator.catalog import Catalog
from generator.findings import Finding, Location, Severity
from generator.pipeline import site_catalog
from generator.plugin_model import I18n, Option, Parameter, Tool, ToolKey
from generator.schemas import referenced_ids
from generator.site.languages import LANGUAGE_SITES, site_language
from generator.site.pages import SitePages
from generator.site.render import PageContext, WordsLoader, environment, render
from generator.site.site_model import SCHEMAS_INDEX, ToolEntry, site_model
from generator.site.texts import texts_for
from generator.site.untrusted import MAX_CELL, untrusted_html
from generator.site.views import FindingView, OutputRow
from tests.conftest import REPO
from tests.sitebuild import BuiltSite, cases_site

CASES = REPO / "tests" / "cases" / "site" / "registry"
__all__ = ["cases_site"]  # the session's built site, used below
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&'
ESCAPED = str(escape(HOSTILE))


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The site test plugins and the registry's own plugins, checked, without runs."""
    return site_catalog([CASES, REPO], REPO / "schemas", None)


def _pages(catalog: Catalog) -> dict[str, dict[str, str]]:
    model = site_model(catalog)
    return {
        lang.code: {page.src: page.html for page in SitePages(model, lang).all()} for lang in LANGUAGE_SITES
    }


def test_each_language_shows_its_own_words(catalog: Catalog) -> None:
    """The words written into each language's templates are that language's, escaped."""
    pages = _pages(catalog)
    tool = "plugins/weather_demo/weather/forecast.md"
    for code, built in pages.items():
        words = texts_for(code)
        html = built[tool]
        for key, anchor in (("parameters", "parameters"), ("outputs", "outputs"), ("findings", "findings")):
            assert f'<h2 id="{anchor}">{escape(words[key])}</h2>' in html
        assert "t[" not in html
    assert len({built[tool] for built in pages.values()}) == len(LANGUAGE_SITES)


def test_words_are_escaped_and_never_read_as_template_code() -> None:
    """A word is written in escaped; one that looks like template syntax stays a looked-up word."""
    source = "<h2>{{ t['plain'] }}</h2><p>{{ t['code'] }}</p>{{ t['plain'] if yes else '' }}"
    words = {"plain": "R&D <b>", "code": "{{ secret }}"}
    loader = WordsLoader(jinja2.DictLoader({"page.html": source}), words)
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined)
    written, _, _ = loader.get_source(env, "page.html")
    assert written.startswith("<h2>R&amp;D &lt;b&gt;</h2>")
    html = env.get_template("page.html").render(t=words, yes=True, secret="leaked")
    assert html == "<h2>R&amp;D &lt;b&gt;</h2><p>{{ secret }}</p>R&amp;D &lt;b&gt;"


def test_cached_text_keeps_trusted_and_untrusted_apart() -> None:
    """The same characters as trusted Markup and as a plain (untrusted) string never share a cache
    entry, in either order."""
    for order in ((Markup, str), (str, Markup)):
        text = f"<b>{order[0].__name__}</b>"
        shown = {kind: untrusted_html(kind(text), MAX_CELL, "en_US") for kind in order}
        assert shown[Markup] == text
        assert shown[str] == str(escape(text))


def test_cached_text_marks_in_the_page_language() -> None:
    """A cut and an English fallback are marked in the words of each language, even when the same
    text was shown in another language first."""
    label = I18n.of({"en_US": "x" * 400})
    for lang in LANGUAGE_SITES:
        words = texts_for(lang.code)
        html = untrusted_html(label, MAX_CELL, lang.code)
        assert str(escape(words["truncated"])) in html
        # The mark's words are said once in the page's head (test_site_details), not in each mark.
        assert ('<sup class="dr-fallback">EN</sup>' in html) == (lang.code != "en_US")


def _context(language: str = "ja_JP") -> PageContext:
    return PageContext(site_language(language), "plugins/evil/p/t/")


def findings_table(page: PageContext, views: list[FindingView]) -> str:
    """The findings table as every page shows it (a macro of the page's language)."""
    macros: Any = environment(page.language.code).globals["m"]
    return str(macros.findings(views, page))


def test_finding_rows_escape_every_field() -> None:
    """Every field of a finding is escaped, and its rule links to the rule's page."""
    finding = Finding(HOSTILE, 3, 4, "/x", "Y001", Severity.ERROR, HOSTILE, HOSTILE)
    html = findings_table(_context(), [FindingView.of(finding, "rules/y001.md")])
    assert "<script" not in html
    assert "<img" not in html
    assert html.count(ESCAPED) == 3
    assert '<a href="../../../../rules/y001/">Y001</a>' in html
    rogue = Finding("f", 1, 1, "", HOSTILE, Severity.WARNING, "m", "")
    assert ESCAPED in findings_table(_context(), [FindingView.of(rogue, None)])


def test_finding_cells_are_those_of_the_page_language() -> None:
    """A finding's cells, made once per language, hold that language's words on every page."""
    finding = Finding("tools/t.yaml", 1, 1, "", "Y001", Severity.INFO, "m", "a hint")
    for lang in LANGUAGE_SITES:
        hint = f"<small>{escape(texts_for(lang.code)['hint'])}: a hint</small>"
        for url in ("plugins/p/", "rules/y001/"):
            page = PageContext(lang, url)
            assert hint in findings_table(page, [FindingView.of(finding, None)])


def tool_page(tool: Tool, outputs: tuple[OutputRow, ...], language: str = "pt_BR") -> str:
    """The page of `tool` alone: no runs or findings, in a plugin that has only a label."""
    entry = ToolEntry("plugins/evil/p/t.md", tool, outputs, frozenset(), (), (), "", frozenset(), frozenset())
    shown = {"plugin": _PluginStub(), "entry": entry, "schemas_index": SCHEMAS_INDEX, "schemas_loaded": True}
    return render("tool.html.j2", _context(language), **shown)


class _PluginStub:
    """What a tool page shows of its plugin."""

    src = "plugins/evil/index.md"
    plugin = SimpleNamespace(label=I18n.of("evil"))


def test_parameter_and_output_rows_escape_every_field() -> None:
    """Names, labels, types, forms, options, defaults and descriptions from a manifest are escaped."""
    here = Location("tools/t.yaml", 1, 1)
    text = I18n.of(HOSTILE)
    parameter = Parameter(
        HOSTILE, HOSTILE, HOSTILE, text, text, HOSTILE, True, {"k": HOSTILE},
        (Option(HOSTILE, HOSTILE, text, here),), False, None, None, text, here,
    )  # fmt: skip
    key = ToolKey("evil", "p", "t")
    tool = Tool(key, "tools/t.yaml", I18n.of("t"), I18n.of(""), "", "", (parameter,), {}, "", here)
    html = tool_page(tool, ())
    parameters = html.split('<table class="dr-parameters">', 1)[1].split("</table>", 1)[0]
    assert "<script" not in parameters
    assert "<img" not in parameters
    assert parameters.count(ESCAPED) == 8  # name, label, type, form, option value and label, descriptions
    assert str(escape(HOSTILE.replace('"', '\\"'))) in parameters  # the default, as JSON
    row = OutputRow(HOSTILE, "a", HOSTILE, True, HOSTILE, HOSTILE, "schemas/v1/file.md")
    html = tool_page(Tool(key, "tools/t.yaml", I18n.of("t"), I18n.of(""), "", "", (), {}, "", here), (row,))
    outputs = html.split('<table class="dr-outputs">', 1)[1].split("</table>", 1)[0]
    assert "<script" not in outputs
    # A schema reference may break after each slash (<wbr>, added after escaping).
    assert outputs.replace("<wbr>", "").count(ESCAPED) == 4
    assert 'href="../../../../schemas/v1/file/"' in outputs


def test_references_read_back_match_each_tools_own(catalog: Catalog, tmp_path: Path) -> None:
    """The schema references of every tool, read back from the schema users, are the tool's own,
    also when two plugins declare tools of the same key with different references."""
    for number, target in enumerate(("general_structure", "qa_structure")):
        folder = tmp_path / f"registry{number}" / "plugins" / "text_chunkers"
        shutil.copytree(REPO / "plugins" / "text_chunkers", folder)
        declared = folder / "tools" / "general_chunker.yaml"
        declared.write_text(declared.read_text().replace("general_structure.json", f"{target}.json"))
    twice = site_catalog([tmp_path / "registry0", tmp_path / "registry1"], REPO / "schemas", None)
    for checked in (catalog, twice):
        model = site_model(checked)
        assert checked.schemas is not None
        for plugin in model.plugins:
            for entry in plugin.tools:
                assert entry.references == referenced_ids(entry.tool.output_schema, checked.schemas)
    chunkers = [plugin.tools[0] for plugin in site_model(twice).plugins]
    assert len({entry.references for entry in chunkers}) == 2


# With the site tests: the site is built once per worker.
@pytest.mark.slow
@pytest.mark.xdist_group("site")
def test_run_outputs_are_the_same_in_every_language(cases_site: BuiltSite) -> None:
    """Inputs, outputs and variables of example runs (made once) show identically in every language."""
    blocks = re.compile(
        r"<pre[^>]*><code>(.*?)</code></pre>|<table class=\"dr-variables\">(.*?)</table>", re.S
    )
    shown = []
    for lang in LANGUAGE_SITES:
        html = cases_site.page(f"{lang.folder}plugins/badge_maker/badge_maker/draw_badge")
        values = [code or re.sub(r"<th>.*?</th>", "", table) for code, table in blocks.findall(html)]
        assert values
        shown.append(values)
    assert all(values == shown[0] for values in shown)


def test_a_tool_page_lists_the_findings_of_its_class_file(tmp_path: Path) -> None:
    """What a tool's own class file does wrong is the tool's: its page lists it, instead of saying
    "no findings" while the plugin's page names the line (a shared module stays the plugin's)."""
    folder = tmp_path / "plugins" / "demo"
    shutil.copytree(REPO / "tests" / "cases" / "validate" / "bad" / "invoke-not-a-generator", folder)
    (folder / "expect.yaml").unlink()
    model = site_model(site_catalog([tmp_path / "plugins"], REPO / "schemas", None))
    tools = {entry.tool.name: entry for plugin in model.plugins for entry in plugin.tools}
    assert [view.rule for view in tools["oneshot"].findings] == ["T018"]
    assert [view.rule for view in tools["listed"].findings] == []
