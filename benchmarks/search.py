"""The site's search in headless Chromium: Material's built-in search against Pagefind.

    python -m benchmarks.search SITE_DIR [--tools N]    (prints one JSON object)

SITE_DIR is a site built by `dify-registry build` (for the comparison, the official collection,
kept outside the repository). The engine is read from the site: Material's `search/search_index.json`
or Pagefind's `pagefind/` bundle. Figures:
- index size on disk, per language;
- time to ready, in a fresh browser context (cold cache): the page's load, then the time from
  typing a full label (at once after the load, and 2 s after it) until its first result shows,
  with the index bytes fetched by then;
- first-result rate: every label (en_US, zh_Hans, ja_JP, pt_BR) of N tools spread over the
  catalog, searched from every language's site; a hit is a first result that is the tool's page
  where index.json says a reader of the site's language finds it (the page in that language, or
  the English page where the language serves it only in English), or such a page of another tool
  with the very same label in any language.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from generator.plugin_model import LANGUAGES
from generator.site.languages import LANGUAGE_SITES, SiteLanguage
from tests.sitebuild import serve

CHROMIUM = "/usr/bin/chromium"
ANSWER_SECONDS = 1.5  # a query that shows nothing in this long (the index being loaded) found nothing


@dataclass(frozen=True)
class Engine:
    """How to type a query into one engine's search box and read its results."""

    name: str
    open_box: str  # clicked before typing ("" when the box is always there)
    box: str
    first_link: str  # a script returning the first result's path (null while there is none)
    index_paths: tuple[str, ...]  # URL path parts of the index's files


MATERIAL = Engine(
    "material",
    "input.md-search__input",
    "input.md-search__input",
    "document.querySelector('.md-search-result__list a')?.pathname ?? null",
    ("/search/",),
)
PAGEFIND = Engine(
    "pagefind",
    "",
    "input.dr-search__input",
    "document.querySelector('.dr-search__results a')?.pathname ?? null",
    ("/pagefind/",),
)


def engine_of(site: Path) -> Engine:
    """The engine whose index the built site holds."""
    return PAGEFIND if (site / "pagefind").is_dir() else MATERIAL


def index_bytes(site: Path, engine: Engine) -> dict[str, int]:
    """Bytes of the search index on disk, per language folder (Pagefind: one bundle for all)."""
    if engine is PAGEFIND:
        return {"all": sum(p.stat().st_size for p in (site / "pagefind").rglob("*") if p.is_file())}
    return {
        language.code: (site / language.prefix / "search" / "search_index.json").stat().st_size
        for language in LANGUAGE_SITES
    }


@dataclass(frozen=True)
class Query:
    """A label to search for and the pages that count as a hit."""

    label: str
    language: str  # of the label
    tool: str  # provider/name
    # Per site language, the URL paths from the site root ("/ja/plugins/...") that count as a hit:
    # where index.json says a reader of that language finds the page (the English page where the
    # language serves it only in English).
    pages: dict[str, frozenset[str]]


def queries(index: dict[str, Any], count: int) -> list[Query]:
    """Every label of `count` tools spread evenly over the catalog; a label that is also another
    tool's label (in any language, case aside) counts that tool's page as a hit too."""
    root = urlsplit(index["site_url"]).path.rstrip("/")
    tools = [tool for plugin in index["plugins"] for tool in plugin["tools"]]
    by_label: dict[str, list[dict[str, Any]]] = {}
    for tool in tools:
        for code in LANGUAGES:
            label = tool["label"].get(code) or tool["label"].get("en_US", "")
            by_label.setdefault(_same(label), []).append(tool)
    step = max(1, len(tools) // count)
    chosen = tools[::step][:count]
    found = []
    for tool in chosen:
        for code in LANGUAGES:
            label = tool["label"].get(code) or tool["label"].get("en_US", "")
            pages = {
                site: frozenset(
                    urlsplit(t["pages"][site]).path.removeprefix(root) for t in by_label[_same(label)]
                )
                for site in LANGUAGES
            }
            found.append(Query(label, code, f"{tool['provider']}/{tool['name']}", pages))
    return found


def _same(label: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", label).lower().split())


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """Headless Chromium with a throw-away HOME."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as home:
        os.environ["HOME"] = home
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                yield chromium
            finally:
                chromium.close()


def ask(page: Any, engine: Engine, label: str, timeout: float) -> str | None:
    """Type `label` into an emptied search box; the first result's path, or None."""
    box = page.locator(engine.box)
    box.fill("")
    box.press("End")
    page.wait_for_function(f"({engine.first_link}) === null", timeout=timeout * 1000)
    box.fill(label)
    box.press("End")  # Material reads the query on keyup
    try:
        page.wait_for_function(f"({engine.first_link}) !== null", timeout=timeout * 1000)
    except Exception:  # nothing found in time
        return None
    # Let the answer to the whole query replace answers to its beginning.
    time.sleep(0.15)
    first: str | None = page.evaluate(engine.first_link)
    return first


def ready_time(chromium: Any, url: str, engine: Engine, label: str, settle: float) -> dict[str, float]:
    """In a fresh browser context (cold cache): seconds from navigation until the page has loaded,
    and from typing `label` (`settle` seconds after the load) until its first result shows, with
    the index bytes fetched by then."""
    context = chromium.new_context()
    page = context.new_page()
    loaded: list[int] = []

    def count(response: Any) -> None:
        if any(part in response.url for part in engine.index_paths):
            with contextlib.suppress(Exception):
                loaded.append(len(response.body()))

    page.on("response", count)
    started = time.perf_counter()
    page.goto(url, wait_until="load")
    load = time.perf_counter() - started
    time.sleep(settle)
    if engine.open_box:
        page.locator(engine.open_box).click()
    typed = time.perf_counter()
    box = page.locator(engine.box)
    box.fill(label)
    box.press("End")
    page.wait_for_function(f"({engine.first_link}) !== null", timeout=60_000, polling=20)
    answer = time.perf_counter() - typed
    context.close()
    return {"load": load, "answer": answer, "bytes": sum(loaded)}


def first_result_rate(chromium: Any, base: str, engine: Engine, asked: list[Query]) -> dict[str, Any]:
    """Hits per site language and label language, and the misses."""
    hits: dict[str, dict[str, int]] = {}
    misses: list[dict[str, str]] = []
    for language in LANGUAGE_SITES:
        page = chromium.new_page()
        page.goto(base + language.folder)
        if engine.open_box:
            page.locator(engine.open_box).click()
        ask(page, engine, asked[0].label, 60.0)  # loads the index
        row = hits.setdefault(language.code, dict.fromkeys(LANGUAGES, 0))
        for query in asked:
            first = ask(page, engine, query.label, ANSWER_SECONDS)
            if first in query.pages[language.code]:
                row[query.language] += 1
            else:
                misses.append({"site": language.code, "label": query.label, "first": str(first)})
        page.close()
    return {"per_tool_language": len(asked) // len(LANGUAGES), "hits": hits, "misses": misses}


def measure(site: Path, tools: int) -> dict[str, Any]:
    """Every figure of one built site."""
    engine = engine_of(site)
    index = json.loads((site / "index.json").read_text(encoding="utf-8"))
    asked = queries(index, tools)
    result: dict[str, Any] = {"engine": engine.name, "index_bytes": index_bytes(site, engine)}
    with serve(site) as base, browser() as chromium:
        ready: dict[str, Any] = {}
        for language in LANGUAGE_SITES:
            label = _full_label(asked, language)
            url = base + language.folder
            for settle in (0.0, 2.0):
                runs = [ready_time(chromium, url, engine, label, settle) for _ in range(3)]
                ready.setdefault(
                    language.code, {"page_load": round(statistics.median(r["load"] for r in runs), 2)}
                )
                ready[language.code][f"first_result_{settle:g}s_after_load"] = {
                    "seconds": round(statistics.median(r["answer"] for r in runs), 2),
                    "index_bytes_loaded": int(statistics.median(r["bytes"] for r in runs)),
                }
        result["ready"] = ready
        result["first_result"] = first_result_rate(chromium, base, engine, asked)
    return result


def _full_label(asked: list[Query], language: SiteLanguage) -> str:
    return next(q.label for q in asked if q.language == language.code)


def main(argv: list[str]) -> int:
    """Measure the site named on the command line."""
    site = Path(argv[0])
    tools = int(argv[argv.index("--tools") + 1]) if "--tools" in argv else 20
    print(json.dumps(measure(site, tools), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
