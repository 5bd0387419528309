"""The catalog's cards in one language: sorted by the label people read, the first screen rendered
into the home page and every card in a compact JSON file the page loads (`cards.json`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from generator.plugin_model import PLUGIN_KINDS, I18n
from generator.site.site_model import PluginEntry
from generator.site.untrusted import word_cut

CARDS_JSON = "cards.json"
# The kinds whose pages the site shows (the site's words name each: `kind_<kind>`).
SHOWN_KINDS = ("tools", "triggers", "datasources", "models", "agent_strategies", "endpoints")
# Cards the home page holds as HTML: a screen and more, so the page works without JavaScript and
# shows something before the file arrives; the rest come from `cards.json`.
FIRST_SCREEN = 24
MAX_LABEL = 200
MAX_DESCRIPTION = 400


class Shown(NamedTuple):
    """A text in one language, cut to its limit, and whether it fell back to English."""

    text: str
    fallback: bool
    cut: bool

    @classmethod
    def of(cls, value: I18n, language: str, limit: int) -> Shown:
        """`value` as the page of `language` shows it."""
        text = value.get(language)
        cut = len(text) > limit
        return cls(word_cut(text, limit) if cut else text, bool(text) and not value.has(language), cut)


class Card(NamedTuple):
    """One plugin's card."""

    entry: PluginEntry
    label: Shown
    description: Shown
    badge: tuple[str, str]  # its class and its words


def tag_label(tag: str, words: Mapping[str, str]) -> str:
    """A Dify tag in the page's language (a tag outside Dify's list as written)."""
    return words.get(f"tag_{tag}", tag)


def badge(entry: PluginEntry, words: Mapping[str, str]) -> tuple[str, str]:
    """The validation badge of a plugin: its class and its words, with the count's plural form; a
    plugin whose runs all stopped or answered with errors is not shown as valid. Green is kept for
    what a run of an example its author wrote proved: a plugin checked statically only, or run on
    invented inputs only, has no finding but no proof either ("no findings", neutral; the basis
    beside the badge says what it rests on)."""
    counts = entry.counts
    if counts.errors:
        return "dr-error", _counted(counts.errors, "error_one", "errors", words)
    if counts.warnings:
        return "dr-warning", _counted(counts.warnings, "warning_one", "warnings", words)
    if entry.unproven:
        return "dr-info", words["unproven"]
    if entry.checked_by != "examples":
        return "dr-info", words["badge_no_findings"]
    return "dr-ok", words["valid"]


def _counted(count: int, one: str, several: str, words: Mapping[str, str]) -> str:
    return f"{count} {words[one if count == 1 else several]}"


def catalog_kinds(entries: Iterable[PluginEntry]) -> list[str]:
    """The plugin kinds the catalog's plugins offer, in the manifest's order of kinds (what the
    catalog filters by, and what a card shows in the site's words)."""
    found = {kind for entry in entries for kind in entry.kinds}
    return [kind for kind in PLUGIN_KINDS if kind in found and kind in SHOWN_KINDS]


def cards(plugins: tuple[PluginEntry, ...], language: str, words: Mapping[str, str]) -> list[Card]:
    """Every plugin's card, sorted by its label in `language` (then by its page, for ties)."""
    made = [
        Card(
            entry,
            Shown.of(entry.plugin.label, language, MAX_LABEL),
            Shown.of(entry.plugin.description, language, MAX_DESCRIPTION),
            badge(entry, words),
        )
        for entry in plugins
    ]
    made.sort(key=lambda card: ((card.label.text or card.entry.plugin.name).casefold(), card.entry.src))
    return made


def cards_json(
    shown: list[Card], links: Mapping[str, str], icons: Mapping[str, str], words: Mapping[str, str]
) -> str:
    """The cards as the home page's script reads them; `links` and `icons` give each plugin page's
    and icon's address relative to the home page. Texts are data here: the script writes them with
    `textContent`, never as HTML."""
    tags = sorted({tag for card in shown for tag in card.entry.plugin.tags})
    data = {
        "words": {
            "author": words["author"],
            "version": words["version"],
            "tools": words["tool_count"],
            "fallback": words["fallback"],
            "cut": words["truncated"],
        },
        "tags": {tag: tag_label(tag, words) for tag in tags},
        "kinds": {kind: words[f"kind_{kind}"] for kind in catalog_kinds(card.entry for card in shown)},
        "cards": [
            {
                "href": links[card.entry.src],
                "icon": icons.get(card.entry.src, ""),
                "label": card.label.text or card.entry.plugin.name,
                "labelEn": card.label.fallback,
                "labelCut": card.label.cut,
                "description": card.description.text,
                "descriptionEn": card.description.fallback,
                "descriptionCut": card.description.cut,
                "tags": list(card.entry.plugin.tags),
                "kinds": list(card.entry.kinds),
                "counts": [[words[f"children_{kind}"], count] for kind, count in card.entry.child_counts],
                "author": card.entry.plugin.author,
                "version": card.entry.plugin.version,
                "tools": len(card.entry.tools),
                "badge": card.badge,
                "slug": card.entry.slug,
            }
            for card in shown
        ],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
