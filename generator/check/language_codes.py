"""Language codes that name another language than their label (R148): a select option labelled
"Malay" whose value is `my` (Burmese's code; Malay's is `ms`), or a dictionary in the code that maps
a language's name to another language's code. Whoever picks the label gets the other language.

The tables of names and codes are the `langcodes` library's (with `language_data`: CLDR's names in
every language, IANA's registry of subtags with its deprecated aliases, CLDR's distances between
languages), not a list written here.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

import langcodes

from generator.check import CheckContext
from generator.check.common import string_entries
from generator.check.plugin_code import plugin_code, reachable_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

OTHER_LANGUAGE = rule(
    "R148",
    "language-code-names-other-language",
    Severity.WARNING,
    '{place} pairs the language name "{label}" with the code `{code}`, which is {named}\'s code'
    " (`{right}` is {label_language}'s): {use} asks for {named}",
    "Use `{right}` (or the provider's own code for {label_language}), or relabel the entry.",
    """
A select option's `value` is what the tool receives, its `label` what the workflow editor and the
agent's model show (`ParameterOption` in dify_plugin/entities/parameters.py: `value: str =
Field(..., description="The value of the option")`, `label: I18nObject = Field(...,
description="The label of the option")`); the tool passes the value on to the translation, search,
speech or OCR service. An option labelled "Malay" whose value is `my` asks for Burmese (`my` is
Burmese's ISO 639-1 code, Malay's is `ms`; `MY` is Malaysia's country code, which is how the two get
confused): the user gets another language than the one chosen, and nothing fails. The same holds for
a dictionary in the code that maps language names to codes (or codes to names) to build a request.

Found without running, with the `langcodes` library's tables (CLDR's language names in every
language, IANA's subtag registry, CLDR's distances between languages): an option of a select whose
English label is a language's name (`langcodes.find`), or an entry of a dictionary literal whose key
and value (or the two strings of an item of a list of pairs) are a language's name and a code
(either way round), when the code is a valid two-letter language code (ISO 639-1, with optional
script and region subtags: `zh-Hans`, `pt_BR`, `EN-GB`) and CLDR counts its language as another than
the label's (a language distance of at least 80). Close languages are left alone: Malay and
Indonesian, Norwegian and Bokmål, Serbian and Croatian, Cantonese (`yue`) and Chinese (`zh-HK`),
Mandarin and Chinese. Only in a table of languages: at least two other entries of the same select or
dictionary pair a name with its own code; only a label that is a language's English name and no
country's ("Malaysia" with `MY` in a country select is right), and whose language has a two-letter
code itself. Left alone: deprecated aliases that providers still use (`iw` Hebrew, `jw` Javanese,
`in` Indonesian, `tl` Tagalog: the registry maps them to today's codes), codes that are no language
at all (`cn`, `jp`, `auto`), three-letter codes (Baidu's `rom` for Romanian and `slo` for Slovenian
name other languages in ISO 639-3 and are the provider's own), and the two-letter codes that
well-known services use for another language than ISO's: `ch` for Chinese and `ka` for Kannada
(PaddleOCR), `kr` for Korean. A warning: the tool works, in the wrong language.
""",
)

# A two-letter language code with optional script, region or UN M.49 subtags, `-` or `_` between.
_CODE = re.compile(r"[A-Za-z]{2}(?:[-_](?:[A-Za-z]{4}|[A-Za-z]{2}|[0-9]{3}))*")
# A label long enough to be a language's name and short enough not to be a sentence.
_NAME = re.compile(r"[^\W\d_][\w ()/,.'-]{1,38}")
# ISO 639-1 codes that well-known services use for another language (code -> the language meant).
_PROVIDER_CODES = {"ch": "zh", "kr": "ko", "ka": "kn"}
# CLDR's language distance from which two languages are another (84 in one script, 134 across two).
_OTHER = 80
# Entries of the same table that pair a name with its own code, so that it is a table of languages.
_AGREEING = 2


@dataclass(frozen=True, slots=True)
class _Pair:
    """A language name and a code written together, where it was written."""

    label: str
    code: str
    where: Location


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R148 in the select options of every tool and the dictionary literals of the loaded modules."""
    plugin = loaded.plugin
    if plugin is not None:
        for tool in plugin.tools:
            for parameter in tool.parameters:
                if parameter.options:
                    pairs = [
                        _Pair(option.label.en, option.value, option.origin) for option in parameter.options
                    ]
                    place = f"option of select parameter `{parameter.name}` of tool {tool.name}"
                    yield from _table(pairs, place, "picking it")
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict | ast.List | ast.Tuple):
                place = "this dictionary entry" if isinstance(node, ast.Dict) else "this list item"
                yield from _table(list(_dict_pairs(node, display)), place, "a lookup of it")


def _dict_pairs(node: ast.Dict | ast.List | ast.Tuple, display: str) -> Iterator[_Pair]:
    """The entries of a dictionary literal whose key and value are both strings, as (name, code)
    whichever way round they are written."""
    for key, first, second in string_entries(node):
        where = Location(display, key.lineno, key.col_offset + 1)
        if _CODE.fullmatch(first) and not _CODE.fullmatch(second):
            yield _Pair(second, first, where)
        else:
            yield _Pair(first, second, where)


def _table(pairs: list[_Pair], place: str, use: str) -> Iterator[Finding]:
    """The pairs whose code names another language, when enough others agree."""
    judged = [(pair, _judge(pair.label.strip(), pair.code)) for pair in pairs]
    if sum(1 for _, verdict in judged if verdict is True) < _AGREEING:
        return
    for pair, verdict in judged:
        if isinstance(verdict, tuple):
            named, right, label_language = verdict
            yield OTHER_LANGUAGE.at(
                pair.where,
                place=place[0].upper() + place[1:],
                label=pair.label.strip(),
                code=pair.code,
                named=named,
                right=right,
                label_language=label_language,
                use=use,
            )


@cache
def _judge(label: str, code: str) -> bool | tuple[str, str, str] | None:
    """True when `label` names the language of `code`; (the code's language, the label's code, the
    label's language) when it names another; None when either is no language."""
    if not _CODE.fullmatch(code) or _CODE.fullmatch(label) or not _NAME.fullmatch(label):
        return None
    try:
        meant = langcodes.Language.get(langcodes.find(label)).language
        given = langcodes.Language.get(code.replace("_", "-")).language
    except (LookupError, ValueError):
        return None
    if meant is None or given is None or not langcodes.Language.get(given).is_valid():
        return None
    if _PROVIDER_CODES.get(code[:2].lower()) == meant:
        return None
    near = min(langcodes.tag_distance(meant, given), langcodes.tag_distance(given, meant))
    if near < _OTHER:
        return True
    if not _english_language_name(label) or len(meant) != 2:
        return None  # a country's name ("Malaysia", "Mali"), a name in another language, a rare language
    return (
        langcodes.Language.get(given).display_name(),
        meant,
        langcodes.Language.get(meant).display_name(),
    )


def _english_language_name(label: str) -> bool:
    """True when `label` is a language's English name and no country's or region's: a select of
    countries (`gl`, `market`) pairs "Malaysia" with `MY`, which is no language code at all."""
    try:
        langcodes.find(label, language="en")
    except LookupError:
        return False
    return label.casefold() not in _territory_names()


@cache
def _territory_names() -> frozenset[str]:
    """The English names of every two-letter region code (CLDR's, through `langcodes`)."""
    names = set()
    for first in string.ascii_uppercase:
        for second in string.ascii_uppercase:
            territory = langcodes.Language.get(f"und-{first}{second}")
            if territory.territory is not None and territory.is_valid():
                names.add(territory.territory_name("en").casefold())
    return frozenset(names)
