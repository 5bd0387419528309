"""One comparison of two loaded versions of a plugin: the interface changes and the version verdict.

The command and the site's version history both go through `compare`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.diff.interface import interface_of
from generator.diff.plugin_changes import plugin_changes
from generator.diff.version import Bump, Verdict, version_verdict
from generator.findings import Finding, Severity, sort_findings
from generator.load.crawl import LoadedPlugin
from generator.schemas import SchemaSet

# Keys of the manifest that say which version it is, not what the plugin is.
_VERSION_KEYS = ("version",)


@dataclass(frozen=True)
class Comparison:
    """The changes from an old to a new version and the verdict on its version number."""

    changes: tuple[Finding, ...]
    verdict: Verdict
    problems: tuple[Finding, ...] = ()  # why a side could not be compared

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding, sorted."""
        return tuple(sort_findings((*self.problems, *self.changes, *self.verdict.findings)))


def compare(old: LoadedPlugin, new: LoadedPlugin, schemas: SchemaSet) -> Comparison:
    """Compare two loaded plugins. Errors of loading either side come first: a file that could not
    be read explains a tool or a provider that seems to be missing."""
    problems = tuple(d for side in (old, new) for d in side.findings if d.severity is Severity.ERROR)
    before, after = interface_of(old, schemas), interface_of(new, schemas)
    if before is None or after is None:
        return Comparison((), Verdict(Bump.NONE, "", ()), problems)
    changes = list(plugin_changes(before, after))
    versions = (before.plugin.version, after.plugin.version)
    where = after.manifest_at("version")
    verdict = version_verdict(changes, *versions, _declarations_changed(old, new), where)
    return Comparison(tuple(sort_findings(changes)), verdict, problems)


def _declarations_changed(old: LoadedPlugin, new: LoadedPlugin) -> bool:
    """True when a manifest, provider or tool YAML says anything else than before (a label, a
    description), the version number aside."""
    if set(old.documents) != set(new.documents):
        return True
    return any(
        _content(name, old.documents[name].data) != _content(name, new.documents[name].data)
        for name in old.documents
    )


def _content(name: str, data: Any) -> Any:
    if name == "manifest.yaml" and isinstance(data, dict):
        return {k: v for k, v in data.items() if k not in _VERSION_KEYS}
    return data
