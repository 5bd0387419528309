"""A build whose every input is what the last build of that site folder read leaves the site as it
is; any change to what a page can show builds again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "collection" / "official" / "tools"
PLUGINS = ("word_counter", "slug_maker")


def _build(capsys: pytest.CaptureFixture[str], collection: Path, site: Path, *extra: str) -> str:
    code = main(["build", str(collection), "--no-run", "--site-dir", str(site), "--format", "json", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.err


@pytest.mark.slow
def test_an_unchanged_collection_is_not_built_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    collection = tmp_path / "collection"
    for name in PLUGINS:
        shutil.copytree(CASE / name, collection / name)
    site = tmp_path / "site"
    assert "site built in" in _build(capsys, collection, site)
    page = site / "plugins" / "word_counter" / "index.html"
    written = page.stat().st_mtime_ns

    assert "is up to date" in _build(capsys, collection, site)
    assert page.stat().st_mtime_ns == written

    # another address for the site: every page names it
    assert "site built in" in _build(capsys, collection, site, "--site-url", "https://example.org/x/")
    assert "is up to date" in _build(capsys, collection, site, "--site-url", "https://example.org/x/")

    # a plugin's label changes: its page shows the new one
    manifest = collection / "word_counter" / "manifest.yaml"
    text = manifest.read_text(encoding="utf-8")
    label = next(line for line in text.splitlines() if "en_US:" in line).split("en_US:", 1)[1].strip()
    manifest.write_text(text.replace(label, "Counted Words", 1), encoding="utf-8")
    assert "site built in" in _build(capsys, collection, site, "--site-url", "https://example.org/x/")
    assert "Counted Words" in page.read_text(encoding="utf-8")

    # a site folder that lost a page is whole again only after a build
    shutil.rmtree(site)
    assert "site built in" in _build(capsys, collection, site, "--site-url", "https://example.org/x/")
