"""Which pages a build of an existing site folder renders again, and what the folder holds.

A full build of a site of 149 plugins renders about 2,600 pages in each of four languages. When one
plugin changes, only its pages and the pages that list it (the catalog, the translation page...)
show anything new; every other page would come out byte for byte as it is. So each language build
records, in the run cache (never in the site), what each page was made of: a digest of its source
and of the HTML body the plugin puts in it, and the files it published besides pages. The next
build of the same folder, when nothing else a page shows can have changed (the configuration, the
hand-written pages, the generator and its libraries: `unchanged_build.frame`), renders only the
pages whose digest changed, keeps the other pages' HTML as it is, and removes the files it no longer
publishes. A page added or removed (a plugin, a tool, an event, a rule) changes the navigation the
language's pages share: that language is built in full.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# The record of one language build: its pages (source -> [output path, digest]) and other files.
_PAGES = "pages"
_FILES = "files"
# The record of the last complete build: the digest of each part of its frame.
_FRAME = "frame.json"


def page_digest(*parts: str) -> str:
    """The digest of what a page is made of (its source, the body put into it)."""
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(part.encode("utf-8", errors="surrogateescape"))
        hashed.update(b"\0")
    return hashed.hexdigest()


@dataclass(frozen=True)
class LanguagePages:
    """What one language build wrote: each page's output path (relative to the language's folder)
    and digest, by source path; and the other files' output paths."""

    pages: Mapping[str, tuple[str, str]]
    files: frozenset[str]

    def to_json(self) -> str:
        """The record as JSON."""
        return json.dumps({_PAGES: self.pages, _FILES: sorted(self.files)}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> LanguagePages | None:
        """The record written by `to_json`; None when it is not one."""
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        pages, files = data.get(_PAGES), data.get(_FILES)
        if not isinstance(pages, dict) or not isinstance(files, list):
            return None
        entries = {src: tuple(entry) for src, entry in pages.items() if isinstance(entry, list)}
        if len(entries) != len(pages) or any(len(entry) != 2 for entry in entries.values()):
            return None
        return cls({src: (str(entry[0]), str(entry[1])) for src, entry in entries.items()}, frozenset(files))


@dataclass(frozen=True)
class Ledger:
    """The records of one site folder's last build, in a folder of the run cache."""

    folder: Path

    @classmethod
    def of(cls, records: Path) -> Ledger:
        """The ledger beside a site folder's build record `records` (`unchanged_build.Record.path`)."""
        return cls(records.with_suffix(".pages"))

    def why_full(self, frame: Mapping[str, str], site_dir: Path) -> str | None:
        """Why the next build of `site_dir` with the frame `frame` must render every page; None
        when it may keep the pages that did not change."""
        try:
            last = json.loads(_read(self.folder / _FRAME) or "null")
        except ValueError:
            last = None
        if not isinstance(last, dict):
            return "no complete earlier build of this site folder is recorded"
        changed = [part for part, value in frame.items() if last.get(part) != value]
        if changed:
            return f"changed since the last build: {', '.join(changed)}"
        if not (site_dir / "index.html").is_file():
            return "the site folder lost its home page"
        return None

    def start(self) -> None:
        """A build begins: until it completes, the folder no longer holds what any record says."""
        (self.folder / _FRAME).unlink(missing_ok=True)

    def complete(self, frame: Mapping[str, str]) -> None:
        """Every language of the build with the frame `frame` is written."""
        _write(self.folder / _FRAME, json.dumps(dict(frame), sort_keys=True))

    def pages(self, language: str) -> LanguagePages | None:
        """What the last build of `language` wrote; None when it is not recorded."""
        text = _read(self.folder / f"{language}.json")
        return None if text is None else LanguagePages.from_json(text)

    def keep(self, language: str, written: LanguagePages) -> None:
        """Record what this build of `language` wrote."""
        _write(self.folder / f"{language}.json", written.to_json())


def _read(path: Path) -> str | None:
    """A record's text; None when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write(path: Path, text: str) -> None:
    """Write `path` whole or not at all (a build can stop anywhere)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


@dataclass(frozen=True)
class Plan:
    """What one language build renders: the pages it keeps as they are (by source path), how many
    it renders, why it renders every page ("" when it need not), and the files it removes."""

    kept: frozenset[str] = frozenset()
    rendered: int = 0
    why_full: str = ""
    gone: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Rebuild:
    """How the builds of a site folder treat what it holds: `incremental` when the last build of the
    folder had the same frame (its pages that did not change may be kept)."""

    ledger: Ledger
    incremental: bool

    def plan(self, language: str, site_dir: Path, written: LanguagePages, others: Iterable[str]) -> Plan:
        """Which pages the build of `language` into `site_dir`, which will write `written`, keeps.
        When it can keep none, the language's folder is emptied (but for the other languages'
        folders `others`), so that it is built as a clean folder would be."""
        last = self.ledger.pages(language) if self.incremental else None
        if last is None:
            why = f"no record of the {language} pages" if self.incremental else ""
            return self._full(site_dir, written, others, why)
        if last.pages.keys() != written.pages.keys():
            added = len(written.pages.keys() - last.pages.keys())
            removed = len(last.pages.keys() - written.pages.keys())
            return self._full(site_dir, written, others, f"{added} pages added, {removed} removed")
        kept = frozenset(
            src
            for src, made in written.pages.items()
            if last.pages[src] == made and (site_dir / made[0]).is_file()
        )
        return Plan(kept, len(written.pages) - len(kept), "", frozenset(last.files - written.files))

    def _full(self, site_dir: Path, written: LanguagePages, others: Iterable[str], why: str) -> Plan:
        if self.incremental:  # MkDocs does not empty the folder of a build that keeps pages
            clean_folder(site_dir, frozenset(others))
        return Plan(rendered=len(written.pages), why_full=why)

    def finish(self, language: str, site_dir: Path, written: LanguagePages, plan: Plan) -> None:
        """The language build is written: remove the files it no longer publishes, and record it."""
        for output in sorted(plan.gone):
            stale = site_dir / output
            stale.unlink(missing_ok=True)
            _remove_empty_folders(stale.parent, site_dir)
        self.ledger.keep(language, written)


def clean_folder(folder: Path, kept: frozenset[str]) -> None:
    """Remove what `folder` holds but hidden entries (as MkDocs's clean does) and those in `kept`."""
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name.startswith(".") or entry.name in kept:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _remove_empty_folders(folder: Path, top: Path) -> None:
    """Remove `folder` and its parents up to `top` (excluded) while they are empty."""
    while folder != top and folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
