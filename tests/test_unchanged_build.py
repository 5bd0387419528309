"""A build whose every input is what the last build of that site folder read leaves the site as it
is and prints the same findings report; any change to what a page can show builds again."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "collection" / "official" / "tools"
PLUGINS = ("word_counter", "slug_maker")


def _build(collection: Path, site: Path, *extra: str) -> tuple[str, str]:
    """`build` in a process of its own (each has its own hash seed, as two commands do): what it
    printed on stdout (the findings report) and on stderr."""
    argv = [str(collection), "--no-run", "--site-dir", str(site), "--format", "json"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "build",
            *argv,
            "--cache-dir",
            str(site.parent / "cache"),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=site.parent,
    )
    assert done.returncode == 0, done.stderr
    assert '"diagnostics"' in done.stdout
    return done.stdout, done.stderr


@pytest.mark.slow
def test_an_unchanged_collection_is_not_built_again(tmp_path: Path) -> None:
    collection = tmp_path / "collection"
    for name in PLUGINS:
        shutil.copytree(CASE / name, collection / name)
    site = tmp_path / "site"
    report, said = _build(collection, site)
    assert "site built in" in said
    page = site / "plugins" / "word_counter" / "index.html"
    written = page.stat().st_mtime_ns

    again, said = _build(collection, site)
    assert "is up to date" in said
    assert again == report
    assert page.stat().st_mtime_ns == written

    # another address for the site: every page names it
    url = ("--site-url", "https://example.org/x/")
    assert "site built in" in _build(collection, site, *url)[1]
    assert "is up to date" in _build(collection, site, *url)[1]

    # a plugin's label changes: its page shows the new one
    manifest = collection / "word_counter" / "manifest.yaml"
    text = manifest.read_text(encoding="utf-8")
    label = next(line for line in text.splitlines() if "en_US:" in line).split("en_US:", 1)[1].strip()
    manifest.write_text(text.replace(label, "Counted Words", 1), encoding="utf-8")
    assert "site built in" in _build(collection, site, *url)[1]
    assert "Counted Words" in page.read_text(encoding="utf-8")

    # a site folder that lost its pages is whole again only after a build
    shutil.rmtree(site)
    assert "site built in" in _build(collection, site, *url)[1]
