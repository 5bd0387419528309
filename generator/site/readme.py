"""README files rendered safely: CommonMark with raw HTML off, links and images only to http(s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from generator.site.safe import safe_url

MAX_README_CHARS = 200_000
# The page has its own h1 and h2 sections: a README's headings start two levels lower.
HEADING_SHIFT = 2


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("rel", "nofollow noopener noreferrer")
    return self.renderToken(tokens, idx, options, env)


def _image(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    # Images from a README would make every visitor's browser fetch a stranger's URL: show a link.
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env) or str(token.attrGet("src"))
    src = safe_url(token.attrGet("src"))
    escaped = _escape(alt)
    if src is None:
        return escaped
    return f'<a href="{_escape(src)}" rel="nofollow noopener noreferrer">{escaped}</a>'


def _heading_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    level = min(6, int(token.tag[1:]) + HEADING_SHIFT)
    return f"<h{level}>"


def _heading_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    level = min(6, int(token.tag[1:]) + HEADING_SHIFT)
    return f"</h{level}>\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _validate_link(url: str) -> bool:
    return safe_url(url) is not None


def make_renderer() -> MarkdownIt:
    """A CommonMark renderer (with tables) that passes no raw HTML and links only http(s)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.validateLink = _validate_link  # type: ignore[method-assign]
    rules: Any = md.add_render_rule
    rules("link_open", _link_open)
    rules("image", _image)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    return md


def render_readme(text: str, renderer: MarkdownIt | None = None) -> str:
    """The README as HTML that contains no markup from the README itself."""
    md = renderer or make_renderer()
    return str(md.render(text[:MAX_README_CHARS]))
