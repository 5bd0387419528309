"""The four languages of the site: how each is named by Dify, by Material and in URLs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SiteLanguage:
    """One language build of the site."""

    code: str  # Dify's locale key (en_US, zh_Hans, ...)
    prefix: str  # folder under the site root; "" for the default language
    theme: str  # Material's `theme.language`
    hreflang: str  # BCP 47 tag for <html lang> and the selector's hreflang
    name: str  # the language's own name, shown in the selector

    @property
    def folder(self) -> str:
        """The URL prefix with its trailing slash ("" for the default language)."""
        return f"{self.prefix}/" if self.prefix else ""


LANGUAGE_SITES: tuple[SiteLanguage, ...] = (
    SiteLanguage("en_US", "", "en", "en", "English"),
    SiteLanguage("zh_Hans", "zh", "zh", "zh", "简体中文"),
    SiteLanguage("ja_JP", "ja", "ja", "ja", "日本語"),
    SiteLanguage("pt_BR", "pt", "pt-BR", "pt-BR", "Português (Brasil)"),
)
DEFAULT_LANGUAGE = LANGUAGE_SITES[0]


def site_language(code: str) -> SiteLanguage:
    """The language whose Dify code is `code`; ValueError names the valid ones."""
    for language in LANGUAGE_SITES:
        if language.code == code:
            return language
    valid = ", ".join(lang.code for lang in LANGUAGE_SITES)
    raise ValueError(f"unknown language {code!r}; expected one of {valid}")
