"""One Jinja environment for every generated page: strict undefined variables, autoescape on, and
helpers that escape untrusted text, mark English fallbacks and link only http(s)."""

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
from generator.site.fragments import MAX_CELL, pre, pretty_json
from generator.site.languages import SiteLanguage
from generator.site.safe import breakable, isolated, safe_url
from generator.site.texts import texts_for
from generator.site.urls import page_url, relative

MAX_TEXT = 2000


# A word shown alone; see `_WordsLoader`.
_WORD = re.compile(r"\{\{ t\['([a-z_]+)'\] \}\}")
_JINJA_SYNTAX = ("{{", "{%", "{#")


class _WordsLoader(jinja2.PackageLoader):
    """The package's templates with one language's words written in wherever a template shows a word
    alone (`{{ t['key'] }}`): the same on every page of the language, so no page looks them up."""

    def __init__(self, language: str) -> None:
        super().__init__("generator.site", "templates")
        self.words = texts_for(language)

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        source, filename, uptodate = super().get_source(environment, template)
        return _WORD.sub(self._word, source), filename, uptodate

    def _word(self, match: re.Match[str]) -> str:
        word = str(escape(self.words[match[1]]))
        # A word that reads as template syntax stays an expression (escaped when the page renders).
        return match[0] if any(mark in word for mark in _JINJA_SYNTAX) else word


@cache
def environment(language: str) -> jinja2.Environment:
    """The template environment of one language (templates ship inside the package)."""
    env = jinja2.Environment(
        loader=_WordsLoader(language),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # The templates ship inside the package: no need to stat them on every page.
        auto_reload=False,
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
    )
    return env


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
        if isinstance(value, I18n):
            shown = value.get(self.language.code)
            fallback = bool(shown) and not value.has(self.language.code)
        else:
            shown, fallback = value, False
        cut = len(shown) > limit
        return _marked(
            shown[:limit] if cut else shown,
            self.words["fallback"] if fallback else None,
            self.words["truncated"] if cut else None,
        )

    def cell(self, value: I18n | str) -> Markup:
        """Untrusted text for a table cell (shorter limit)."""
        return self.text(value, MAX_CELL)

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
    return page.text(value, limit)


@jinja2.pass_context
def _cell(context: jinja2.runtime.Context, value: I18n | str) -> Markup:
    page: PageContext = context["page"]
    return page.cell(value)


@jinja2.pass_context
def _link_filter(context: jinja2.runtime.Context, src: str) -> str:
    page: PageContext = context["page"]
    return page.link(src)


# Typed: a `Markup` argument is trusted and must never share an entry with an equal plain string.
@lru_cache(maxsize=1 << 17, typed=True)
def _marked(shown: str, fallback_title: str | None, cut_note: str | None) -> Markup:
    """Untrusted text as HTML (`isolated`, `breakable`), marked as English shown in place of a missing
    translation and as shortened when those words are given. Cached: the pages of every language
    show the same names, types and messages many times."""
    if fallback_title is None:
        html = isolated(shown)
    else:
        marker = f'<sup class="dr-fallback" title="{escape(fallback_title)}">EN</sup>'
        html = f'<bdi lang="en">{escape(shown)}</bdi>{marker}'
    html = breakable(shown, html)
    if cut_note is not None:
        html += f' <span class="dr-cut">{escape(cut_note)}</span>'
    return Markup(html)


def render(template: str, page: PageContext, **values: Any) -> str:
    """Render a template to HTML with no blank lines (so Markdown keeps it as one raw block).

    Templates see the page as `page`, its words as `t` (`t['key']`), and the filters `text`,
    `cell` and `link` of the page."""
    html = environment(page.language.code).get_template(template).render(page=page, t=page.words, **values)
    return "\n".join(line for line in html.splitlines() if line.strip())
