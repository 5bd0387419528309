"""Locale keys of i18n texts: misspelled keys lose their text, unknown ones are ignored by the SDK."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from generator.check import CheckContext
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument, escape_token
from generator.plugin_model import LANGUAGES
from generator.rules import Listing, rule

# Spellings people use for the four languages the SDK reads, by lowercased form with `_`.
_MEANT = {language.lower(): language for language in LANGUAGES} | {
    "zh_cn": "zh_Hans",
    "zh": "zh_Hans",
    "zh_sg": "zh_Hans",
    "zh_hans_cn": "zh_Hans",
    "cn": "zh_Hans",
    "en": "en_US",
    "ja": "ja_JP",
    "jp": "ja_JP",
    "pt": "pt_BR",
}
_LANGUAGE_SET = frozenset(LANGUAGES)
_LOCALE_SHAPE = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4}){0,2}$")
# A well-formed BCP 47-like key in Dify's style (language_Script or language_REGION).
_WELL_FORMED = re.compile(r"^[a-z]{2,3}(_[A-Z][a-z]{3})?(_[A-Z]{2}|_\d{3})?$")
# The documents whose texts Dify shows.
_ROLES = (
    "manifest",
    "tools provider",
    "tool",
    "triggers provider",
    "event",
    "datasources provider",
    "datasource",
)
# JSON Schemas inside a tool YAML describe data, not texts.
_SKIPPED = ("output_schema", "input_schema")

NON_CANONICAL = rule(
    "L003",
    "non-canonical-locale",
    Severity.WARNING,
    "locale key {key} is not one Dify reads; did you mean {meant}? (used {count}: {places})",
    "Rename the key to {meant} everywhere: Dify ignores {key}, so these texts are never shown.",
    """
Dify reads exactly four locale keys: `en_US`, `zh_Hans`, `ja_JP` and `pt_BR`, spelled with this
case. A key such as `zh_CN`, `ja_Jp` or `en_us` is ignored, so the translation is lost and users
see the English text instead. One finding per plugin and key, at its first use, lists every place
the key is used (a plugin that writes `ja_Jp` on every label is told once).
""",
)
UNKNOWN_LOCALE = rule(
    "L004",
    "unknown-locale",
    Severity.INFO,
    "locale key {key} is ignored by Dify, which shows en_US, zh_Hans, ja_JP and pt_BR only "
    "(used {count}: {places})",
    "Keep it if you like; Dify does not show it today.",
    """
The text has a translation in a language Dify does not offer yet (for example `zh_Hant`, `ko_KR` or
`de_DE`). The SDK drops such keys when it reads the plugin; the text is harmless but unused. One
finding per plugin and key, at its first use, lists every place the key is used.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Every i18n mapping of every manifest, provider, tool and event YAML; a key Dify does not read is
    one finding per plugin and key, listing where it is used."""
    used: dict[str, list[tuple[str, Location]]] = {}
    for relative, document in loaded.documents.items():
        if loaded.roles.get(relative) in _ROLES:
            for key, where in _walk(document):
                used.setdefault(key, []).append((relative, where))
    order = {relative: index for index, relative in enumerate(loaded.documents)}
    for key, unsorted in used.items():
        places = sorted(unsorted, key=lambda place: (order[place[0]], place[1].line, place[1].column))
        count = "once" if len(places) == 1 else f"{len(places)} times"
        shown = Listing([f"{relative}:{where.line}" for relative, where in places], most=10)
        first = places[0][1]
        meant = meant_locale(key)
        if meant is None and _WELL_FORMED.match(key):
            yield UNKNOWN_LOCALE.at(first, key=key, count=count, places=shown)
        else:
            meant = meant or "one of " + ", ".join(LANGUAGES)
            yield NON_CANONICAL.at(first, key=key, meant=meant, count=count, places=shown)


def meant_locale(key: str) -> str | None:
    """The canonical key a misspelled locale key stands for, if any."""
    return _MEANT.get(key.replace("-", "_").lower())


def is_i18n(value: Any) -> bool:
    """A mapping whose keys all look like locales, at least one of them a Dify language."""
    if not isinstance(value, dict) or not value:
        return False
    keys = [k for k in value if isinstance(k, str)]
    return (
        len(keys) == len(value)
        and all(_LOCALE_SHAPE.match(k) for k in keys)
        and any(meant_locale(k) for k in keys)
    )


def _walk(document: YamlDocument) -> Iterator[tuple[str, Location]]:
    # Entries are (parent's pointer, own key, value): a pointer is only spelled out for a collection
    # that is walked into or reported, not for the many i18n mappings with nothing to report.
    stack: list[tuple[str, str | int | None, Any]] = [("", None, document.data)]
    while stack:
        parent, key, value = stack.pop()
        if isinstance(value, dict) and value and _LANGUAGE_SET.issuperset(value):
            continue  # every key is one of Dify's languages: a well-formed i18n mapping
        pointer = parent if key is None else f"{parent}/{escape_token(key)}"
        if is_i18n(value):
            yield from _keys(document, pointer, value)
            continue
        # Only collections can hold an i18n mapping: scalars are never visited.
        if isinstance(value, dict):
            stack.extend(
                (pointer, k, v)
                for k, v in value.items()
                if isinstance(v, dict | list) and not _skipped(pointer, k)
            )
        elif isinstance(value, list):
            stack.extend((pointer, i, v) for i, v in enumerate(value) if isinstance(v, dict | list))


def _skipped(pointer: str, key: str) -> bool:
    return key in _SKIPPED or pointer.endswith("/input_schema")


def _keys(document: YamlDocument, pointer: str, texts: dict[str, Any]) -> Iterator[tuple[str, Location]]:
    """Each key of an i18n mapping that is not one of Dify's languages, with its place."""
    for key in texts:
        if key not in LANGUAGES:
            yield key, document.locate(f"{pointer}/{escape_token(key)}", key=True)
