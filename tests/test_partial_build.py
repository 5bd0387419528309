"""A build of a site folder built before renders only the pages whose content changed (one changed
plugin's pages and the pages that list it, in every language), keeps every other page's HTML as it
was written, indexes the whole site for search again, and gives the site a full build would; a
plugin added builds every page again, and says why."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.site.search import BUNDLE, ENTRY
from tests.conftest import REPO
from tests.sitebuild import serve

pytestmark = [pytest.mark.slow]

CASE = REPO / "tests" / "cases" / "collection" / "official" / "tools"
PLUGINS = ("word_counter", "slug_maker", "line_sorter")
CHANGED = "word_counter"
ADDED = "vowel_counter"
LANGUAGE_FOLDERS = ("", "zh/", "ja/", "pt/")
# Pages every build writes again whatever changed: the theme's 404 page (MkDocs renders it apart).
REWRITTEN_HTML = {f"{folder}404.html" for folder in LANGUAGE_FOLDERS}
# What each language publishes about every plugin: the catalog (home page and its cards), llms.txt,
# the translation coverage page.
SHARED = ("index.html", "cards.json", "llms.txt", "translations/index.html", "translations.json")


def _build(collection: Path, site: Path, *extra: str) -> str:
    """`build` in a process of its own: what it printed on stderr."""
    command = [sys.executable, "-m", "generator", "build", str(collection), "--no-run", *extra]
    command += ["--site-dir", str(site), "--cache-dir", str(site.parent / "cache"), "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False, cwd=site.parent)
    assert done.returncode == 0, done.stderr
    return done.stderr


def _files(site: Path) -> dict[str, tuple[int, str]]:
    """(modification time, content digest) of every file of the site but the search bundle, whose
    file names and order Pagefind does not keep from one run to the next (see `_search`)."""
    found = {}
    for path in site.rglob("*"):
        name = path.relative_to(site).as_posix()
        if path.is_file() and not name.startswith(f"{BUNDLE}/"):
            found[name] = (path.stat().st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
    return found


def _search(site: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """What the search index holds: each language's page count, and the text indexed per page."""
    entry = json.loads((site / BUNDLE / ENTRY).read_text(encoding="utf-8"))
    counts = {code: about["page_count"] for code, about in entry["languages"].items()}
    texts = {}
    for path in (site / BUNDLE / "fragment").iterdir():
        fragment = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        texts[fragment["url"]] = fragment["content"]
    return counts, texts


def _relabel(collection: Path) -> None:
    """A new English label for the plugin `CHANGED` and for its tool, and a new tool description."""
    replaced = {
        "manifest.yaml": {"en_US: Word Counter": "en_US: Tally Kit"},
        "tools/count_words.yaml": {
            "en_US: Word Counter": "en_US: Tally Words",
            "en_US: Counts the words of a text.": "en_US: Tallies every word.",
        },
    }
    for name, changes in replaced.items():
        path = collection / CHANGED / name
        text = path.read_text(encoding="utf-8")
        for old, new in changes.items():
            assert old in text
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")


def _collection(folder: Path, names: tuple[str, ...]) -> Path:
    for name in names:
        shutil.copytree(CASE / name, folder / name)
    return folder


def _assert_same_site(built: Path, full: Path) -> None:
    """`built` holds exactly the files of the full build `full`, byte for byte, and the same index."""
    ours, theirs = _files(built), _files(full)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name][1] != theirs[name][1]] == []
    assert _search(built) == _search(full)


def _belongs_to(name: str, plugin: str) -> bool:
    return any(name.startswith(f"{folder}plugins/{plugin}/") for folder in LANGUAGE_FOLDERS)


@pytest.mark.browser
def test_one_changed_plugin_renders_its_pages_and_the_shared_ones(tmp_path: Path, page: Any) -> None:
    collection = _collection(tmp_path / "collection", PLUGINS)
    site = tmp_path / "site"
    said = _build(collection, site)
    assert "building every page" not in said  # a first build has nothing to say why
    before = _files(site)

    _relabel(collection)
    said = _build(collection, site)
    after = _files(site)
    assert " kept as the last build wrote them" in said, said

    # (a) Only the changed plugin's pages and the pages listing every plugin were written again.
    assert sorted(after) == sorted(before)
    changed = {name for name in after if after[name][1] != before[name][1]}
    shared = {f"{folder}{name}" for folder in LANGUAGE_FOLDERS for name in SHARED}
    assert {name for name in changed if not _belongs_to(name, CHANGED)} <= shared | {"index.json"}
    tool_page = "plugins/word_counter/word_counter/count_words/index.html"
    assert {tool_page, "plugins/word_counter/index.html", "index.html", "cards.json"} <= changed
    html = {name for name in after if name.endswith(".html")}
    touched = {name for name in html if after[name][0] != before[name][0]}
    assert {name for name in touched if not _belongs_to(name, CHANGED)} <= shared | REWRITTEN_HTML
    assert len(html - touched) > len(touched), "most pages keep the file the first build wrote"

    # (b) The site is the one a full build of the changed collection writes.
    full = tmp_path / "full"
    _build(collection, full)
    _assert_same_site(site, full)

    # (c) The catalog, index.json, llms.txt and search know the new labels.
    assert "Tally Kit" in (site / "cards.json").read_text(encoding="utf-8")
    assert "Tally Words" in (site / "index.json").read_text(encoding="utf-8")
    assert "Tally Words" in (site / "llms.txt").read_text(encoding="utf-8")
    with serve(site) as url:
        page.goto(url)
        assert page.locator('li.dr-card[data-plugin="word_counter"]').inner_text().count("Tally Kit") == 1
        page.locator("input.dr-search__input").fill("Tally Words")
        page.wait_for_selector(".dr-search__results a", timeout=20_000)
        first = page.evaluate("document.querySelector('.dr-search__results a')?.pathname ?? null")
        assert first == "/plugins/word_counter/word_counter/count_words/"


def test_a_plugin_added_builds_every_page_again(tmp_path: Path) -> None:
    collection = _collection(tmp_path / "collection", PLUGINS)
    site = tmp_path / "site"
    _build(collection, site)
    before = _files(site)

    shutil.copytree(CASE / ADDED, collection / ADDED)
    said = _build(collection, site)
    assert "en pages: every page again: " in said, said
    assert "pages added, 0 removed" in said
    after = _files(site)
    rewritten = [name for name in before if name.endswith(".html") and name in after]
    assert rewritten
    assert all(after[name][0] != before[name][0] for name in rewritten)
    assert any(_belongs_to(name, ADDED) for name in after)
    full = tmp_path / "full"
    _build(collection, full)
    _assert_same_site(site, full)

    # Something every page shows changed (the site's title): MkDocs builds the whole site.
    said = _build(collection, site, "--title", "Another title")
    assert "building every page: changed since the last build: the configuration" in said, said
    assert "Another title" in (site / "plugins" / "slug_maker" / "index.html").read_text(encoding="utf-8")
