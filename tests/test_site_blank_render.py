"""A blank page (every generated one) is rendered as MkDocs renders it, without a Markdown parser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import markdown  # type: ignore[import-untyped]  # no stubs installed; MkDocs imports it
import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files, get_files
from mkdocs.structure.pages import Page

from generator.site.blank_render import render_blank, render_blank_without_markdown
from generator.site.pages import LIGHT_TEMPLATE

# The extensions of the repository's mkdocs.yml (and of the built-in site configuration).
CONFIG = """site_name: Registry
markdown_extensions:
  - tables
  - admonition
  - toc:
      permalink: true
"""
# What pages.py writes for a generated page: front matter, no body.
GENERATED = f'---\n{{"title": "Weather", "hide": ["navigation"], "template": "{LIGHT_TEMPLATE}"}}\n---\n'


def _page(tmp_path: Path, text: str) -> tuple[Page, MkDocsConfig, Files]:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "page.md").write_text(text, encoding="utf-8")
    (docs / "other.md").write_text("# Other\n\n## Part\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    files = get_files(config)
    file = files.get_file_from_path("page.md")
    assert file is not None
    page = Page(None, file, config)
    page.read_source(config)
    return page, config, files


def _rendered(page: Page) -> tuple[Any, ...]:
    toc = [(item.title, item.id, len(item.children)) for item in page.toc]
    links = {file.src_uri: anchors for file, anchors in (page.links_to_anchors or {}).items()}
    return page.content, toc, page.title, page.present_anchor_ids, links


@pytest.mark.parametrize("text", [GENERATED, "", "\n  \n", '---\n{"title": "Blank"}\n---\n\n\t\n'])
def test_a_blank_page_gets_what_mkdocs_render_gives_it(tmp_path: Path, text: str) -> None:
    by_mkdocs, config, files = _page(tmp_path, text)
    by_mkdocs.render(config, files)
    ours, config, files = _page(tmp_path, text)
    render_blank(ours, config, files)
    assert _rendered(ours) == _rendered(by_mkdocs)


def test_a_page_with_text_is_left_to_mkdocs(tmp_path: Path) -> None:
    text = '---\n{"title": "Guide"}\n---\n# Guide\n\nSee [the part](other.md#part).\n\n## Steps\n'
    by_mkdocs, config, files = _page(tmp_path, text)
    by_mkdocs.render(config, files)
    ours, config, files = _page(tmp_path, text)
    render_blank(ours, config, files)
    assert _rendered(ours) == _rendered(by_mkdocs)
    assert "other/#part" in (ours.content or "")


def test_a_blank_page_builds_no_markdown_parser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, config, files = _page(tmp_path, GENERATED)
    built: list[object] = []
    original = markdown.Markdown.__init__

    def counted(self: markdown.Markdown, **options: Any) -> None:
        built.append(self)
        original(self, **options)

    monkeypatch.setattr(markdown.Markdown, "__init__", counted)
    render_blank_without_markdown(page)
    page.render(config, files)  # as MkDocs's build calls it
    assert (page.content, built) == ("", [])
    page.markdown = "# Changed\n"  # a page read again with text: MkDocs renders it
    page.render(config, files)
    assert len(built) == 1
    assert "Changed" in (page.content or "")
