"""The MkDocs plugin (`dify-registry`): a thin shell that turns the catalog into pages at build time.

The default language builds as configured; each other language is a fresh MkDocs build into its own
folder with its own `theme.language`, started in a forked process once the catalog exists (or
afterwards in this process, see `multilang.LanguageBuilds`); once all are written, Pagefind indexes
the whole site for search (`search`). Nothing is kept between two builds: `mkdocs serve` creates
new plugin instances for every rebuild.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator.catalog import Catalog
from generator.pipeline import site_catalog
from generator.published import SITE_URL
from generator.run import RunOptions
from generator.site.blank_render import render_blank_without_markdown
from generator.site.cards import CARDS_JSON, Card
from generator.site.heap import long_lived, release
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES, SiteLanguage, site_language
from generator.site.llms import LlmsText
from generator.site.multilang import LanguageBuilds, cores
from generator.site.pages import SitePages
from generator.site.publish import shared_files, watched_paths
from generator.site.rebuild import LanguagePages, Plan, Rebuild, page_digest
from generator.site.render import theme_templates
from generator.site.search import SearchIndexError, index_site
from generator.site.site_model import COVERAGE_PAGE, RULES_INDEX, SCHEMAS_INDEX, SiteModel, site_model
from generator.site.texts import script_words
from generator.site.translate import TranslatedDocs
from generator.site.untrusted import forget
from generator.site.weight import compact, shared_assets, theme_stylesheets

log = logging.getLogger("mkdocs.plugins.dify-registry")
HERE = Path(__file__).parent
# The frame of a page whose HTML a build keeps as it is (overrides/dr-kept.html): it renders nothing,
# and MkDocs writes no page for an empty output.
KEPT_TEMPLATE = "dr-kept.html"
# The registry's own stylesheet and script, each published as one file made of its sources (every
# page loads both parts: one tag and one request each instead of two, in thousands of pages).
ASSETS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "assets/dify-registry.css": ("assets/dify-registry.css", "assets/dify-registry-search.css"),
        "assets/dify-registry.js": ("assets/dify-registry.js", "assets/dify-registry-search.js"),
    }
)


def _joined(asset: str) -> str:
    """The published file `asset` made of its sources (files of this package), in order; the script
    starts with the words it shows in each language."""
    text = "\n".join((HERE / source).read_text(encoding="utf-8") for source in ASSETS[asset])
    if asset.endswith(".js"):
        text = script_words({lang.hreflang: lang.code for lang in LANGUAGE_SITES}) + text
    return text


class RegistryConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the `dify-registry` plugin in mkdocs.yml."""

    registry = c.Type((str, list), default=".")
    """The registry folder (holding `plugins/`), a plugin folder, or a list of them; relative to
    mkdocs.yml."""
    schemas = c.Type(str, default="schemas")
    """The folder of hosted schemas (holding `v1/`), relative to mkdocs.yml."""
    language = c.Choice([lang.code for lang in LANGUAGE_SITES], default=DEFAULT_LANGUAGE.code)
    """The language of this build; the default language's build also builds the others."""
    languages = c.Type(bool, default=True)
    """Build the other three languages too (into `zh/`, `ja/`, `pt/`)."""
    run = c.Type(bool, default=False)
    """Run the tools' examples (results are cached between builds)."""
    jobs = c.Type(int, default=0)
    """How many language builds run at the same time (0: one per core)."""
    cache = c.Type(str, default="")
    """Where tool runs are cached, relative to mkdocs.yml (default: `.dify-registry-cache` in the
    working folder)."""


@dataclass(frozen=True)
class CatalogSource:
    """What the site's catalog is checked from: registry (or plugin) folders, the hosted schemas'
    folder, how the tools' examples run (None: they do not), and a folder of run overlays."""

    paths: Sequence[Path]
    schemas: Path
    run: RunOptions | None
    overlays: Path | None = None


class RegistryPlugin(BasePlugin[RegistryConfig]):  # type: ignore[no-untyped-call]
    """Adds the catalog, plugin, tool, schema, rule and translation pages to the build."""

    def __init__(self) -> None:
        self.checked: Catalog | None = None  # see `catalog`
        # The default-language build hands its site model (catalog included) to the other
        # languages, so nothing is computed twice.
        self.model: SiteModel | None = None
        self.pages: SitePages | None = None
        self.docs: TranslatedDocs | None = None
        self.bodies: dict[str, str] = {}  # generated page source -> its rendered HTML
        self.cards: list[Card] = []  # the catalog's cards in this build's language
        self.builds: LanguageBuilds | None = None  # the other languages, started early
        self.frozen = False  # this build set its catalog aside from the garbage collector
        # A language built under the default one's site: it uses the theme's assets at the root.
        self.shares_assets = False
        self.root_path = "/"  # the path of the site's root on its server (`/registry/`)
        # `dify-registry build` of a folder it built before: which pages keep their HTML (rebuild.py).
        self.rebuild: Rebuild | None = None
        self.plan = Plan()
        self.written: LanguagePages | None = None
        self.home = ""  # the catalog under the home page's own text

    @property
    def language(self) -> SiteLanguage:
        """The language this build renders."""
        return site_language(self.config.language)

    def _root(self, config: MkDocsConfig, option: str) -> Path:
        base_dir = Path(config.config_file_path).parent if config.config_file_path else Path.cwd()
        return (base_dir / option).resolve()

    def paths(self, config: MkDocsConfig) -> tuple[list[Path], Path]:
        """The registry (or plugin) folders and the schemas folder this configuration names."""
        named = self.config.registry
        folders = [named] if isinstance(named, str) else [str(item) for item in named]
        return [self._root(config, f) for f in folders], self._root(config, self.config.schemas)

    def source(self, config: MkDocsConfig) -> CatalogSource:
        """What mkdocs.yml says the catalog is checked from."""
        registries, schemas = self.paths(config)
        return CatalogSource(registries, schemas, self._run_options(config))

    def catalog(
        self, config: MkDocsConfig, source: CatalogSource | None = None, progress: bool = False
    ) -> Catalog:
        """This build's catalog, checked once, from `source` (default: what mkdocs.yml names).
        `dify-registry build` asks first, with what its command line names, to report the findings
        before any page is rendered; the pages then show that same catalog.

        Raises SchemaLoadError when the schemas folder cannot be read."""
        if self.checked is None:
            chosen = source or self.source(config)
            self.checked = site_catalog(chosen.paths, chosen.schemas, chosen.run, chosen.overlays, progress)
        return self.checked

    def render_for(self, language: SiteLanguage, model: SiteModel, rebuild: Rebuild | None) -> None:
        """Make this build another language's under the default language's site: it renders that
        build's `model` (catalog included) in `language`, builds no further languages, uses the
        theme's assets at the site's root, and keeps pages as that build does (`rebuild`)."""
        self.config["language"] = language.code
        self.config["languages"] = False
        self.model = model
        self.shares_assets = True
        self.rebuild = rebuild

    @event_priority(100)  # the theme's language is set before any other plugin reads it
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Set the theme language, the language selector and the template overrides."""
        language = self.language
        config.theme["language"] = language.theme
        # The pt-BR override imports Material's own pt-BR texts by their bare name.
        languages = [Path(d) / "partials" / "languages" for d in config.theme.dirs]
        config.theme.dirs.extend(str(d) for d in languages if (d / "pt-BR.html").is_file())
        config.theme.dirs.insert(0, str(HERE / "overrides"))
        # Material asks Google's servers for its web fonts on every page; the registry's pages make
        # no request to a third party (a reader's privacy, and a site read offline), so every page
        # uses the reader's system fonts, as the generated pages' light frame already does.
        config.theme["font"] = False
        # Another language's build has its folder in site_url; the links name each language's root.
        root = (config.site_url or "/").removesuffix(language.folder)
        self.root_path = urlsplit(root).path or "/"
        config.extra["alternate"] = [
            {"name": lang.name, "lang": lang.hreflang, "folder": lang.folder, "link": root + lang.folder}
            for lang in LANGUAGE_SITES
        ]
        config.extra["dify_registry"] = {
            "prefix": language.prefix,
            "stylesheets": theme_stylesheets(config.theme.dirs),
        }
        for asset in ASSETS:
            target = config.extra_css if asset.endswith(".css") else config.extra_javascript
            if asset not in target:
                target.append(asset)
        # Generated pages are reached from the catalog, not the navigation: listing them is noise.
        config.validation.nav.omitted_files = logging.DEBUG
        features = config.theme.get("features") or []
        if "navigation.prune" not in features:
            config.theme["features"] = [*features, "navigation.prune"]
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        """Add the generated pages and files; pick the translated hand-written pages."""
        if self.model is None:  # a build of its own, not one language handed another's model
            forget()
            with long_lived():
                self.model = site_model(self.catalog(config), config.use_directory_urls)
            self.frozen = True
        if self.language == DEFAULT_LANGUAGE and self.config.languages and self.builds is None:
            # The catalog is all the other languages need: they can start now, on other cores.
            others = [language for language in LANGUAGE_SITES if language != DEFAULT_LANGUAGE]
            self.builds = LanguageBuilds(config, others, self.model, self.rebuild)
            self.builds.start(self.config.jobs or cores())
        self.pages = SitePages(self.model, self.language)
        self.docs = TranslatedDocs.pick(files, self.language, config)
        made: dict[str, str] = {}  # generated page source -> the digest of what it is made of
        for page in self.pages.all():
            markdown = page.markdown()
            files.append(File.generated(config, page.src, content=markdown))
            self.bodies[page.src] = page.html
            if self.rebuild is not None:
                made[page.src] = page_digest(markdown, page.html)
        for path, text in LlmsText(self.model, self.language, self.pages.words).files():
            files.append(_served_as(File.generated(config, path + ".txt", content=text), path))
        self.cards = self.pages.cards()
        files.append(File.generated(config, CARDS_JSON, content=self.pages.cards_json(self.cards)))
        if self.shares_assets:
            _drop_theme_assets(files, config)
        else:
            _drop_unused_theme_assets(files, config)
            for asset in ASSETS:
                files.append(File.generated(config, asset, content=_joined(asset)))
        if self.language == DEFAULT_LANGUAGE:
            for path, content in shared_files(self.model, config.site_url or "").items():
                if isinstance(content, Path):
                    files.append(File.generated(config, path, abs_src_path=str(content)))
                else:
                    files.append(File.generated(config, path, content=content))
        if config.nav is None:
            config.nav = self._navigation()
        self.home = self.pages.home(self.cards)
        if self.rebuild is not None:
            self._plan(files, config, made)
        return files

    def _plan(self, files: Files, config: MkDocsConfig, made: dict[str, str]) -> None:
        """Decide which pages keep the HTML the last build of the folder wrote (rebuild.py)."""
        assert self.rebuild is not None
        pages: dict[str, tuple[str, str]] = {}
        for file in files.documentation_pages():
            digest = made.get(file.src_uri)
            if digest is None:  # hand-written: its text, and the catalog under the home page's
                text = file.content_string
                digest = page_digest(text, self.home if file.src_uri == "index.md" else "")
                if self.rebuild.incremental:
                    # A build that keeps pages reads only the sources MkDocs finds newer than their
                    # page; every page's title and metadata must be read, as a full build does.
                    file.content_string = text
            pages[file.src_uri] = (file.dest_uri, digest)
        others = [f.dest_uri for f in files if not f.is_documentation_page()]
        self.written = LanguagePages(pages, frozenset(others))
        folders = [lang.prefix for lang in LANGUAGE_SITES if lang.prefix] if not self.shares_assets else []
        self.plan = self.rebuild.plan(self.language.code, Path(config.site_dir), self.written, folders)

    def _run_options(self, config: MkDocsConfig) -> RunOptions | None:
        if not self.config.run:
            return None
        options = RunOptions(site_url=config.site_url or SITE_URL)
        return (
            replace(options, cache_dir=self._root(config, self.config.cache))
            if self.config.cache
            else options
        )

    def _navigation(self) -> list[Any]:
        # Small on purpose: catalog pages and search lead to plugins and tools (Material renders the
        # whole navigation into every page, so listing every tool would make the build quadratic).
        assert self.pages is not None
        words = self.pages.words
        assert self.docs is not None
        handwritten = sorted(src for src in self.docs.pages if src != "index.md")
        top = [src for src in handwritten if "/" not in src]
        sections: dict[str, list[str]] = {}
        for src in handwritten:
            if "/" in src:
                sections.setdefault(src.split("/", 1)[0], []).append(src)
        nav: list[Any] = [{words["catalog"]: "index.md"}, *top]
        nav.extend({words.get(folder, folder.capitalize()): pages} for folder, pages in sections.items())
        nav.extend(
            [
                {words["schemas"]: SCHEMAS_INDEX},
                {words["rules"]: RULES_INDEX},
                {words["translations"]: COVERAGE_PAGE},
            ]
        )
        return nav

    def on_env(self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        """The theme's templates compiled once, not in each language's build (render.theme_templates)."""
        env.bytecode_cache = theme_templates(env)
        return env

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A generated page's body, and the catalog under the home page's own text: HTML rendered
        from the catalog (escaped by the templates), never passed through Markdown."""
        assert self.pages is not None
        if page.file.src_uri == "index.md":
            return f"{html}\n{self.home}"
        return self.bodies.get(page.file.src_uri, html)

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Mark hand-written pages shown in English; give a page that keeps its HTML the frame that
        renders nothing; spare a blank page (every generated one) MkDocs's Markdown parser."""
        assert self.docs is not None
        if page.file.src_uri in self.plan.kept:
            page.meta["template"] = KEPT_TEMPLATE
        if page.file.src_uri in self.docs.pages:
            markdown = self.docs.note(page.file.src_uri, markdown)
        if not markdown.strip():
            render_blank_without_markdown(page)
        return markdown

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Every page without indentation, and loading the root's assets in another language;
        nothing for a page that keeps its HTML (MkDocs then leaves its file as it is)."""
        if page.file.src_uri in self.plan.kept:
            return ""
        return self._lighter(output)

    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        """The theme's own pages (404) as light as the others."""
        return self._lighter(output_content) if template_name.endswith(".html") else output_content

    def _lighter(self, html: str) -> str:
        html = compact(html)
        return shared_assets(html, self.language.prefix, self.root_path) if self.shares_assets else html

    # Last: the search index reads the pages every other plugin has finished writing.
    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """After the default language, build this process's share of the other languages, wait
        for the forked ones, then index the whole site for search."""
        if self.rebuild is not None and self.written is not None:
            self.rebuild.finish(self.language.code, Path(config.site_dir), self.written, self.plan)
        if self.builds is not None:
            builds, self.builds = self.builds, None
            builds.finish()
        self._release()
        if self.language == DEFAULT_LANGUAGE:  # the outermost build: every language is written
            try:
                index_site(Path(config.site_dir))
            except SearchIndexError as failure:
                raise PluginError(f"dify-registry: {failure}") from failure

    def on_build_error(self, *, error: Exception) -> None:
        """Stop the other languages' builds when the default language's build failed."""
        if self.builds is not None:
            builds, self.builds = self.builds, None
            builds.abort()
        self._release()

    def _release(self) -> None:
        if self.frozen:
            self.frozen = False
            release()

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        """Rebuild when a manifest, tool file, example or schema changes (or a package is replaced)."""
        for path in watched_paths(*self.paths(config)):
            if path.is_file():
                # A package is replaced whole, often by renaming a new file onto it, which a watch
                # on the old file never sees: watch the folder that holds it.
                server.watch(os.fspath(path.parent), recursive=False)
            elif path.exists():
                server.watch(os.fspath(path))
        return server


def _served_as(file: File, path: str) -> File:
    """A generated file copied as it is to `path` (a `.md` name would make MkDocs render it)."""
    file.dest_uri = path
    return file


def _drop_theme_assets(files: Files, config: MkDocsConfig) -> None:
    """Leave out the theme's assets: the default language's build already writes them at the root."""
    themes = [Path(folder).resolve() for folder in config.theme.dirs]
    for file in list(files):
        if not file.src_uri.startswith("assets/") or file.generated_by is not None or not file.abs_src_path:
            continue
        source = Path(file.abs_src_path).resolve()
        if any(source.is_relative_to(theme) for theme in themes):
            files.remove(file)


# Material's search (its worker and word splitters), which Pagefind replaces, and source maps.
UNUSED_THEME_ASSETS = ("assets/javascripts/lunr/", "assets/javascripts/workers/")
MATERIAL_SEARCH = ("search", "material/search")


def _drop_unused_theme_assets(files: Files, config: MkDocsConfig) -> None:
    """Leave out the theme's files no page loads: its search's, unless mkdocs.yml enables that
    search, and the source maps (1.3 MB that only a debugger reads)."""
    search = any(name in config.plugins for name in MATERIAL_SEARCH)
    for file in list(files):
        if file.generated_by is not None:
            continue
        unused = file.src_uri.endswith(".map") or (
            not search and file.src_uri.startswith(UNUSED_THEME_ASSETS)
        )
        if unused and file.src_uri.startswith("assets/"):
            files.remove(file)
