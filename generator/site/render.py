"""The Jinja environment of each language for every generated page: strict undefined variables,
autoescape on, the language's words written into the templates, and helpers that escape untrusted
text, mark English fallbacks and link only http(s)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import jinja2
from markupsafe import Markup, escape

from generator.model import I18n
from generator.site import fragments
from generator.site.fragments import pre, pretty_json
from generator.site.languages import SiteLanguage
from generator.site.safe import safe_url
from generator.site.texts import texts_for
from generator.site.untrusted import MAX_CELL, MAX_TEXT, untrusted_html
from generator.site.urls import page_url, relative
from generator.usercache import user_cache

__all__ = ["MAX_TEXT", "PageContext", "WordsLoader", "environment", "render"]

# A word shown alone; see `WordsLoader`.
_WORD = re.compile(r"\{\{ t\['([a-z_]+)'\] \}\}")
_JINJA_SYNTAX = ("{{", "{%", "{#")


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
    env = jinja2.Environment(
        loader=WordsLoader(jinja2.PackageLoader("generator.site", "templates"), texts_for(language)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # The templates ship inside the package: no need to stat them on every page.
        auto_reload=False,
        bytecode_cache=_compiled_templates(language),
    )
    env.filters["pre"] = pre
    env.filters["pretty"] = pretty_json
    # Filters rather than `page.text(...)` calls: Jinja calls a filter directly, while every call
    # expression goes through its much slower `Context.call`.
    env.filters["text"] = _text
    env.filters["cell"] = _cell
    env.filters["link"] = _link_filter
    env.globals.update(
        value=fragments.value,
        findings_table=fragments.findings_table,
        options_list=fragments.options_list,
        parameter_rows=fragments.parameter_rows,
        output_rows=fragments.output_rows,
        tool_rows=fragments.tool_rows,
        code_items=fragments.code_items,
        change_list=fragments.change_list,
    )
    return env


def _compiled_templates(language: str) -> jinja2.BytecodeCache | None:
    """Compiled templates kept between builds in the user's cache: compiling every template for each
    language costs more than rendering some of them. One file per language and template (each
    language's words are compiled in); Jinja recompiles when a template's source changes."""
    folder = user_cache() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(str(folder), f"__site_{language}_%s.cache")


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """A cache that is only ever a shortcut: a folder that cannot be written costs a compile."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            return


@dataclass(frozen=True)
class PageContext:
    """What a template knows about the page it renders: language, words, and where it lives."""

    language: SiteLanguage
    url: str  # this page's URL relative to its language's root
    use_directory_urls: bool = True

    @property
    def words(self) -> Mapping[str, str]:
        """The site's own words in this page's language."""
        return texts_for(self.language.code)

    def t(self, key: str) -> str:
        """One of the site's own words in this page's language."""
        return self.words[key]

    def text(self, value: I18n | str, limit: int = MAX_TEXT) -> Markup:
        """Untrusted text, escaped and isolated (`<bdi>`), with a marker when it fell back to English
        or was shortened."""
        return untrusted_html(value, limit, self.language.code)

    def cell(self, value: I18n | str) -> Markup:
        """Untrusted text for a table cell (shorter limit)."""
        return untrusted_html(value, MAX_CELL, self.language.code)

    def link(self, src: str, anchor: str = "") -> str:
        """A relative link from this page to another generated or hand-written page."""
        target = _link(src, self.url, self.use_directory_urls)
        return f"{target}#{anchor}" if anchor else target

    def shared(self, path: str) -> str:
        """A relative link to a file served once at the site root (schemas, run files, index.json)."""
        depth = len(self.url.split("/")) - 1 + (1 if self.language.prefix else 0)
        return "../" * depth + path

    def url_of(self, value: object) -> str | None:
        """The value as a link target if it is an http(s) URL, else None."""
        return safe_url(value)


@lru_cache(maxsize=1 << 16)
def _link(src: str, url: str, use_directory_urls: bool) -> str:
    # Each language links the same pages from the same places: computed once for all four.
    return relative(page_url(src, use_directory_urls), url)


@jinja2.pass_context
def _text(context: jinja2.runtime.Context, value: I18n | str, limit: int = MAX_TEXT) -> Markup:
    page: PageContext = context["page"]
    return untrusted_html(value, limit, page.language.code)


@jinja2.pass_context
def _cell(context: jinja2.runtime.Context, value: I18n | str) -> Markup:
    page: PageContext = context["page"]
    return untrusted_html(value, MAX_CELL, page.language.code)


@jinja2.pass_context
def _link_filter(context: jinja2.runtime.Context, src: str) -> str:
    page: PageContext = context["page"]
    return page.link(src)


def render(template: str, page: PageContext, **values: Any) -> str:
    """Render a template to HTML with no blank lines (so Markdown keeps it as one raw block).

    Templates see the page as `page`, its words as `t` (`t['key']`), and the filters `text`,
    `cell` and `link` of the page."""
    html = environment(page.language.code).get_template(template).render(page=page, t=page.words, **values)
    return "\n".join(line for line in html.splitlines() if line.strip())
