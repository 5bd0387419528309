"""Untrusted text and URLs made safe for pages: every string from a plugin passes through here
or through Jinja's autoescape; only http(s) URLs ever become links."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from markupsafe import escape

from generator.shorten import shorten

MAX_URL = 2048
MAX_TITLE = 80
# Bidirectional overrides and invisible characters: harmless in escaped text, but in a title or a
# slug they can make one name look like another.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_TITLE_UNSAFE = re.compile(r"[<>&\"'`\\]")
# Right-to-left letters and direction controls: text holding them is isolated (`<bdi>`) so it
# cannot reorder the page around it.
_BIDI = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# A word longer than this may break anywhere: a table sizes its columns to hold the longest word
# whole, so one such word from a plugin would widen the page. Shorter words never break.
LONG_WORD = 40
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")


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
    return shorten(text, limit)


def clip(value: str, limit: int) -> tuple[str, bool]:
    """The text cut to `limit` characters, and whether it was cut."""
    return (value, False) if len(value) <= limit else (value[:limit], True)


def isolated(text: str) -> str:
    """Untrusted text escaped, and isolated in `<bdi>` when it holds right-to-left text or controls."""
    html = str(escape(text))
    return f"<bdi>{html}</bdi>" if not text.isascii() and _BIDI.search(text) else html


def breakable(text: str, html: str) -> str:
    """The HTML of `text`, marked so that its words may break when one of them is very long."""
    return (
        f'<span class="dr-long">{html}</span>' if len(text) > LONG_WORD and _LONG_WORD.search(text) else html
    )
