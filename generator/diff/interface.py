"""What a workflow sees of a plugin: its tools' and events' parameters and output variables, its
providers' credentials, and the manifest facts an installation depends on, read from an
already-loaded plugin.

Output variables are every path of `output_schema` with hosted `$ref`s followed (as Dify's variable
picker follows them), so a property that disappears inside a referenced schema counts as removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.findings import Location
from generator.kind_models.trigger import Event, TriggerProvider
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.load.yamlload import YamlDocument
from generator.plugin_model import Plugin, Provider, Tool
from generator.schemas import PropertyRow, SchemaSet, flatten_properties
from generator.schemas.properties import type_text
from generator.schemas.refs import INLINE_URI, RefKind, Resolution
from generator.schemas.walk import MAX_SCHEMA_DEPTH

# Referenced schemas followed inside one another; deeper chains are shown as the reference only.
MAX_REF_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Output:
    """One output variable path (`result.chunks[].content`) as the variable picker offers it."""

    path: str
    type: str
    required: bool
    ref: str | None
    where: Location


@dataclass(frozen=True)
class ToolFace:
    """A tool's interface: its parameters by name and its output variables by path."""

    tool: Tool
    outputs: dict[str, Output]
    document: YamlDocument | None

    def field(self, origin: Location, name: str) -> Location:
        """Where the key `name` of the mapping at `origin` (a parameter, an option) is written."""
        if self.document is None:
            return origin
        return self.document.locate(f"{origin.pointer}/{name}", key=True)

    @property
    def key(self) -> tuple[str, str]:
        """(provider, tool name): how a workflow node names the tool inside its plugin."""
        return (self.tool.key.provider, self.tool.name)


@dataclass(frozen=True)
class EventFace:
    """An event's interface: its parameters and its output variables by path."""

    event: Event
    outputs: dict[str, Output]

    @property
    def key(self) -> tuple[str, str]:
        """(trigger provider, event name): how a trigger-plugin node names the event."""
        return (self.event.key.provider, self.event.name)


@dataclass(frozen=True)
class Face:
    """The interface of one plugin, with the manifest document for placing manifest findings."""

    plugin: Plugin
    manifest: YamlDocument
    tools: dict[tuple[str, str], ToolFace]
    providers: dict[str, Provider]
    permissions: dict[str, Location]  # granted permission flags (`model.llm`) and where they are
    triggers: dict[str, TriggerProvider] = field(default_factory=dict)
    events: dict[tuple[str, str], EventFace] = field(default_factory=dict)

    def manifest_at(self, *parts: str | int) -> Location:
        """A place in the manifest (its nearest existing parent when the value is absent)."""
        return self.manifest.at(*parts)


def interface_of(loaded: LoadedPlugin, schemas: SchemaSet) -> Face | None:
    """The interface of a loaded plugin; None when its manifest could not be read."""
    plugin = loaded.plugin
    manifest = loaded.documents.get("manifest.yaml")
    if plugin is None or manifest is None:
        return None
    tools: dict[tuple[str, str], ToolFace] = {}
    for provider in plugin.providers:
        for tool in provider.tools:
            document = loaded.documents.get(tool.file)
            face = ToolFace(tool, dict(_outputs(tool, document, schemas)), document)
            tools.setdefault(face.key, face)  # a duplicate key is the validator's finding, not ours
    providers: dict[str, Provider] = {}
    for provider in plugin.providers:
        providers.setdefault(provider.name, provider)
    triggers: dict[str, TriggerProvider] = {}
    events: dict[tuple[str, str], EventFace] = {}
    for trigger in plugin.parts_of(TriggerProvider):
        triggers.setdefault(trigger.name, trigger)
        for event in trigger.events:
            outputs = dict(schema_outputs(event.output_schema, loaded.documents.get(event.file), schemas))
            event_face = EventFace(event, outputs)
            events.setdefault(event_face.key, event_face)
    return Face(plugin, manifest, tools, providers, dict(_permissions(manifest)), triggers, events)


def _permissions(manifest: YamlDocument) -> Iterator[tuple[str, Location]]:
    granted = dig(manifest.data, "resource", "permission")
    for kind, flags in granted.items() if isinstance(granted, dict) else ():
        for flag, value in flags.items() if isinstance(flags, dict) else ():
            if value is True:
                yield f"{kind}.{flag}", manifest.at("resource", "permission", kind, flag)


def _outputs(tool: Tool, document: YamlDocument | None, schemas: SchemaSet) -> Iterator[tuple[str, Output]]:
    return schema_outputs(tool.output_schema, document, schemas)


def schema_outputs(
    schema: Any, document: YamlDocument | None, schemas: SchemaSet
) -> Iterator[tuple[str, Output]]:
    """Every output variable path an `output_schema` declares (hosted `$ref`s followed), for a
    tool's, an event's or a datasource's schema."""
    if not isinstance(schema, dict):
        return
    resolution = Resolution(schema, schemas, INLINE_URI)
    # (path prefix, rows, depth, the references already followed on the way): an explicit stack,
    # so a stranger's chain of references costs a bounded amount of work.
    pending: list[tuple[str, tuple[PropertyRow, ...], int, frozenset[str]]] = [
        ("", flatten_properties(schema, schemas), 0, frozenset())
    ]
    while pending:
        prefix, rows, depth, followed = pending.pop()
        for row in rows:
            path = f"{prefix}.{row.path}" if prefix and not row.path.startswith("[]") else prefix + row.path
            where = _place(document, schema, f"{prefix}.{row.path}" if prefix else row.path)
            ref, inner = _follow(row, resolution)
            yield path, Output(path, _type(row, inner), row.required, ref, where)
            if ref and inner is not None and ref not in followed and depth < MAX_REF_DEPTH:
                nested = flatten_properties(inner, schemas, ref.split("#", 1)[0])
                pending.append((_below(path, row, nested), nested, depth + 1, followed | {ref}))


def _follow(row: PropertyRow, resolution: Resolution) -> tuple[str | None, Any]:
    """The reference of a row and the schema it resolves to (None when it does not)."""
    if row.ref is None:
        return None, None
    found = resolution.lookup((), row.ref, INLINE_URI)
    if found.kind is not RefKind.RESOLVED or not isinstance(found.contents, dict):
        return row.ref, None
    return found.target or row.ref, found.contents


def _below(path: str, row: PropertyRow, nested: tuple[PropertyRow, ...]) -> str:
    """The prefix of a referenced schema's rows: a reference on `items` describes one element."""
    # A referenced array schema's rows start with `[]` themselves; an array row whose reference
    # sits on `items` gets the step here.
    on_items = row.type.startswith("array") and not all(r.path.startswith("[]") for r in nested)
    return f"{path}[]" if on_items else path


def _type(row: PropertyRow, inner: Any) -> str:
    if row.type or inner is None:
        return row.type
    return type_text(inner)


def _place(document: YamlDocument | None, schema: dict[str, Any], path: str) -> Location:
    """Where a property path is written in the tool or event YAML: the deepest part of it found there (a
    property inside a referenced schema is placed at the reference)."""
    parts: list[str | int] = ["output_schema"]
    node: Any = schema
    for depth, step in enumerate(_steps(path)):
        if depth > MAX_SCHEMA_DEPTH or not isinstance(node, dict):
            break
        if step == "[]":
            if not isinstance(node.get("items"), dict):
                break
            parts.append("items")
            node = node["items"]
            continue
        properties = node.get("properties")
        if not isinstance(properties, dict) or step not in properties:
            break
        parts += ["properties", step]
        node = properties[step]
    if document is None:
        return Location("", 0, 0)
    return document.key_at(*parts) if parts[-1] != "items" else document.at(*parts)


def _steps(path: str) -> Iterator[str]:
    for part in path.split("."):
        name = part.replace("[]", "")
        if name:
            yield name
        yield from ["[]"] * part.count("[]")
