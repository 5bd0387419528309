"""The versions of a plugin found in the git history of its folder, each with the interface changes
from the version before, and what the current version added: the site's version history.

A plugin outside a git repository (or in a folder git does not track) has no history: None, never
an error. Each version is read from git's object store (its YAML files only: the interface lives
there) through the same bounded reader as `diff git:REV:PATH`.
"""

from __future__ import annotations

import contextlib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.diff.changes import Change, class_of
from generator.diff.compare import compare
from generator.diff.gitread import Commit, GitError, files_at, folder_log, materialize, repository_prefix
from generator.diff.interface import interface_of
from generator.findings import Finding
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.load.yamlload import MAX_FILE_BYTES, read_yaml
from generator.schemas import SchemaSet

MAX_RELEASES = 20  # versions shown per plugin, newest first
_INTERFACE_FILES = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Release:
    """A version as it first appeared in the folder's history, and its changes from the one before
    (`first` when no earlier version is in the history)."""

    version: str
    date: str
    commit: str
    changes: tuple[Finding, ...]
    first: bool
    # output paths of the version before that this one lost, as (provider, tool, path): what a
    # workflow's references to them meet on upgrade
    removed_outputs: frozenset[tuple[str, str, str]] = frozenset()
    # this version compared directly with the current one: what upgrading a workflow pinned to it
    # breaks (a change made and undone in between is no change), and the outputs it loses
    upgrade: tuple[Finding, ...] = ()
    upgrade_removed: frozenset[tuple[str, str, str]] = frozenset()

    @property
    def breaking(self) -> bool:
        """True when any change breaks existing workflows."""
        return any(class_of(d) is Change.BREAKING for d in self.changes)


@dataclass(frozen=True)
class History:
    """Releases newest first, and what the current version added since the version before it:
    parameters as (provider, tool, parameter name), outputs as (provider, tool, variable path)."""

    releases: tuple[Release, ...]
    added_parameters: frozenset[tuple[str, str, str]]
    added_outputs: frozenset[tuple[str, str, str]]


def history_of(loaded: LoadedPlugin, schemas: SchemaSet) -> History | None:
    """The history of a loaded plugin's folder, or None without one."""
    if loaded.plugin is None:
        return None
    try:
        prefix = repository_prefix(loaded.root)
        found = _releases(loaded.root, prefix)
        if not found:
            return None
        with contextlib.ExitStack() as stack:
            versions = [_load(loaded, prefix, commit, stack) for _, commit in found]
            return _history(loaded, found, versions, schemas)
    except (GitError, OSError):  # the site is built with or without a readable history
        return None


def _releases(root: Path, prefix: str) -> list[tuple[str, Commit]]:
    """Each version with the commit that first had it, oldest first (a version going back to an
    earlier number is a release of its own)."""
    commits = folder_log(root, prefix)
    manifests = files_at(root, [c.id for c in commits], f"{prefix}manifest.yaml", MAX_FILE_BYTES)
    found: list[tuple[str, Commit]] = []
    for commit, raw in zip(commits, manifests, strict=True):
        data = read_yaml(raw, "manifest.yaml").data if raw is not None else None
        version = data.get("version") if isinstance(data, dict) else None
        if isinstance(version, str | int | float) and (not found or found[-1][0] != str(version)):
            found.append((str(version), commit))
    return found[-(MAX_RELEASES + 1) :]  # one more than shown: the oldest shown has a version before


def _load(loaded: LoadedPlugin, prefix: str, commit: Commit, stack: contextlib.ExitStack) -> LoadedPlugin:
    target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dify-registry-history-")))
    shown = f"{loaded.display}@{commit.id[:12]}"
    materialize(loaded.root, commit.id, prefix, target, shown, _INTERFACE_FILES)
    return load_plugin(target, shown)


def _history(
    loaded: LoadedPlugin, found: list[tuple[str, Commit]], versions: list[LoadedPlugin], schemas: SchemaSet
) -> History:
    releases = []
    for index, ((version, commit), plugin) in enumerate(zip(found, versions, strict=True)):
        before = versions[index - 1] if index else None
        changes = compare(before, plugin, schemas).changes if before is not None else ()
        removed = removed_outputs(before, plugin, schemas) if before is not None else frozenset()
        upgrade = compare(plugin, loaded, schemas).changes
        lost = removed_outputs(plugin, loaded, schemas)
        releases.append(
            Release(version, commit.date, commit.id, changes, before is None, removed, upgrade, lost)
        )
    shown = releases[-MAX_RELEASES:]
    current = loaded.plugin.version if loaded.plugin else ""
    previous = next(
        (v for (number, _), v in zip(found[::-1], versions[::-1], strict=True) if number != current), None
    )
    parameters, outputs = (
        _added(previous, loaded, schemas) if previous is not None else (frozenset(), frozenset())
    )
    return History(tuple(shown[::-1]), parameters, outputs)


def _added(
    previous: LoadedPlugin, current: LoadedPlugin, schemas: SchemaSet
) -> tuple[frozenset[tuple[str, str, str]], frozenset[tuple[str, str, str]]]:
    """Parameters and output paths of the current version's tools that the previous version's
    same tool did not have (a tool new as a whole marks nothing: all of it is new)."""
    before, now = interface_of(previous, schemas), interface_of(current, schemas)
    if before is None or now is None:
        return frozenset(), frozenset()
    parameters: set[tuple[str, str, str]] = set()
    outputs: set[tuple[str, str, str]] = set()
    for key, face in now.tools.items():
        old = before.tools.get(key)
        if old is None:
            continue
        names = {p.name for p in old.tool.parameters}
        parameters.update((*key, p.name) for p in face.tool.parameters if p.name not in names)
        outputs.update((*key, path) for path in face.outputs if path not in old.outputs)
    return frozenset(parameters), frozenset(outputs)


def removed_outputs(
    previous: LoadedPlugin, current: LoadedPlugin, schemas: SchemaSet
) -> frozenset[tuple[str, str, str]]:
    """Output paths of the previous version's tools that the current version's same tool (or the
    current version, the tool being gone) no longer has."""
    before, now = interface_of(previous, schemas), interface_of(current, schemas)
    if before is None or now is None:
        return frozenset()
    removed: set[tuple[str, str, str]] = set()
    for key, face in before.tools.items():
        kept = now.tools[key].outputs if key in now.tools else {}
        removed.update((*key, path) for path in face.outputs if path not in kept)
    return frozenset(removed)
