"""A README's raw HTML on its page: layout, images through the media pipeline, links to http(s), and
nothing else (tests/cases/hostile holds the hostile READMEs of whole plugins)."""

from __future__ import annotations

import pytest

from generator.site.readme import image_paths, render_readme

IMAGES = {"_assets/logo.png": "media/abc.png", "_assets/light.png": "media/def.png"}
IMG = '<img class="dr-readme-image" src="'


def test_a_centred_logo_is_shown_through_the_media_pipeline() -> None:
    """The GitHub layout `<p align="center"><img ...></p>` shows the image the site publishes, centred,
    with its size."""
    html = render_readme(
        '<p align="center">\n  <img src="./_assets/logo.png" width="200" alt="Logo">\n</p>\n', None, IMAGES
    )
    assert html == (
        f'<p class="dr-align-center">\n  {IMG}media/abc.png" alt="Logo" width="200" loading="lazy">\n</p>\n'
    )


def test_a_picture_shows_its_img_and_line_breaks_stay() -> None:
    text = (
        '<picture><source srcset="_assets/dark.png" media="(prefers-color-scheme: dark)">'
        '<img src="_assets/light.png" alt="Screen"></picture>\n\nOne<br>two<br/>three\n'
    )
    html = render_readme(text, None, IMAGES)
    assert f'{IMG}media/def.png" alt="Screen" loading="lazy">' in html
    for gone in ("<source", "<picture", "dark.png"):
        assert gone not in html
    assert "<p>One<br>two<br>three</p>" in html


def test_an_image_that_cannot_be_shown_is_named_not_printed() -> None:
    """A remote image is a link (never fetched by the reader's browser); an image the site does not
    publish shows its alternative text, or its file name."""
    html = render_readme(
        '<img src="https://img.example/badge.svg" alt="CI"> <img src="_assets/none.png"> '
        '<img src="_assets/gone.png" alt="Gone">',
        None,
        IMAGES,
    )
    assert '<a href="https://img.example/badge.svg" rel="nofollow noopener noreferrer">CI</a>' in html
    assert "none.png" in html
    assert "Gone" in html
    assert "img" not in html.replace("img.example", "")


def test_the_images_a_readme_names_in_html_are_published() -> None:
    text = (
        '<div align="center"><img src="_assets/logo.png"></div>\n\n'
        'Text <img src="docs/a.gif"> and ![b](_assets/b.png)'
    )
    assert image_paths(text) == ["_assets/logo.png", "docs/a.gif", "_assets/b.png"]


HOSTILE = [
    '<img src="_assets/logo.png" onerror="alert(1)" style="position:fixed">',
    '<a href="javascript:alert(1)">x</a>',
    '<p onclick="alert(1)" style="x" class="md-header">x</p>',
    "<svg><script>alert(1)</script><image href=x /></svg>",
    '<iframe src="https://evil.example"></iframe><object data=x></object>',
    '<img src="javascript:alert(1)">',
    '<a href="https://ok.example" onmouseover="alert(1)">ok</a>',
    "<style>body{display:none}</style>",
    "<div>\n\n</div></div></article></main>",
    '<img src="_assets/logo.png" width="99999999" height="10%">',
]


@pytest.mark.parametrize("text", HOSTILE)
def test_no_attribute_or_element_passes_but_the_rebuilt_ones(text: str) -> None:
    html = render_readme(text, None, IMAGES)
    lowered = html.lower()
    for bad in (
        "onerror",
        "onclick",
        "onmouseover",
        "style",
        "<script",
        "<svg",
        "<iframe",
        "<object",
        '="javascript',
        "md-header",
        "</article",
        "</main",
        "evil.example",
        "99999999",
        "10%",
    ):
        assert bad not in lowered, (bad, html)
    assert html.count("<div") == html.count("</div")


def test_an_element_left_open_is_closed_with_the_readme() -> None:
    html = render_readme(
        "<details><summary>More</summary>\n\n**bold**\n\n<div align=right>\n\nend\n", None, {}
    )
    assert html.endswith("</div></details>")
    assert "<summary>More</summary>" in html
    assert "<strong>bold</strong>" in html
