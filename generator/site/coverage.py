"""Translation coverage: which labels and descriptions a plugin lacks in each language."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.plugin_model import I18n, Plugin, Tool


@dataclass(frozen=True, slots=True)
class Coverage:
    """Translatable texts of one plugin and, per language, the places that fall back to English."""

    total: int
    missing: dict[str, tuple[str, ...]]


def texts_of(plugin: Plugin) -> Iterator[tuple[str, I18n]]:
    """Every translatable text of a plugin with a readable name of where it sits."""
    yield "label", plugin.label
    yield "description", plugin.description
    for provider in plugin.providers:
        where = f"{provider.name}"
        yield from _texts_below(where, ("label", provider.label), ("description", provider.description))
        for credential in provider.credentials:
            named = f"{where}.credentials.{credential.name}"
            yield from _texts_below(named, ("label", credential.label), ("help", credential.help))
        for tool in provider.tools:
            yield from tool_texts(f"{where}/{tool.name}", tool)


def tool_texts(at: str, tool: Tool) -> Iterator[tuple[str, I18n]]:
    """Every translatable text of a tool (what its page shows of it), named below `at`."""
    yield from _texts_below(at, ("label", tool.label), ("description", tool.description))
    for parameter in tool.parameters:
        field = f"{at}.{parameter.name}"
        yield from _texts_below(
            field, ("label", parameter.label), ("human_description", parameter.human_description)
        )
        for option in parameter.options:
            yield f"{field}.options.{option.value}", option.label


def _texts_below(where: str, *texts: tuple[str, I18n]) -> Iterator[tuple[str, I18n]]:
    """The texts of one declaration (a label and its description or help), named below `where`."""
    for name, text in texts:
        yield f"{where}.{name}", text


def coverage_of(plugin: Plugin, languages: tuple[str, ...]) -> Coverage:
    """Count the texts that exist in English and list those missing in each other language."""
    present = [(where, text) for where, text in texts_of(plugin) if text.has("en_US")]
    missing = {lang: tuple(where for where, text in present if not text.has(lang)) for lang in languages}
    return Coverage(len(present), missing)


def written_in(texts: Iterable[tuple[str, I18n]], languages: tuple[str, ...]) -> frozenset[str]:
    """The languages of `languages` in which at least one of `texts` is written (not fallen back)."""
    found: set[str] = set()
    for _where, text in texts:
        found.update(lang for lang in languages if text.has(lang))
        if len(found) == len(languages):
            break
    return frozenset(found)
