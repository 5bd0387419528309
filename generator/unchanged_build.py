"""`build` of a site whose every input is what the last build of that folder read: nothing to do.

MkDocs rebuilds every page of every language each time, and checking the catalog again costs more
than reading the files it comes from (together about 75 s of CPU for Dify's official tool plugins).
A build therefore records, in the run cache (never in the published site), for its site folder: a
digest of everything the site is made from (the files of the plugins, registries, overlays and
schemas it reads, by name, size and modification time as make compares them; the git commit each
sits at, for the version histories; the configuration, the hand-written pages, how the examples
run, the generator and its libraries) and the findings report it printed. The next build with the
same digest and output format prints that report again and leaves the site as it is. Anything
else, or a site folder that lost its home page, builds again: in full when a part of the frame (what
every page shows alike: the configuration, the hand-written pages, the generator, its libraries)
changed, else rendering only the pages whose content changed (`generator/site/rebuild.py`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.site.mkdocs_plugin import CatalogSource

# In the run cache: one record per site folder (named by a digest of its absolute path).
RECORDS = "builds"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# The configuration's values a page can show (docs_dir is read as its files, wherever it lies).
_CONFIG_KEYS = (
    "site_name",
    "site_url",
    "site_description",
    "site_author",
    "copyright",
    "repo_url",
    "repo_name",
    "edit_uri",
    "use_directory_urls",
    "nav",
    "theme",
    "extra",
    "extra_css",
    "extra_javascript",
    "markdown_extensions",
    "mdx_configs",
)
# Folders no build reads (besides hidden ones: version control, environments, the run cache).
_SKIPPED = frozenset({"node_modules", "__pycache__"})


def digests(config: Any, source: CatalogSource) -> tuple[str, dict[str, str]]:
    """The digest of everything a build with the MkDocs configuration `config` from `source` reads
    (typed loosely: only the MkDocs glue imports MkDocs), and the digest of each part of what every
    page of the site shows alike (its frame), by what the part is: everything but the plugins (their
    files, commits and runs), which only the pages made from them show (`site/rebuild.py` compares
    those page by page)."""
    parts = _parts(config, source)
    return _hash(parts), {name: _hash(parts[key]) for key, name in FRAME.items()}


# The parts of the frame, by the name a progress line gives them.
FRAME = {
    "config": "the configuration",
    "plugins": "the site plugins' options",
    "docs": "the hand-written pages",
    "generator": "the generator",
    "libraries": "the installed libraries",
}


def _parts(config: Any, source: CatalogSource) -> dict[str, Any]:
    from importlib import metadata  # here: every command imports this module, only build digests

    site_dir = Path(config.site_dir).resolve()
    folders = [*source.paths, source.schemas, *([source.overlays] if source.overlays else [])]
    return {
        "config": {key: config.get(key) for key in _CONFIG_KEYS},
        "plugins": {name: dict(plugin.config) for name, plugin in config.plugins.items()},
        "docs": _files(Path(config.docs_dir), site_dir, contents=True),
        "run": repr(source.run),
        "inputs": {str(folder): _files(folder, site_dir) for folder in folders},
        "commits": sorted({_commit(folder) for folder in folders}),
        # The package alone (its templates, assets and overrides are inside it): its parent is the
        # checkout here, but site-packages in an installed generator, every library of which
        # "libraries" already names by version.
        "generator": _files(Path(__file__).resolve().parent, site_dir),
        # A set: a process started in the repository also finds its egg-info in the working folder.
        "libraries": sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions()}),
    }


def _hash(value: object) -> str:
    text = json.dumps(value, sort_keys=True, default=_plain)
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def _plain(value: object) -> object:
    """A value of the configuration as JSON that is the same in every process: a set's order and an
    object's text (`repr`) may differ between two runs."""
    if isinstance(value, set | frozenset):
        return sorted(str(item) for item in value)
    if isinstance(value, Mapping):
        return {str(key): item for key, item in value.items()}
    return str(value)


@dataclass(frozen=True)
class Record:
    """What the last build of one site folder read (its digest) and printed (its report)."""

    path: Path
    digest: str
    view: str  # the report's format and options

    @classmethod
    def of(cls, cache: Path, site_dir: Path, digest: str, view: str) -> Record:
        """The record of `site_dir` in the run cache `cache`, for a build of `digest`."""
        name = hashlib.sha256(str(site_dir.resolve()).encode("utf-8", errors="surrogateescape")).hexdigest()
        return cls(cache / RECORDS / f"{name[:32]}.json", digest, view)

    def last_report(self, site_dir: Path, colour: bool) -> str | None:
        """The report the last build printed when it built this very site from the same inputs with
        the same output options and the site is still there; None otherwise."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("digest") != self.digest or data.get("view") != self.view:
            return None
        report = data.get("report")
        if not isinstance(report, str) or not (site_dir / "index.html").is_file():
            return None
        return report if colour else _ANSI.sub("", report)

    def keep(self, report: str) -> None:
        """Remember that the site folder now holds the site of this digest, and what was printed."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"digest": self.digest, "view": self.view, "report": report}
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data), encoding="utf-8")
        temporary.replace(self.path)


def _files(folder: Path, site_dir: Path, contents: bool = False) -> list[tuple[str, int, int | str]]:
    """(path, size, modification time or content digest) of every file below `folder`."""
    if folder.is_file():
        return [_entry(folder, folder.name, contents)]
    return sorted(
        _entry(path, path.relative_to(folder).as_posix(), contents) for path in _walk(folder, site_dir)
    )


def _entry(path: Path, name: str, contents: bool) -> tuple[str, int, int | str]:
    info = path.stat()
    mark: int | str = hashlib.sha256(path.read_bytes()).hexdigest() if contents else info.st_mtime_ns
    return name, info.st_size, mark


def _walk(folder: Path, site_dir: Path) -> Iterator[Path]:
    for root, subfolders, names in os.walk(folder):
        here = Path(root)
        subfolders[:] = sorted(
            name
            for name in subfolders
            if not name.startswith(".") and name not in _SKIPPED and (here / name).resolve() != site_dir
        )
        yield from (here / name for name in names)


def _commit(folder: Path) -> str:
    """The commit `folder` sits at ("" outside a git repository): the version histories read it."""
    where = folder if folder.is_dir() else folder.parent
    try:
        done = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
