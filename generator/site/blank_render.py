"""Pages whose Markdown is blank rendered without building a Markdown parser.

Every page the generator makes is front matter and no body (its HTML is put in place after
Markdown has run: `pages.py`), but MkDocs's `Page.render` builds a new `markdown.Markdown`, with
every extension of the configuration and MkDocs's own tree processors, for every page, only for
`Markdown.convert` to return "" at once for a blank source. On Dify's official tool plugins that
is thousands of parsers a build (0.12 ms each). For a blank page this module sets what that render
sets, and leaves every other page to MkDocs.
"""

from __future__ import annotations

import functools
import logging

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

# The logger MkDocs's render reads to decide whether it keeps a page's links to anchors.
_PAGES_LOG = logging.getLogger("mkdocs.structure.pages")


def render_blank_without_markdown(page: Page) -> None:
    """Make MkDocs render `page` through `render_blank` (called once its Markdown is read)."""
    page.render = functools.partial(render_blank, page)  # type: ignore[method-assign]


def render_blank(page: Page, config: MkDocsConfig, files: Files) -> None:
    """What `Page.render` gives a page whose Markdown is blank: no content, an empty table of
    contents, no title from the text (front matter gives it), no anchors and no links to any.
    A page whose Markdown is not blank (changed since) is rendered by MkDocs."""
    if page.markdown is None or page.markdown.strip():
        Page.render(page, config, files)
        return
    page.content = ""  # Markdown.convert's answer for a blank source
    page.toc = get_toc([])  # the toc extension's tokens before any tree is processed
    page._title_from_render = None
    page.present_anchor_ids = set()
    if _PAGES_LOG.getEffectiveLevel() > logging.DEBUG:
        page.links_to_anchors = {}
