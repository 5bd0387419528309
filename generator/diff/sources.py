"""The two sides of a comparison: a plugin folder, a `.difypkg`, or `git:REV:PATH` (a plugin folder
at a revision of the repository the command runs in), each loaded by the ordinary loader.

Packages and revisions are written into private temporary folders that live as long as the
returned context; a revision is read from git's object store, never checked out.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from generator.diff.gitread import GitError, commit_of, materialize, repository_prefix
from generator.findings import Finding
from generator.inputs import InputError, open_inputs
from generator.load.crawl import LoadedPlugin, load_plugin

GIT_PREFIX = "git:"


@contextlib.contextmanager
def open_side(spec: str) -> Iterator[tuple[LoadedPlugin, list[Finding]]]:
    """The plugin `spec` names, and the findings of unpacking it; InputError when there is none."""
    with contextlib.ExitStack() as stack:
        if spec.startswith(GIT_PREFIX):
            revision, _, path = spec.removeprefix(GIT_PREFIX).partition(":")
            yield at_revision(revision, path or ".", stack)
            return
        inputs = stack.enter_context(open_inputs([Path(spec)]))
        if len(inputs.plugins) != 1:
            raise InputError(f"{spec}: names {len(inputs.plugins)} plugins; `diff` compares one plugin")
        yield inputs.plugins[0], list(inputs.findings)


def at_revision(revision: str, path: str, stack: contextlib.ExitStack) -> tuple[LoadedPlugin, list[Finding]]:
    """The plugin folder `path` (relative to the working folder) as it was at `revision`."""
    here = Path.cwd()
    display = f"{GIT_PREFIX}{revision}:{path}"
    try:
        commit = commit_of(here, revision)
        prefix = _tree_path(repository_prefix(here), path)
        target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dify-registry-git-")))
        target.chmod(0o700)
        findings = materialize(here, commit, prefix, target, display)
    except GitError as problem:
        raise InputError(f"{display}: {problem}") from None
    return load_plugin(target, display), findings


def _tree_path(prefix: str, path: str) -> str:
    """`path` below the working folder as a folder of the repository's tree (`plugins/x/`)."""
    named = PurePosixPath(path.replace("\\", "/"))
    if named.is_absolute():
        raise GitError("the path must be relative to the working folder")
    parts = list(PurePosixPath(prefix).parts)
    for part in named.parts:
        if part == "..":
            if not parts:
                raise GitError("the path climbs out of the repository")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "".join(f"{part}/" for part in parts)
