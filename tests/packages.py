"""Building `.difypkg` files in tests: a plugin folder zipped as `dify plugin package` does."""

from __future__ import annotations

import zipfile
from pathlib import Path


def zip_plugin(plugin: Path, target: Path, skip: tuple[str, ...] = ()) -> zipfile.ZipFile:
    """An open archive holding every file of `plugin` but `skip`; callers add hostile entries."""
    archive = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED)
    for path in sorted(plugin.rglob("*")):
        name = path.relative_to(plugin).as_posix()
        if path.is_file() and name not in skip:
            archive.write(path, name)
    return archive
