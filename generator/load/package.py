"""Reading a `.difypkg` (a zip) safely into a private temporary folder."""

from __future__ import annotations

import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from generator.findings import Finding, Location, Severity
from generator.load.paths import has_control_characters
from generator.rules import rule

MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ENTRIES = 5000
MAX_RATIO = 200  # a real plugin compresses maybe 10:1; far beyond that is a bomb

PACKAGE_CORRUPT = rule(
    "K001",
    "package-corrupt",
    Severity.ERROR,
    "the package cannot be read as a zip file: {problem}",
    "Build the package again with `dify plugin package`.",
    """
A `.difypkg` is a zip archive. This file is not one, or it is damaged.
""",
)
PACKAGE_UNSAFE_ENTRY = rule(
    "K002",
    "package-unsafe-entry",
    Severity.ERROR,
    "package entry {entry!s} is refused: {problem}",
    "Package only regular files with relative paths inside the plugin folder.",
    """
A zip entry whose name is absolute, climbs out with `..`, carries control characters, or is a
symbolic link could write or read outside the folder it is unpacked into ("zip slip"). The registry
refuses such entries and does not unpack them.
""",
)
PACKAGE_TOO_LARGE = rule(
    "K003",
    "package-too-large",
    Severity.ERROR,
    "the package unpacks to more than {limit} (entry {entry!s})",
    "Remove what the plugin does not need; Dify refuses plugins over 50 MB uncompressed.",
    """
Dify refuses a plugin larger than 50 MB uncompressed, and the marketplace at most 5000 files. The
registry stops unpacking at these limits, and also at suspicious compression ratios (zip bombs).
""",
)


def _entry_problem(info: zipfile.ZipInfo) -> str:
    if stat.S_ISLNK(info.external_attr >> 16):
        return "symbolic links are not allowed"
    return name_problem(info.filename)


def name_problem(name: str) -> str:
    """Why a file name from an archive (or a git tree) may not be written below a folder ("" if it may)."""
    if has_control_characters(name):
        return "the name contains control characters"
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or (posix.parts and posix.parts[0].endswith(":")):
        return "absolute path"
    if ".." in posix.parts:
        return "the path climbs out of the package"
    return ""


def unpack(package: Path, target: Path, display: str) -> list[Finding]:
    """Unpack `package` into the empty folder `target`; entries that fail a check are skipped."""
    where = Location(display, 0, 0)
    try:
        archive = zipfile.ZipFile(package)
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        return [PACKAGE_CORRUPT.at(where, problem=str(error))]
    findings: list[Finding] = []
    total = 0
    with archive:
        entries = archive.infolist()
        if len(entries) > MAX_ENTRIES:
            return [
                PACKAGE_TOO_LARGE.at(where, limit=f"{MAX_ENTRIES} files", entry=f"{len(entries)} entries")
            ]
        for info in entries:
            problem = _entry_problem(info)
            if problem:
                findings.append(PACKAGE_UNSAFE_ENTRY.at(where, entry=info.filename, problem=problem))
                continue
            if info.is_dir():
                continue
            total += info.file_size
            bomb = info.compress_size and info.file_size > MAX_RATIO * info.compress_size > 1 << 20
            if total > MAX_UNPACKED_BYTES or bomb:
                findings.append(PACKAGE_TOO_LARGE.at(where, limit="50 MB", entry=info.filename))
                return findings
            destination = target.joinpath(*PurePosixPath(info.filename.replace("\\", "/")).parts)
            try:
                _copy_bounded(archive, info, destination)
            except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error) as error:
                destination.unlink(missing_ok=True)  # never load half an entry
                findings.append(PACKAGE_CORRUPT.at(where, problem=f"{info.filename}: {error}"))
            except _TooLarge:
                findings.append(PACKAGE_TOO_LARGE.at(where, limit="50 MB", entry=info.filename))
                return findings
    return findings


class _TooLarge(Exception):
    """An entry inflates past its declared size."""


def _copy_bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, destination: Path) -> None:
    # The declared size can lie: count the bytes actually inflated.
    destination.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with archive.open(info) as source, destination.open("xb") as sink:
        while chunk := source.read(1 << 16):
            written += len(chunk)
            if written > min(info.file_size, MAX_UNPACKED_BYTES):
                raise _TooLarge
            sink.write(chunk)
