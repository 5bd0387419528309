"""`dify-registry cache info|merge|prune` on cache folders made here: counts and sizes, merging
keeps what is there and copies what is missing, pruning removes the least recently used first."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from generator.cli import main
from generator.run.cachedir import entries, human, parse_size
from generator.run.share import STORE, share_files

BLOCK = 4096


def _entry(cache: Path, kind: str, name: str, size: int, used: float) -> Path:
    folder = cache / kind / name
    (folder / "files").mkdir(parents=True)
    (folder / ("run.json" if kind == "runs" else "data")).write_bytes(b"x" * size)
    os.utime(folder, (used, used))
    return folder


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    _entry(folder, "runs", "a" * 32, 10 * BLOCK, 1_000)
    _entry(folder, "runs", "b" * 32, 10 * BLOCK, 3_000)
    _entry(folder, "envs", "c" * 24, 40 * BLOCK, 2_000)
    (folder / "envs" / f"{'c' * 24}.lock").write_text("", encoding="utf-8")
    return folder


def test_sizes_parse_in_binary_units() -> None:
    assert parse_size("800000") == 800_000
    assert parse_size("500M") == 500 * 1024**2
    assert parse_size("1.5GiB") == int(1.5 * 1024**3)
    assert parse_size("2g") == 2 * 1024**3
    assert human(3 * 1024**2) == "3.0 MiB"
    with pytest.raises(ValueError, match="not a size"):
        parse_size("lots")


def test_info_counts_and_sizes_each_kind(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cache", "info", "--cache-dir", str(cache), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["runs"]["count"] == 2
    assert summary["environments"]["count"] == 1
    assert summary["recorders"]["count"] == 0
    assert summary["runs"]["bytes"] >= 20 * BLOCK
    assert summary["bytes"] == summary["runs"]["bytes"] + summary["environments"]["bytes"]
    assert main(["cache", "info", "--cache-dir", str(cache)]) == 0
    assert "environments: 1" in capsys.readouterr().out


def test_a_file_linked_into_two_entries_counts_once(cache: Path) -> None:
    shared = cache / "envs" / ("c" * 24) / "data"
    linked = cache / "runs" / ("a" * 32) / "files" / "linked"
    linked.hardlink_to(shared)
    total = sum(entry.size for entry in entries(cache))
    linked.unlink()
    assert total == sum(entry.size for entry in entries(cache))


def test_prune_removes_the_least_recently_used_until_it_fits(cache: Path) -> None:
    sizes = {entry.path.name: entry.size for entry in entries(cache)}
    limit = sizes["b" * 32] + sizes["c" * 24]
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", str(limit)]) == 0
    assert sorted(entry.path.name for entry in entries(cache)) == ["b" * 32, "c" * 24]
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", str(sizes["b" * 32])]) == 0
    assert [entry.path.name for entry in entries(cache)] == ["b" * 32]  # the environment was older
    assert sorted(p.name for p in (cache / "envs").iterdir()) == [f"{'c' * 24}.lock"]


def test_pruning_an_environment_frees_the_shared_files_only_it_linked(cache: Path) -> None:
    """A file of the shared store that the removed environment held is deleted with it; one that
    another environment still links stays, and `info` counts files no environment links."""
    store = cache / STORE
    store.mkdir()
    environment = cache / "envs" / ("c" * 24)
    other = _entry(cache, "envs", "d" * 24, BLOCK, 5_000)
    only_it = store / "only-it-644"
    only_it.write_bytes(b"y" * 8 * BLOCK)
    (environment / "files" / "only").hardlink_to(only_it)
    both = store / "both-644"
    both.write_bytes(b"z" * BLOCK)
    (environment / "files" / "both").hardlink_to(both)
    (other / "files" / "both").hardlink_to(both)
    orphan = store / "orphan-644"
    orphan.write_bytes(b"o" * 2 * BLOCK)
    kinds = {entry.kind: entry.size for entry in entries(cache)}
    assert kinds["unused shared files"] == 2 * BLOCK
    runs = sum(entry.size for entry in entries(cache) if entry.kind == "runs")
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", str(runs + 2 * BLOCK)]) == 0
    assert not environment.exists()
    assert sorted(p.name for p in store.iterdir()) == ["both-644"]
    assert "unused shared files" not in {entry.kind for entry in entries(cache)}


def test_a_bad_size_is_a_usage_error(cache: Path) -> None:
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", "lots"]) == 2


def test_merge_copies_missing_runs_and_keeps_present_ones(cache: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    _entry(other, "runs", "b" * 32, 5, 1)  # the same key: the same run, kept as it is
    _entry(other, "runs", "d" * 32, 7, 1)
    _entry(other, "envs", "e" * 24, 7, 1)  # environments never move
    (other / "runs" / ("f" * 32)).mkdir()  # half a run (no run.json): not copied
    assert main(["cache", "merge", str(other), "--into", str(cache)]) == 0
    runs = sorted(p.name for p in (cache / "runs").iterdir())
    assert runs == ["a" * 32, "b" * 32, "d" * 32]
    assert (cache / "runs" / ("b" * 32) / "run.json").stat().st_size == 10 * BLOCK
    assert (cache / "runs" / ("d" * 32) / "run.json").read_bytes() == b"x" * 7
    assert not (cache / "envs" / ("e" * 24)).exists()


def test_merge_of_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["cache", "merge", str(tmp_path / "nowhere"), "--into", str(tmp_path / "into")]) == 2


def _shared_environment(cache: Path, name: str, used: float) -> Path:
    """An environment whose one wheel module (and its bytecode) `share_files` linked to the store."""
    data = b"VALUE = 1\n" * 2000
    environment = cache / "envs" / name
    site = environment / "lib" / "python3.12" / "site-packages"
    (site / "pkg-1.0.dist-info").mkdir(parents=True)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    (site / "pkg-1.0.dist-info" / "RECORD").write_text(f"pkg/__init__.py,sha256={digest},{len(data)}\n")
    (site / "pkg").mkdir()
    (site / "pkg" / "__init__.py").write_bytes(data)
    share_files(environment, cache, Path(sys.executable))
    os.utime(environment, (used, used))
    return environment


def _on_disk(*folders: Path) -> int:
    """Bytes on disk of the files under `folders`, each inode once (as `du` counts them together)."""
    inodes = {}
    for folder in folders:
        for file in folder.rglob("*"):
            status = file.lstat()
            if not stat.S_ISDIR(status.st_mode):
                inodes[(status.st_dev, status.st_ino)] = status.st_blocks * 512
    return sum(inodes.values())


def test_shared_source_and_bytecode_count_once_and_go_with_their_last_environment(tmp_path: Path) -> None:
    """Two environments linking the same wheel module and its compiled bytecode: `info` counts every
    inode once; pruning the older leaves the other's shared files in place, pruning both empties
    the store."""
    cache = tmp_path / "cache"
    older, newer = _shared_environment(cache, "a" * 24, 1_000), _shared_environment(cache, "b" * 24, 2_000)
    bytecode = sorted(cache.glob("envs/*/lib/python3.12/site-packages/pkg/__pycache__/*.pyc"))
    assert len({file.stat().st_ino for file in bytecode}) == 1
    total = sum(entry.size for entry in entries(cache))
    assert total == _on_disk(cache / "envs", cache / STORE)
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", str(total - 1)]) == 0
    assert not older.exists()
    assert newer.exists()
    assert bytecode[1].stat().st_nlink == 2  # the newer environment and the store
    assert len(list((cache / STORE).iterdir())) == 2  # the source and its bytecode
    assert "unused shared files" not in {entry.kind for entry in entries(cache)}
    assert main(["cache", "prune", "--cache-dir", str(cache), "--max-size", "0"]) == 0
    assert list((cache / STORE).iterdir()) == []
    assert entries(cache) == []
