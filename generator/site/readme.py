"""README files rendered safely: CommonMark with raw HTML off, links only to http(s).

An image the README names inside its plugin is shown (`<img>`) when the site publishes it (see
`generator.media`); an image at an http(s) address is a link, never fetched by the visitor's browser.
Any other link or image target (a file of the plugin, `mailto:`, a script) shows as its text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from generator.markdown_tokens import Parsed, parse_as_written
from generator.media import local_target
from generator.site.safe import safe_url

MAX_README_CHARS = 200_000
# The page has its own h1 and h2 sections: a README's headings start two levels lower.
HEADING_SHIFT = 2
# Set in the render environment when the tokens come from `parse_as_written`: their targets are still
# as written, and the renderer normalizes them as this page's own parse would have.
AS_WRITTEN = "dify_registry_as_written"
REL = "nofollow noopener noreferrer"
DROPPED = "dify_registry_link_dropped"
IMAGES = "dify_registry_images"  # plugin-relative path -> where the site serves that image
# How a README image starts: its source is relative to the site root, and each page puts the way
# there in front of it (`rebased`). README text is escaped, so it can never write this itself.
IMAGE_START = '<img class="dr-readme-image" src="'


def _target(value: object, env: EnvType) -> str:
    text = str(value or "")
    return normalizeLink(text) if env.get(AS_WRITTEN) else text


def _link_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    # Rendered here rather than by setting `rel` on the token: tokens may be shared, never changed.
    attrs = dict(tokens[idx].attrItems())
    href = safe_url(_target(attrs.get("href"), env))
    # Links do not nest in CommonMark: one flag tells the closing token whether an <a> was opened.
    env[DROPPED] = href is None
    if href is None:
        return ""
    attrs["href"] = href
    attrs["rel"] = REL
    return "<a" + "".join(f' {escapeHtml(k)}="{escapeHtml(str(v))}"' for k, v in attrs.items()) + ">"


def _link_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return "" if env.pop(DROPPED, False) else "</a>"


def _image(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    # Remote images would make every visitor's browser fetch a stranger's URL: show a link.
    token = tokens[idx]
    target = _target(token.attrGet("src"), env)
    alt = self.renderInlineAsText(token.children or [], options, env) or target
    escaped = escapeHtml(alt)
    named = local_target(target)
    published = env.get(IMAGES, {}).get(named) if named else None
    if published:
        return f'{IMAGE_START}{escapeHtml(published)}" alt="{escaped}" loading="lazy">'
    src = safe_url(target)
    if src is None:
        return escaped
    return f'<a href="{escapeHtml(src)}" rel="{REL}">{escaped}</a>'


def _heading_open(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return f"<h{_shifted(tokens[idx])}>"


def _heading_close(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return f"</h{_shifted(tokens[idx])}>\n"


def _shifted(heading: Token) -> int:
    """A heading's level below the page's own headings (at most 6)."""
    return min(6, int(heading.tag[1:]) + HEADING_SHIFT)


def make_renderer() -> MarkdownIt:
    """A CommonMark renderer (with tables) that passes no raw HTML and links only http(s)."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    # Every target is parsed as a link (so the page reads the text as the README check does); the
    # render rules drop those that are not http(s).
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    rules: Any = md.add_render_rule
    rules("link_open", _link_open)
    rules("link_close", _link_close)
    rules("image", _image)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    return md


def render_readme(
    text: str, renderer: MarkdownIt | None = None, images: Mapping[str, str] | None = None
) -> str:
    """The README as HTML that contains no markup from the README itself; `images` maps the
    plugin-relative paths of the images the site publishes to their paths under the site root."""
    md = renderer or make_renderer()
    text = text[:MAX_README_CHARS]
    parsed = parse_as_written(text)
    if _reads_the_same(parsed):
        return str(
            md.renderer.render(list(parsed.tokens), md.options, {AS_WRITTEN: True, IMAGES: images or {}})
        )
    return str(md.render(text, {IMAGES: images or {}}))


def image_paths(text: str) -> list[str]:
    """The plugin-relative paths of the images the README names inside its plugin."""
    found: list[str] = []
    for token in parse_as_written(text[:MAX_README_CHARS]).tokens:
        for child in token.children or ():
            named = local_target(str(child.attrGet("src") or "")) if child.type == "image" else None
            if named and named not in found:
                found.append(named)
    return found


def rebased(html: str, root: str) -> str:
    """README HTML for a page whose way to the site root is `root` (for example `../../`)."""
    return html.replace(IMAGE_START, IMAGE_START + root)


def _reads_the_same(parsed: Parsed) -> bool:
    """True when this page's own parse (raw HTML off) would give the same tokens as the parse as
    written, whose targets only differ in being normalized: when the text holds no raw HTML.
    Otherwise the page parses the text itself."""
    return not parsed.has_html()
