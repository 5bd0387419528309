"""Untrusted text and URLs made safe for pages: every string from a plugin passes through here
or through Jinja's autoescape; only http(s) URLs ever become links."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

MAX_URL = 2048
MAX_TITLE = 80
# Bidirectional overrides and invisible characters: harmless in escaped text, but in a title or a
# slug they can make one name look like another.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_TITLE_UNSAFE = re.compile(r"[<>&\"'`\\]")


def safe_url(value: object) -> str | None:
    """The URL if it is an absolute http(s) URL with a host and nothing odd in it; else None."""
    if not isinstance(value, str) or not value or len(value) > MAX_URL:
        return None
    if any(ch.isspace() or not ch.isprintable() for ch in value) or _INVISIBLE.search(value):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return value


def plain_title(value: str, limit: int = MAX_TITLE) -> str:
    """A one-line title without markup characters or invisible ones, for places where the theme
    writes the title into HTML without escaping (page titles, navigation, search)."""
    text = _INVISIBLE.sub("", value)
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    text = _TITLE_UNSAFE.sub("", text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(value: str, limit: int) -> tuple[str, bool]:
    """The text cut to `limit` characters, and whether it was cut."""
    return (value, False) if len(value) <= limit else (value[:limit], True)
