"""Where the schemas that come with the generator live: the one lookup every module uses.

A wheel carries them inside the package (`generator/schemas/published/`, copied by setup.py); a
source checkout or an editable install reads the repository's `schemas/` folder. A module that
located them relative to its own file would look beside `site-packages/` in a wheel and find
nothing. This module imports nothing of the generator, so any stage may ask it.
"""

from __future__ import annotations

from pathlib import Path

PACKAGED = Path(__file__).resolve().parent / "schemas" / "published"
SOURCE = Path(__file__).resolve().parent.parent / "schemas"


def shipped_schemas_root() -> Path:
    """The shipped `schemas/` folder: packaged in a wheel, else the source checkout's."""
    return PACKAGED if PACKAGED.is_dir() else SOURCE
