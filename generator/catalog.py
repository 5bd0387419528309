"""The catalog: everything the site shows, gathered once by load -> check -> schemas -> run.

`generator.pipeline` builds it; the MkDocs plugin and the CLI only configure that pipeline. Later
stages read this frozen object and never go back to the plugin files (icons are read here, once,
through the same path checks as every other file a manifest names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING

from generator.check.domains import AccessDomains, access_domains
from generator.findings import Finding
from generator.inputs import OtherPlugin
from generator.load.crawl import LoadedPlugin
from generator.load.reader import PluginReader
from generator.plugin_model import ToolKey
from generator.schemas import SchemaSet

if TYPE_CHECKING:
    from generator.diff.history import History
    from generator.kind_models.trigger import EventKey
    from generator.run import ExampleRun
    from generator.run.runtypes import EventRun

MAX_ICON_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class Icon:
    """An icon file a manifest names, read once (bytes and the file's own name)."""

    name: str
    content: bytes


@dataclass(frozen=True)
class Catalog:
    """Plugins, findings, the hosted schemas and the example runs: the site's only input."""

    plugins: tuple[LoadedPlugin, ...]
    findings: tuple[Finding, ...]  # every finding, sorted: what reporters write
    # Plugin display path -> that plugin's findings, sorted, as the stage that made them said; the
    # findings of no plugin (an empty registry) are only in `findings`.
    plugin_findings: Mapping[str, tuple[Finding, ...]] = field(default_factory=lambda: MappingProxyType({}))
    schemas: SchemaSet | None = None
    runs: tuple[ExampleRun, ...] = ()
    # the runs of trigger events on their example deliveries (`run/event_runs.py`)
    event_runs: tuple[EventRun, ...] = ()
    icons: Mapping[tuple[str, str], Icon] = field(default_factory=lambda: MappingProxyType({}))
    # The static scan of the domains each plugin's files name, by plugin folder.
    domains: Mapping[str, AccessDomains] = field(default_factory=lambda: MappingProxyType({}))
    # Plugin display path -> the versions in the git history of its folder (none outside git).
    histories: Mapping[str, History] = field(default_factory=lambda: MappingProxyType({}))
    # The plugins of other kinds (models, triggers, ...) found in a collection: named, not catalogued.
    others: tuple[OtherPlugin, ...] = ()

    def event_runs_of(self, loaded: LoadedPlugin, key: EventKey) -> tuple[EventRun, ...]:
        """The runs of one trigger event of this plugin on its example deliveries, in order."""
        return tuple(run for run in self.event_runs if run.plugin == loaded.display and run.event == key)

    def findings_of(self, loaded: LoadedPlugin) -> tuple[Finding, ...]:
        """The findings of this plugin, sorted."""
        return self.plugin_findings.get(loaded.display, ())

    def runs_of(self, loaded: LoadedPlugin, key: ToolKey) -> tuple[ExampleRun, ...]:
        """The example runs of one tool of this plugin, in the order they ran."""
        return self._runs_by_tool.get((loaded.display, key), ())

    # Built on first use: pages ask for every tool's runs, and a scan of all runs per question would
    # make a site of many tools quadratic.
    @cached_property
    def _runs_by_tool(self) -> dict[tuple[str, ToolKey], tuple[ExampleRun, ...]]:
        runs: dict[tuple[str, ToolKey], list[ExampleRun]] = {}
        for run in self.runs:
            runs.setdefault((run.plugin, run.tool), []).append(run)
        return {key: tuple(items) for key, items in runs.items()}

    def domains_of(self, loaded: LoadedPlugin) -> AccessDomains:
        """The domains this plugin's files name (an empty scan when it was not scanned)."""
        return self.domains.get(loaded.display, AccessDomains())

    def contacted_by(self, loaded: LoadedPlugin) -> tuple[str, ...]:
        """The hosts this plugin's example runs tried to reach, sorted."""
        keys = {tool.key for tool in loaded.plugin.tools} if loaded.plugin else set()
        return tuple(
            sorted({host for key in keys for run in self.runs_of(loaded, key) for host in run.contacted})
        )

    def icon(self, loaded: LoadedPlugin, name: str) -> Icon | None:
        """An icon of this plugin by the name its manifest gives, if it was readable."""
        return self.icons.get((loaded.display, name))


def read_icons(loaded: LoadedPlugin) -> dict[tuple[str, str], Icon]:
    """The plugin's and its providers' icons that lie inside it and are small enough to inline."""
    icons: dict[tuple[str, str], Icon] = {}
    if loaded.plugin is None:
        return icons
    names = {loaded.plugin.icon, *(p.icon for p in loaded.plugin.providers)}
    for name in sorted(n for n in names if n):
        icon = _read_icon(loaded.reader, name)
        if icon is not None:
            icons[(loaded.display, name)] = icon
    return icons


def _read_icon(reader: PluginReader, name: str) -> Icon | None:
    # Dify looks icons up under _assets/; a manifest may also name the path itself.
    for candidate in (f"_assets/{name}", name):
        if reader.is_file(candidate):
            content = reader.head(candidate, MAX_ICON_BYTES + 1) or b""
            file_name = PurePosixPath(reader.resolve(candidate).relative).name
            return Icon(file_name, content) if len(content) <= MAX_ICON_BYTES else None
    return None


def histories_of(plugins: Sequence[LoadedPlugin], schemas: SchemaSet | None) -> dict[str, History]:
    """The version history of every plugin whose folder git tracks (needs the hosted schemas)."""
    # Imported here: only site builds read histories, and the diff stage costs every command line a
    # tenth of a second to import.
    from generator.diff.history import history_of

    if schemas is None:
        return {}
    found = {loaded.display: history_of(loaded, schemas) for loaded in plugins}
    return {display: history for display, history in found.items() if history is not None}


@dataclass
class SiteData:
    """What only the site shows of the plugins' files (icons, the domain scan), taken from each plugin
    after its checks, while its files and syntax trees are at hand; and the plugins' histories."""

    icons: dict[tuple[str, str], Icon] = field(default_factory=dict)
    domains: dict[str, AccessDomains] = field(default_factory=dict)

    def take(self, loaded: LoadedPlugin) -> None:
        """Take what the site shows of this plugin's files."""
        if loaded.plugin is None:
            return
        self.domains[loaded.display] = access_domains(loaded)
        self.icons.update(read_icons(loaded))

    def added_to(self, catalog: Catalog, schemas: SchemaSet | None) -> Catalog:
        """The catalog with what was taken, and the version history of its plugins."""
        return replace(
            catalog,
            icons=MappingProxyType(self.icons),
            domains=MappingProxyType(self.domains),
            histories=MappingProxyType(histories_of(catalog.plugins, schemas)),
        )
