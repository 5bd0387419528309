"""This user's cache folder for the registry: what may be kept between runs outside any project."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache() -> Path:
    """`$XDG_CACHE_HOME/dify-registry`, else `~/.cache/dify-registry` (not created here)."""
    named = Path(os.environ.get("XDG_CACHE_HOME") or ".")
    # The XDG specification says to ignore a relative XDG_CACHE_HOME.
    return (named if named.is_absolute() else Path.home() / ".cache") / "dify-registry"
