"""Every generated page of one language, as Markdown files holding one pre-escaped HTML block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from generator.schemas import CATALOG_PATH
from generator.site.languages import SiteLanguage
from generator.site.model import (
    COVERAGE_PAGE,
    RULES_INDEX,
    SCHEMAS_INDEX,
    TRANSLATED,
    PluginEntry,
    SiteModel,
    ToolEntry,
)
from generator.site.render import PageContext, render
from generator.site.safe import plain_title
from generator.site.texts import texts_for
from generator.site.urls import page_url
from generator.site.views import fixed_rows

__all__ = ["COVERAGE_PAGE", "RULES_INDEX", "SCHEMAS_INDEX", "GeneratedPage", "SitePages"]


@dataclass(frozen=True, slots=True)
class GeneratedPage:
    """A page to add to the build: source path, a plain title, and its HTML body."""

    src: str
    title: str
    html: str
    # Search keys kept whole: Material splits Chinese titles into words for its index, so a
    # label typed as one phrase is found through the page's tags.
    keys: tuple[str, ...] = ()

    def markdown(self) -> str:
        """The Markdown source MkDocs reads: title and search keys in front matter, and no body.

        The body is the rendered HTML, put in place after Markdown has run (`on_page_content`):
        Markdown never sees a plugin's text, and does not spend time re-parsing finished HTML."""
        # The navigation is small by design (catalog and search lead to pages): its sidebar only
        # takes width that the parameter and output tables need.
        meta = {
            "title": self.title,
            "hide": ["navigation"],
            **({"tags": list(self.keys)} if self.keys else {}),
        }
        return f"---\n{json.dumps(meta, ensure_ascii=False)}\n---\n"


class SitePages:
    """Renders the pages of one language from the site model."""

    def __init__(self, model: SiteModel, language: SiteLanguage) -> None:
        self.model = model
        self.language = language
        self.words = texts_for(language.code)
        self.fixed_outputs = tuple(fixed_rows(self.words))

    def context(self, src: str) -> PageContext:
        """The page context of the page at `src`."""
        use_directory_urls = self.model.use_directory_urls
        return PageContext(self.language, page_url(src, use_directory_urls), use_directory_urls)

    def all(self) -> Iterator[GeneratedPage]:
        """Every generated page."""
        for entry in self.model.plugins:
            yield self.plugin_page(entry)
            for tool in entry.tools:
                yield self.tool_page(entry, tool)
        yield from self.schema_pages()
        yield from self.rule_pages()
        yield self.coverage_page()

    def home(self) -> str:
        """The catalog listing shown under the home page's own text."""
        cards = [
            {
                "src": entry.src,
                "slug": entry.src.split("/")[1],
                "label": entry.plugin.label,
                "description": entry.plugin.description,
                "tags": entry.plugin.tags,
                "author": entry.plugin.author,
                "version": entry.plugin.version,
                "tool_count": len(entry.tools),
                "counts": entry.counts,
                "icon": entry.icon,
            }
            for entry in self.model.plugins
        ]
        tags = sorted({tag for entry in self.model.plugins for tag in entry.plugin.tags})
        return render("catalog.html.j2", self.context("index.md"), cards=cards, tags=tags)

    def plugin_page(self, entry: PluginEntry) -> GeneratedPage:
        """The page of one plugin."""
        plugin = entry.plugin
        html = render(
            "plugin.html.j2",
            self.context(entry.src),
            plugin=plugin,
            tools=entry.tools,
            counts=entry.counts,
            icon=entry.icon,
            readme=entry.readme,
            findings=entry.findings,
            domains=entry.domains,
            observed=entry.observed,
            releases=entry.releases,
        )
        title = plain_title(plugin.label.get(self.language.code) or plugin.name)
        return GeneratedPage(entry.src, title, html, (title,))

    def tool_page(self, plugin: PluginEntry, entry: ToolEntry) -> GeneratedPage:
        """The page of one tool."""
        tool = entry.tool
        html = render(
            "tool.html.j2",
            self.context(entry.src),
            plugin=plugin.plugin,
            tool=tool,
            plugin_src=plugin.src,
            outputs=(*self.fixed_outputs, *entry.outputs),
            has_schema=isinstance(tool.output_schema, dict),
            schemas_loaded=self.model.schema_set is not None,
            runs=entry.runs,
            findings=entry.findings,
            added_parameters=entry.added_parameters,
            added_outputs=entry.added_outputs,
        )
        title = plain_title(tool.label.get(self.language.code) or tool.name)
        return GeneratedPage(entry.src, title, html, (title,))

    def schema_pages(self) -> Iterator[GeneratedPage]:
        """The schema catalog page and one page per hosted schema."""
        listed = []
        for entry in self.model.schemas:
            schema = entry.schema
            listed.append(
                {
                    "src": entry.src,
                    "raw": schema.served_path,
                    "id": schema.id,
                    "title": schema.title or schema.name,
                    "description": schema.description,
                }
            )
            html = render(
                "schema.html.j2",
                self.context(entry.src),
                schema=schema,
                raw=schema.served_path,
                root_type=entry.root_type,
                rows=entry.rows,
                example=schema.example,
                findings=entry.findings,
                users=entry.users,
            )
            yield GeneratedPage(entry.src, plain_title(schema.title or schema.name), html)
        html = render(
            "schemas.html.j2", self.context(SCHEMAS_INDEX), schemas=listed, catalog_json=CATALOG_PATH
        )
        yield GeneratedPage(SCHEMAS_INDEX, self.words["schemas"], html)

    def rule_pages(self) -> Iterator[GeneratedPage]:
        """One page per validation rule and the rules index."""
        for entry in self.model.rules:
            html = render(
                "rule.html.j2",
                self.context(entry.src),
                rule=entry.rule,
                doc=entry.doc,
                findings=entry.findings,
            )
            yield GeneratedPage(entry.src, f"{entry.rule.code} {entry.rule.name}", html)
        listed = [{"src": entry.src, "rule": entry.rule, "count": entry.count} for entry in self.model.rules]
        yield GeneratedPage(
            RULES_INDEX, self.words["rules"], render("rules.html.j2", self.context(RULES_INDEX), rules=listed)
        )

    def coverage_page(self) -> GeneratedPage:
        """Per plugin and language, the texts that fall back to English."""
        rows = [
            {
                "src": entry.src,
                "label": entry.plugin.label,
                "total": entry.coverage.total,
                "missing": entry.coverage.missing,
            }
            for entry in self.model.plugins
        ]
        html = render("coverage.html.j2", self.context(COVERAGE_PAGE), rows=rows, languages=TRANSLATED)
        return GeneratedPage(COVERAGE_PAGE, self.words["coverage"], html)
