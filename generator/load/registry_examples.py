"""Examples a registry keeps for plugins it does not own: `overlays/<author>/<plugin>/`, holding the
same files as a plugin would (`tools/<tool>.examples.yaml`, `tools/<tool>.recordings/`).

A registry catalogs plugins it cannot edit, and real plugins ship no examples file: without one,
every run is a smoke run on invented inputs, which proves little. A plugin's own file always wins;
the registry's is read only for a tool that has none. Its findings name the registry's file, and
the pages say whose examples they are. When the tool changed since (a parameter renamed or made
required, the tool gone), the registry's file is stale: that is a warning on the registry's file,
never a crash and never an error of the plugin's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from generator.findings import Finding, Location, Severity
from generator.load.paths import display_path
from generator.load.reader import PluginReader
from generator.rules import Rule, rule

if TYPE_CHECKING:
    from generator.load.crawl import LoadedPlugin
    from generator.load.examples import Example
    from generator.plugin_model import Plugin, Tool

OVERLAYS = "overlays"  # the registry's folder of them

STALE = rule(
    "X001",
    "overlay-stale",
    Severity.WARNING,
    "the registry's examples file {problem}",
    "Update the file in the registry's overlays/ folder to the plugin's current tools and parameters.",
    """
A registry keeps examples for plugins it does not own in `overlays/<author>/<plugin>/`, in the
plugin's own layout. When the plugin changes (a tool renamed or removed, a parameter renamed or made
required), the registry's file no longer fits it: an input names no parameter, a required parameter
has no value, or the file belongs to no tool of the plugin. The registry's examples are not the plugin
author's: this is a warning on the registry's file, and an example that names a parameter the tool
does not have is still run with the inputs that fit.
""",
)


@dataclass(frozen=True)
class RegistryExamples:
    """The registry's overlay folder for one plugin, read through a reader of its own."""

    reader: PluginReader
    display: str
    # The examples files (plugin-relative) it supplies: those of tools whose plugin has none.
    supplied: frozenset[str] = frozenset()

    def display_path(self, relative: str) -> str:
        """How a file of the overlay is named in findings."""
        return display_path(self.display, relative)

    def as_plugin(self, loaded: LoadedPlugin) -> LoadedPlugin:
        """The plugin seen through the overlay: its files are the overlay's, its findings name them."""
        return replace(loaded, root=self.reader.root, display=self.display, reader=self.reader)


def examples_root(loaded: LoadedPlugin, tool: Tool) -> Path:
    """The folder a tool's examples (and so its recordings) belong to: the registry's overlay when
    it supplies them, else the plugin's own folder (`run --record` writes there)."""
    from generator.load.examples import examples_path

    overlay = loaded.registry_examples
    supplied = overlay is not None and examples_path(tool) in overlay.supplied
    return overlay.reader.root if overlay is not None and supplied else loaded.root


def find_registry_examples(overlays: Path | None, shown: str, loaded: LoadedPlugin) -> LoadedPlugin:
    """The plugin with the registry's overlay for it, when `overlays` holds one."""
    plugin = loaded.plugin
    if overlays is None or plugin is None:
        return loaded
    folder = overlays / plugin.author / plugin.name
    if not (_plain(plugin.author) and _plain(plugin.name) and folder.is_dir()):
        return loaded
    reader = PluginReader(folder.absolute())
    wanted = _examples_files(plugin)
    supplied = frozenset(p for p in wanted if reader.is_file(p) and not loaded.reader.is_file(p))
    found = RegistryExamples(reader, display_path(shown, f"{plugin.author}/{plugin.name}"), supplied)
    return replace(loaded, registry_examples=found)


def _examples_files(plugin: Plugin) -> tuple[str, ...]:
    """The examples files a plugin's tools and trigger events may have (plugin-relative)."""
    from generator.load.event_examples import plugin_events
    from generator.load.examples import examples_path

    tools = tuple(examples_path(tool) for tool in plugin.tools)
    return tools + tuple(examples_path(event) for event in plugin_events(plugin))


def fitting(examples: Sequence[Example], found: Iterable[Finding]) -> list[Example]:
    """The examples of the registry's file that still fit the tool: a stale one is not run (its
    failure would be blamed on the plugin)."""
    stale = [d.pointer for d in found if d.rule == STALE.code]
    return [e for e in examples if not any(p.startswith(e.origin.pointer) for p in stale)]


def _plain(name: str) -> bool:
    """A manifest's name used as one folder name: never a path (`..`, `a/b`)."""
    return bool(name) and PurePosixPath(name).name == name and name not in (".", "..") and "\\" not in name


def stale_findings(found: Iterable[Finding], misfits: Iterable[Rule]) -> list[Finding]:
    """The findings of reading the registry's examples file, with misfits (of the rules `misfits`)
    as stale-overlay warnings."""
    codes = {misfit.code for misfit in misfits}
    return [
        STALE.at(Location(d.file, d.line, d.column, d.pointer), problem=f"is stale: {d.message}")
        if d.rule in codes
        else d
        for d in found
    ]


def unused_files(loaded: LoadedPlugin) -> list[Finding]:
    """Examples files of the overlay that belong to no tool of the plugin (a tool renamed or gone)."""
    overlay = loaded.registry_examples
    if overlay is None or loaded.plugin is None:
        return []
    from generator.load.crawl import EXAMPLES_SUFFIX

    wanted = set(_examples_files(loaded.plugin))
    return [
        STALE.at(
            Location(overlay.display_path(file.relative), 1, 1),
            problem="belongs to no tool or event of the plugin (one renamed or removed?)",
        )
        for file in overlay.reader.local_files()
        if file.relative.endswith(EXAMPLES_SUFFIX) and file.relative not in wanted
    ]
