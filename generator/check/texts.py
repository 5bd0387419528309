"""Texts of a plugin's YAML files that pages will show: markup, invisible characters, sheer length.

The site escapes every one of these strings, and Dify's own UI does too, so none of them is an
error; but markup or an invisible direction override in a label is either a mistake or an attempt
to disguise what a plugin is, and the author should hear about it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from generator.check import CheckContext
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument, escape_token
from generator.rules import Rule, rule
from generator.shorten import SAMPLE, shorten

MAX_TEXT = 20_000
# Texts of i18n maps have their own length rule (L002); this one covers every other string.
_LOCALE_KEY = re.compile(r"^[a-z]{2}(?:_[A-Za-z]+)?$")
MAX_PER_RULE = 20  # per file: a hostile file must not flood the report
# Markup that does something when rendered: scripts, frames, event handlers, script URLs. Plain
# tags such as <img src> or <br> in READMEs are common in real plugins and stay unreported.
MARKUP = re.compile(
    r"<\s*/?\s*(?:script|iframe|frame|object|embed|style|form|meta|link|base|svg|math)\b"
    r"|<[^>]*\son[a-z]+\s*=|<[^>]*=\s*[\"']?\s*(?:javascript|vbscript|data):",
    re.IGNORECASE,
)
# Direction overrides and isolates, and characters that show as nothing (zero width, word joiner,
# BOM); joiners U+200C/U+200D are left alone: Persian and Indic scripts and emoji need them.
_INVISIBLE_CHARACTERS = "\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u00ad"
INVISIBLE = re.compile(f"[{_INVISIBLE_CHARACTERS}]")
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):(?!\s)")
# A character every text rule needs to find anything (markup needs `<`, a scheme `:`): the texts of
# a manifest that hold none, nearly all of them, are passed over with one search.
_SUSPECT = re.compile(f"[<:{_INVISIBLE_CHARACTERS}]")
SAFE_SCHEMES = ("http", "https", "mailto")
UNSAFE_SCHEMES = ("javascript", "vbscript", "data", "file")

MARKUP_IN_TEXT = rule(
    "H001",
    "markup-in-text",
    Severity.WARNING,
    "{what} contains active HTML {sample!s}; no page of the registry runs it",
    "Remove the markup: labels, descriptions and READMEs are shown as text, never run as HTML.",
    """
A text that pages show (a label, a description, a README) contains HTML that would run code or load
other content: a `<script>`, `<iframe>`, `<object>` or `<svg>` element, an event handler attribute
such as `onerror=`, or a `javascript:` URL. The registry never renders it: the site escapes every
string that comes from a plugin, and of a README's HTML it keeps only layout (paragraphs, line
breaks, alignment, lists, tables, emphasis), images and http(s) links, rebuilt from checked values;
scripts, embedded documents and styles are dropped with their content. The markup was then either
shown on no page, or an attempt to run a script on the registry's pages.
""",
)
UNSAFE_LINK = rule(
    "H002",
    "unsafe-link",
    Severity.WARNING,
    "link {target!s} uses the {scheme}: scheme; only http, https and mailto links are kept",
    "Link to an http(s) address.",
    """
Links with schemes such as `javascript:`, `data:`, `vbscript:` or `file:` run code or read local
files when clicked. The site keeps only http, https and mailto links and shows the others as text.
""",
)
INVISIBLE_CHARACTERS = rule(
    "H003",
    "invisible-characters",
    Severity.WARNING,
    "{what} contains the invisible character {code}",
    "Remove it: direction overrides and zero-width characters make a text read differently from what"
    " it holds.",
    """
Direction overrides (U+202A-U+202E, U+2066-U+2069) reorder how a text is displayed, and zero-width
characters (U+200B, U+2060, U+FEFF, the soft hyphen U+00AD) show as nothing. In names and labels
they make two different plugins look alike or hide part of a text from reviewers. Right-to-left
scripts do not need them: their letters carry their own direction.
""",
)
TEXT_TOO_LONG = rule(
    "H004",
    "text-too-long",
    Severity.WARNING,
    "{what} is {length} characters long, over {limit}",
    "Shorten it; put long explanations into the README.",
    f"""
A text over {MAX_TEXT} characters (such as a description for the model) is more than pages and the
model's context should carry. Translated labels and descriptions have their own limit (L002).
""",
)


def scheme_of(target: str) -> str:
    """The URL scheme of a link target, lower-cased; empty for relative links."""
    found = _SCHEME.match(target)
    return found.group(1).lower() if found else ""


Key = str | int


def _children(value: Any) -> Iterator[tuple[Key, Any]]:
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


def strings(data: Any) -> Iterator[tuple[tuple[Key, ...], Key | None, str]]:
    """Every string of a YAML document in document order: the path of its collection, its own key
    (None for a document that is one string) and the text. Iterative (documents nest deep), and a
    path is built per collection, not per string."""
    if isinstance(data, str):
        yield (), None, data
        return
    if not isinstance(data, dict | list):
        return
    stack: list[tuple[tuple[Key, ...], Iterator[tuple[Key, Any]]]] = [((), _children(data))]
    while stack:
        parts, children = stack[-1]
        for key, value in children:
            if isinstance(value, str):
                yield parts, key, value
            elif isinstance(value, dict | list):
                stack.append(((*parts, key), _children(value)))
                break
        else:
            stack.pop()


def describe(parts: tuple[Key, ...]) -> str:
    """How a finding names the value at `parts`, for example `label.en_US`."""
    return ".".join(escape_token(p) for p in parts) or "the document"


def text_findings(
    text: str, limit: int | None, named: Callable[[], tuple[str, Location]]
) -> Iterator[Finding]:
    """The findings for one text shown on pages; `named` gives how findings name it and where it is
    (asked only when there is a finding: nearly every text has none)."""
    found: list[tuple[Rule, dict[str, Any]]] = []
    markup = MARKUP.search(text)
    if markup:
        found.append((MARKUP_IN_TEXT, {"sample": shorten(markup.group(0), SAMPLE)}))
    scheme = scheme_of(text)
    if scheme in UNSAFE_SCHEMES:
        found.append((UNSAFE_LINK, {"target": shorten(text, SAMPLE), "scheme": scheme}))
    hidden = INVISIBLE.search(text)
    if hidden:
        found.append((INVISIBLE_CHARACTERS, {"code": f"U+{ord(hidden.group(0)):04X}"}))
    if limit is not None and len(text) > limit:
        found.append((TEXT_TOO_LONG, {"length": len(text), "limit": limit}))
    if not found:
        return
    what, where = named()
    for kind, values in found:
        if kind is UNSAFE_LINK and what.endswith("$ref"):  # references have their own rules
            continue
        yield kind.at(where, what=what, **values)


def _document_findings(document: YamlDocument) -> Iterator[Finding]:
    counts: dict[str, int] = {}
    suspect = _SUSPECT.search
    for parts, key, text in strings(document.data):
        if len(text) <= MAX_TEXT and not suspect(text):
            continue
        limit = None if isinstance(key, str) and _LOCALE_KEY.match(key) else MAX_TEXT
        named = functools.partial(_named, document, parts if key is None else (*parts, key))
        for finding in text_findings(text, limit, named):
            counts[finding.rule] = counts.get(finding.rule, 0) + 1
            if counts[finding.rule] <= MAX_PER_RULE:
                yield finding


def _named(document: YamlDocument, parts: tuple[Key, ...]) -> tuple[str, Location]:
    return describe(parts), document.at(*parts)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Texts of every YAML file the plugin references."""
    for document in loaded.documents.values():
        if document.ok:
            yield from _document_findings(document)
