"""Pages of hostile plugins in headless Chromium: nothing a plugin wrote runs, loads or breaks a page.

One site is built (through `dify-registry build`, examples run) from a known-good plugin plus every
`pages/` case of the hostile suite; every page showing those plugins, in all four languages, is
opened in Chromium: the catalog, plugin and tool pages, the coverage page and the rule pages their
findings link to. A second site, from the good plugin alone, shows that plugin's pages exactly as
the first does.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from generator.site.render import MAX_TEXT
from tests.conftest import offline_context
from tests.hostile import GOOD, build_named, case_of, index, plugin_name
from tests.sitebuild import BuiltSite, build_site, serve, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("hostile-pages")]
CASES = sorted({key for keys in index().values() for key in keys if key.startswith("pages/")})
# Language code -> folder of its site.
LANGUAGES = {"en_US": "", "zh_Hans": "zh/", "ja_JP": "ja/", "pt_BR": "pt/"}
GOOD_NAME = "good_basic"
RULE_LINK = re.compile(r'<a href="([^"]*rules/[a-z0-9_-]+/)">')
ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.DOTALL)
# Relative prefixes ("../..", "./") in the theme's inline scripts differ with the page's depth.
RELATIVE = re.compile(r'"(?:\.\.?/?)+')
# Text whose direction can reorder what is around it: right-to-left letters and direction controls.
DIRECTIONAL = "[\\u0590-\\u08ff\\ufb1d-\\ufdff\\ufe70-\\ufefe\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]"
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")

# `window.__pwned` is the global every injected script of the cases sets.
PROBE = """() => {
  const handlers = [];
  for (const element of document.querySelectorAll("*"))
    for (const attribute of element.attributes)
      if (attribute.name.toLowerCase().startsWith("on"))
        handlers.push(element.tagName + "[" + attribute.name + "]");
  const links = Array.from(document.querySelectorAll("a[href], area[href]"));
  return {
    marker: typeof window.__pwned,
    handlers,
    injected: Array.from(document.querySelectorAll("[id^=pwned]"), e => e.id),
    embedded: Array.from(document.querySelectorAll(
      "iframe, frame, object, embed, base, form[action], [formaction], [srcdoc], meta[http-equiv]"
    ), e => e.outerHTML.slice(0, 120)),
    links: links.filter(a => !["http:", "https:", "mailto:"].includes(a.protocol))
      .map(a => a.getAttribute("href")),
    scripts: Array.from(document.scripts,
      s => s.src ? "src " + s.src : "inline " + (s.type || "") + " " + s.text),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""

ISOLATION = """(pattern) => {
  const directional = new RegExp(pattern);
  const walker = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_TEXT);
  const loose = [];
  let found = 0;
  while (walker.nextNode()) {
    const text = walker.currentNode;
    if (!directional.test(text.data)) continue;
    found += 1;
    if (!text.parentElement.closest("bdi")) loose.push(text.data.slice(0, 80));
  }
  const header = document.querySelector(".md-header__title").textContent;
  return {found, loose, title: document.title, header};
}"""


@dataclass(frozen=True)
class HostileSites:
    """The site of the good plugin and every pages case, served at `url`; the good plugin's alone."""

    together: BuiltSite
    alone: BuiltSite
    url: str

    def plugin(self, name: str, site: BuiltSite | None = None) -> dict[str, Any]:
        """A plugin's entry of index.json."""
        plugins = (site or self.together).index()["plugins"]
        assert isinstance(plugins, list)
        return next(p for p in plugins if p["name"] == name)

    def pages(self, name: str, language: str, site: BuiltSite | None = None) -> list[str]:
        """A plugin's page and its tool pages in one language, relative to the site's root."""
        entry = self.plugin(name, site)
        urls = [entry["pages"][language], *(tool["pages"][language] for tool in entry["tools"])]
        return [url.removeprefix("https://dify.ai/") for url in urls]

    def rule_pages(self, language: str) -> list[str]:
        """The rule pages that findings on the hostile plugins' pages link to, in one language."""
        found = set()
        for key in CASES:
            for url in self.pages(plugin_name(key), language):
                for href in RULE_LINK.findall(self.together.page(url)):
                    found.add(posixpath.normpath(posixpath.join(url, href)) + "/")
        return sorted(found)


@dataclass
class Watched:
    """A browser page with every dialog, console message and uncaught error it produced."""

    page: Any
    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="session")
def hostile_sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileSites]:
    """Both sites, built once per worker; the first served on localhost."""
    base = tmp_path_factory.mktemp("hostile-pages")
    built: dict[str, BuiltSite] = {}
    for name, keys in (("together", CASES), ("alone", [])):
        registry = base / name
        shutil.copytree(GOOD, registry / "plugins" / "good")
        for key in keys:
            build_named(key, base / "cases" / key, 9).rename(registry / "plugins" / plugin_name(key))
        # From inside the registry, findings name `plugins/good/...` in both builds. The second build
        # shares the environments of the first but runs its examples again.
        again = ["--no-cache"] if built else []
        with contextlib.chdir(registry):
            config = write_config(base / f"{name}-config", [registry])
            built[name] = build_site(
                config, base / f"{name}-site", "--cache-dir", str(base / "cache"), *again
            )
    with serve(built["together"].root) as url:
        yield HostileSites(built["together"], built["alone"], url)


@pytest.fixture
def watched(page: Any) -> Watched:
    """The test's page, recording dialogs (dismissed), console messages and page errors."""
    seen = Watched(page)

    def on_dialog(dialog: Any) -> None:
        seen.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("console", lambda message: seen.console.append(message.text))
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    return seen


@pytest.fixture(scope="session")
def theme_scripts(browser: Any, hostile_sites: HostileSites) -> dict[str, list[str]]:
    """Per language, the scripts of a hand-written page and of a generated page that shows no
    plugin's text (the schemas page, in the generated pages' lighter frame): the theme's and the
    site's own, no plugin's."""
    context = offline_context(browser)
    page = context.new_page()
    scripts = {}
    for language, folder in LANGUAGES.items():
        found: set[str] = set()
        for reference in ("about/", "schemas/"):
            page.goto(f"{hostile_sites.url}{folder}{reference}")
            found.update(_scripts(page.evaluate(PROBE)))
        scripts[language] = sorted(found)
    context.close()
    return scripts


def _scripts(probe: dict[str, Any]) -> list[str]:
    return sorted(RELATIVE.sub('"', script) for script in probe["scripts"])


def _assert_inert(watched: Watched, url: str, scripts: list[str]) -> None:
    """Open `url` and check nothing from a plugin runs, loads, links to script or widens the page."""
    watched.page.goto(url)
    watched.page.wait_for_load_state("load")
    probe: dict[str, Any] = watched.page.evaluate(PROBE)
    problems = {
        "marker set": probe["marker"] != "undefined",
        "event handlers": probe["handlers"],
        "injected ids": probe["injected"],
        "embedded or active elements": probe["embedded"],
        "links that are not http(s), relative or mailto": probe["links"],
        "scripts besides the theme's": sorted(set(_scripts(probe)) - set(scripts)),
        "page wider than the window (px)": max(probe["overflow"], 0),
        "dialogs": watched.dialogs,
        "console messages of injected code": [m for m in watched.console if "pwned" in m],
        "page errors": watched.errors,
    }
    assert {name: found for name, found in problems.items() if found} == {}, url


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", CASES)
def test_plugin_pages_are_inert(
    key: str,
    language: str,
    watched: Watched,
    hostile_sites: HostileSites,
    theme_scripts: dict[str, list[str]],
) -> None:
    """The case's plugin page and tool pages run, load and link to nothing of the plugin's."""
    for url in hostile_sites.pages(plugin_name(key), language):
        _assert_inert(watched, hostile_sites.url + url, theme_scripts[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_listing_and_rule_pages_are_inert(
    language: str, watched: Watched, hostile_sites: HostileSites, theme_scripts: dict[str, list[str]]
) -> None:
    """The catalog and the translation coverage page, which list every hostile plugin, and the rule
    pages their findings link to (which quote those findings) run nothing of theirs."""
    folder = LANGUAGES[language]
    for url in (folder, folder + "translations/"):
        _assert_inert(watched, hostile_sites.url + url, theme_scripts[language])
        for key in CASES:
            assert watched.page.locator(f'a[href*="plugins/{plugin_name(key)}/"]').count() >= 1, (url, key)
    rules = hostile_sites.rule_pages(language)
    expected = {f["rule"] for key in CASES for f in case_of(key).expect["findings"]}
    # Every language links the English rule pages (a rule's texts are English).
    assert {f"rules/{code.lower()}/" for code in expected} <= set(rules)
    for url in rules:
        _assert_inert(watched, hostile_sites.url + url, theme_scripts[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_long_label_is_cut_with_a_marker(
    language: str, watched: Watched, hostile_sites: HostileSites
) -> None:
    """A 100,000-character label is shortened, the cut is marked visibly, the page keeps its width
    (also on a phone-sized window)."""
    name = plugin_name("pages/long-label")
    entry = hostile_sites.plugin(name)
    plugin_url, *tool_urls = hostile_sites.pages(name, language)
    headings = [
        (plugin_url, entry["label"]),
        *zip(tool_urls, (t["label"] for t in entry["tools"]), strict=True),
    ]
    page = watched.page
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(hostile_sites.url + LANGUAGES[language])
        page.wait_for_selector("[data-dr-loaded]")
        card = page.locator(f'li.dr-card[data-plugin="{name}"]')
        assert card.locator(".dr-cut").is_visible() == _is_long(entry["label"], language)
        for url, label in headings:
            page.goto(hostile_sites.url + url)
            assert page.locator("h1 .dr-cut").is_visible() == _is_long(label, language)
            longest = page.evaluate(
                "Math.max(...(document.body.innerText.match(/W+/g) || ['']).map(w => w.length))"
            )
            assert 200 <= longest <= MAX_TEXT
            # Below the header: on a phone, the theme's own language menu overhangs by a few pixels.
            assert page.evaluate("document.querySelector('.md-container').scrollWidth") <= width
            box = page.locator("h1").bounding_box()
            assert box is not None
            assert box["x"] + box["width"] <= width


def _is_long(label: dict[str, str], language: str) -> bool:
    """Whether the label a page shows in `language` (English when missing) is the long one."""
    return len(label.get(language) or label["en_US"]) >= 100_000


@pytest.mark.parametrize("language", LANGUAGES)
def test_right_to_left_and_invisible_text_is_isolated(
    language: str, watched: Watched, hostile_sites: HostileSites
) -> None:
    """Right-to-left letters and direction controls sit in `<bdi>`; titles and addresses carry no
    invisible character."""
    name = plugin_name("pages/bidi-and-zero-width")
    for url in hostile_sites.pages(name, language):
        assert url.isascii()
        watched.page.goto(hostile_sites.url + url)
        found = watched.page.evaluate(ISOLATION, DIRECTIONAL)
        assert found["found"] > 0, url
        assert found["loose"] == [], url
        assert not INVISIBLE.search(found["title"] + found["header"]), url


def test_good_plugin_renders_as_if_alone(hostile_sites: HostileSites) -> None:
    """The good plugin's page and tool pages, in every language, and its index.json entry are the same
    beside the hostile plugins as in a site of its own."""
    together, alone = hostile_sites.together, hostile_sites.alone
    assert together.code == alone.code == 0
    assert hostile_sites.plugin(GOOD_NAME) == hostile_sites.plugin(GOOD_NAME, alone)
    for language in LANGUAGES:
        urls = hostile_sites.pages(GOOD_NAME, language)
        assert urls == hostile_sites.pages(GOOD_NAME, language, alone)
        for url in urls:
            shown = [ARTICLE.findall(site.page(url)) for site in (together, alone)]
            assert len(shown[0]) == 1
            assert shown[0] == shown[1], url
