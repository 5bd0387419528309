"""Reading a plugin folder out of git history without a checkout: `ls-tree` lists a revision's
files with their sizes, `cat-file --batch` hands over their bytes, and both run as argument lists.

The repository may be a stranger's (a pull request): the limits of a `.difypkg` apply before a
byte is read, names pass the same checks as package entries, and links, submodules and anything
that is not a plain file are left out (the loader then reports what is missing).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from generator.findings import Finding, Location
from generator.load.package import (
    MAX_ENTRIES,
    MAX_UNPACKED_BYTES,
    PACKAGE_TOO_LARGE,
    PACKAGE_UNSAFE_ENTRY,
    name_problem,
)
from generator.load.paths import has_control_characters

GIT_TIMEOUT = 60
MAX_LOG = 500  # commits of one folder's history looked at
# Settings that make git run programs or read other files are off for every call: the repository's
# own configuration is not ours to trust.
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.allow=never")
_BLOB_MODES = ("100644", "100755")


class GitError(Exception):
    """A revision or path that git cannot read (an unknown ref, a folder not in that commit)."""


@dataclass(frozen=True, slots=True)
class TreeFile:
    """One plain file of a revision's folder: its path below that folder, object id and size."""

    path: str
    object_id: str
    size: int


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit of a folder's history: full id and committer date (ISO 8601)."""

    id: str
    date: str


def git(folder: Path, *args: str, stdin: bytes | None = None) -> bytes:
    """Run `git <args>` in `folder` and return its output; a failure is a GitError with git's words."""
    try:
        done = subprocess.run(
            ["git", *_SAFE, *args],
            cwd=folder,
            input=stdin,
            capture_output=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as failed:
        raise GitError(f"git {args[0]}: {failed}") from None
    if done.returncode != 0:
        words = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise GitError(words[-1] if words else f"git {args[0]} failed")
    return done.stdout


def check_revision(revision: str) -> None:
    """Refuse what git would read as an option, or what could forge lines of a report."""
    if not revision or revision.startswith("-") or has_control_characters(revision):
        raise GitError(f"{revision!r} is not a revision")


def commit_of(folder: Path, revision: str) -> str:
    """The full commit id `revision` names, in the repository `folder` lies in."""
    check_revision(revision)
    return git(folder, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").decode().strip()


def repository_prefix(folder: Path) -> str:
    """`folder` relative to the top of its repository, with a trailing slash ("" at the top)."""
    return git(folder, "rev-parse", "--show-prefix").decode("utf-8", errors="replace").strip()


def tree_files(folder: Path, commit: str, prefix: str) -> list[TreeFile]:
    """The plain files under `prefix` (a folder, relative to the repository top) at `commit`."""
    # --full-tree: run in a subfolder, ls-tree would otherwise list only what lies below it.
    listing = git(folder, "ls-tree", "-r", "-z", "--long", "--full-tree", f"{commit}:{prefix}")
    files = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        head, _, name = entry.partition(b"\t")
        mode, kind, object_id, size = head.decode("ascii", errors="replace").split()
        if kind == "blob" and mode in _BLOB_MODES:
            files.append(TreeFile(name.decode("utf-8", errors="replace"), object_id, int(size)))
    return files


def materialize(
    folder: Path, commit: str, prefix: str, target: Path, display: str, suffixes: tuple[str, ...] = ()
) -> list[Finding]:
    """Write the files under `prefix` at `commit` into the empty folder `target` (only names ending
    in one of `suffixes` when given); findings for what was refused."""
    where = Location(display, 0, 0)
    files = [f for f in tree_files(folder, commit, prefix) if not suffixes or f.path.endswith(suffixes)]
    if len(files) > MAX_ENTRIES:
        return [PACKAGE_TOO_LARGE.at(where, limit=f"{MAX_ENTRIES} files", entry=f"{len(files)} entries")]
    if sum(f.size for f in files) > MAX_UNPACKED_BYTES:
        return [PACKAGE_TOO_LARGE.at(where, limit="50 MB", entry=prefix or ".")]
    findings = []
    wanted = []
    for file in files:
        problem = name_problem(file.path)
        if problem:
            findings.append(PACKAGE_UNSAFE_ENTRY.at(where, entry=file.path, problem=problem))
        else:
            wanted.append(file)
    contents = blobs(folder, [f.object_id for f in wanted])
    for file, content in zip(wanted, contents, strict=True):
        destination = target.joinpath(*PurePosixPath(file.path).parts)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(content)
    return findings


def blobs(folder: Path, object_ids: list[str]) -> list[bytes]:
    """The contents of these blobs, in order, from one `cat-file --batch`."""
    if not object_ids:
        return []
    output = git(folder, "cat-file", "--batch", stdin="".join(f"{o}\n" for o in object_ids).encode())
    contents = []
    at = 0
    for _ in object_ids:
        end = output.index(b"\n", at)
        header = output[at:end].split()
        if len(header) != 3:  # "<id> missing"
            raise GitError(f"object {header[0].decode(errors='replace')} is missing")
        size = int(header[2])
        contents.append(output[end + 1 : end + 1 + size])
        at = end + 2 + size
    return contents


def files_at(folder: Path, commits: list[str], path: str, limit: int) -> list[bytes | None]:
    """One file (path relative to the repository top) at each of `commits`: its bytes, or None
    where it is missing, not a plain file, or larger than `limit` (sizes are asked first)."""
    names = "".join(f"{commit}:{path}\n" for commit in commits).encode()
    found = [line.split() for line in git(folder, "cat-file", "--batch-check", stdin=names).splitlines()]
    small = [f[0].decode("ascii") for f in found if len(f) == 3 and f[1] == b"blob" and int(f[2]) <= limit]
    wanted = list(dict.fromkeys(small))  # a manifest unchanged across commits is one object
    contents = dict(zip(wanted, blobs(folder, wanted), strict=True))
    return [contents.get(f[0].decode("ascii", errors="replace")) if len(f) == 3 else None for f in found]


def folder_log(folder: Path, prefix: str) -> list[Commit]:
    """The commits that changed `prefix` (relative to the repository top), oldest first."""
    output = git(
        folder, "log", f"-n{MAX_LOG}", "--format=%H %cI", "--full-history", "HEAD", "--", f":/{prefix}"
    )
    commits = [Commit(*line.split(" ", 1)) for line in output.decode("ascii", errors="replace").splitlines()]
    return commits[::-1]
