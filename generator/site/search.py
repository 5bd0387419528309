"""Search: Pagefind indexes the built site once every language is written.

Pagefind keeps one index per `<html lang>`, split into chunks the browser loads on demand, and its
extended build segments Chinese and Japanese words (benchmarks/README.md compares it with
Material's built-in search). Every plugin and tool page carries its labels in all four languages
in a hidden, heavily weighted block, so each language's index finds a page by any of its labels;
the same block marks the page as a catalog page, which the search box lists before other pages.
"""

from __future__ import annotations

import logging
import re
import subprocess
import unicodedata
from pathlib import Path

from markupsafe import Markup, escape

from generator.plugin_model import LANGUAGES, I18n

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


def search_keys(kind: str, label: I18n, name: str) -> Markup:
    """The hidden block that makes a plugin or tool page found by its label in any language (and by
    its name), and marks it as a catalog page."""
    if kind not in KINDS:
        raise ValueError(f"unknown page kind {kind!r}; expected one of {', '.join(KINDS)}")
    words = list(dict.fromkeys([*(label.get(code)[:MAX_LABEL] for code in LANGUAGES), name[:MAX_LABEL]]))
    texts = [word for word in words if word]
    split = dict.fromkeys(spaced(word) for word in texts if CJK.search(word))
    keys = dict.fromkeys(whole(word) for word in texts)
    # Each in its own <bdi>: a label may hold right-to-left text or direction controls.
    spans = "".join(f"<bdi>{escape(word)}</bdi> " for word in [*texts, *split, *keys])
    return Markup(
        f'<div class="dr-search-keys" hidden data-pagefind-weight="{LABEL_WEIGHT}" '
        f'data-pagefind-filter="kind:{kind}">{spans}</div>'
    )


def pagefind_command(site_dir: Path) -> list[str]:
    """The Pagefind command line that indexes `site_dir` (the binary comes from its PyPI wheel)."""
    from pagefind_bin_extended import get_executable

    return [
        str(get_executable()),
        "--site",
        str(site_dir),
        "--root-selector",
        ROOT_SELECTOR,
        "--exclude-selectors",
        ", ".join(EXCLUDED),
        "--quiet",
    ]


class SearchIndexError(RuntimeError):
    """Pagefind could not index the site."""


def index_site(site_dir: Path) -> None:
    """Write the search index of every language into `site_dir/pagefind/`."""
    try:
        done = subprocess.run(
            pagefind_command(site_dir), capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as failure:
        raise SearchIndexError(f"Pagefind did not run: {failure}") from failure
    if done.returncode != 0:
        raise SearchIndexError(f"Pagefind failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
    for line in done.stdout.splitlines():
        if line.strip():
            log.debug("pagefind: %s", line)
    for name in UNUSED:
        (site_dir / "pagefind" / name).unlink(missing_ok=True)
