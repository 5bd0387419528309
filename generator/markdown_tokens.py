"""Markdown parsed once for everything that reads it as written (the README check, the README page).

markdown-it is pure Python: parsing is most of what rendering a README costs, and the README check
and the plugin page read the same text. This parse keeps every link target as written and raw HTML as
tokens, which is what the check needs; the page may render from it when the two readings cannot
differ (see `generator.site.readme`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

HTML_TOKENS = frozenset({"html_block", "html_inline"})


@dataclass(frozen=True)
class Parsed:
    """The tokens of one text. Shared between readers: never change a token."""

    tokens: tuple[Token, ...]

    def has_html(self) -> bool:
        """True when the text holds raw HTML (a block or inline tag)."""
        return any(
            token.type in HTML_TOKENS or any(child.type in HTML_TOKENS for child in token.children or ())
            for token in self.tokens
        )


@cache
def _parser() -> MarkdownIt:
    # Every target as written: the default parser drops `javascript:` links silently, and the check
    # exists to report them.
    parser = MarkdownIt("commonmark").enable("table")
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    parser.normalizeLink = lambda url: url  # type: ignore[method-assign]
    return parser


# Bounded: a registry's READMEs are read twice within one build, close together.
@lru_cache(maxsize=256)
def parse_as_written(text: str) -> Parsed:
    """`text` parsed as CommonMark with tables, raw HTML kept as tokens, link targets untouched."""
    return Parsed(tuple(_parser().parse(text)))
