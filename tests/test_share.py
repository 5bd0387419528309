"""The shared store of environments' files (generator/run/share.py) on trees made here: a RECORD is
written by a stranger's build, so it can name files through a link out of the environment."""

from __future__ import annotations

import base64
import hashlib
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
    share_files(tmp_path / "env", tmp_path / "cache")
    assert (site / "pkg" / "__init__.py").stat().st_nlink == 2
    assert len(list((tmp_path / "cache" / STORE).iterdir())) == 1


def test_nothing_outside_the_environment_is_linked_or_replaced(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    data = b"secret of the machine\n"
    (outside / "file").write_bytes(data)
    site = _environment(tmp_path / "env", [f"escape/file,sha256={_record_hash(data)},{len(data)}"])
    (site / "escape").symlink_to(outside)
    before = (outside / "file").stat()
    (tmp_path / "cache").mkdir()
    share_files(tmp_path / "env", tmp_path / "cache")
    after = (outside / "file").stat()
    assert (after.st_ino, after.st_nlink) == (before.st_ino, 1)
    assert list((tmp_path / "cache" / STORE).iterdir()) == []
