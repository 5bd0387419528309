"""Every generated page of one language, as Markdown files holding one pre-escaped HTML block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.diagnostics import Severity, count_by_severity
from generator.load.crawl import LoadedPlugin
from generator.model import Plugin, Tool, ToolKey
from generator.rules import all_rules
from generator.schemas import CATALOG_PATH
from generator.schemas.properties import type_text
from generator.site.languages import SiteLanguage
from generator.site.render import PageContext, render
from generator.site.safe import plain_title
from generator.site.shared import TRANSLATED, SharedViews
from generator.site.texts import texts_for
from generator.site.urls import page_url, rule_src, schema_src
from generator.site.views import finding_views, fixed_rows, property_rows

SCHEMAS_INDEX = "schemas/index.md"
RULES_INDEX = "rules/index.md"
COVERAGE_PAGE = "translations.md"
MAX_RULE_FINDINGS = 500


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


@dataclass(frozen=True, slots=True)
class Counts:
    """Findings of a plugin by severity."""

    errors: int
    warnings: int


class SitePages:
    """Builds the pages of one language from the catalog."""

    def __init__(self, shared: SharedViews, language: SiteLanguage, use_directory_urls: bool = True) -> None:
        self.shared = shared
        self.catalog = shared.catalog
        self.language = language
        self.words = texts_for(language.code)
        self.fixed_outputs = fixed_rows(self.words)
        self.use_directory_urls = use_directory_urls
        self.sitemap = shared.sitemap

    def context(self, src: str) -> PageContext:
        """The page context of the page at `src`."""
        return PageContext(self.language, page_url(src, self.use_directory_urls), self.use_directory_urls)

    def all(self) -> Iterator[GeneratedPage]:
        """Every generated page."""
        for loaded in self.catalog.plugins:
            if loaded.plugin is not None:
                yield self.plugin_page(loaded, loaded.plugin)
                for index, tool in enumerate(loaded.plugin.tools):
                    yield self.tool_page(loaded, loaded.plugin, index, tool)
        yield from self.schema_pages()
        yield from self.rule_pages()
        yield self.coverage_page()

    def counts(self, loaded: LoadedPlugin) -> Counts:
        """Errors and warnings of one plugin."""
        by_severity = count_by_severity(self.catalog.findings_of(loaded))
        return Counts(by_severity[Severity.ERROR], by_severity[Severity.WARNING])

    def home(self) -> str:
        """The catalog listing shown under the home page's own text."""
        cards: list[dict[str, Any]] = []
        for loaded in self.catalog.plugins:
            plugin = loaded.plugin
            if plugin is None:
                continue
            src = self.sitemap.plugins[loaded.display]
            cards.append(
                {
                    "src": src,
                    "slug": src.split("/")[1],
                    "label": plugin.label,
                    "description": plugin.description,
                    "tags": plugin.tags,
                    "author": plugin.author,
                    "version": plugin.version,
                    "tool_count": len(plugin.tools),
                    "counts": self.counts(loaded),
                    "icon": self.shared.icon(loaded, plugin.icon),
                }
            )
        tags = sorted({tag for card in cards for tag in card["tags"]})
        return render("catalog.html.j2", self.context("index.md"), cards=cards, tags=tags)

    def plugin_page(self, loaded: LoadedPlugin, plugin: Plugin) -> GeneratedPage:
        """The page of one plugin."""
        src = self.sitemap.plugins[loaded.display]
        tools = [(self.sitemap.tools[(loaded.display, i)], t) for i, t in enumerate(plugin.tools)]
        html = render(
            "plugin.html.j2",
            self.context(src),
            plugin=plugin,
            tools=tools,
            counts=self.counts(loaded),
            icon=self.shared.icon(loaded, plugin.icon),
            readme=self.shared.markdown(plugin.readme) if plugin.readme else "",
            findings=finding_views(self.catalog.findings_of(loaded)),
            domains=self.catalog.domains_of(loaded),
            observed=self.catalog.contacted_by(loaded),
            history=self.catalog.histories.get(loaded.display),
        )
        title = plain_title(plugin.label.get(self.language.code) or plugin.name)
        return GeneratedPage(src, title, html, (title,))

    def tool_page(self, loaded: LoadedPlugin, plugin: Plugin, index: int, tool: Tool) -> GeneratedPage:
        """The page of one tool."""
        src = self.sitemap.tools[(loaded.display, index)]
        files = {loaded.display_path(tool.file), loaded.display_path(_examples_file(tool.file))}
        findings = [d for d in self.catalog.findings_of(loaded) if d.file in files]
        html = render(
            "tool.html.j2",
            self.context(src),
            plugin=plugin,
            tool=tool,
            plugin_src=self.sitemap.plugins[loaded.display],
            outputs=self.fixed_outputs + self.shared.output_properties(tool),
            has_schema=isinstance(tool.output_schema, dict),
            schemas_loaded=self.catalog.schemas is not None,
            runs=self.shared.runs(tool.key),
            findings=finding_views(findings),
            **self._added_in_this_version(loaded, tool),
        )
        title = plain_title(tool.label.get(self.language.code) or tool.name)
        return GeneratedPage(src, title, html, (title,))

    def _added_in_this_version(self, loaded: LoadedPlugin, tool: Tool) -> dict[str, frozenset[str]]:
        """The tool's parameter names and output paths that are new in the plugin's version."""
        history = self.catalog.histories.get(loaded.display)
        key = (tool.key.provider, tool.name)
        if history is None:
            return {"added_parameters": frozenset(), "added_outputs": frozenset()}
        return {
            "added_parameters": frozenset(n for *k, n in history.added_parameters if tuple(k) == key),
            "added_outputs": frozenset(p for *k, p in history.added_outputs if tuple(k) == key),
        }

    def schema_pages(self) -> Iterator[GeneratedPage]:
        """The schema catalog page and one page per hosted schema."""
        schemas = self.catalog.schemas
        hosted = schemas.hosted if schemas is not None else ()
        users = self.shared.schema_users
        listed = []
        for schema in hosted:
            src = schema_src(schema)
            listed.append(
                {
                    "src": src,
                    "raw": schema.served_path,
                    "id": schema.id,
                    "title": schema.title or schema.name,
                    "description": schema.description,
                }
            )
            html = render(
                "schema.html.j2",
                self.context(src),
                schema=schema,
                raw=schema.served_path,
                root_type=type_text(schema.data),
                rows=property_rows(schema.properties, schemas) if schemas is not None else [],
                example=schema.example,
                findings=finding_views(schema.lint),
                users=[self._tool_link(key) for key in users.get(schema.id, ())],
            )
            yield GeneratedPage(src, plain_title(schema.title or schema.name), html)
        html = render(
            "schemas.html.j2", self.context(SCHEMAS_INDEX), schemas=listed, catalog_json=CATALOG_PATH
        )
        yield GeneratedPage(SCHEMAS_INDEX, self.words["schemas"], html)

    def _tool_link(self, key: ToolKey) -> dict[str, Any]:
        display, index, tool = self.shared.tools_by_key[key]
        return {"src": self.sitemap.tools[(display, index)], "label": tool.label, "key": str(key)}

    def rule_pages(self) -> Iterator[GeneratedPage]:
        """One page per validation rule and the rules index."""
        by_rule: dict[str, list[Any]] = {}
        for finding in self.catalog.diagnostics:
            by_rule.setdefault(finding.rule, []).append(finding)
        listed = []
        for code, rule in all_rules().items():
            src = rule_src(code)
            found = by_rule.get(code, [])
            listed.append({"src": src, "rule": rule, "count": len(found)})
            html = render(
                "rule.html.j2",
                self.context(src),
                rule=rule,
                doc=self.shared.markdown(rule.doc),
                findings=finding_views(found[:MAX_RULE_FINDINGS]),
            )
            yield GeneratedPage(src, f"{code} {rule.name}", html)
        yield GeneratedPage(
            RULES_INDEX, self.words["rules"], render("rules.html.j2", self.context(RULES_INDEX), rules=listed)
        )

    def coverage_page(self) -> GeneratedPage:
        """Per plugin and language, the texts that fall back to English."""
        rows = [
            {
                "src": self.sitemap.plugins[loaded.display],
                "label": plugin.label,
                "total": coverage.total,
                "missing": coverage.missing,
            }
            for loaded, plugin, coverage in self.shared.coverage
        ]
        html = render("coverage.html.j2", self.context(COVERAGE_PAGE), rows=rows, languages=TRANSLATED)
        return GeneratedPage(COVERAGE_PAGE, self.words["coverage"], html)


def _examples_file(tool_file: str) -> str:
    stem = tool_file.rsplit(".", 1)[0] if "." in tool_file.rsplit("/", 1)[-1] else tool_file
    return f"{stem}.examples.yaml"
