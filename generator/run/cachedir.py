"""The run cache as a whole: what it holds (`cache info`), merging caches made on other machines
(`cache merge`) and bounding its size (`cache prune --max-size`).

A cache folder holds `runs/<key>/` (one example run: portable, keyed by everything that can change
it, see cache.py), `envs/<key>/` (a plugin environment: a venv tied to this machine's interpreter
paths), `overlays/<name>/` (the recorder installed beside environments) and `shared/` (files that
environments hold as hard links, see share.py). Only runs move between machines; environments and
overlays are rebuilt where they are needed. Each entry's modification time is its last use (cache.py
and environment.py touch it), which `prune` reads. A shared file no environment links any more is
space held for nothing: `info` counts those files, and `prune` removes them first.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.run.cache import run_folder
from generator.run.share import STORE

# The kinds of entries, by folder, in the order `info` lists them.
KINDS = {"runs": "runs", "envs": "environments", "overlays": "recorders"}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


@dataclass(frozen=True, slots=True)
class Entry:
    """One run, environment or recorder in a cache folder."""

    kind: str
    path: Path
    size: int
    used: float


@dataclass(frozen=True, slots=True)
class Merged:
    """What `merge` did: runs copied, and runs already present."""

    copied: int
    present: int


def parse_size(text: str) -> int:
    """`500M`, `2G`, `1.5GiB`, `800000` (bytes); units are powers of 1024. ValueError otherwise."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a size (for example 500M or 2G)")
    return int(float(match[1]) * _UNITS[match[2].lower()])


def human(size: int) -> str:
    """A size in the largest binary unit that keeps it at or above 1."""
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TiB"


def entries(cache: Path) -> list[Entry]:
    """Every entry of the cache, sizes counting a file linked into several entries once (in the
    first entry met, in name order); the shared files no environment links any more are one entry
    of their own, so every byte of the cache is counted once."""
    seen: set[tuple[int, int]] = set()
    found = []
    for folder, kind in KINDS.items():
        parent = cache / folder
        if not parent.is_dir():
            continue
        for path in sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith(".")):
            found.append(Entry(kind, path, disk_size(path, seen), _used(path)))
    unlinked = sum(status.st_blocks * 512 for _file, status in _unlinked(cache))
    if unlinked:
        found.append(Entry(UNLINKED, cache / STORE, unlinked, 0.0))
    return found


# The kind of the shared files that no environment links any more.
UNLINKED = "unused shared files"


def _unlinked(cache: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """The files of the shared store with no other link: every environment holding them is gone."""
    store = cache / STORE
    for file in sorted(store.iterdir()) if store.is_dir() else ():
        try:
            status = file.lstat()
        except OSError:
            continue
        if status.st_nlink == 1:
            yield file, status


def _used(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def disk_size(path: Path, seen: set[tuple[int, int]]) -> int:
    """Bytes on disk of the files under `path`, each inode not in `seen` once (links never followed)."""
    total = 0
    for file in _files(path):
        try:
            status = file.lstat()
        except OSError:
            continue
        inode = (status.st_dev, status.st_ino)
        if inode not in seen:
            seen.add(inode)
            total += status.st_blocks * 512
    return total


def _files(path: Path) -> Iterator[Path]:
    for folder, _, names in os.walk(path, onerror=lambda _: None):
        for name in names:
            yield Path(folder, name)


def merge(sources: Sequence[Path], into: Path) -> Merged:
    """Copy every run of `sources` missing from `into` (each under a temporary name, then renamed,
    so a reader never sees half a run). Runs are keyed by their content's ingredients, so a run
    present under the same key is the same run and is kept."""
    copied = present = 0
    (into / "runs").mkdir(parents=True, exist_ok=True)
    for source in sources:
        runs = source / "runs"
        for folder in sorted(runs.iterdir()) if runs.is_dir() else ():
            target = run_folder(into, folder.name)
            if not (folder / "run.json").is_file():
                continue
            if (target / "run.json").is_file():
                present += 1
                continue
            temporary = into / "runs" / f".{folder.name}.{uuid.uuid4().hex}"
            shutil.copytree(folder, temporary, symlinks=True)
            temporary.replace(target)
            copied += 1
    return Merged(copied, present)


def prune(cache: Path, max_size: int) -> list[Entry]:
    """Remove the least recently used entries until the cache holds at most `max_size` bytes;
    returns what was removed."""
    every = entries(cache)
    total = sum(entry.size for entry in every)
    removed = []
    for entry in sorted(every, key=lambda e: (e.used, str(e.path))):
        if total <= max_size:
            break
        if entry.kind == UNLINKED:
            _sweep(cache)
        else:
            _remove(entry.path)
        total -= entry.size
        removed.append(entry)
    if removed:
        _sweep(cache)  # the environments just removed may have been the last links of shared files
    return removed


def _sweep(cache: Path) -> None:
    """Delete the shared files that no environment links any more."""
    for file, _status in list(_unlinked(cache)):
        file.unlink(missing_ok=True)


def _remove(path: Path) -> None:
    """Delete an entry: renamed first (a half-deleted entry is never taken for a whole one), then
    removed, read-only folders (built environments) made writable on the way."""
    doomed = path.with_name(f".{path.name}.removed-{uuid.uuid4().hex}")
    path.replace(doomed)
    for folder, _, _ in os.walk(doomed):
        Path(folder).chmod(0o700)
    shutil.rmtree(doomed, ignore_errors=True)
