"""Untrusted text and values as a page shows them: escaped, isolated when they hold right-to-left
text, breakable when they hold a very long word, and marked when they fell back to English or were
shortened (in the words of the page's language); values as indented JSON in `<pre>` blocks."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from generator.plugin_model import I18n
from generator.site.safe import breakable, clip, isolated
from generator.site.texts import texts_for

MAX_TEXT = 2000
MAX_CELL = 300
MAX_MESSAGE = 500  # a finding's message or hint, a change in a plugin's history
MAX_PRETTY = 200_000


def untrusted_html(value: I18n | str, limit: int, language: str) -> Markup:
    """`value` in `language` (a Dify locale code) as safe HTML of at most `limit` characters."""
    if isinstance(value, I18n):
        shown = value.get(language)
        fallback = bool(shown) and not value.has(language)
    else:
        shown, fallback = value, False
    cut = len(shown) > limit
    if not (fallback or cut) and type(shown) is str:
        html = _PLAIN.get(shown)
        if html is None:
            html = _PLAIN[shown] = _marked(shown, False, None)
        return html
    words = texts_for(language)
    return _marked(
        word_cut(shown, limit) if cut else shown,
        fallback,
        words["truncated"] if cut else None,
    )


# The common case, remembered by the string alone: only plain `str`, as a `Markup` argument is
# trusted and must never share an entry with an equal plain string. Unbounded on purpose: the
# languages are rendered one after the other, so a bounded cache smaller than one language's texts
# (about 17 per tool) forgets every text before the next language asks for it again. `forget` empties
# it when a build starts, so it holds one site's texts.
_PLAIN: dict[str, Markup] = {}


def forget() -> None:
    """Drop the texts remembered for earlier builds (a server rebuilds in the same process)."""
    _PLAIN.clear()


# Typed, for the same reason.
@lru_cache(maxsize=1 << 15, typed=True)
def _marked(shown: str, fallback: bool, cut_note: str | None) -> Markup:
    """`shown` as HTML (`isolated`, `breakable`), marked as English shown in place of a missing
    translation (`fallback`) and as shortened when `cut_note` is given. Cached: the pages of every
    language show the same names, types and messages many times."""
    if not fallback:
        html = isolated(shown)
    else:
        # The mark's tooltip is said once in the page's head (overrides/main.html), not in every mark.
        html = f'<bdi lang="en">{escape(shown)}</bdi><sup class="dr-fallback">EN</sup>'
    html = breakable(shown, html)
    if cut_note is not None:
        html += f'<span class="dr-cut" title="{escape(cut_note)}">…</span>'
    return Markup(html)


def word_cut(text: str, limit: int) -> str:
    """The first `limit` characters of a longer text, ending at a word's end when one is near (a
    text without spaces, such as Chinese or Japanese, is cut where the limit falls)."""
    cut = text[:limit]
    space = cut.rstrip().rfind(" ", limit * 3 // 4)
    return cut[:space].rstrip() if space > 0 and not text[limit].isspace() else cut.rstrip()


def pre(value: Any) -> Markup:
    """Escaped text for a `<pre>` block, newlines kept as entities so the HTML has no blank lines."""
    return Markup(str(escape(str(value))).replace("\n", "&#10;"))


def pretty_json(value: Any, limit: int = MAX_PRETTY) -> str:
    """Indented JSON of a value (already JSON data), cut when huge."""
    # Indenting only changes containers, and json writes other values much faster without it.
    indent = 2 if isinstance(value, (dict, list, tuple)) else None
    text = json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=False, default=repr)
    return clip(text, limit)[0]


def value(data: Any) -> Markup:
    """A declared or produced value: a dash for none, a string as it is, anything else as JSON."""
    if data is None:
        return Markup('<span class="dr-none">—</span>')
    return Markup(f"<code>{pre(data if isinstance(data, str) else pretty_json(data))}</code>")
