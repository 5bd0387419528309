"""What the workflow check compares a DSL with: for each plugin (`author/name`), its newest version's
tools (parameters, output variable paths) and the interface changes of the versions before it.

Built from plugins through the load stage (a registry, a plugin, a `.difypkg`, or a folder holding
any of these), or from a published `index.json` (format 2), so a workflow can be checked
against a site without its sources. Versions come from several versions of one plugin in the
collection (compared by the diff engine), from the git history of a plugin's folder, or from the
index's `versions`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.diff.changes import Change, class_of
from generator.diff.compare import compare
from generator.diff.interface import Face, interface_of
from generator.diff.version import Version, parse_version
from generator.findings import Finding, Severity
from generator.inputs import InputError
from generator.load.crawl import LoadedPlugin
from generator.pipeline import Pipeline
from generator.plugin_model import FIXED_OUTPUTS, Parameter
from generator.schemas import SchemaSet
from generator.workflow.datasources import DatasourceSpec, chunk_structures, datasource_specs

MAX_INDEX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """What a workflow may give one parameter."""

    name: str
    type: str
    form: str
    required: bool
    default: Any
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as the check needs it: parameters by name, output variable paths."""

    provider: str
    name: str
    parameters: dict[str, ParameterSpec]
    outputs: frozenset[str]  # `text`, `files`, `json` and every path of `output_schema`
    # output path -> the hosted chunk structure its `$ref` names (read by knowledge pipelines)
    structures: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventSpec:
    """An event of a trigger plugin as the check needs it: parameters by name, and its output
    variables (every path of `output_schema`, hosted `$ref`s followed) with their types."""

    provider: str
    name: str
    parameters: dict[str, ParameterSpec]
    outputs: dict[str, str]  # path -> type text


@dataclass(frozen=True, slots=True)
class Release:
    """A version and what changed from the version before it: its breaking changes (as the diff
    engine words them) and the output paths it removed, as (provider, tool, path); and, when known,
    the same for an upgrade from this version straight to the catalog's (`upgrade`,
    `upgrade_removed`), which is what a workflow pinned to it meets."""

    version: str
    breaking: tuple[str, ...]
    removed_outputs: frozenset[tuple[str, str, str]]
    upgrade: tuple[str, ...] | None = None
    upgrade_removed: frozenset[tuple[str, str, str]] | None = None


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What upgrading from a pinned version to the catalog's breaks, and the outputs it loses;
    `direct` when the pinned version itself was compared with the catalog's, else added up from the
    releases in between (which overstates a change that a later release undid)."""

    breaking: tuple[str, ...]
    removed_outputs: frozenset[tuple[str, str, str]]
    direct: bool


@dataclass(frozen=True)
class PluginSpec:
    """A plugin's newest version in the catalog, and the releases known before and up to it."""

    id: str
    version: str
    tools: dict[tuple[str, str], ToolSpec]
    releases: tuple[Release, ...] = ()  # oldest first
    events: dict[tuple[str, str], EventSpec] = field(default_factory=dict)  # (provider, event)

    def since(self, pinned: str) -> list[Release]:
        """The releases after `pinned` up to the catalog's version."""
        low, high = parse_version(pinned), parse_version(self.version)
        if low is None or high is None:
            return []
        return [r for r in self.releases if _between(r.version, low, high)]

    def upgrade_from(self, pinned: str) -> Upgrade:
        """What upgrading from `pinned` to the catalog's version breaks: the pinned version compared
        with the catalog's when the catalog holds it, else the releases in between added up."""
        low, high = parse_version(pinned), parse_version(self.version)
        if low is None or high is None or low >= high:
            return Upgrade((), frozenset(), True)
        for release in self.releases:
            if parse_version(release.version) == low and release.upgrade is not None:
                return Upgrade(release.upgrade, release.upgrade_removed or frozenset(), True)
        between = self.since(pinned)
        removed = frozenset(path for release in between for path in release.removed_outputs)
        return Upgrade(tuple(m for release in between for m in release.breaking), removed, False)


def _between(version: str, low: Version, high: Version) -> bool:
    parsed = parse_version(version)
    return parsed is not None and low < parsed <= high


@dataclass(frozen=True)
class Catalog:
    """Every plugin of the catalog by id, and what reading it found."""

    plugins: dict[str, PluginSpec]
    findings: tuple[Finding, ...] = ()
    tools: int = field(default=0)
    # plugin id -> its datasources by (provider, datasource), for knowledge pipelines
    datasources: dict[str, dict[tuple[str, str], DatasourceSpec]] = field(default_factory=dict)


def output_paths(face_outputs: Iterable[str]) -> frozenset[str]:
    """The fixed variables and the declared output paths."""
    return frozenset((*FIXED_OUTPUTS, *face_outputs))


def declares(outputs: Iterable[str], path: tuple[str, ...]) -> bool:
    """True when declared output paths hold the variable at `path`: a declared path, or something
    inside a declared path that declares nothing inside it (a free-form object)."""
    normal = {normal_path(o) for o in outputs}
    joined = ".".join(path)
    if joined in normal:
        return True
    for cut in range(len(path) - 1, 0, -1):
        prefix = ".".join(path[:cut])
        if prefix in normal:
            return not any(o.startswith(prefix + ".") for o in normal)
    return False


def normal_path(path: str) -> str:
    """An output path as a reference writes it: without the `[]` of list items."""
    return path.replace("[]", "")


def _parameter_specs(parameters: Iterable[Parameter]) -> dict[str, ParameterSpec]:
    return {
        p.name: ParameterSpec(
            p.name, p.type, p.form, p.required, p.default, tuple(o.value for o in p.options)
        )
        for p in parameters
    }


def _tool_specs(face: Face) -> dict[tuple[str, str], ToolSpec]:
    specs: dict[tuple[str, str], ToolSpec] = {}
    for key, tool_face in face.tools.items():
        parameters = _parameter_specs(tool_face.tool.parameters)
        structures = chunk_structures(tool_face.outputs.items())
        specs[key] = ToolSpec(key[0], key[1], parameters, output_paths(tool_face.outputs), structures)
    return specs


def _event_specs(face: Face) -> dict[tuple[str, str], EventSpec]:
    return {
        key: EventSpec(
            key[0],
            key[1],
            _parameter_specs(event_face.event.parameters),
            {path: output.type for path, output in event_face.outputs.items()},
        )
        for key, event_face in face.events.items()
    }


def _breaking(changes: Iterable[Finding]) -> tuple[str, ...]:
    return tuple(d.message for d in changes if class_of(d) is Change.BREAKING)


def plugin_id(face: Face) -> str:
    """`author/name`, as Dify names an installed plugin."""
    return f"{face.plugin.author}/{face.plugin.name}"


def from_loaded(plugins: Sequence[LoadedPlugin], schemas: SchemaSet, history: bool = True) -> Catalog:
    """The catalog of loaded plugins: the newest version of each plugin id, with releases from the
    other versions present and from the git history of its folder."""
    versions: dict[str, list[tuple[Version, LoadedPlugin, Face]]] = {}
    findings = [d for p in plugins for d in p.findings if d.severity is Severity.ERROR]
    for loaded in plugins:
        face = interface_of(loaded, schemas)
        number = parse_version(face.plugin.version) if face is not None else None
        if face is None or number is None:
            continue
        versions.setdefault(plugin_id(face), []).append((number, loaded, face))
    specs: dict[str, PluginSpec] = {}
    for key, found in versions.items():
        found.sort(key=lambda item: item[0])
        releases = list(_pairs(found, schemas))
        newest_loaded, newest = found[-1][1], found[-1][2]
        if history and len(found) == 1:
            releases = list(_history(newest_loaded, schemas))
        specs[key] = PluginSpec(
            key, newest.plugin.version, _tool_specs(newest), tuple(releases), _event_specs(newest)
        )
    tools = sum(len(spec.tools) for spec in specs.values())
    return Catalog(specs, tuple(findings), tools, datasource_specs(plugins, schemas))


def _pairs(found: list[tuple[Version, LoadedPlugin, Face]], schemas: SchemaSet) -> Iterator[Release]:
    """Every version present, with its changes from the one before and straight to the newest."""
    from generator.diff.history import removed_outputs

    newest = found[-1][1]
    previous: LoadedPlugin | None = None
    for number, loaded, _face in found:
        changes = compare(previous, loaded, schemas).changes if previous is not None else ()
        removed = removed_outputs(previous, loaded, schemas) if previous is not None else frozenset()
        upgrade = _breaking(compare(loaded, newest, schemas).changes)
        lost = removed_outputs(loaded, newest, schemas)
        yield Release(str(number), _breaking(changes), removed, upgrade, lost)
        previous = loaded


def _history(loaded: LoadedPlugin, schemas: SchemaSet) -> Iterator[Release]:
    # Imported here: reading a git history is only needed for a plugin folder under git.
    from generator.diff.history import history_of

    found = history_of(loaded, schemas)
    for release in reversed(found.releases if found else ()):
        yield Release(
            release.version,
            _breaking(release.changes),
            release.removed_outputs,
            _breaking(release.upgrade),
            release.upgrade_removed,
        )


def load_catalog(paths: Sequence[Path], schemas: SchemaSet) -> Catalog:
    """The catalog the paths name; an `index.json` is read as a published index."""
    indexes = [p for p in paths if p.is_file() and p.suffix == ".json"]
    folders = [p for p in paths if p not in indexes]
    parts = [from_index(p) for p in indexes]
    if folders or not indexes:
        # The load stage only: the catalog needs the plugins' declarations, not their findings.
        with Pipeline(tuple(folders), schemas, checks=False).load() as inputs:
            parts.append(from_loaded(inputs.plugins, schemas))
    return _merged(parts)


def _merged(parts: list[Catalog]) -> Catalog:
    plugins: dict[str, PluginSpec] = {}
    for part in parts:
        for key, spec in part.plugins.items():
            known = plugins.get(key)
            if known is None or _newer(spec.version, known.version):
                plugins[key] = spec
    findings = tuple(d for part in parts for d in part.findings)
    datasources = {key: found for part in parts for key, found in part.datasources.items()}
    return Catalog(plugins, findings, sum(len(s.tools) for s in plugins.values()), datasources)


def _newer(version: str, than: str) -> bool:
    a, b = parse_version(version), parse_version(than)
    return a is not None and (b is None or a > b)


class IndexError_(InputError):
    """An index.json that cannot be read as a registry index (a usage error: exit 2)."""


def from_index(path: Path) -> Catalog:
    """The catalog of a published `index.json` (schemas/v2/registry_index.json)."""
    if path.stat().st_size > MAX_INDEX_BYTES:
        raise IndexError_(f"{path}: over {MAX_INDEX_BYTES} bytes; not read")
    try:
        data = json.loads(path.read_bytes())
    except (ValueError, OSError) as bad:
        raise IndexError_(f"{path}: not a JSON registry index ({bad})") from None
    if not isinstance(data, dict) or data.get("version") != 2 or not isinstance(data.get("plugins"), list):
        raise IndexError_(f"{path}: not a registry index of format 2")
    specs: dict[str, PluginSpec] = {}
    for plugin in data["plugins"]:
        spec = _index_plugin(plugin)
        if spec is not None and (spec.id not in specs or _newer(spec.version, specs[spec.id].version)):
            specs[spec.id] = spec
    return Catalog(specs, (), sum(len(s.tools) for s in specs.values()))


def _index_plugin(plugin: Any) -> PluginSpec | None:
    if not isinstance(plugin, dict):
        return None
    author, name, version = plugin.get("author"), plugin.get("name"), plugin.get("version")
    if not all(isinstance(v, str) for v in (author, name, version)):
        return None
    tools: dict[tuple[str, str], ToolSpec] = {}
    for tool in _dicts(plugin.get("tools")):
        provider, tool_name = tool.get("provider"), tool.get("name")
        if not isinstance(provider, str) or not isinstance(tool_name, str):
            continue
        parameters = _index_parameters(tool.get("parameters"))
        paths = (str(o.get("path")) for o in _dicts(tool.get("output_variables")))
        tools[(provider, tool_name)] = ToolSpec(provider, tool_name, parameters, output_paths(paths))
    releases = tuple(
        Release(
            str(r.get("version")),
            _texts(r.get("breaking")),
            _paths(r.get("removed_outputs")),
            # absent from indexes written before the direct comparison: added up instead
            _texts(r["upgrade_breaking"]) if "upgrade_breaking" in r else None,
            _paths(r["upgrade_removed_outputs"]) if "upgrade_removed_outputs" in r else None,
        )
        for r in reversed(list(_dicts(plugin.get("versions"))))
    )
    return PluginSpec(f"{author}/{name}", str(version), tools, releases, _index_events(plugin))


def _index_parameters(value: Any) -> dict[str, ParameterSpec]:
    return {
        str(p.get("name")): ParameterSpec(
            str(p.get("name")),
            str(p.get("type", "")),
            str(p.get("form", "")),
            p.get("required") is True,
            p.get("default"),
            tuple(str(o.get("value")) for o in _dicts(p.get("options"))),
        )
        for p in _dicts(value)
    }


def _index_events(plugin: dict[str, Any]) -> dict[tuple[str, str], EventSpec]:
    """The events of the index's `triggers` (each provider's `events`, as the site writes them)."""
    events: dict[tuple[str, str], EventSpec] = {}
    for provider in _dicts(plugin.get("triggers")):
        for event in _dicts(provider.get("events")):
            provider_name, name = event.get("provider", provider.get("name")), event.get("name")
            if not isinstance(provider_name, str) or not isinstance(name, str):
                continue
            outputs = {
                str(o.get("path")): str(o.get("type") or "") for o in _dicts(event.get("output_variables"))
            }
            parameters = _index_parameters(event.get("parameters"))
            events[(provider_name, name)] = EventSpec(provider_name, name, parameters, outputs)
    return events


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(m for m in (value if isinstance(value, list) else []) if isinstance(m, str))


def _paths(value: Any) -> frozenset[tuple[str, str, str]]:
    return frozenset((str(o.get("provider")), str(o.get("tool")), str(o.get("path"))) for o in _dicts(value))


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    yield from (item for item in (value if isinstance(value, list) else []) if isinstance(item, dict))
