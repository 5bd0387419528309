"""The Jinja environment of each language for every generated page: strict undefined variables,
autoescape on, the language's words written into the templates, and helpers that escape untrusted
text, mark English fallbacks and link only http(s)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import jinja2
import jinja2.compiler
from markupsafe import Markup, escape

from generator.findings import Finding
from generator.plugin_model import I18n
from generator.site.cards import badge
from generator.site.languages import SiteLanguage
from generator.site.readme import rebased
from generator.site.safe import safe_url
from generator.site.site_model import PluginEntry
from generator.site.texts import texts_for
from generator.site.untrusted import MAX_CELL, MAX_TEXT, pre, pretty_json, untrusted_html, value
from generator.site.urls import page_url, relative
from generator.usercache import user_cache

__all__ = ["MAX_TEXT", "PageContext", "WordsLoader", "environment", "render", "theme_templates"]

# A word shown alone; see `WordsLoader`.
_WORD = re.compile(r"\{\{ t\['([a-z_]+)'\] \}\}")
_JINJA_SYNTAX = ("{{", "{%", "{#")


class MarkupAsIs(jinja2.compiler.CodeGenerator):
    """Compiles `{{ value }}` to write a value that is exactly `Markup` as it is, and to escape any
    other value as Jinja does. Jinja passes every value through `escape`, which returns an equal
    copy of a `Markup` (four Python calls and a copy of the text): the untrusted-text filters and the
    macros return `Markup`, so that copy made the rows of a table cost twice what the same rows
    written in Python cost. The output is the same to the byte."""

    # Part of the compiled templates' cache key: change it when the code compiled here changes.
    version = 1

    def _output_child_pre(self, node: jinja2.nodes.Expr, frame: jinja2.compiler.Frame, finalize: Any) -> None:
        if self._as_is(frame, finalize):
            self.write("(_dr_out if type(_dr_out := ")
        else:
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(
        self, node: jinja2.nodes.Expr, frame: jinja2.compiler.Frame, finalize: Any
    ) -> None:
        if self._as_is(frame, finalize):
            self.write(") is Markup else escape(_dr_out))")
        else:
            super()._output_child_post(node, frame, finalize)

    @staticmethod
    def _as_is(frame: jinja2.compiler.Frame, finalize: Any) -> bool:
        # Only where Jinja would write `escape(value)`: autoescape known at compile time, no finalize.
        return bool(frame.eval_ctx.autoescape) and not frame.eval_ctx.volatile and finalize.src is None


class _Environment(jinja2.Environment):
    code_generator_class = MarkupAsIs


class WordsLoader(jinja2.BaseLoader):
    """Templates of another loader with one language's words written in wherever a template shows a
    word alone (`{{ t['key'] }}`): the same on every page of the language, so no page looks them up."""

    def __init__(self, inner: jinja2.BaseLoader, words: Mapping[str, str]) -> None:
        self.inner = inner
        self.words = words

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str | None, Any]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        return _WORD.sub(self._word, source), filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()

    def _word(self, match: re.Match[str]) -> str:
        word = str(escape(self.words[match[1]]))
        # A word that reads as template syntax stays an expression (escaped when the page renders).
        return match[0] if any(mark in word for mark in _JINJA_SYNTAX) else word


@cache
def environment(language: str) -> jinja2.Environment:
    """The template environment of one language (templates ship inside the package)."""
    env = _Environment(
        loader=WordsLoader(jinja2.PackageLoader("generator.site", "templates"), texts_for(language)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # The templates ship inside the package: no need to stat them on every page.
        auto_reload=False,
    )
    # Filters rather than functions the templates call: Jinja calls a filter directly, while every
    # call expression goes through its much slower `Context.call`. The environment is the language's
    # own, so the text filters need no page, and the shared macros (`m`) can use them.

    def text(shown: I18n | str, limit: int = MAX_TEXT) -> Markup:
        return untrusted_html(shown, limit, language)

    def cell(shown: I18n | str) -> Markup:
        return untrusted_html(shown, MAX_CELL, language)

    words = texts_for(language)

    def tag(name: str) -> Markup:
        known = words.get(f"tag_{name}")
        return escape(known) if known is not None else cell(name)

    def status(entry: PluginEntry) -> tuple[str, str]:
        return badge(entry, words)

    # A finding shows on its plugin's, its tool's and its rule's page: its cells are made once.
    @lru_cache(maxsize=1 << 15)
    def finding_cells(finding: Finding) -> Markup:
        cells: Markup = macros.finding_cells(finding)
        return cells

    env.filters.update(pre=pre, pretty=pretty_json, value=value, text=text, cell=cell, link=_link)
    env.filters.update(readme=_readme, tag=tag, badge=status, slashed=_slashed)
    env.filters["finding_cells"] = finding_cells
    env.bytecode_cache = _compiled_templates(language, env.filters)
    env.globals["t"] = texts_for(language)
    # Made once: importing a module of macros into every page costs more than most of its rows.
    macros: Any = env.get_template("_macros.html.j2").module
    env.globals["m"] = macros
    return env


def _compiled_templates(language: str, filters: Mapping[str, Any]) -> jinja2.BytecodeCache | None:
    """Compiled templates kept between builds in the user's cache: compiling every template for each
    language costs more than rendering some of them. One file per language and template (each
    language's words are compiled in); Jinja recompiles when a template's source changes."""
    return _kept(f"__site_{language}_{_calling_convention(filters)}")


def theme_templates(env: jinja2.Environment) -> jinja2.BytecodeCache | None:
    """The theme's compiled templates (MkDocs's environment: the theme's and the registry's
    overrides), kept between builds in the user's cache as the generated pages' own are: each
    language's build compiled all of them again (1.5 s of CPU in a build of the corpus's tools).
    Jinja recompiles when a template's source changes; the files' names carry what else the
    compiled code depends on: how the environment parses and writes, and how it calls its filters
    and tests."""
    settings = (
        jinja2.__version__,
        env.code_generator_class.__qualname__,
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        _named(env.autoescape),
        _named(env.finalize),
        sorted(env.extensions),
        getattr(env, "newstyle_gettext", None),
    )
    tests = {f"test {name}": test for name, test in env.tests.items()}
    digest = hashlib.sha256(repr(settings).encode()).hexdigest()[:12]
    return _kept(f"__theme_{digest}_{_calling_convention({**env.filters, **tests})}")


def _named(value: object) -> str:
    """A function by its qualified name (its repr holds its address, different in every process)."""
    return getattr(value, "__qualname__", None) or repr(value)


def _kept(prefix: str) -> jinja2.BytecodeCache | None:
    """A bytecode cache in the user's cache whose files' names start with `prefix`; None when its
    folder cannot be made."""
    folder = user_cache() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(str(folder), f"{prefix}_%s.cache")


def _calling_convention(filters: Mapping[str, Any]) -> str:
    """A digest of how compiled code calls: it passes the context only to filters marked
    `pass_context` (and so on), decided when it was compiled, and it is written by `MarkupAsIs`. A
    template whose source did not change must still be compiled again when a filter's mark or the
    code generator changed, or it calls the filter wrongly."""
    marks = ",".join(f"{name}:{getattr(f, 'jinja_pass_arg', '')}" for name, f in sorted(filters.items()))
    return hashlib.sha256(f"{MarkupAsIs.version};{marks}".encode()).hexdigest()[:12]


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """A cache that is only ever a shortcut: a folder that cannot be written costs a compile."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            return


@dataclass(frozen=True)
class PageContext:
    """What a template knows about the page it renders: its language and where it lives."""

    language: SiteLanguage
    url: str  # this page's URL relative to its language's root
    use_directory_urls: bool = True
    # The pages this language serves only in English (`SiteModel.english_only`): linked there.
    english_only: frozenset[str] = frozenset()

    def link(self, src: str, anchor: str = "") -> str:
        """A relative link from this page to another generated or hand-written page (its English
        page when this language serves it only in English)."""
        if src in self.english_only:
            target = self.english(src)
        else:
            target = _relative_link(src, self.url, self.use_directory_urls)
        return f"{target}#{anchor}" if anchor else target

    def english(self, src: str) -> str:
        """A relative link from this page to the English page at `src`."""
        return self.shared(page_url(src, self.use_directory_urls))

    def shared(self, path: str) -> str:
        """A relative link to a file served once at the site root (schemas, run files, index.json)."""
        depth = len(self.url.split("/")) - 1 + (1 if self.language.prefix else 0)
        return "../" * depth + path

    def url_of(self, value: object) -> str | None:
        """The value as a link target if it is an http(s) URL, else None."""
        return safe_url(value)


def _slashed(address: str) -> Markup:
    """An address that may break after a slash, never inside a word."""
    return Markup("/<wbr>".join(str(escape(part)) for part in address[:MAX_CELL].split("/")))


def _readme(html: Markup, page: PageContext) -> Markup:
    return Markup(rebased(str(html), page.shared("")))


def _link(src: str, page: PageContext) -> str:
    return page.link(src)


@lru_cache(maxsize=1 << 16)
def _relative_link(src: str, url: str, use_directory_urls: bool) -> str:
    # Each language links the same pages from the same places: computed once for all four.
    return relative(page_url(src, use_directory_urls), url)


def render(template: str, page: PageContext, **values: Any) -> str:
    """Render a template to HTML with no blank lines (so Markdown keeps it as one raw block).

    Templates see the page as `page`, its words as `t` (`t['key']`), the macros of
    `_macros.html.j2` as `m`, and the filters `text` and `cell` (untrusted text), `value`, `pretty`
    and `pre` (values), and `link` (`src|link(page)`: a link from this page to the page at `src`)."""
    html = environment(page.language.code).get_template(template).render(page=page, **values)
    return "\n".join(line for line in html.splitlines() if line.strip())
