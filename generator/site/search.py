"""Search: Pagefind indexes the built site once every language is written.

Pagefind keeps one index per `<html lang>`, split into chunks the browser loads on demand, and its
extended build segments Chinese and Japanese words (benchmarks/README.md compares it with
Material's built-in search). Every plugin and tool page carries its labels in all four languages
in a hidden, heavily weighted block, so each language's index finds a page by any of its labels;
the same block marks the page as a catalog page, which the search box lists before other pages.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from generator.plugin_model import LANGUAGES, I18n
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES
from generator.site.pagefind_binary import executable, loads_dictionaries

log = logging.getLogger("mkdocs.plugins.dify-registry")

# What a page is, as the search box's filter reads it: catalog pages (these) come first.
KINDS = ("plugin", "tool", "child")
# Pagefind's largest weight; a page's title (h1) weighs 7, its text 1.
LABEL_WEIGHT = 10
MAX_LABEL = 300
# Only the page's article is indexed (not the header, navigation or footer), and not the home
# page's catalog, which names every plugin and would match every label.
ROOT_SELECTOR = "article.md-content__inner"
# Nor what every tool page says alike or what no one searches for (it only made the index heavier,
# and matched every page): table headings, the fixed output variables, the sentences of the site's
# own (.dr-fixed), the workflow references, findings (their rule's page is found), example inputs
# and outputs, badges, and the English and shortened marks (which joined the word before them);
# the parameters' type, required, default and form cells and the outputs' type, required and
# schema cells (words such as "string", "yes" or "llm" on every page); the tool's full name
# (its name is among the search keys) and the crumb (the plugin's label matched each of its tools).
EXCLUDED = (
    ".dr-catalog",
    ".dr-search",
    ".dr-fallback",
    ".dr-cut",
    "thead",
    ".dr-meta th",
    ".dr-meta td code",
    ".dr-crumb",
    ".dr-parameters td:nth-child(3)",
    ".dr-parameters td:nth-child(4)",
    ".dr-parameters td:nth-child(5)",
    ".dr-parameters td:nth-child(6)",
    ".dr-outputs td:nth-child(2)",
    ".dr-outputs td:nth-child(3)",
    ".dr-outputs td:nth-child(5)",
    "#out-text",
    "#out-files",
    "#out-json",
    ".dr-fixed",
    ".dr-references",
    ".dr-findings",
    ".dr-run pre",
    ".dr-anchor",
    ".dr-badge",
    ".dr-basis",
)
TIMEOUT = 600
# The search bundle's folder in the site, and the file that lists its languages.
BUNDLE = "pagefind"
ENTRY = "pagefind-entry.json"
# Pagefind's own search interfaces, which the registry's search box does not use.
UNUSED = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-highlight.js",
)


# Han, kana and the CJK compatibility forms: Pagefind splits these into words one way when it
# indexes (its Chinese and Japanese segmenters) and another way in the browser (Intl.Segmenter), so
# the same words are also indexed one character each, as the search box asks for them when a query
# holds any (the same ranges are in assets/dify-registry-search.js).
CJK = re.compile("([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f])")


def spaced(text: str) -> str:
    """`text` with every Han or kana character as a word of its own."""
    return " ".join(CJK.sub(r" \1 ", text).split())


HEX_LETTERS = str.maketrans("0123456789abcdef", "abcdefghijklmnop")


def whole(text: str) -> str:
    """One word that stands for `text` whole (NFKC, lower case, spaces collapsed): the search box
    asks for the word of the query, which only pages with that very label hold, whatever Pagefind's
    ranking or word splitting makes of the label's words. The same 32-bit FNV-1a hash of the UTF-8
    bytes is computed in assets/dify-registry-search.js."""
    digest = 0x811C9DC5
    for byte in " ".join(unicodedata.normalize("NFKC", text).lower().split()).encode():
        digest = ((digest ^ byte) * 0x01000193) & 0xFFFFFFFF
    # Letters only: every word splitter keeps a run of Latin letters whole (digits may be split off).
    return "drlabel" + f"{digest:08x}".translate(HEX_LETTERS)


@dataclass(frozen=True, slots=True)
class SearchKeys:
    """What search knows a catalog page by: its page kind (the filter that lists catalog pages
    first), its labels and name, and what its result calls it (`what`: plugin kinds, shown as the
    site's words `kind_<kind>`, or other words of `generator/site/texts.py`, in the reader's
    language)."""

    kind: str
    label: I18n
    name: str
    what: tuple[str, ...]


def search_keys(keys: SearchKeys) -> Markup:
    """The hidden block that makes a plugin or tool page found by its label in any language (and by
    its name), marks it as a catalog page, and says what it is (a filter value per word, which each
    result carries: words never indexed as text, so "tool" does not match every tool page)."""
    if keys.kind not in KINDS:
        raise ValueError(f"unknown page kind {keys.kind!r}; expected one of {', '.join(KINDS)}")
    names = [*(keys.label.get(code)[:MAX_LABEL] for code in LANGUAGES), keys.name[:MAX_LABEL]]
    texts = [word for word in dict.fromkeys(names) if word]
    split = dict.fromkeys(spaced(word) for word in texts if CJK.search(word))
    whole_keys = dict.fromkeys(whole(word) for word in texts)
    # Each label in its own <bdi>: it may hold right-to-left text or direction controls. The keys
    # are ASCII letters, which need no isolating (a <bdi> each cost 44 bytes a page).
    spans = "".join(f"<bdi>{escape(word)}</bdi> " for word in [*texts, *split])
    what = "".join(f'<i data-pagefind-filter="what:{escape(word)}"></i>' for word in keys.what)
    return Markup(
        f'<div class="dr-search-keys" hidden data-pagefind-weight="{LABEL_WEIGHT}" '
        f'data-pagefind-filter="kind:{keys.kind}">{spans}{" ".join(whole_keys)}{what}</div>'
    )


def pagefind_command(site_dir: Path, glob: str, output: Path) -> list[str]:
    """The Pagefind command line that indexes the pages of `site_dir` matched by `glob` into
    `output` (the binary: `pagefind_binary.executable()`)."""
    return [
        str(executable()),
        "--site",
        str(site_dir),
        "--glob",
        glob,
        "--output-path",
        str(output),
        "--root-selector",
        ROOT_SELECTOR,
        "--exclude-selectors",
        ", ".join(EXCLUDED),
        "--quiet",
    ]


class SearchIndexError(RuntimeError):
    """Pagefind could not index the site."""


# A top-level name a glob can hold as it is (the site's own folders and pages).
PLAIN_NAME = re.compile(r"[A-Za-z0-9._-]+")
# The languages whose pages make Pagefind 1.5's extended build (the wheel's) load a dictionary
# whole: Japanese text loads Lindera's UniDic (about 1.2 s of CPU and 300 MB) and every page
# carries every language's labels, so the Chinese run loads it as well as the Japanese one. While
# their pages together weigh less than SHARED_RUN_BYTES of HTML, one run indexes both and loads it
# once: below that, the run's peak is the dictionaries' load, the same as the Chinese run's apart
# (benchmarks/README.md, peaks of the run together against the larger run apart: no rise on the
# corpus tools' 5.9 MB nor on the official catalog's pages up to 6.4 MB; +6 MB at 6.7 MB, +15 at
# 8.2, +23 at the whole official site's 8.9 MB). Above it, each runs apart and holds its own pages
# only. Pagefind 1.6
# (ICU4X, no dictionaries) gains nothing from it: the run together costs the CPU of both runs apart
# and peaks higher (corpus tools: 1.45 s and 106 MB, against 0.93 + 0.63 s and 86 MB).
SHARED_RUN = ("zh_Hans", "ja_JP")
SHARED_RUN_BYTES = 6_000_000


def language_globs(site_dir: Path) -> dict[str, str]:
    """The pages of each language written in `site_dir`, as one Pagefind glob each: a language's
    folder, and for the default language everything else but the search bundle."""
    folders = {lang.prefix for lang in LANGUAGE_SITES if lang.prefix}
    globs = {
        lang.code: f"{lang.prefix}/**/*.html"
        for lang in LANGUAGE_SITES
        if lang.prefix and (site_dir / lang.prefix).is_dir()
    }
    parts = [
        f"{path.name}/**/*.html" if path.is_dir() else path.name
        for path in sorted(site_dir.iterdir())
        if path.name not in folders | {BUNDLE}
        and PLAIN_NAME.fullmatch(path.name)
        and (path.is_dir() or path.suffix == ".html")
    ]
    if parts:
        globs[DEFAULT_LANGUAGE.code] = "{" + ",".join(parts) + "}"
    return globs


def pagefind_runs(site_dir: Path, globs: dict[str, str], dictionaries: bool) -> list[str]:
    """The Pagefind runs that index the languages' `globs` in `site_dir`, one glob each: a run per
    language, but the SHARED_RUN languages in one run while their pages weigh little, when the
    binary loads whole `dictionaries` (`pagefind_binary.loads_dictionaries`)."""
    if not dictionaries:
        return list(globs.values())
    shared = [code for code in SHARED_RUN if code in globs]
    weight = sum(
        path.stat().st_size
        for language in LANGUAGE_SITES
        if language.code in shared
        for path in (site_dir / language.prefix).rglob("*.html")
    )
    if len(shared) < 2 or weight >= SHARED_RUN_BYTES:
        return list(globs.values())
    runs = [glob for code, glob in globs.items() if code not in shared]
    return ["{" + ",".join(globs[code] for code in shared) + "}", *runs]


def run_pagefind(site_dir: Path, glob: str, output: Path) -> dict[str, object]:
    """Index the pages `glob` matches into `output`; the languages its entry file lists."""
    try:
        command = pagefind_command(site_dir, glob, output)
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as failure:
        raise SearchIndexError(f"Pagefind did not run: {failure}") from failure
    if done.returncode != 0:
        raise SearchIndexError(f"Pagefind failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
    for line in done.stdout.splitlines():
        if line.strip():
            log.debug("pagefind: %s", line)
    entry = output / ENTRY
    if not entry.is_file():  # no page matched: Pagefind writes no bundle
        return {}
    languages = json.loads(entry.read_text(encoding="utf-8")).get("languages", {})
    return languages if isinstance(languages, dict) else {}


def index_site(site_dir: Path, dictionaries: bool | None = None) -> None:
    """Write the search index of every language into `site_dir/pagefind/`: one Pagefind run per
    language folder (Chinese and Japanese together on a small site with Pagefind 1.5:
    `pagefind_runs`), one after the other, merged into one bundle that lists every language's index
    as a single run over the whole site would (the search box loads it as before). Apart, each run
    holds one language's pages in memory, not all four. `dictionaries`: whether the binary loads
    whole dictionaries (default: what the binary the build runs does)."""
    if dictionaries is None:
        dictionaries = loads_dictionaries()
    bundle = site_dir / BUNDLE
    shutil.rmtree(bundle, ignore_errors=True)
    entry: dict[str, object] = {}
    languages: dict[str, object] = {}
    runs = pagefind_runs(site_dir, language_globs(site_dir), dictionaries)  # before the runs' folder
    # The runs write beside the site's pages, on the same file system: their bundles are then
    # moved into place (a rename per file), not copied (2 s of a corpus build's CPU were copies).
    with tempfile.TemporaryDirectory(prefix=".pagefind-", dir=site_dir) as folder:
        for number, glob in enumerate(runs):
            output = Path(folder) / str(number)
            found = run_pagefind(site_dir, glob, output)
            twice = sorted(set(found) & set(languages))
            if twice:  # two runs of one language would each hold only part of its pages
                raise SearchIndexError(f"pages in {', '.join(twice)} outside their language's folder")
            languages.update(found)
            if found:
                entry = json.loads((output / ENTRY).read_text(encoding="utf-8"))
                move_into(output, bundle)
    if not languages:
        return
    entry["languages"] = dict(sorted(languages.items()))
    text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
    (bundle / ENTRY).write_text(text, encoding="utf-8")
    for name in UNUSED:
        (bundle / name).unlink(missing_ok=True)


def move_into(source: Path, target: Path) -> None:
    """Move every file below `source` to the same place below `target` (on the same file system),
    replacing a file of the same name: the files every run writes alike (Pagefind's script and
    its shared WebAssembly) once, each language's own (its index, fragments, filters) beside the
    other languages'."""
    made: set[Path] = set()
    for path in sorted(source.rglob("*")):
        if path.is_dir():
            continue
        destination = target / path.relative_to(source)
        if destination.parent not in made:
            destination.parent.mkdir(parents=True, exist_ok=True)
            made.add(destination.parent)
        path.replace(destination)
