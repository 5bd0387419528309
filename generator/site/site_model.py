"""The site model: everything the pages and published files show, computed once from the catalog.

Built before any page renders and never changed afterwards: the owner of every finding, the schema
references of every tool and the tools using every schema, translation coverage, checksums, README
and rule documentation as HTML, the images the site serves (icons and README images, once per
content), and where each page lives in every language.
Pages, `index.json` and the published files only read it; it knows nothing of the site engine that
turns it into a site (MkDocs today), so a second engine would read the same model.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from markupsafe import Markup

from generator.catalog import Catalog
from generator.check.domains import AccessDomains
from generator.diff.history import History
from generator.findings import Finding, Severity, count_by_severity
from generator.kind_models.trigger import Event, EventKey
from generator.load.crawl import LoadedPlugin
from generator.load.examples import examples_origin, examples_path
from generator.media import MAX_IMAGE_BYTES, Image, judge
from generator.plugin_model import KindPart, Plugin, Tool, ToolKey
from generator.rules import Rule
from generator.ruleset import all_rules
from generator.schemas import HostedSchema, SchemaSet, flatten_properties, referenced_ids, referencing_tools
from generator.schemas.properties import type_text
from generator.site.coverage import Coverage, coverage_of, texts_of, tool_texts, written_in
from generator.site.kinds import PAGES, KindSection
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES
from generator.site.readme import image_paths, make_renderer, render_readme
from generator.site.reencode import ICON_WIDTH, README_WIDTH, for_the_page
from generator.site.urls import SiteMap, page_url, rule_src, schema_src
from generator.site.views import (
    EventRunView,
    FindingView,
    OutputRow,
    ReleaseView,
    RunView,
    event_run_view,
    finding_views,
    property_rows,
    release_views,
    run_view,
)

# The languages whose translations the coverage page counts (English is what they fall back to).
TRANSLATED = tuple(lang for lang in LANGUAGE_SITES if lang != DEFAULT_LANGUAGE)
SCHEMAS_INDEX = "schemas/index.md"
RULES_INDEX = "rules/index.md"
COVERAGE_PAGE = "translations.md"
# The texts each plugin lacks per language, served once for every language's translation page.
MISSING_JSON = "translations.json"
MAX_MISSING_LISTED = 200
MAX_RULE_FINDINGS = 500


@dataclass(frozen=True, slots=True)
class Counts:
    """Findings of a plugin by severity."""

    errors: int
    warnings: int
    infos: int


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One tool as every page and file shows it."""

    src: str  # its page
    tool: Tool
    outputs: tuple[OutputRow, ...]  # its output_schema's properties (the fixed variables not included)
    references: frozenset[str]  # the hosted `$id`s its output_schema references
    findings: tuple[FindingView, ...]  # those in its YAML file and its examples file
    runs: tuple[RunView, ...]
    checksum: str  # of its YAML document
    added_parameters: frozenset[str]  # new in the plugin's version
    added_outputs: frozenset[str]
    # The registry's examples file the runs were made from (an overlay), or "" for the plugin's own.
    examples_from: str = ""

    @property
    def has_schema(self) -> bool:
        """True when the tool declares an `output_schema` (a mapping)."""
        return isinstance(self.tool.output_schema, dict)


@dataclass(frozen=True, slots=True)
class PluginEntry:
    """One plugin (with a readable manifest) as every page and file shows it."""

    loaded: LoadedPlugin
    plugin: Plugin
    src: str  # its page
    icon: str  # where the site serves it, under the site root ("" when none)
    readme: Markup  # "" when it has none
    findings: tuple[FindingView, ...]
    counts: Counts
    coverage: Coverage
    domains: AccessDomains
    observed: tuple[str, ...]  # the hosts its example runs tried to reach
    releases: tuple[ReleaseView, ...]  # its version history, newest first (none outside git)
    checksum: str  # of its manifest
    tools: tuple[ToolEntry, ...]
    # Its providers of other kinds (triggers...), each with the pages below it, in manifest order.
    sections: tuple[KindSection, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        """The plugin kinds it offers (manifest keys: `tools`, `triggers`...), tools first."""
        own = ("tools",) if self.tools else ()
        return tuple(dict.fromkeys((*own, *(section.kind for section in self.sections))))

    @property
    def child_counts(self) -> tuple[tuple[str, int], ...]:
        """Per kind other than tools, the pages below its providers (its events...)."""
        counts: dict[str, int] = {}
        # A kind whose providers list their children on the plugin page (models) counts no pages.
        for section in self.sections:
            if not section.children:
                continue
            counts[section.kind] = counts.get(section.kind, 0) + len(section.children)
        return tuple(counts.items())

    @property
    def slug(self) -> str:
        """Its page's folder under `plugins/`."""
        return self.src.split("/")[1]

    @property
    def checked_by(self) -> str:
        """What its verdict rests on: `static` (no run), `examples` (an example its author wrote, a
        recording, or an event's example delivery, ran) or `smoke` (only runs on invented inputs)."""
        runs = [run for tool in self.tools for run in tool.runs]
        if self.event_runs:
            return "examples"
        if not runs:
            return "static"
        return "smoke" if all(run.smoke for run in runs) else "examples"

    @property
    def unproven(self) -> bool:
        """True when it has runs and none of them showed the plugin working (every one stopped,
        answered with an error, or was ignored): such a plugin is not shown as valid."""
        results = [run.result for tool in self.tools for run in tool.runs]
        results += [run.result for run in self.event_runs]
        return bool(results) and not any(result.proven for result in results)

    @property
    def event_runs(self) -> tuple[EventRunView, ...]:
        """The runs of its providers' pages of other kinds (its events' example deliveries)."""
        return tuple(run for section in self.sections for child in section.children for run in child.runs)


@dataclass(frozen=True, slots=True)
class ToolLink:
    """A link to a tool's page (from the page of a schema it uses)."""

    src: str
    label: Any  # I18n
    key: str


@dataclass(frozen=True, slots=True)
class SchemaEntry:
    """One hosted schema."""

    schema: HostedSchema
    src: str
    rows: tuple[OutputRow, ...]
    root_type: str
    findings: tuple[FindingView, ...]
    users: tuple[ToolLink, ...]
    sha256: str  # of the served bytes


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One validation rule and the findings it made (the first MAX_RULE_FINDINGS shown)."""

    rule: Rule
    src: str
    doc: Markup
    count: int
    findings: tuple[FindingView, ...]


@dataclass(frozen=True)
class SiteModel:
    """Everything the site shows, by page; the same for every language."""

    catalog: Catalog
    plugins: tuple[PluginEntry, ...]
    schemas: tuple[SchemaEntry, ...]
    rules: tuple[RuleEntry, ...]
    use_directory_urls: bool = True
    # The images the site serves, by path under the site root (each content once).
    media: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))
    # Per language, the pages it serves only in English (see `english_only_pages`).
    english_only: Mapping[str, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def tags(self) -> list[str]:
        """Every plugin's tags, sorted: what the catalog filters by."""
        return sorted({tag for entry in self.plugins for tag in entry.plugin.tags})

    @property
    def schema_set(self) -> SchemaSet | None:
        """The hosted schemas (None when they could not be loaded)."""
        return self.catalog.schemas

    def missing_texts(self) -> dict[str, dict[str, list[str]]]:
        """Per plugin page and language, the texts that fall back to English (the first ones)."""
        first = MAX_MISSING_LISTED
        return {
            entry.src: {lang: list(found[:first]) for lang, found in entry.coverage.missing.items()}
            for entry in self.plugins
        }

    def paths(self, src: str) -> Mapping[str, str]:
        """Where a reader of each language finds the page at `src`, relative to the site root."""
        return self.served(src, page_url(src, self.use_directory_urls))

    def served(self, src: str, path: str) -> Mapping[str, str]:
        """Where a reader of each language finds `path` (the page at `src`, or a file served beside
        it), relative to the site root: the English one where that language serves the page only in
        English."""
        return {
            lang.code: path if src in self.english_only.get(lang.code, ()) else f"{lang.folder}{path}"
            for lang in LANGUAGE_SITES
        }


def english_only_pages(
    plugins: tuple[PluginEntry, ...], rules: tuple[RuleEntry, ...]
) -> Mapping[str, frozenset[str]]:
    """Per language, the pages it serves only in English: a plugin's page when none of the plugin's
    texts is written in that language, a tool's when none of the tool's is, and every rule's (a
    rule's texts are English). Such a page would repeat the English one under the language's
    headings (most of the official catalog's Japanese and Portuguese pages did), so the language
    links the English one directly, and keeps a small page in its place that leads there for a
    plugin or tool (found by its labels in the language's search), none for a rule (`SitePages.
    rule_pages`)."""
    codes = tuple(lang.code for lang in TRANSLATED)
    rule_pages = {entry.src for entry in rules}
    found: dict[str, set[str]] = {code: set(rule_pages) for code in codes}
    for entry in plugins:
        plugin_languages = written_in(texts_of(entry.plugin), codes)
        for tool in entry.tools:
            tool_languages = written_in(tool_texts("", tool.tool), codes) if plugin_languages else frozenset()
            for code in codes:
                if code not in tool_languages:
                    found[code].add(tool.src)
        for section in entry.sections:
            for child in section.children:
                child_languages = written_in(child.texts, codes) if plugin_languages else frozenset()
                found.update(
                    {code: found[code] | {child.src} for code in codes if code not in child_languages}
                )
        for code in codes:
            if code not in plugin_languages:
                found[code].add(entry.src)
    return MappingProxyType({code: frozenset(pages) for code, pages in found.items()})


def checksum(value: Any) -> str:
    """sha256 of a value's canonical JSON form: changes exactly when the declaration changes."""
    canonical = json.dumps(value, default=str, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def site_model(catalog: Catalog, use_directory_urls: bool = True) -> SiteModel:
    """The model of the site of `catalog`."""
    return _Builder(catalog).model(use_directory_urls)


class _Builder:
    """The analyses the model holds, each made once; what several of them share is kept here."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.sitemap = SiteMap.of(catalog.plugins, _child_names)
        self.renderer = make_renderer()
        schemas = catalog.schemas
        self.users: Mapping[str, tuple[ToolKey, ...]] = (
            referencing_tools(catalog.plugins, schemas) if schemas is not None else {}
        )
        self.references_by_key = _references_by_key(self.users)
        self.keys_of_several = _keys_of_several(catalog.plugins)
        self.markdown: dict[tuple[str, tuple[tuple[str, str], ...]], Markup] = {}
        self.media: dict[str, bytes] = {}
        # Each image re-encoded once per width, whichever plugins ship it.
        self.reencoded: dict[tuple[str, int], Image] = {}

    def model(self, use_directory_urls: bool) -> SiteModel:
        plugins = tuple(
            self.plugin(loaded, loaded.plugin) for loaded in self.catalog.plugins if loaded.plugin is not None
        )
        rules = self.rules()
        return SiteModel(
            self.catalog,
            plugins,
            self.schemas(),
            rules,
            use_directory_urls,
            MappingProxyType(self.media),
            english_only_pages(plugins, rules),
        )

    def html(self, text: str, images: tuple[tuple[str, str], ...] = ()) -> Markup:
        """Untrusted Markdown (a README, a rule's documentation) as safe HTML on one line."""
        html = self.markdown.get((text, images))
        if html is None:
            rendered = render_readme(text, self.renderer, dict(images))
            html = self.markdown[(text, images)] = Markup(rendered.replace("\n", "&#10;"))
        return html

    def published(self, image: Image | str, width: int) -> str:
        """Where the site serves an accepted image that shows at most `width` CSS pixels wide (""
        for one it does not serve)."""
        if isinstance(image, str):
            return ""
        served = self.reencoded.get((image.path, width))
        if served is None:
            served = self.reencoded[(image.path, width)] = for_the_page(image, width)
        self.media[served.path] = served.content
        return served.path

    def readme(self, loaded: LoadedPlugin, text: str) -> Markup:
        """The README as HTML, with the images it names inside the plugin that the site serves."""
        images: list[tuple[str, str]] = []
        for path in image_paths(text):
            if loaded.reader.is_file(path):
                served = self.published(
                    judge(loaded.reader.head(path, MAX_IMAGE_BYTES + 1, keep=False)), README_WIDTH
                )
                if served:
                    images.append((path, served))
        return self.html(text, tuple(images))

    def plugin(self, loaded: LoadedPlugin, plugin: Plugin) -> PluginEntry:
        findings = self.catalog.findings_of(loaded)
        by_severity = count_by_severity(findings)
        manifest = loaded.documents.get("manifest.yaml")
        history = self.catalog.histories.get(loaded.display)
        return PluginEntry(
            loaded=loaded,
            plugin=plugin,
            src=self.sitemap.plugins[loaded.display],
            icon=self.icon(loaded, plugin),
            readme=self.readme(loaded, plugin.readme) if plugin.readme else Markup(""),
            findings=finding_views(findings),
            counts=Counts(
                by_severity[Severity.ERROR], by_severity[Severity.WARNING], by_severity[Severity.INFO]
            ),
            coverage=coverage_of(plugin, tuple(lang.code for lang in TRANSLATED)),
            domains=self.catalog.domains_of(loaded),
            observed=self.catalog.contacted_by(loaded),
            releases=release_views(history),
            checksum=checksum(manifest.data if manifest else None),
            tools=tuple(
                self.tool(loaded, index, tool, findings, history) for index, tool in enumerate(plugin.tools)
            ),
            sections=self.sections(loaded, plugin, findings),
        )

    def sections(
        self, loaded: LoadedPlugin, plugin: Plugin, findings: tuple[Finding, ...]
    ) -> tuple[KindSection, ...]:
        """The sections of the plugin's providers of other kinds, made by their kinds' pages."""
        build = _PluginBuild(self, loaded, findings)
        return tuple(
            PAGES[part.kind].section(part, index, build)
            for index, part in enumerate(plugin.parts)
            if part.kind in PAGES
        )

    def icon(self, loaded: LoadedPlugin, plugin: Plugin) -> str:
        icon = self.catalog.icon(loaded, plugin.icon)
        return self.published(judge(icon.content), ICON_WIDTH) if icon is not None else ""

    def tool(
        self,
        loaded: LoadedPlugin,
        index: int,
        tool: Tool,
        findings: tuple[Finding, ...],
        history: History | None,
    ) -> ToolEntry:
        examples_from = examples_origin(loaded, tool)
        files = {
            loaded.display_path(tool.file),
            loaded.display_path(examples_path(tool)),
            examples_from,
            # the tool's own class file: what its code does wrong is the tool's (shared modules stay
            # on the plugin's page)
            *([loaded.display_path(tool.source)] if tool.source else []),
        }
        document = loaded.documents.get(tool.file)
        key = (tool.key.provider, tool.name)
        return ToolEntry(
            src=self.sitemap.tools[(loaded.display, index)],
            tool=tool,
            outputs=self.outputs(tool),
            references=self.references(tool),
            findings=finding_views(d for d in findings if d.file in files),
            runs=tuple(run_view(run) for run in self.catalog.runs_of(loaded, tool.key)),
            checksum=checksum(document.data if document else None),
            added_parameters=frozenset(
                n for *k, n in (history.added_parameters if history else ()) if tuple(k) == key
            ),
            added_outputs=frozenset(
                p for *k, p in (history.added_outputs if history else ()) if tuple(k) == key
            ),
            examples_from=examples_from,
        )

    def outputs(self, tool: Tool) -> tuple[OutputRow, ...]:
        return self.schema_rows(tool.output_schema)

    def schema_rows(self, schema: Any) -> tuple[OutputRow, ...]:
        """The output-variable rows of an `output_schema` (none when the hosted schemas are not
        loaded, or it is not a mapping)."""
        schemas = self.catalog.schemas
        if schemas is None:
            return ()
        flat = flatten_properties(schema, schemas) if isinstance(schema, dict) else ()
        return tuple(property_rows(flat, schemas))

    def references(self, tool: Tool) -> frozenset[str]:
        if tool.key not in self.keys_of_several:
            # Read back from the schema users, which analysed every tool's schema already.
            return self.references_by_key.get(tool.key, frozenset())
        # Tools that share a key share their entry among the users: their own references differ.
        schemas = self.catalog.schemas
        return frozenset(referenced_ids(tool.output_schema, schemas) if schemas is not None else ())

    def schemas(self) -> tuple[SchemaEntry, ...]:
        schemas = self.catalog.schemas
        if schemas is None:
            return ()
        first = _first_tools(self.catalog.plugins)
        return tuple(
            SchemaEntry(
                schema=schema,
                src=schema_src(schema),
                rows=tuple(property_rows(schema.properties, schemas)),
                root_type=type_text(schema.data),
                findings=finding_views(schema.lint),
                users=tuple(self.link(first[key]) for key in self.users.get(schema.id, ())),
                sha256=hashlib.sha256(schema.content).hexdigest(),
            )
            for schema in schemas.hosted
        )

    def link(self, found: tuple[str, int, Tool]) -> ToolLink:
        display, index, tool = found
        return ToolLink(self.sitemap.tools[(display, index)], tool.label, str(tool.key))

    def rules(self) -> tuple[RuleEntry, ...]:
        by_rule: dict[str, list[Finding]] = {}
        for finding in self.catalog.findings:
            by_rule.setdefault(finding.rule, []).append(finding)
        entries = []
        for code, rule in all_rules().items():
            found = by_rule.get(code, [])
            entries.append(
                RuleEntry(
                    rule,
                    rule_src(code),
                    self.html(rule.doc),
                    len(found),
                    finding_views(found[:MAX_RULE_FINDINGS]),
                )
            )
        return tuple(entries)


class _PluginBuild:
    """What the model offers a kind's pages while they build one plugin's sections (`kinds.Build`)."""

    def __init__(self, builder: _Builder, loaded: LoadedPlugin, findings: tuple[Finding, ...]) -> None:
        self.builder = builder
        self.loaded = loaded
        self.findings = findings

    def child_src(self, part: int, child: int) -> str:
        return self.builder.sitemap.children[(self.loaded.display, part, child)]

    def outputs(self, schema: Any) -> tuple[OutputRow, ...]:
        return self.builder.schema_rows(schema)

    def references(self, schema: Any) -> frozenset[str]:
        schemas = self.builder.catalog.schemas
        return frozenset(referenced_ids(schema, schemas) if schemas is not None else ())

    def findings_in(self, *files: str) -> tuple[FindingView, ...]:
        shown = {self.loaded.display_path(file) for file in files}
        overlay = self.loaded.registry_examples
        if overlay is not None:
            # a file the registry supplies for a plugin it does not own has its findings there
            shown |= {overlay.display_path(file) for file in files if file in overlay.supplied}
        return finding_views(d for d in self.findings if d.file in shown)

    def checksum_of(self, file: str) -> str:
        document = self.loaded.documents.get(file)
        return checksum(document.data if document else None)

    def event_runs(self, key: EventKey) -> tuple[EventRunView, ...]:
        return tuple(event_run_view(run) for run in self.builder.catalog.event_runs_of(self.loaded, key))

    def examples_from(self, part: Event) -> str:
        return examples_origin(self.loaded, part)


def _child_names(part: KindPart) -> tuple[str, ...]:
    pages = PAGES.get(part.kind)
    return pages.children(part) if pages is not None else ()


def _references_by_key(users: Mapping[str, tuple[ToolKey, ...]]) -> Mapping[ToolKey, frozenset[str]]:
    found: dict[ToolKey, set[str]] = {}
    for uri, keys in users.items():
        for key in keys:
            found.setdefault(key, set()).add(uri)
    return MappingProxyType({key: frozenset(uris) for key, uris in found.items()})


def _keys_of_several(plugins: tuple[LoadedPlugin, ...]) -> frozenset[ToolKey]:
    seen: set[ToolKey] = set()
    several: set[ToolKey] = set()
    for loaded in plugins:
        for tool in loaded.plugin.tools if loaded.plugin else ():
            (several if tool.key in seen else seen).add(tool.key)
    return frozenset(several)


def _first_tools(plugins: tuple[LoadedPlugin, ...]) -> dict[ToolKey, tuple[str, int, Tool]]:
    """The first tool of each key, with its plugin's display path and its index there."""
    found: dict[ToolKey, tuple[str, int, Tool]] = {}
    for loaded in plugins:
        for index, tool in enumerate(loaded.plugin.tools if loaded.plugin else ()):
            found.setdefault(tool.key, (loaded.display, index, tool))
    return found
