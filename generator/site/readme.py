"""README files rendered safely: CommonMark whose raw HTML passes only through `HtmlFilter`
(`generator.readme_html`), links only to http(s).

An image the README names inside its plugin, in Markdown or in an `<img>`, is shown when the site
publishes it (see `generator.media`); an image at an http(s) address is a link, never fetched by the
visitor's browser. Any other link or image target (a file of the plugin, `mailto:`, a script) shows
as its text.
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

from generator.markdown_tokens import HTML_TOKENS, parse_as_written
from generator.media import local_target
from generator.readme_html import HEADING_SHIFT, IMAGE_START, REL, HtmlFilter, image_sources
from generator.site.safe import safe_url

MAX_README_CHARS = 200_000
# Set in the render environment when the tokens come from `parse_as_written`: their targets are still
# as written, and the renderer normalizes them as this page's own parse would have.
AS_WRITTEN = "dify_registry_as_written"
DROPPED = "dify_registry_link_dropped"
IMAGES = "dify_registry_images"  # plugin-relative path -> where the site serves that image
FILTER = "dify_registry_html"  # the HtmlFilter of one render


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


def _html(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    # A render without a filter of its own (markdown-it's `render`) gets one for the whole text.
    html_filter: HtmlFilter = env.setdefault(FILTER, _html_filter(env.get(IMAGES, {})))
    return html_filter.render(tokens[idx].content)


def _html_filter(images: Mapping[str, str]) -> HtmlFilter:
    def image(src: str) -> str | None:
        named = local_target(src)
        return images.get(named) if named else None

    return HtmlFilter(image, safe_url)


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
    """A CommonMark renderer (with tables) whose raw HTML passes through `HtmlFilter` and that links
    only http(s)."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": False}).enable("table")
    # Every target is parsed as a link (so the page reads the text as the README check does); the
    # render rules drop those that are not http(s).
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    rules: Any = md.add_render_rule
    rules("link_open", _link_open)
    rules("link_close", _link_close)
    rules("image", _image)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    rules("html_block", _html)
    rules("html_inline", _html)
    return md


def render_readme(
    text: str, renderer: MarkdownIt | None = None, images: Mapping[str, str] | None = None
) -> str:
    """The README as HTML that contains no markup from the README itself; `images` maps the
    plugin-relative paths of the images the site publishes to their paths under the site root."""
    md = renderer or make_renderer()
    parsed = parse_as_written(text[:MAX_README_CHARS])
    html_filter = _html_filter(images or {})
    env = {AS_WRITTEN: True, IMAGES: images or {}, FILTER: html_filter}
    return str(md.renderer.render(list(parsed.tokens), md.options, env)) + html_filter.finish()


def image_paths(text: str) -> list[str]:
    """The plugin-relative paths of the images the README names inside its plugin."""
    found: list[str] = []
    for token in parse_as_written(text[:MAX_README_CHARS]).tokens:
        for part in (token, *(token.children or ())):
            if part.type == "image":
                sources = [str(part.attrGet("src") or "")]
            else:
                sources = image_sources(part.content) if part.type in HTML_TOKENS else []
            for source in sources:
                named = local_target(source)
                if named and named not in found:
                    found.append(named)
    return found


def rebased(html: str, root: str) -> str:
    """README HTML for a page whose way to the site root is `root` (for example `../../`)."""
    return html.replace(IMAGE_START, IMAGE_START + root)
