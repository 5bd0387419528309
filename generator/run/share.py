"""Files shared between built environments: one inode per distinct installed file.

Most environments install the same packages (the SDK and its 36 dependencies at least), so after a
build the trusted side (root, no stranger's code running) replaces each file a wheel installed by a
hard link into a content-addressed store of the cache, named by the file's SHA-256 and mode. A file
is shared only when its bytes are exactly those its distribution's `RECORD` lists; anything else in
the environment (what a build script wrote beside the packages, the interpreter links, scripts
naming the environment's path) stays the environment's own.

Sharing is safe because nothing can change a shared inode: the store is root's (mode 0700), every
environment is root's with no group or other write bits, runs see environments read-only (through
an overlay whose writable layer is private to the worker: a write copies the file up, it never
reaches the inode), and builds write only into their own new folder. Bytecode is compiled with
`SOURCE_DATE_EPOCH` set (see `envbuild.py`), so a `.pyc` is checked against its source's hash, not its
modification time, which a shared source file no longer keeps per environment. The `.pyc` files
themselves stay each environment's own: they hold the absolute path of their source, which differs
between environments.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import hashlib
import os
import stat
from pathlib import Path

STORE = "shared"
CHUNK = 1 << 20


def share_files(target: Path, cache: Path) -> None:
    """Link every file of `target` that its distribution's RECORD vouches for into the store."""
    store = cache / STORE
    store.mkdir(mode=0o700, exist_ok=True)
    for record in target.glob("lib/python3*/site-packages/*.dist-info/RECORD"):
        site = record.parent.parent
        inside = site.resolve()
        for relative, expected in _recorded(record):
            path = site / relative
            with contextlib.suppress(OSError):
                # A RECORD is written by the build: a folder of it may be a link out of the
                # environment, and nothing outside it may be linked or replaced.
                if path.parent.resolve().is_relative_to(inside):
                    _share(path, expected, store)


def _recorded(record: Path) -> list[tuple[str, str]]:
    """(path relative to site-packages, urlsafe base64 SHA-256) of each hashed entry of a RECORD."""
    try:
        rows = list(csv.reader(record.read_text(encoding="utf-8", errors="replace").splitlines()))
    except csv.Error:
        return []
    found = []
    for row in rows:
        inside = not row[0].startswith("/") and ".." not in row[0] if row else False
        if inside and len(row) >= 2 and row[1].startswith("sha256="):
            found.append((row[0], row[1][len("sha256=") :]))
    return found


def _share(path: Path, expected: str, store: Path) -> None:
    """Link `path` (whose RECORD hash is `expected`) to the store, or the store's copy to it."""
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode) or not info.st_size:
        return
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    if base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode() != expected:
        return  # not the bytes the wheel installed: the environment's own
    shared = store / f"{digest.hexdigest()}-{stat.S_IMODE(info.st_mode):o}"
    if not shared.exists():
        os.link(path, shared)
        return
    beside = path.with_name(path.name + ".sharing")
    os.link(shared, beside)
    beside.replace(path)
