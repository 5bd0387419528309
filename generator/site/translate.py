"""Hand-written pages in each language: `about.md` is English, `about.zh.md` its Chinese copy.

A language build uses the translated copy in place of the English page when one exists, and
otherwise shows the English page with a note saying so. Translated copies never appear as pages
of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from generator.site.languages import LANGUAGE_SITES, SiteLanguage
from generator.site.texts import texts_for

_PREFIXES = tuple(lang.prefix for lang in LANGUAGE_SITES if lang.prefix)


def _translation_of(src: str) -> tuple[str, str] | None:
    """`about.zh.md` -> ("about.md", "zh"); None for a page that is not a translated copy."""
    if not src.endswith(".md"):
        return None
    stem = src.removesuffix(".md")
    for prefix in _PREFIXES:
        if stem.endswith(f".{prefix}"):
            return stem.removesuffix(f".{prefix}") + ".md", prefix
    return None


@dataclass(frozen=True)
class TranslatedDocs:
    """Which hand-written pages this language build shows in English."""

    language: SiteLanguage
    pages: frozenset[str]  # every hand-written page, by source path
    untranslated: frozenset[str]

    @classmethod
    def pick(cls, files: Files, language: SiteLanguage, config: MkDocsConfig) -> TranslatedDocs:
        """Swap translated copies into place in `files` and drop all copies as separate pages."""
        copies: dict[tuple[str, str], File] = {}
        for file in list(files):
            found = _translation_of(file.src_uri) if file.generated_by is None else None
            if found is not None:
                copies[found] = file
                files.remove(file)
        untranslated: set[str] = set()
        pages = {f.src_uri for f in files.documentation_pages() if f.generated_by is None}
        for file in list(files.documentation_pages()):
            if file.generated_by is not None or not language.prefix:
                continue
            copy = copies.get((file.src_uri, language.prefix))
            if copy is None:
                untranslated.add(file.src_uri)
                continue
            files.remove(file)
            files.append(File.generated(config, file.src_uri, content=copy.content_string))
        return cls(language, frozenset(pages), frozenset(untranslated))

    def note(self, src: str, markdown: str) -> str:
        """The page's Markdown, preceded by a note when it is shown in English."""
        if src not in self.untranslated:
            return markdown
        text = texts_for(self.language.code)["page_untranslated"]
        return f'<div class="dr-note" lang="{self.language.hreflang}">{text}</div>\n\n{markdown}'
