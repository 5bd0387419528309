"""The search index written one language at a time: the same bundle as one run over the whole site."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.site.search import (
    BUNDLE,
    ENTRY,
    SHARED_RUN_BYTES,
    SearchIndexError,
    index_site,
    language_globs,
    pagefind_command,
    pagefind_runs,
)
from tests.sitebuild import BuiltSite, cases_site

__all__ = ["cases_site"]  # session fixture used below


def _fragments(bundle: Path) -> dict[str, str]:
    """What Pagefind stored of each page, by URL."""
    found: dict[str, str] = {}
    for path in (bundle / "fragment").iterdir():
        fragment = json.loads(gzip.decompress(path.read_bytes()).removeprefix(b"pagefind_dcd"))
        found[fragment["url"]] = fragment["content"]
    return found


def _languages(bundle: Path) -> dict[str, int]:
    entry = json.loads((bundle / ENTRY).read_text(encoding="utf-8"))
    return {code: about["page_count"] for code, about in entry["languages"].items()}


@pytest.mark.parametrize("dictionaries", [True, False], ids=["pagefind-1.5", "pagefind-1.6"])
def test_a_run_per_language_indexes_what_one_run_over_the_site_did(
    cases_site: BuiltSite, tmp_path: Path, dictionaries: bool
) -> None:
    site = tmp_path / "site"
    shutil.copytree(cases_site.root, site, ignore=shutil.ignore_patterns(BUNDLE))
    whole = tmp_path / "whole"
    subprocess.run(pagefind_command(site, "**/*.html", whole), check=True, capture_output=True)
    # With dictionaries the small site's Chinese and Japanese pages share a run; without, apart.
    assert len(pagefind_runs(site, language_globs(site), dictionaries)) == (3 if dictionaries else 4)
    index_site(site, dictionaries)
    bundle = site / BUNDLE
    assert _languages(bundle) == _languages(whole)
    assert sorted(_languages(bundle)) == ["en", "ja", "pt-br", "zh"]
    assert _fragments(bundle) == _fragments(whole)
    # Every file the entry names is in the one bundle the search box loads.
    for about in json.loads((bundle / ENTRY).read_text(encoding="utf-8"))["languages"].values():
        assert (bundle / f"pagefind.{about['hash']}.pf_meta").is_file()
    assert not (bundle / "pagefind-ui.js").exists()


PAGE = (
    '<!doctype html><html lang="{lang}"><body>'
    '<article class="md-content__inner">{text}</article></body></html>'
)


def test_a_language_found_outside_its_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pt").mkdir()
    (tmp_path / "pt" / "index.html").write_text(PAGE.format(lang="pt-BR", text="busca"), encoding="utf-8")
    (tmp_path / "index.html").write_text(PAGE.format(lang="pt-BR", text="clima"), encoding="utf-8")
    with pytest.raises(SearchIndexError, match="pt-br"):
        index_site(tmp_path)


def test_a_site_of_one_language_gets_its_index(tmp_path: Path) -> None:
    (tmp_path / "about").mkdir()
    (tmp_path / "about" / "index.html").write_text(PAGE.format(lang="en", text="weather"), encoding="utf-8")
    (tmp_path / "index.html").write_text(PAGE.format(lang="en", text="stock"), encoding="utf-8")
    index_site(tmp_path)
    assert _languages(tmp_path / BUNDLE) == {"en": 2}


def _pages(site: Path, folder: str, lang: str, text: str) -> None:
    (site / folder).mkdir(parents=True, exist_ok=True)
    (site / folder / "index.html").write_text(PAGE.format(lang=lang, text=text), encoding="utf-8")


def test_chinese_and_japanese_share_a_run_while_their_pages_weigh_little(tmp_path: Path) -> None:
    _pages(tmp_path, "zh", "zh", "天气")
    _pages(tmp_path, "ja", "ja", "天気")
    _pages(tmp_path, "pt", "pt-BR", "clima")
    (tmp_path / "index.html").write_text(PAGE.format(lang="en", text="weather"), encoding="utf-8")
    globs = language_globs(tmp_path)
    assert pagefind_runs(tmp_path, globs, dictionaries=True) == [
        "{zh/**/*.html,ja/**/*.html}",
        "pt/**/*.html",
        "{index.html}",
    ]
    # A binary that loads no dictionary (Pagefind 1.6) gains nothing from sharing a run.
    assert pagefind_runs(tmp_path, globs, dictionaries=False) == list(globs.values())
    index_site(tmp_path, dictionaries=True)
    assert _languages(tmp_path / BUNDLE) == {"en": 1, "ja": 1, "pt-br": 1, "zh": 1}


def test_chinese_and_japanese_run_apart_when_their_pages_weigh_more(tmp_path: Path) -> None:
    _pages(tmp_path, "zh", "zh", "天气" * (SHARED_RUN_BYTES // 6))  # three bytes a character
    _pages(tmp_path, "ja", "ja", "天気")
    assert pagefind_runs(tmp_path, language_globs(tmp_path), True) == ["zh/**/*.html", "ja/**/*.html"]


def test_a_site_without_japanese_pages_runs_chinese_alone(tmp_path: Path) -> None:
    _pages(tmp_path, "zh", "zh", "天气")
    _pages(tmp_path, "pt", "pt-BR", "clima")
    assert pagefind_runs(tmp_path, language_globs(tmp_path), True) == ["zh/**/*.html", "pt/**/*.html"]
