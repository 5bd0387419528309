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
from generator.site.safe import safe_url
from generator.site.urls import page_url, relative

MAX_TEXT = 2000
_BIDI = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# A word longer than this may break anywhere: a table sizes its columns to hold the longest word
# whole, so one such word from a plugin would widen the page. Shorter words never break.
LONG_WORD = 40
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")


@cache
def environment() -> jinja2.Environment:
    """The template environment (templates ship inside the package)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # The templates ship inside the package: no need to stat them on every page.
        auto_reload=False,
    )
    env.filters["pre"] = pre
    env.filters["pretty"] = pretty_json
    env.globals.update(
        value=fragments.value,
        findings_table=fragments.findings_table,
        options_list=fragments.options_list,
        parameter_rows=fragments.parameter_rows,
        output_rows=fragments.output_rows,
    )
    return env


@dataclass(frozen=True)
class PageContext:
    """What a template knows about the page it renders: language, words, and where it lives."""

    language: SiteLanguage
    words: Mapping[str, str]
    url: str  # this page's URL relative to its language's root
    use_directory_urls: bool = True

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
        if cut:
            shown = shown[:limit]
        # Right-to-left text or bidi controls are isolated so they cannot reorder the page around them.
        bidi = not shown.isascii() and _BIDI.search(shown) is not None
        long_word = len(shown) > LONG_WORD and _LONG_WORD.search(shown) is not None
        if not (fallback or cut or bidi or long_word):
            return escape(shown)  # the common case, kept cheap: pages hold thousands of texts
        html = f"<bdi>{escape(shown)}</bdi>" if bidi else str(escape(shown))
        if fallback:
            html = (
                f'<bdi lang="en">{escape(shown)}</bdi><sup class="dr-fallback" '
                f'title="{escape(self.words["fallback"])}">EN</sup>'
            )
        if long_word:
            html = f'<span class="dr-long">{html}</span>'
        if cut:
            html += f' <span class="dr-cut">{escape(self.words["truncated"])}</span>'
        return Markup(html)

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


def render(template: str, page: PageContext, **values: Any) -> str:
    """Render a template to HTML with no blank lines (so Markdown keeps it as one raw block)."""
    html = environment().get_template(template).render(page=page, **values)
    return "\n".join(line for line in html.splitlines() if line.strip())
