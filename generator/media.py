"""Images a plugin names (its icons, the images of its README) as a page may show them.

The type is read from the file's first bytes, never from its name; the site serves an accepted
image once per content (`media/<digest>.<ext>`) and shows it only through `<img>`. The README check
uses the same judgement, so the finding on a README line and what the page shows never disagree.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import unquote

MAX_IMAGE_BYTES = 1024 * 1024
MEDIA_FOLDER = "media"
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "png", "image/png"),
    (b"\xff\xd8\xff", "jpg", "image/jpeg"),
    (b"GIF87a", "gif", "image/gif"),
    (b"GIF89a", "gif", "image/gif"),
    (b"\x00\x00\x01\x00", "ico", "image/x-icon"),
)
# An SVG opened on its own is a document of the site's origin: anything that can run or fetch in it
# (scripts, event attributes, foreign HTML, entities, references to other files) keeps it off the site.
_SVG_START = re.compile(rb"^(?:\s+|<\?xml[^>]*>|<!--.*?-->|<!DOCTYPE[^>\[]*>)*<svg[\s>]", re.S)
_RASTER = r"data:image/(?:png|jpeg|gif|webp)[;,]"
_SVG_ACTIVE = re.compile(
    r"<\s*(?:script|foreignObject|iframe|embed|object|audio|video|animate|set|handler)\b"
    r"|\son[a-z]+\s*="
    r"|javascript:|<!ENTITY|@import"
    # a reference may only name a part of the same file or a raster image written into it
    rf"|(?:href|src)\s*=\s*(?![\"']?\s*(?:#|{_RASTER}))"
    rf"|url\(\s*(?![\"']?\s*(?:#|{_RASTER}))",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Image:
    """An image accepted for the site: its type and where the site serves it."""

    mime: str
    path: str  # under the site root: media/<digest>.<ext>
    content: bytes


def image_type(content: bytes) -> tuple[str, str] | None:
    """(extension, MIME type) read from the first bytes; None when they are no image a page shows."""
    for magic, extension, mime in _MAGIC:
        if content.startswith(magic):
            return extension, mime
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "webp", "image/webp"
    if _SVG_START.match(content[:4096]):
        return "svg", "image/svg+xml"
    return None


def judge(content: bytes | None) -> Image | str:
    """The image the site may serve, or why it may not (words for a finding)."""
    if content is None:
        return "not a readable file of the plugin"
    if len(content) > MAX_IMAGE_BYTES:
        return f"larger than {MAX_IMAGE_BYTES // 1024} KiB"
    found = image_type(content)
    if found is None:
        return "not a PNG, JPEG, GIF, WebP, ICO or SVG image (judged by its first bytes)"
    extension, mime = found
    if extension == "svg":
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            return "an SVG image that is not UTF-8 text"
        if _SVG_ACTIVE.search(text):
            return "an SVG image with scripts, event attributes or references to other files"
    digest = hashlib.sha256(content).hexdigest()[:20]
    return Image(mime, f"{MEDIA_FOLDER}/{digest}.{extension}", content)


def local_target(target: str) -> str | None:
    """The plugin-relative path a README link or image names, or None when it names no file of the
    plugin (an address with a scheme, an anchor, an absolute path)."""
    if not target or target.startswith(("#", "/", "\\")) or _SCHEME.match(target):
        return None
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])
    path = path.removeprefix("./")
    return path or None


_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
