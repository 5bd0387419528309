"""Files shared between built environments: one inode per distinct installed file and per distinct
compiled module.

Most environments install the same packages (the SDK and its 36 dependencies at least), so after a
build from wheels alone the trusted side (root, no stranger's code running) replaces each file a
wheel installed by a hard link into a content-addressed store of the cache, named by the file's
SHA-256 and mode. A file is shared only when its bytes are exactly those its distribution's
`RECORD` lists; anything else in the environment (the interpreter links, scripts naming the
environment's path, files no RECORD vouches for) stays the environment's own. An environment in
whose build a source distribution's build script ran, or may have run (any build without a lock:
`envbuild.py`), adds nothing to the store and has nothing compiled here: it only takes the store's
inode for a file whose bytes a wheel-only environment put there already, so what a stranger's
build made stays its own.

Bytecode is most of what is left: a `.pyc` differs between environments only by the absolute path
of its source written into it (`co_filename`). The trusted side compiles each shared source once,
with the interpreter the environments use (`-I -S`: nothing of any environment runs or is even
imported), under the source's path relative to `site-packages`, and links that `.pyc` in place of
the one uv wrote. The path inside does not matter: CPython's `SourceLoader.get_code` rewrites
`co_filename` to the real source path of every module it loads from a `.pyc`
(`_imp._fix_co_filename`), so tracebacks name the environment's own files. The `.pyc` is
hash-checked (PEP 552, as uv's are with `SOURCE_DATE_EPOCH` set): valid for exactly the source
bytes it was compiled from, whatever the shared source's modification time. It is stored under a
name made of what determines its bytes (the interpreter's magic number, the source's hash and the
relative path), so it is compiled once per cache.

Sharing is safe because nothing can change a shared inode: the store is root's (mode 0700), every
environment is root's with no group or other write bits, runs see environments read-only (through
an overlay whose writable layer is private to the worker: a write copies the file up, it never
reaches the inode), and builds write only into their own new folder. Every shared file stands where
a file of the same bytes stood (or, for bytecode, where bytecode of the same source stood).
"""

from __future__ import annotations

import base64
import contextlib
import csv
import functools
import hashlib
import json
import os
import shutil
import stat
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

STORE = "shared"
CHUNK = 1 << 20
# Generous: compiling the SDK and its dependencies takes a few seconds.
COMPILE_TIMEOUT = 600
BYTECODE_MODE = 0o644
# Run by the environments' own interpreter with -I -S: the standard library only, nothing of the
# environment. A source that does not compile (Python 2 files some packages ship) is skipped.
COMPILE = """
import json, py_compile, sys
for source, shown, output in json.load(sys.stdin):
    try:
        py_compile.compile(source, output, shown, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except Exception:
        pass
"""
IDENTIFY = "import importlib.util as u, sys; print(u.MAGIC_NUMBER.hex(), sys.implementation.cache_tag)"


def share_files(target: Path, cache: Path, interpreter: Path, trusted: bool = True) -> None:
    """Link every file of `target` that its distribution's RECORD vouches for into the store, and
    the bytecode of each such Python source, compiled here by `interpreter` (the environments').
    An environment that is not `trusted` (a build script ran in it) only takes what the store
    holds already: it adds nothing to it, and nothing of it is compiled here."""
    store = cache / STORE
    store.mkdir(mode=0o700, exist_ok=True)
    sources: list[Source] = []
    for record in target.glob("lib/python3*/site-packages/*.dist-info/RECORD"):
        site = record.parent.parent
        inside = site.resolve()
        for relative, expected in _recorded(record):
            path = site / relative
            with contextlib.suppress(OSError):
                # A RECORD is written by the build: a folder of it may be a link out of the
                # environment, and nothing outside it may be linked or replaced.
                contained = path.parent.resolve().is_relative_to(inside)
                vouched = contained and _share(path, expected, store, trusted)
                if vouched and path.suffix == ".py":
                    sources.append(Source(path, relative, expected))
    _share_bytecode(sources, store, interpreter, trusted)


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


def _share(path: Path, expected: str, store: Path, adding: bool) -> bool:
    """Link `path` (whose RECORD hash is `expected`) to the store, or the store's copy to it; True
    when its bytes are the RECORD's (an empty file, a package's bare `__init__.py`, has no block to
    share, but its bytecode has)."""
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode):
        return False
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    if base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode() != expected:
        return False  # not the bytes the wheel installed: the environment's own
    if info.st_size:
        _link(store / f"{digest.hexdigest()}-{stat.S_IMODE(info.st_mode):o}", path, adding)
    return True


def _link(shared: Path, path: Path, adding: bool = False) -> None:
    """Make `path` (present or not) a link to `shared`; when the store has no such file yet and
    `adding`, `path` becomes the store's."""
    if not shared.exists():
        if adding:
            os.link(path, shared)
        return
    beside = path.with_name(path.name + ".sharing")
    os.link(shared, beside)
    beside.replace(path)


@dataclass(frozen=True, slots=True)
class Source:
    """A shared Python source: where it is, its path in `site-packages` and its RECORD hash."""

    path: Path
    relative: str
    digest: str

    def bytecode(self, tag: str) -> Path:
        """Where the interpreter with cache tag `tag` looks for its `.pyc`."""
        return self.path.parent / "__pycache__" / f"{self.path.stem}.{tag}.pyc"

    def stored(self, store: Path, magic: str) -> Path:
        """The store's `.pyc` of it, named by all that makes its bytes."""
        key = hashlib.sha256("\0".join((magic, self.digest, self.relative)).encode())
        return store / f"{key.hexdigest()}.pyc"


@functools.cache
def _identity(interpreter: Path) -> tuple[str, str]:
    """The interpreter's bytecode magic number (hex) and cache tag (`cpython-312`)."""
    command = [str(interpreter), "-I", "-S", "-c", IDENTIFY]
    said = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True).stdout.split()
    return said[0], said[1]


def _share_bytecode(sources: list[Source], store: Path, interpreter: Path, compiling: bool) -> None:
    """Link each shared source's `.pyc` to the store's, compiling the ones the store lacks when
    `compiling`."""
    if not sources:
        return
    try:
        magic, tag = _identity(interpreter)
    except (OSError, subprocess.SubprocessError, IndexError):
        return  # uv's own bytecode stays
    if compiling:
        _compile([s for s in sources if not s.stored(store, magic).exists()], store, magic, interpreter)
    for source in sources:
        shared, pyc = source.stored(store, magic), source.bytecode(tag)
        with contextlib.suppress(OSError):
            if shared.exists() and _bytecode_folder(pyc.parent):
                _link(shared, pyc)


def _bytecode_folder(folder: Path) -> bool:
    """True when `folder` is (or now is) a real folder beside its source, not a link anywhere."""
    if not folder.exists() and not folder.is_symlink():
        folder.mkdir(mode=0o755)
    return folder.is_dir() and not folder.is_symlink()


def _compile(missing: list[Source], store: Path, magic: str, interpreter: Path) -> None:
    """Compile each source into the store, under a temporary name first so that no environment
    ever links half a file."""
    if not missing:
        return
    work = store / f".compiling-{uuid.uuid4().hex}"
    work.mkdir(mode=0o700)
    try:
        jobs = [(str(s.path), s.relative, str(work / f"{n}.pyc")) for n, s in enumerate(missing)]
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [str(interpreter), "-I", "-S", "-c", COMPILE],
                input=json.dumps(jobs),
                cwd=work,
                capture_output=True,
                text=True,
                timeout=COMPILE_TIMEOUT,
                env={"PATH": os.defpath, "LANG": "C.UTF-8"},
                check=False,
            )
        for number, source in enumerate(missing):
            compiled = work / f"{number}.pyc"
            with contextlib.suppress(OSError):  # not compiled, or another build stored it first
                compiled.chmod(BYTECODE_MODE)
                os.link(compiled, source.stored(store, magic))
    finally:
        shutil.rmtree(work, ignore_errors=True)
