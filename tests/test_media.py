"""Images a plugin names, judged by their first bytes: what the site serves and what it refuses."""

from __future__ import annotations

import pytest

from generator.media import MAX_IMAGE_BYTES, Image, judge, local_target

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
SVG = (
    b'<?xml version="1.0"?>\n<!-- made by hand -->\n'
    b'<svg xmlns="http://www.w3.org/2000/svg"><circle r="2"/></svg>'
)


@pytest.mark.parametrize(
    ("content", "mime"),
    [
        (PNG, "image/png"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 8, "image/jpeg"),
        (b"GIF89a" + b"\x00" * 8, "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (SVG, "image/svg+xml"),
        (b'<svg><use xlink:href="#a"/><image href="data:image/png;base64,AAAA"/></svg>', "image/svg+xml"),
    ],
)
def test_images_are_served_once_per_content(content: bytes, mime: str) -> None:
    """An accepted image gets a path named by its content and the extension of its real type."""
    judged = judge(content)
    assert isinstance(judged, Image)
    assert judged.mime == mime
    assert judged.path.startswith("media/")
    assert judge(content) == judged


@pytest.mark.parametrize(
    "content",
    [
        None,
        b"just text named .png",
        b"<html><svg></svg></html>",
        b'<svg onload="alert(1)"></svg>',
        b"<svg><script>alert(1)</script></svg>",
        b'<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
        b'<svg><image href="https://tracker.example/x.png"/></svg>',
        b'<svg><use href="other.svg#a"/></svg>',
        b"<svg><foreignObject><div>x</div></foreignObject></svg>",
        b'<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>',
        b'<svg style="background: url( https://x.example/a.png )"></svg>',
        PNG + b"\x00" * MAX_IMAGE_BYTES,
    ],
)
def test_what_is_not_served(content: bytes | None) -> None:
    """Missing files, non-images, active SVGs and oversized files are refused with a reason."""
    assert isinstance(judge(content), str)


def test_local_targets() -> None:
    """Only paths inside the plugin are local; `./` and percent-encoding are undone."""
    assert local_target("./_assets/a%20b.png") == "_assets/a b.png"
    assert local_target("_assets/x.png#frag") == "_assets/x.png"
    for target in ("https://x.example/a.png", "/etc/passwd", "#top", "mailto:a@b", "", "data:image/png,AA"):
        assert local_target(target) is None
