"""Translation coverage: which labels and descriptions a plugin lacks in each language."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from generator.plugin_model import I18n, Plugin


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
        yield f"{where}.label", provider.label
        yield f"{where}.description", provider.description
        for credential in provider.credentials:
            yield f"{where}.credentials.{credential.name}.label", credential.label
            yield f"{where}.credentials.{credential.name}.help", credential.help
        for tool in provider.tools:
            at = f"{where}/{tool.name}"
            yield f"{at}.label", tool.label
            yield f"{at}.description", tool.description
            for parameter in tool.parameters:
                yield f"{at}.{parameter.name}.label", parameter.label
                yield f"{at}.{parameter.name}.human_description", parameter.human_description
                for option in parameter.options:
                    yield f"{at}.{parameter.name}.options.{option.value}", option.label


def coverage_of(plugin: Plugin, languages: tuple[str, ...]) -> Coverage:
    """Count the texts that exist in English and list those missing in each other language."""
    present = [(where, text) for where, text in texts_of(plugin) if text.has("en_US")]
    missing = {lang: tuple(where for where, text in present if not text.has(lang)) for lang in languages}
    return Coverage(len(present), missing)
