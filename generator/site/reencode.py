"""Raster images re-encoded for the page that shows them: at most as wide as the page shows them,
as WebP (animated GIFs stay animated), kept as they are when that is not smaller.

A README's screenshots are most of a catalog's weight (PNGs of 0.1 to 1 MB, often twice as wide as
the page's column). SVG images are never decoded or rewritten here: they are served as the plugin
ships them, and only ever shown through `<img>` (`generator.media`). An image Pillow cannot read
(truncated, too many pixels, a format it does not know) is kept as it is: the browser shows what it
can of it, as it would on the marketplace.

Re-encoding is most of the site model's time (37 of 41 s of CPU on Dify's official tool plugins,
whose READMEs hold 193 images), and its result depends only on the image's bytes, the width and this
module: each result is kept in the user's cache (`images/`, content-addressed), so a rebuild after
one plugin changed re-encodes only that plugin's new images.
"""

from __future__ import annotations

import hashlib
import io
import os
import warnings
from dataclasses import replace
from pathlib import Path

import PIL
from PIL import Image as Pillow
from PIL import ImageSequence

from generator.media import MEDIA_FOLDER, Image
from generator.usercache import user_cache

# The widest a README image shows: the page's column (about 1,000 CSS pixels without sidebars).
README_WIDTH = 1024
# Icons show at most 48 CSS pixels wide (2.4rem): 128 covers screens of two device pixels a pixel.
ICON_WIDTH = 128
# Decoding is refused beyond this many pixels (a 1 MiB PNG can claim billions): 8K by 4K.
MAX_PIXELS = 8192 * 4096
MAX_FRAMES = 400  # an animation with more frames is kept as the plugin ships it
# libwebp's own defaults (`cwebp`: quality 75, effort 4 of 0-6). On the 193 README images of the
# official plugins (37.8 MB as shipped): 4.62 MB, against 5.54 MB at quality 80 and effort 2, for
# a third more encoding time (benchmarks/README.md, `weight`). Pillow's bilinear filter averages
# every source pixel when it shrinks.
QUALITY = 75
METHOD = 4
RASTER = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
WEBP = "image/webp"


def for_the_page(image: Image, width: int) -> Image:
    """`image` as the site serves it where it shows at most `width` CSS pixels wide."""
    if image.mime not in RASTER:
        return image
    encoded = _kept_webp(image.content, width)
    if not encoded or len(encoded) >= len(image.content):
        return image
    digest = hashlib.sha256(encoded).hexdigest()[:20]
    return replace(image, mime=WEBP, path=f"{MEDIA_FOLDER}/{digest}.webp", content=encoded)


def _kept_webp(content: bytes, width: int) -> bytes:
    """`content` as WebP at most `width` pixels wide, from the cache when it holds it; empty when
    the image is kept as it is (Pillow cannot read it, or it has too many frames)."""
    key = hashlib.sha256(f"{_ENCODER}\0{width}\0".encode() + content).hexdigest()
    kept = user_cache() / "images" / key[:2] / key
    try:
        return kept.read_bytes()
    except OSError:
        pass
    try:
        encoded = _webp(content, width) or b""
    # What a stranger's file can make Pillow raise (OSError covers unreadable and truncated files).
    except (OSError, ValueError, SyntaxError, EOFError, Pillow.DecompressionBombError, Warning):
        encoded = b""
    _keep(kept, encoded)
    return encoded


def _keep(path: Path, content: bytes) -> None:
    """Write a cache entry whole or not at all; a cache that cannot be written is only slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(content)
        temporary.replace(path)
    except OSError:
        return


# What a re-encoded image depends on besides its bytes and width: this module and Pillow's version.
_ENCODER = hashlib.sha256(Path(__file__).read_bytes() + PIL.__version__.encode()).hexdigest()


def _webp(content: bytes, width: int) -> bytes | None:
    with warnings.catch_warnings():
        # Pillow warns (instead of refusing) between its limit and twice its limit: refuse both.
        warnings.simplefilter("error", Pillow.DecompressionBombWarning)
        previous, Pillow.MAX_IMAGE_PIXELS = Pillow.MAX_IMAGE_PIXELS, MAX_PIXELS
        try:
            with Pillow.open(io.BytesIO(content)) as source:
                frames = getattr(source, "n_frames", 1)
                if frames > MAX_FRAMES:
                    return None
                return _animation(source, width) if frames > 1 else _still(source, width)
        finally:
            Pillow.MAX_IMAGE_PIXELS = previous


def _fitted(frame: Pillow.Image, width: int) -> Pillow.Image:
    frame = frame.convert("RGBA") if frame.mode in ("P", "LA", "PA", "1", "I;16") else frame
    if frame.mode not in ("RGB", "RGBA"):
        frame = frame.convert("RGBA")
    if frame.width > width:
        height = max(1, round(frame.height * width / frame.width))
        frame = frame.resize((width, height), Pillow.Resampling.BILINEAR)
    return frame


def _still(source: Pillow.Image, width: int) -> bytes:
    source.load()
    out = io.BytesIO()
    _fitted(source, width).save(out, "WEBP", quality=QUALITY, method=METHOD)
    return out.getvalue()


def _animation(source: Pillow.Image, width: int) -> bytes:
    """Every frame, with its own duration, and the loop count of the source."""
    frames: list[Pillow.Image] = []
    durations: list[int] = []
    for frame in ImageSequence.Iterator(source):
        frames.append(_fitted(frame.copy(), width))
        durations.append(int(frame.info.get("duration", 100) or 100))
    out = io.BytesIO()
    frames[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=int(source.info.get("loop", 0)),
        quality=QUALITY,
        method=METHOD,
    )
    return out.getvalue()
