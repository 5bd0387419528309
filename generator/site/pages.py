"""Every generated page of one language, as Markdown files holding one pre-escaped HTML block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from generator.plugin_model import I18n
from generator.schemas import CATALOG_PATH
from generator.site.cards import CARDS_JSON, FIRST_SCREEN, Card, cards, cards_json, catalog_kinds
from generator.site.kinds import ChildEntry, KindSection
from generator.site.languages import SiteLanguage
from generator.site.render import PageContext, render
from generator.site.safe import plain_title
from generator.site.search import SearchKeys, search_keys
from generator.site.site_model import (
    COVERAGE_PAGE,
    MISSING_JSON,
    RULES_INDEX,
    SCHEMAS_INDEX,
    TRANSLATED,
    PluginEntry,
    SiteModel,
    ToolEntry,
)
from generator.site.texts import texts_for
from generator.site.urls import page_url
from generator.site.views import fixed_rows

__all__ = ["COVERAGE_PAGE", "RULES_INDEX", "SCHEMAS_INDEX", "GeneratedPage", "SitePages"]


# The lighter frame of every generated page (overrides/dr-page.html).
LIGHT_TEMPLATE = "dr-page.html"
# What a search result calls a tool page (a kind, shown as the site's word `kind_tools`).
TOOL_WHAT = ("tools",)
# The frame of a page a language serves only in English (overrides/dr-stub.html).
STUB_TEMPLATE = "dr-stub.html"


@dataclass(frozen=True, slots=True)
class GeneratedPage:
    """A page to add to the build: source path, a plain title, and its HTML body; `english` is the
    link to the English page that a page served only in English leads to ("" for any other), and
    `instead` where the language selector leads in the languages that lack the page."""

    src: str
    title: str
    html: str
    english: str = ""
    # The languages (by folder) that have no page of their own in this one's place, each with the
    # page (its URL below the language's root) their entry of the language selector leads to.
    instead: tuple[tuple[str, str], ...] = ()

    def markdown(self) -> str:
        """The Markdown source MkDocs reads: the title in front matter, and no body.

        The body is the rendered HTML, put in place after Markdown has run (`on_page_content`):
        Markdown never sees a plugin's text, and does not spend time re-parsing finished HTML."""
        # The navigation is small by design (catalog and search lead to pages): its sidebar only
        # takes width that the parameter and output tables need.
        meta: dict[str, object] = {"title": self.title, "hide": ["navigation"], "template": LIGHT_TEMPLATE}
        if self.english:
            # The stub's frame names the English page as canonical; the sitemap leaves the stub out.
            meta.update(template=STUB_TEMPLATE, dr_english=self.english)
        if self.instead:
            meta["dr_instead"] = dict(self.instead)  # read by partials/alternate.html
        return f"---\n{json.dumps(meta, ensure_ascii=False)}\n---\n"


class SitePages:
    """Renders the pages of one language from the site model."""

    def __init__(self, model: SiteModel, language: SiteLanguage) -> None:
        self.model = model
        self.language = language
        self.words = texts_for(language.code)
        self.fixed_outputs = tuple(fixed_rows(self.words))
        self.english_only = model.english_only.get(language.code, frozenset())

    def context(self, src: str) -> PageContext:
        """The page context of the page at `src`."""
        directory_urls = self.model.use_directory_urls
        return PageContext(self.language, page_url(src, directory_urls), directory_urls, self.english_only)

    def all(self) -> Iterator[GeneratedPage]:
        """Every generated page."""
        for entry in self.model.plugins:
            yield self.plugin_page(entry)
            for tool in entry.tools:
                yield self.tool_page(entry, tool)
            for section in entry.sections:
                for child in section.children:
                    yield self.child_page(entry, section, child)
        yield from self.schema_pages()
        yield from self.rule_pages()
        yield self.coverage_page()

    def cards(self) -> list[Card]:
        """The catalog's cards in this language, sorted by label."""
        return cards(self.model.plugins, self.language.code, self.words)

    def home(self, shown: list[Card]) -> str:
        """The catalog shown under the home page's own text: the first screen of cards, and the
        other plugins as plain links that the page's script replaces with cards from `cards.json`."""
        return render(
            "catalog.html.j2",
            self.context("index.md"),
            first=shown[:FIRST_SCREEN],
            rest=shown[FIRST_SCREEN:],
            total=len(shown),
            tags=self.model.tags,
            kinds=catalog_kinds(self.model.plugins),
            cards_json=CARDS_JSON,
        )

    def cards_json(self, shown: list[Card]) -> str:
        """`cards.json` of this language (it sits beside the home page)."""
        home = self.context("index.md")
        links = {card.entry.src: home.link(card.entry.src) for card in shown}
        icons = {card.entry.src: home.shared(card.entry.icon) for card in shown if card.entry.icon}
        return cards_json(shown, links, icons, self.words)

    def plugin_page(self, entry: PluginEntry) -> GeneratedPage:
        """The page of one plugin."""
        plugin = entry.plugin
        # A search result names a plugin as one, with the kinds it offers.
        what = ("plugin", *entry.kinds)
        keys = SearchKeys("plugin", plugin.label, plugin.name, what)
        if entry.src in self.english_only:
            return self._stub(keys, entry.src, plugin.description)
        html = render("plugin.html.j2", self.context(entry.src), entry=entry)
        return self._found_by_label(keys, entry.src, html)

    def tool_page(self, plugin: PluginEntry, entry: ToolEntry) -> GeneratedPage:
        """The page of one tool."""
        tool = entry.tool
        keys = SearchKeys("tool", tool.label, tool.name, TOOL_WHAT)
        if entry.src in self.english_only:
            return self._stub(keys, entry.src, tool.description)
        html = render(
            "tool.html.j2",
            self.context(entry.src),
            plugin=plugin,
            entry=entry,
            schemas_index=SCHEMAS_INDEX,
            schemas_loaded=self.model.schema_set is not None,
        )
        return self._found_by_label(keys, entry.src, html)

    def child_page(self, plugin: PluginEntry, section: KindSection, entry: ChildEntry) -> GeneratedPage:
        """The page of one page below a provider of another kind (an event...), by its kind's template."""
        keys = SearchKeys("child", entry.label, entry.name, (section.child_word,))
        if entry.src in self.english_only:
            return self._stub(keys, entry.src, entry.description)
        html = render(
            section.child_template,
            self.context(entry.src),
            plugin=plugin,
            section=section,
            entry=entry,
            schemas_loaded=self.model.schema_set is not None,
        )
        return self._found_by_label(keys, entry.src, html)

    def _found_by_label(self, keys: SearchKeys, src: str, html: str) -> GeneratedPage:
        """A page titled by its label in this language (its name when it has none), which search
        finds by its label in any language."""
        title = plain_title(keys.label.get(self.language.code) or keys.name)
        return GeneratedPage(src, title, f"{html}{search_keys(keys)}")

    def _stub(self, keys: SearchKeys, src: str, description: I18n) -> GeneratedPage:
        """The page of a plugin or tool that this language serves only in English: found by search
        as the full page is, and leading to the English page."""
        title = keys.label.get(self.language.code) or keys.name
        return self._english_only(src, title, description, search_keys(keys))

    def _english_only(
        self, src: str, title: str, description: I18n | str = "", keys: str = ""
    ) -> GeneratedPage:
        """A small page in place of one this language serves only in English: its title, what it
        is, the way to the English page (the search box opens that page for it), and the search
        `keys` it is found by."""
        context = self.context(src)
        english = context.english(src)
        html = render(
            "stub.html.j2",
            context,
            title=title,
            description=description,
            english=english,
            english_path=page_url(src, self.model.use_directory_urls),
        )
        return GeneratedPage(src, plain_title(title), f"{html}{keys}", english)

    def schema_pages(self) -> Iterator[GeneratedPage]:
        """The schema catalog page and one page per hosted schema."""
        for entry in self.model.schemas:
            html = render("schema.html.j2", self.context(entry.src), entry=entry)
            yield GeneratedPage(entry.src, plain_title(entry.schema.title or entry.schema.name), html)
        context = self.context(SCHEMAS_INDEX)
        html = render(
            "schemas.html.j2",
            context,
            schemas=self.model.schemas,
            catalog_json=CATALOG_PATH,
            fixed_outputs=self.fixed_outputs,
        )
        yield GeneratedPage(SCHEMAS_INDEX, self.words["schemas"], html)

    def rule_pages(self) -> Iterator[GeneratedPage]:
        """One page per validation rule and the rules index. A language that serves a rule only in
        English (its texts are English) has no page of its own for it, not even a small one leading
        to the English page as a plugin's has: its pages link the English page, its rules index
        lists the rule, and the English page's language selector leads to that index (a small page
        per rule in each of three languages made a thousand more pages to write and index)."""
        index = page_url(RULES_INDEX, self.model.use_directory_urls)
        for entry in self.model.rules:
            if entry.src in self.english_only:
                continue
            lacking = [
                lang.folder for lang in TRANSLATED if entry.src in self.model.english_only.get(lang.code, ())
            ]
            html = render("rule.html.j2", self.context(entry.src), entry=entry)
            title = f"{entry.rule.code} {entry.rule.name}"
            yield GeneratedPage(entry.src, title, html, instead=tuple((folder, index) for folder in lacking))
        html = render("rules.html.j2", self.context(RULES_INDEX), rules=self.model.rules)
        yield GeneratedPage(RULES_INDEX, self.words["rules"], html)

    def coverage_page(self) -> GeneratedPage:
        """Per plugin and language, the texts that fall back to English."""
        html = render(
            "coverage.html.j2",
            self.context(COVERAGE_PAGE),
            plugins=self.model.plugins,
            languages=TRANSLATED,
            missing_json=MISSING_JSON,
        )
        return GeneratedPage(COVERAGE_PAGE, self.words["coverage"], html)
