"""A writable view of the plugin's environment for a worker without namespaces (not root, or no
util-linux `unshare`), where no overlay can be mounted.

Dify lets a plugin write into its environment, and some libraries unpack data or rewrite a file
beside their code on first import. The worker therefore runs from a private tree of its own: new
folders, the code files (`.py`, `.so`, ... and `*.dist-info`, most of an environment's bytes) hard
links to the cached files, made read-only first so that a write in place fails instead of changing
the cache, and every other file (data, a few megabytes) a copy the tool may rewrite. A library that
creates or replaces a file writes into the private folders. Where the cache is on another
filesystem than the worker's temporary folder (no hard links there), every file is copied.
Whatever a tool changed is thrown away with the worker: after each example the view is compared
with what it held when the worker was ready, and a changed view ends the worker, so the next
example starts from the cached environment again.

Without a uid of its own, the tool runs as the user who started the runner: read-only modes stop
its libraries' writes, not a tool that means to change them (nor root, for whom modes are no
obstacle; such a machine should run with the namespaces, `isolation.py`).
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

VIEW_NAME = "dify-registry-environment-view"  # beside the worker's working folder
CODE_SUFFIXES = (".py", ".pyc", ".pyi", ".so", ".pyd", ".dylib")
NOT_WRITABLE = ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
Marks = dict[str, tuple[int, int]]


def private_view(environment: Path, target: Path) -> list[Path]:
    """Make the private tree of `environment` at `target` (see the module's docstring); returns
    what an example can change in it: its folders (an entry created, replaced or removed changes
    its folder's time) and the copies (the links are read-only)."""
    linking = True
    writable: list[Path] = []
    for folder, dirs, files in os.walk(environment):
        relative = os.path.relpath(folder, environment)
        made = target if relative == "." else target / relative
        made.mkdir(mode=0o755, exist_ok=True)
        writable.append(made)
        for name in [*dirs, *files]:
            source = Path(folder, name)
            if source.is_symlink():  # as it is: relative links stay inside the view
                (made / name).symlink_to(source.readlink())
            elif name in files:
                if linking and _is_code(source):
                    linking = _linked(source, made / name)
                    if linking:
                        continue
                _copy(source, made / name)
                writable.append(made / name)
        dirs[:] = [d for d in dirs if not Path(folder, d).is_symlink()]
    return writable


def _is_code(path: Path) -> bool:
    return path.suffix in CODE_SUFFIXES or ".so." in path.name or path.parent.name.endswith(".dist-info")


def _linked(source: Path, target: Path) -> bool:
    """A read-only hard link to `source`; False when that is impossible here (another filesystem,
    a file this user cannot make read-only): every later file is copied."""
    try:
        mode = source.stat().st_mode
        if mode & ~NOT_WRITABLE:
            source.chmod(stat.S_IMODE(mode) & NOT_WRITABLE)
        os.link(source, target)
    except OSError:
        return False
    return True


def _copy(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    target.chmod(stat.S_IMODE(source.stat().st_mode) | stat.S_IWUSR)


def enter_view(view: Path) -> None:
    """Make the interpreter take its site-packages from the view (before `site` runs): the venv's
    prefix is found from the executable's folder (`pyvenv.cfg` beside it or above)."""
    executable = view / Path(sys.executable).parent.name / Path(sys.executable).name
    sys.executable = str(executable)
    sys.prefix = sys.exec_prefix = str(view)


def marks(writable: list[Path]) -> Marks:
    """What tells a changed view: the modification time and size of what an example can change."""
    found: Marks = {}
    for path in writable:
        try:
            info = path.lstat()
        except OSError:  # removed, or its folder made unreadable: changed either way
            found[str(path)] = (-1, -1)
            continue
        found[str(path)] = (info.st_mtime_ns, info.st_size)
    return found
