"""The plugin page's access domains: what the static scan found, how many calls build their address
at run time, and the hosts example runs tried to reach, in each language."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from markupsafe import escape

from generator.catalog import Catalog
from generator.pipeline import site_catalog
from generator.run import ExampleRun
from generator.run.result import RunResult
from generator.site.languages import LANGUAGE_SITES
from generator.site.pages import SitePages
from generator.site.site_model import site_model
from generator.site.texts import texts_for
from tests.conftest import REPO
from tests.validate_cases import CASES

PLUGIN = CASES / "bad" / "submission-domains"


def plugin_pages(catalog: Catalog) -> dict[str, str]:
    """The plugin page's HTML in each language, as a language that has a text of this plugin writes
    it (the plugin has English texts only, which the other languages would serve in English)."""
    model = dataclasses.replace(site_model(catalog), english_only=MappingProxyType({}))
    return {
        lang.code: next(p.html for p in SitePages(model, lang).all() if 'id="plugin"' in p.html)
        for lang in LANGUAGE_SITES
    }


def with_run(catalog: Catalog, contacted: tuple[str, ...]) -> Catalog:
    """The catalog with one example run of the plugin's tool that tried to reach `contacted`."""
    tool = catalog.plugins[0].plugin.tools[0]  # type: ignore[union-attr]
    run = ExampleRun(
        tool=tool.key,
        plugin=catalog.plugins[0].display,
        example="forecast",
        smoke=False,
        inputs=MappingProxyType({}),
        messages=(),
        outputs=MappingProxyType({}),
        files=(),
        findings=(),
        result=RunResult.PASSED,
        duration=0.1,
        python="3.12",
        contacted=contacted,
    )
    return dataclasses.replace(catalog, runs=(run,))


def test_plugin_page_lists_found_built_and_observed_domains() -> None:
    """Found hosts, the run-time call count and the observed hosts, with the page language's words."""
    catalog = with_run(site_catalog([PLUGIN], REPO / "schemas", None), ("api.acme-weather.com",))
    for code, page in plugin_pages(catalog).items():
        words = texts_for(code)
        assert f'<h2 id="access-domains">{escape(words["access_domains"])}</h2>' in page
        table = page.split('<table class="dr-domains">', 1)[1].split("</table>", 1)[0]
        assert "<code>api.acme-weather.com</code> <code>tiles.mapvendor.io</code>" in table
        assert "github.com" not in table
        assert "docs.acme-weather.com" not in table
        assert f"<th>{escape(words['domains_built'])}</th><td>1 / 2</td>" in table
        assert f"<th>{escape(words['domains_observed'])}</th><td><code>api.acme-weather.com</code>" in table


def test_plugin_without_network_code_has_no_domains_section() -> None:
    """A plugin that names no host and makes no call shows no empty section."""
    catalog = site_catalog([CASES / "good" / "minimal"], REPO / "schemas", None)
    assert all("access-domains" not in page for page in plugin_pages(catalog).values())


def test_observed_hosts_are_escaped() -> None:
    """A host a run reported is text from a stranger's code: escaped like any other."""
    catalog = with_run(site_catalog([PLUGIN], REPO / "schemas", None), ("<b>x</b>.example.org",))
    page = plugin_pages(catalog)["en_US"]
    assert "<code>&lt;b&gt;x&lt;/b&gt;.example.org</code>" in page
