"""README images and icons re-encoded for the page: narrower, WebP, animations kept, SVG and
unreadable files served as the plugin ships them."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image as Pillow

from generator.media import Image, judge
from generator.site.reencode import README_WIDTH, for_the_page

ASSETS = Path(__file__).parent / "cases/site/registry/plugins/weather_demo/_assets"


def _judged(content: bytes) -> Image:
    image = judge(content)
    assert isinstance(image, Image)
    return image


def _opened(content: bytes) -> Pillow.Image:
    return Pillow.open(io.BytesIO(content))


def test_a_wide_screenshot_is_narrowed_to_the_page_and_served_as_webp() -> None:
    source = _judged((ASSETS / "wide-chart.png").read_bytes())
    served = for_the_page(source, README_WIDTH)
    assert served.mime == "image/webp"
    assert served.path.startswith("media/")
    assert served.path.endswith(".webp")
    assert len(served.content) < len(source.content) / 2
    with _opened(served.content) as image:
        assert image.format == "WEBP"
        assert image.size == (README_WIDTH, round(240 * README_WIDTH / 1600))


def test_an_animated_gif_stays_animated_with_its_timing() -> None:
    served = for_the_page(_judged((ASSETS / "spinner.gif").read_bytes()), README_WIDTH)
    assert served.mime == "image/webp"
    with _opened(served.content) as image:
        durations = []
        for frame in range(getattr(image, "n_frames", 1)):
            image.seek(frame)
            image.load()
            durations.append(image.info.get("duration"))
    assert durations == [100, 200, 300]


def test_svg_is_never_rewritten() -> None:
    svg = _judged((ASSETS / "icon.svg").read_bytes())
    assert for_the_page(svg, 16) is svg


def test_an_image_that_would_not_get_smaller_is_kept() -> None:
    out = io.BytesIO()
    Pillow.new("P", (1, 1)).save(out, "GIF")
    tiny = _judged(out.getvalue())
    assert for_the_page(tiny, README_WIDTH) is tiny


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def test_truncated_and_oversized_images_are_kept_as_shipped() -> None:
    """A file Pillow cannot decode, or one claiming more pixels than the limit, is not decoded."""
    truncated = _judged((ASSETS / "wide-chart.png").read_bytes()[:3000])
    assert for_the_page(truncated, README_WIDTH) is truncated
    bomb = _judged(_png_header(100_000, 100_000) + b"\x00" * 64)
    assert for_the_page(bomb, README_WIDTH) is bomb


def test_a_re_encoded_image_is_kept_for_the_next_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second build gets the same image from the user's cache, without decoding it again; an
    image kept as shipped is remembered as such."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    source = _judged((ASSETS / "wide-chart.png").read_bytes())
    first = for_the_page(source, README_WIDTH)
    kept = [path for path in (tmp_path / "dify-registry" / "images").rglob("*") if path.is_file()]
    assert [path.read_bytes() for path in kept] == [first.content]
    # What the cache holds is what the page gets: the entry is the image served.
    kept[0].write_bytes(first.content[:-1] + b"\0")
    assert for_the_page(source, README_WIDTH).content == first.content[:-1] + b"\0"
    assert for_the_page(source, README_WIDTH // 2).content != first.content  # each width its own
    truncated = _judged(source.content[:200])
    assert for_the_page(truncated, README_WIDTH) is truncated
    assert for_the_page(truncated, README_WIDTH) is truncated
