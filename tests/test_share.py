"""The shared store of environments' files (generator/run/share.py) on trees made here: a RECORD is
written by a stranger's build, so it can name files through a link out of the environment; the
bytecode of shared sources is shared too, and still names each environment's own files."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from generator.run.share import STORE, share_files


def _record_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _environment(root: Path, rows: list[str]) -> Path:
    site = root / "lib" / "python3.12" / "site-packages"
    (site / "pkg-1.0.dist-info").mkdir(parents=True)
    (site / "pkg-1.0.dist-info" / "RECORD").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return site


def test_files_the_record_vouches_for_are_shared(tmp_path: Path) -> None:
    data = b"print('hello')\n"
    site = _environment(tmp_path / "env", [f"pkg/__init__.py,sha256={_record_hash(data)},{len(data)}"])
    (site / "pkg").mkdir()
    (site / "pkg" / "__init__.py").write_bytes(data)
    (tmp_path / "cache").mkdir()
    share_files(tmp_path / "env", tmp_path / "cache", Path(sys.executable))
    assert (site / "pkg" / "__init__.py").stat().st_nlink == 2
    assert len(list((tmp_path / "cache" / STORE).iterdir())) == 2  # the source and its bytecode


def test_nothing_outside_the_environment_is_linked_or_replaced(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    data = b"secret of the machine\n"
    (outside / "file").write_bytes(data)
    site = _environment(tmp_path / "env", [f"escape/file,sha256={_record_hash(data)},{len(data)}"])
    (site / "escape").symlink_to(outside)
    before = (outside / "file").stat()
    (tmp_path / "cache").mkdir()
    share_files(tmp_path / "env", tmp_path / "cache", Path(sys.executable))
    after = (outside / "file").stat()
    assert (after.st_ino, after.st_nlink) == (before.st_ino, 1)
    assert list((tmp_path / "cache" / STORE).iterdir()) == []


FAILS = b'def fail():\n    raise ValueError("raised inside the shared module")\n'
SHOWN = """
import json, sys, traceback
sys.path.insert(0, sys.argv[1])
import pkg
try:
    pkg.fail()
except ValueError as problem:
    frame = traceback.extract_tb(problem.__traceback__)[-1]
    print(json.dumps([frame.filename, frame.line, pkg.fail.__code__.co_filename]))
"""


def _wheel_module(root: Path, data: bytes = FAILS) -> Path:
    """An environment whose one module `pkg/__init__.py` its RECORD vouches for; its source path."""
    site = _environment(root, [f"pkg/__init__.py,sha256={_record_hash(data)},{len(data)}"])
    (site / "pkg").mkdir()
    (site / "pkg" / "__init__.py").write_bytes(data)
    return site / "pkg" / "__init__.py"


def _bytecode(source: Path) -> Path:
    return source.parent / "__pycache__" / f"{source.stem}.{sys.implementation.cache_tag}.pyc"


def test_bytecode_of_shared_sources_is_shared_and_names_each_environments_path(tmp_path: Path) -> None:
    """Two environments with the same wheel module hold one compiled `.pyc` (compiled here, with no
    environment's path in it), and a traceback through it names the importing environment's own
    source file and line (CPython fixes `co_filename` up when it loads a `.pyc`)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    sources = [_wheel_module(tmp_path / name) for name in ("first", "second")]
    for source in sources:
        share_files(source.parents[4], cache, Path(sys.executable))
    compiled = [_bytecode(source).stat() for source in sources]
    assert compiled[0].st_ino == compiled[1].st_ino
    assert compiled[0].st_nlink == 3  # the two environments and the store
    assert str(tmp_path).encode() not in _bytecode(sources[0]).read_bytes()
    for source in sources:
        shown = subprocess.run(
            [sys.executable, "-I", "-S", "-B", "-v", "-c", SHOWN, str(source.parent.parent)],
            capture_output=True,
            text=True,
            check=True,
        )
        # loaded from the shared .pyc, not compiled from the source
        assert f"code object from '{_bytecode(source)}'" in shown.stderr
        filename, line, code_filename = json.loads(shown.stdout)
        assert filename == code_filename == str(source)
        assert line == 'raise ValueError("raised inside the shared module")'


def test_bytecode_of_an_empty_module_is_shared(tmp_path: Path) -> None:
    """A bare `__init__.py` has no block to share, but its `.pyc` has one."""
    cache = tmp_path / "cache"
    cache.mkdir()
    sources = [_wheel_module(tmp_path / name, b"") for name in ("first", "second")]
    for source in sources:
        share_files(source.parents[4], cache, Path(sys.executable))
    assert [source.stat().st_nlink for source in sources] == [1, 1]
    assert _bytecode(sources[0]).stat().st_ino == _bytecode(sources[1]).stat().st_ino


def test_bytecode_of_a_source_the_record_does_not_vouch_for_stays_private(tmp_path: Path) -> None:
    """A module whose bytes are not the RECORD's (a build changed it) keeps the `.pyc` it had."""
    source = _wheel_module(tmp_path / "env")
    source.write_bytes(FAILS + b"CHANGED = True\n")
    _bytecode(source).parent.mkdir()
    _bytecode(source).write_bytes(b"the environment's own")
    (tmp_path / "cache").mkdir()
    share_files(tmp_path / "env", tmp_path / "cache", Path(sys.executable))
    assert _bytecode(source).read_bytes() == b"the environment's own"
    assert _bytecode(source).stat().st_nlink == 1
    assert list((tmp_path / "cache" / STORE).iterdir()) == []


def test_bytecode_folder_leading_out_of_the_environment_is_not_written(tmp_path: Path) -> None:
    """A `__pycache__` that is a link out of the environment gets nothing, though its source is shared."""
    source = _wheel_module(tmp_path / "env")
    outside = tmp_path / "outside"
    outside.mkdir()
    (source.parent / "__pycache__").symlink_to(outside)
    (tmp_path / "cache").mkdir()
    share_files(tmp_path / "env", tmp_path / "cache", Path(sys.executable))
    assert source.stat().st_nlink == 2
    assert list(outside.iterdir()) == []


def test_an_environment_a_build_script_ran_in_only_takes_what_the_store_holds(tmp_path: Path) -> None:
    """An untrusted environment's file that a wheel-only environment stored already becomes that
    inode (bytecode too); its other files are neither stored nor compiled here."""
    cache = tmp_path / "cache"
    cache.mkdir()
    stored = _wheel_module(tmp_path / "wheels")
    share_files(stored.parents[4], cache, Path(sys.executable))
    before = sorted((cache / STORE).iterdir())
    same = _wheel_module(tmp_path / "built")
    other = _wheel_module(tmp_path / "other", b"OTHER = 1\n")
    for source in (same, other):
        share_files(source.parents[4], cache, Path(sys.executable), trusted=False)
    assert sorted((cache / STORE).iterdir()) == before
    assert same.stat().st_ino == stored.stat().st_ino
    assert _bytecode(same).stat().st_ino == _bytecode(stored).stat().st_ino
    assert other.stat().st_nlink == 1
    assert not _bytecode(other).exists()
