"""`build` of a site whose every input is what the last build of that folder read: nothing to write.

MkDocs rebuilds every page of every language each time (about 35 s of CPU for Dify's official tool
plugins). A build therefore records, in the site it wrote, a digest of everything the site is made
from: the files of the plugins, registries, overlays and schemas it reads (name, size and
modification time, as make compares them), the git commit each of them sits at (the version
histories), the configuration, the hand-written pages, how the examples run, and the generator and
its libraries. The next build with the same digest leaves the site as it is. Anything else, or a
site folder without the record, builds in full.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from generator.site.mkdocs_plugin import CatalogSource

# In the site folder: a hidden file, which the site's pages never link to.
STAMP = ".dify-registry-build"
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


def digest(config: MkDocsConfig, source: CatalogSource) -> str:
    """The digest of everything a build with `config` from `source` reads."""
    site_dir = Path(config.site_dir).resolve()
    folders = [*source.paths, source.schemas, *([source.overlays] if source.overlays else [])]
    parts: dict[str, Any] = {
        "config": {key: config.get(key) for key in _CONFIG_KEYS},
        "plugins": {name: dict(plugin.config) for name, plugin in config.plugins.items()},
        "docs": _files(Path(config.docs_dir), site_dir, contents=True),
        "run": repr(source.run),
        "inputs": {str(folder): _files(folder, site_dir) for folder in folders},
        "commits": sorted({_commit(folder) for folder in folders}),
        "generator": _files(Path(__file__).resolve().parents[1], site_dir),
        "libraries": sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions()),
    }
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def up_to_date(site_dir: Path, wanted: str) -> bool:
    """True when `site_dir` holds a whole site whose build recorded the digest `wanted`."""
    stamp = site_dir / STAMP
    try:
        return stamp.read_text(encoding="utf-8").strip() == wanted and (site_dir / "index.html").is_file()
    except OSError:
        return False


def record(site_dir: Path, done: str) -> None:
    """Remember that `site_dir` now holds the site of the digest `done`."""
    (site_dir / STAMP).write_text(done + "\n", encoding="utf-8")


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
