"""The lock of published schemas: a SHA-256 per file, so a published version never changes.

`schemas/lock.json` maps each file (relative to `schemas/`) to the hash of its bytes. A locked file
that changes or disappears is an error; a file not yet locked is accepted and reported until
`dify-registry schemas lock` records it. Recording never rewrites an entry.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from generator.findings import Finding, Location, Severity
from generator.rules import rule
from generator.schemas.load import SchemaLoadError, schema_files

LOCK_NAME = "lock.json"
LOCK_VERSION = 1

LOCKED_CHANGED = rule(
    "S030",
    "schema-locked-changed",
    Severity.ERROR,
    "{path} changed after it was published (locked sha256 {locked}, now {actual})",
    "Restore the published bytes (git checkout) and put the new content in a new file or version"
    " folder (schemas/v2/), then run `dify-registry schemas lock`.",
    """
A published schema is frozen: tools and editors have fetched it, and Dify bundles its own copies.
Changing the bytes behind a published URL changes what existing references mean, so the lock file
records each published file's SHA-256 and the check refuses any change. New content goes into a new
file or a new version folder.
""",
)
LOCKED_MISSING = rule(
    "S031",
    "schema-locked-missing",
    Severity.ERROR,
    "{path} is locked but no longer exists",
    "Restore the file: a published schema stays published.",
    """
A file recorded in the lock has been deleted or moved. Its URL would stop working for everyone who
references it.
""",
)
UNLOCKED = rule(
    "S032",
    "schema-unlocked",
    Severity.INFO,
    "{path} is not locked yet",
    "Run `dify-registry schemas lock` when the file is ready to publish; from then on it is frozen.",
    """
A new schema file is accepted; it becomes frozen when `dify-registry schemas lock` records its
SHA-256 in `schemas/lock.json`.
""",
)


@dataclass(frozen=True)
class Lock:
    """The recorded hashes, by path relative to `schemas/`."""

    files: MappingProxyType[str, str]


def sha256(raw: bytes) -> str:
    """Hex SHA-256 of some bytes."""
    return hashlib.sha256(raw).hexdigest()


def read_lock(root: Path) -> Lock:
    """The lock of `root`; empty when there is none yet; SchemaLoadError when it is broken."""
    path = root / LOCK_NAME
    shown = f"schemas/{LOCK_NAME}"
    if not path.exists():
        return Lock(MappingProxyType({}))
    try:
        data = json.loads(path.read_bytes())
    except OSError as problem:
        raise SchemaLoadError(shown, f"cannot be read: {problem.strerror or problem}") from None
    except (ValueError, RecursionError) as bad:
        raise SchemaLoadError(shown, f"not JSON: {bad}") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or data.get("version") != LOCK_VERSION:
        raise SchemaLoadError(shown, f"expected {{'version': {LOCK_VERSION}, 'files': {{path: sha256}}}}")
    if not all(isinstance(k, str) and isinstance(v, str) and len(v) == 64 for k, v in files.items()):
        raise SchemaLoadError(shown, "every entry maps a path to a 64-character hex SHA-256")
    return Lock(MappingProxyType(dict(files)))


def current_hashes(root: Path) -> dict[str, str]:
    """SHA-256 of every schema file under `root` now."""
    hashes = {}
    for relative, path in schema_files(root):
        try:
            hashes[relative] = sha256(path.read_bytes())
        except OSError as problem:
            raise SchemaLoadError(
                f"schemas/{relative}", f"cannot be read: {problem.strerror or problem}"
            ) from None
    return hashes


def check_lock(root: Path) -> list[Finding]:
    """Findings for changed, missing and not yet locked files."""
    lock, hashes = read_lock(root), current_hashes(root)
    findings = []
    for relative, locked in sorted(lock.files.items()):
        where = Location(f"schemas/{relative}", 1, 1)
        actual = hashes.get(relative)
        if actual is None:
            findings.append(LOCKED_MISSING.at(Location(f"schemas/{LOCK_NAME}", 1, 1), path=relative))
        elif actual != locked:
            findings.append(LOCKED_CHANGED.at(where, path=relative, locked=locked[:12], actual=actual[:12]))
    for relative in sorted(set(hashes) - set(lock.files)):
        findings.append(UNLOCKED.at(Location(f"schemas/{relative}", 1, 1), path=relative))
    return findings


def record_lock(root: Path) -> list[str]:
    """Add every unlocked file to the lock (existing entries stay as they are); the paths added."""
    lock, hashes = read_lock(root), current_hashes(root)
    added = sorted(set(hashes) - set(lock.files))
    if added:
        files = {**lock.files, **{relative: hashes[relative] for relative in added}}
        text = json.dumps({"version": LOCK_VERSION, "files": dict(sorted(files.items()))}, indent=2)
        (root / LOCK_NAME).write_text(text + "\n", encoding="utf-8")
    return added
