"""`.difypkg` inputs: built here from a case folder, with hostile entries added."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

from generator.check import CheckContext
from tests.packages import zip_plugin
from tests.validate_cases import CASES
from tests.validating import validate_paths

MINIMAL = CASES / "good" / "minimal"


def build_package(target: Path, extra: dict[str, bytes] | None = None) -> Path:
    """Zip the minimal plugin as `dify plugin package` would, plus `extra` entries."""
    with zip_plugin(MINIMAL, target) as archive:
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return target


def findings(package: Path) -> list[tuple[str, str]]:
    result = validate_paths([package], CheckContext())
    return [(d.rule, d.file) for d in result.findings]


def test_good_package_is_clean(tmp_path: Path) -> None:
    """A package of a good plugin validates like the folder: no findings."""
    assert findings(build_package(tmp_path / "demo.difypkg")) == []


def test_corrupt_package(tmp_path: Path) -> None:
    """A file that is not a zip is one finding, named after the package."""
    package = tmp_path / "broken.difypkg"
    package.write_bytes(b"PK\x03\x04 not really a zip")
    assert ("K001", package.name) in findings(package)  # outside the working folder: shown by its name


def test_unsafe_entries_are_refused(tmp_path: Path) -> None:
    """Entries that escape, are absolute or are links are reported and never written."""
    package = build_package(
        tmp_path / "evil.difypkg", {"../escape.txt": b"x", "/abs.txt": b"x", "ok/\x07bell.txt": b"x"}
    )
    with zipfile.ZipFile(package, "a") as archive:
        link = zipfile.ZipInfo("tools/link.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    found = findings(package)
    assert [rule for rule, _ in found].count("K002") == 4
    assert not (tmp_path / "escape.txt").exists()
    assert [rule for rule, _ in found if rule != "K002"] == []


def test_package_over_the_size_limit(tmp_path: Path) -> None:
    """A package that inflates past 50 MB (or at a bomb's ratio) stops unpacking."""
    package = build_package(tmp_path / "bomb.difypkg", {"zeros.bin": bytes(51 * 1024 * 1024)})
    assert "K003" in [rule for rule, _ in findings(package)]


def test_what_unpacking_found_is_the_plugins(tmp_path: Path) -> None:
    """The findings of unpacking a package are its plugin's (the page of a previewed package shows
    them), not findings of no plugin."""
    package = build_package(tmp_path / "evil.difypkg", {"../escape.txt": b"x"})
    catalog = validate_paths([package], CheckContext())
    assert [d.rule for d in catalog.findings_of(catalog.plugins[0])] == ["K002"]
