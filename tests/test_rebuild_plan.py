"""Which pages a build of a site folder keeps, from the records of its last build (real files)."""

from __future__ import annotations

from pathlib import Path

from generator.site.rebuild import LanguagePages, Ledger, Rebuild, page_digest

FRAME = {"the configuration": "c1", "the generator": "g1"}


def _pages(**bodies: str) -> LanguagePages:
    """Pages `<name>.md` written to `<name>/index.html`, made of `bodies`, and one media file."""
    made = {f"{name}.md": (f"{name}/index.html", page_digest("---", body)) for name, body in bodies.items()}
    return LanguagePages(made, frozenset({"media/icon.svg"}))


def _site(site: Path, written: LanguagePages) -> None:
    for output, _digest in written.pages.values():
        (site / output).parent.mkdir(parents=True, exist_ok=True)
        (site / output).write_text(output, encoding="utf-8")
    (site / "index.html").write_text("home", encoding="utf-8")


def _built(tmp_path: Path, written: LanguagePages) -> tuple[Ledger, Path]:
    """A ledger and a site folder as a complete build that wrote `written` left them."""
    ledger, site = Ledger(tmp_path / "cache" / "builds" / "x.pages"), tmp_path / "site"
    _site(site, written)
    first = Rebuild(ledger, incremental=False)
    first.finish("en_US", site, written, first.plan("en_US", site, written, []))
    ledger.complete(FRAME)
    return ledger, site


def test_only_pages_whose_content_changed_are_rendered(tmp_path: Path) -> None:
    ledger, site = _built(tmp_path, _pages(a="one", b="two", c="three"))
    assert ledger.why_full(FRAME, site) is None
    (site / "c" / "index.html").unlink()  # a page the folder lost is written again
    plan = Rebuild(ledger, incremental=True).plan("en_US", site, _pages(a="one", b="TWO", c="three"), [])
    assert plan.kept == {"a.md"}
    assert plan.rendered == 2
    assert plan.why_full == ""


def test_a_page_added_or_removed_renders_every_page_of_a_clean_folder(tmp_path: Path) -> None:
    ledger, site = _built(tmp_path, _pages(a="one", b="two"))
    (site / "zh").mkdir()
    (site / ".git").mkdir()
    plan = Rebuild(ledger, incremental=True).plan("en_US", site, _pages(a="one", b="two", c="new"), ["zh"])
    assert plan.kept == frozenset()
    assert plan.rendered == 3
    assert plan.why_full == "1 pages added, 0 removed"
    # The language's folder is emptied as MkDocs's clean does, but for the other languages' folders.
    assert sorted(path.name for path in site.iterdir()) == [".git", "zh"]


def test_files_no_longer_published_are_removed(tmp_path: Path) -> None:
    ledger, site = _built(tmp_path, _pages(a="one"))
    (site / "media").mkdir()
    (site / "media" / "icon.svg").write_text("<svg/>", encoding="utf-8")
    now = LanguagePages(_pages(a="one").pages, frozenset())
    rebuild = Rebuild(ledger, incremental=True)
    plan = rebuild.plan("en_US", site, now, [])
    assert plan.gone == {"media/icon.svg"}
    rebuild.finish("en_US", site, now, plan)
    assert not (site / "media").exists()
    assert ledger.pages("en_US") == now


def test_what_forces_a_full_build_is_named(tmp_path: Path) -> None:
    ledger, site = _built(tmp_path, _pages(a="one"))
    changed = {**FRAME, "the generator": "g2"}
    assert ledger.why_full(changed, site) == "changed since the last build: the generator"
    ledger.start()  # a build that never completes leaves no frame to trust
    assert ledger.why_full(FRAME, site) == "no complete earlier build of this site folder is recorded"
    ledger.complete(FRAME)
    (site / "index.html").unlink()
    assert ledger.why_full(FRAME, site) == "the site folder lost its home page"


def test_a_damaged_record_is_no_record(tmp_path: Path) -> None:
    ledger, site = _built(tmp_path, _pages(a="one"))
    record = '{"pages": {"a.md": ["a/index.html"]}, "files": []}'
    (ledger.folder / "en_US.json").write_text(record, encoding="utf-8")
    assert ledger.pages("en_US") is None
    (ledger.folder / "frame.json").write_text("[not json", encoding="utf-8")
    assert ledger.why_full(FRAME, site) == "no complete earlier build of this site folder is recorded"
