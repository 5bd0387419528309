"""What every language build of the site shares: the catalog and the views computed from it that do
not depend on the language, each computed once on first use and handed to the next language."""

from __future__ import annotations

from functools import cached_property

from markdown_it import MarkdownIt
from markupsafe import Markup

from generator.catalog import Catalog
from generator.load.crawl import LoadedPlugin
from generator.model import Plugin, Tool, ToolKey
from generator.schemas import PropertyRow, flatten_properties, referenced_ids, referencing_tools
from generator.site.coverage import Coverage, coverage_of
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES
from generator.site.readme import make_renderer, render_readme
from generator.site.urls import SiteMap
from generator.site.views import OutputRow, RunView, icon_uri, property_rows, run_view

# The languages whose translations the coverage page counts (English is what they fall back to).
TRANSLATED = tuple(lang for lang in LANGUAGE_SITES if lang != DEFAULT_LANGUAGE)


class SharedViews:
    """Language-independent views of one catalog (page paths, output tables, README HTML...)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._properties: dict[int, list[OutputRow]] = {}
        self._references: dict[int, frozenset[str]] = {}
        self._markdown: dict[str, Markup] = {}
        self._icons: dict[tuple[str, str], str] = {}
        self._runs: dict[ToolKey, tuple[RunView, ...]] = {}

    @cached_property
    def sitemap(self) -> SiteMap:
        """Where each plugin and tool page lives."""
        return SiteMap.of(self.catalog.plugins)

    @cached_property
    def tools_by_key(self) -> dict[ToolKey, tuple[str, int, Tool]]:
        """The first tool of each key, with its plugin's display path and its index there."""
        found: dict[ToolKey, tuple[str, int, Tool]] = {}
        for loaded in self.catalog.plugins:
            for index, tool in enumerate(loaded.plugin.tools if loaded.plugin else ()):
                found.setdefault(tool.key, (loaded.display, index, tool))
        return found

    @cached_property
    def schema_users(self) -> dict[str, tuple[ToolKey, ...]]:
        """Hosted `$id` -> the tools whose output_schema references it."""
        schemas = self.catalog.schemas
        return dict(referencing_tools(self.catalog.plugins, schemas)) if schemas is not None else {}

    def runs(self, key: ToolKey) -> tuple[RunView, ...]:
        """The example runs of a tool as pages show them."""
        views = self._runs.get(key)
        if views is None:
            views = self._runs[key] = tuple(run_view(run) for run in self.catalog.runs_of(key))
        return views

    @cached_property
    def coverage(self) -> list[tuple[LoadedPlugin, Plugin, Coverage]]:
        """Each plugin's translation coverage in the translated languages."""
        codes = tuple(lang.code for lang in TRANSLATED)
        return [
            (p, p.plugin, coverage_of(p.plugin, codes)) for p in self.catalog.plugins if p.plugin is not None
        ]

    def output_properties(self, tool: Tool) -> list[OutputRow]:
        """The rows of the tool's output_schema properties (the fixed variables not included)."""
        # Keyed by identity: the catalog keeps every tool alive as long as these views.
        rows = self._properties.get(id(tool))
        if rows is None:
            schemas = self.catalog.schemas
            flat: tuple[PropertyRow, ...] = ()
            if isinstance(tool.output_schema, dict) and schemas is not None:
                flat = flatten_properties(tool.output_schema, schemas)
            rows = property_rows(flat, schemas) if schemas is not None else []
            self._properties[id(tool)] = rows
        return rows

    def references(self, tool: Tool) -> frozenset[str]:
        """The hosted `$id`s the tool's output_schema references."""
        found = self._references.get(id(tool))
        if found is None:
            if tool.key in self._keys_of_several:
                schemas = self.catalog.schemas
                found = frozenset(referenced_ids(tool.output_schema, schemas) if schemas is not None else ())
            else:
                # Read back from `schema_users`, which analysed every tool's schema already.
                found = self._references_by_key.get(tool.key, frozenset())
            self._references[id(tool)] = found
        return found

    @cached_property
    def _references_by_key(self) -> dict[ToolKey, frozenset[str]]:
        found: dict[ToolKey, set[str]] = {}
        for uri, keys in self.schema_users.items():
            for key in keys:
                found.setdefault(key, set()).add(uri)
        return {key: frozenset(uris) for key, uris in found.items()}

    @cached_property
    def _keys_of_several(self) -> frozenset[ToolKey]:
        # Tools that share a key share their entry in `schema_users`: their own references differ.
        seen: set[ToolKey] = set()
        several: set[ToolKey] = set()
        for loaded in self.catalog.plugins:
            for tool in loaded.plugin.tools if loaded.plugin else ():
                (several if tool.key in seen else seen).add(tool.key)
        return frozenset(several)

    def markdown(self, text: str) -> Markup:
        """Untrusted Markdown (a README, a rule's documentation) as safe HTML on one line."""
        html = self._markdown.get(text)
        if html is None:
            html = Markup(render_readme(text, self._renderer).replace("\n", "&#10;"))
            self._markdown[text] = html
        return html

    @cached_property
    def _renderer(self) -> MarkdownIt:
        return make_renderer()

    def icon(self, loaded: LoadedPlugin, name: str) -> str:
        """The icon of this plugin by the name its manifest gives, as a data: URI ("" if none)."""
        key = (loaded.display, name)
        uri = self._icons.get(key)
        if uri is None:
            uri = self._icons[key] = icon_uri(self.catalog.icon(loaded, name))
        return uri
