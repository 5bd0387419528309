"""The catalog is kept out of the garbage collector's way during a build, and given back after it."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from benchmarks.sitebuild import write_config
from generator.site.heap import long_lived, release
from tests.conftest import REPO


def test_long_lived_data_is_frozen_and_released() -> None:
    before = gc.get_freeze_count()
    with long_lived():
        assert not gc.isenabled()
        kept = [{"n": n} for n in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= before + len(kept)
    release()
    assert gc.get_freeze_count() == 0


def test_the_collector_comes_back_when_building_fails() -> None:
    with pytest.raises(RuntimeError), long_lived():
        raise RuntimeError("loading failed")
    assert gc.isenabled()
    release()


def _config(tmp_path: Path, failing: bool) -> Path:
    config = write_config(tmp_path / "config", [REPO / "plugins"], jobs=1)
    if failing:  # a hook that raises on the first page: after the catalog was made and frozen
        hook = tmp_path / "failing_hook.py"
        hook.write_text(
            "def on_page_markdown(markdown, **kwargs):\n    raise RuntimeError('a page failed')\n",
            encoding="utf-8",
        )
        data = json.loads(config.read_text(encoding="utf-8"))
        config.write_text(json.dumps({**data, "hooks": [str(hook)]}), encoding="utf-8")
    return config


def test_a_build_gives_the_catalog_back_to_the_collector(tmp_path: Path) -> None:
    """Nothing stays frozen after a build, and collection is on: a server builds again."""
    build(load_config(str(_config(tmp_path, failing=False)), site_dir=str(tmp_path / "site")))
    assert (tmp_path / "site" / "index.html").is_file()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_failed_build_gives_the_catalog_back_to_the_collector(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="a page failed"):
        build(load_config(str(_config(tmp_path, failing=True)), site_dir=str(tmp_path / "site")))
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
