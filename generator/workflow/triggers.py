"""The workflow check of trigger plugins: each `trigger-plugin` node (Dify 1.10) against the catalog's
events, and each reference to the variables such a node starts the workflow with.

Read from langgenius/dify, api/core/workflow/nodes/trigger_plugin/: `TriggerEventNodeData` has
`plugin_id`, `provider_id`, `event_name`, `subscription_id`, `plugin_unique_identifier` and
`event_parameters` (`Mapping[str, TriggerEventInput]`, each `{type: mixed|variable|constant, value}`);
the web editor's `PluginTriggerNodeType` also exports the event's `output_schema` into the node.
`TriggerEventNode._run` returns the variable pool's user inputs, the event's variables, as the node's
outputs, so `{{#<trigger node>.<path>#}}` reads a path of the event's `output_schema`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.diff.interface import schema_outputs
from generator.findings import Finding, Location, Severity
from generator.rules import Listing, rule
from generator.schemas import shipped_schemas
from generator.workflow.catalog import Catalog, EventSpec, PluginSpec, declares, normal_path
from generator.workflow.dsl import Dsl, Node
from generator.workflow.uses import plugin_of_identifier, references

TRIGGER_NODE = "trigger-plugin"

EVENT_UNKNOWN = rule(
    "W040",
    "event-not-in-catalog",
    Severity.WARNING,
    "trigger node {node}: {what}",
    "Install the trigger plugin that provides it, or check `plugin_id`, `provider_id` and "
    "`event_name`; with `--catalog`, name the registry or index that holds it.",
    """
A `trigger-plugin` node names a plugin (`plugin_id`), a trigger provider (`provider_id`) and an event
(`event_name`) that the catalog does not have. Dify imports the workflow and asks to install the
plugin; without it no subscription can deliver the event and the workflow is never started. The
catalog may simply not hold a plugin the workspace has, so this is a warning.
""",
)
EVENT_PARAMETER_UNKNOWN = rule(
    "W041",
    "event-parameter-unknown",
    Severity.WARNING,
    "trigger node {node}: event {event} has no parameter {name}",
    "Remove the value, or set the parameter the event has under that name now ({known}).",
    """
The node gives a value to a parameter the event does not declare. Dify's
`TriggerEventNodeData.resolve_parameters` passes such a parameter to the plugin as None
(`if not parameter: result[parameter_name] = None`), so the value the builder set is lost; a renamed
parameter is the usual cause.
""",
)
EVENT_REQUIRED_UNSET = rule(
    "W042",
    "event-required-parameter-unset",
    Severity.WARNING,
    "trigger node {node}: required parameter {name} of event {event} is not set and has no default",
    "Give {name} a value in the node.",
    """
The event declares the parameter required, without a default, and the node gives it no value:
the event's `_on_event` receives no value for it. Whether Dify's editor refuses to publish such a
node was not confirmed from its source, so this is a warning.
""",
)
EVENT_PARAMETER_NOT_CONSTANT = rule(
    "W043",
    "event-parameter-not-constant",
    Severity.ERROR,
    "trigger node {node}: parameter {name} of event {event} is given a {kind}, not a constant",
    "Give the parameter a constant value: a trigger node has no variables before it to read.",
    """
A trigger node starts the workflow, so no variable exists yet when its parameters are read. Dify's
trigger service reads them for every delivery before it invokes the event
(`parameters=node_data.resolve_parameters(...)` in `invoke_trigger_event`), and
`TriggerEventNodeData.resolve_parameters` accepts only constants ("trigger node only supports
constant input"): any other input type raises `TriggerEventParameterError("Unknown plugin trigger
input type ...")`, so the event never starts the workflow.
""",
)
EVENT_OUTPUT_UNKNOWN = rule(
    "W044",
    "event-output-not-produced",
    Severity.WARNING,
    "node {node} reads {reference}, but event {event} has no output {path}",
    "Read one of the variables the event declares ({known}); an undeclared variable reads None.",
    """
A later node reads a variable of a trigger node (`{{#node_id.name#}}` in text, or a selector list)
that the event does not declare in its `output_schema` (every path of it, hosted `$ref`s followed;
something inside a declared object that declares nothing inside it counts as declared). The trigger
node's outputs are the event's variables (`TriggerEventNode._run`); Dify never checks the reference,
which reads None unless `_on_event` returns the variable without declaring it.
""",
)
EVENT_SCHEMA_STALE = rule(
    "W045",
    "trigger-output-schema-stale",
    Severity.WARNING,
    "trigger node {node}: the output_schema it carries differs from event {event} in {version}: "
    "{differences}",
    "Select the event again in the node (or export the workflow again from a Dify with {version}) so "
    "that the variable picker offers the event's current variables.",
    """
The editor copies the event's `output_schema` into the node (`PluginTriggerNodeType.output_schema`)
and offers its paths in the variable picker. When the catalog's version of the event declares
other paths or types, the export is stale: nodes may have been built on variables the event no
longer returns, or miss ones it now returns. The run itself uses the installed plugin.
""",
)

_EMPTY: tuple[object, ...] = (None, "", [])


@dataclass(frozen=True, slots=True)
class TriggerUse:
    """A `trigger-plugin` node, what it names, and where."""

    node: Node
    plugin: str
    provider: str
    event: str
    where: Location


def trigger_findings(dsl: Dsl, catalog: Catalog) -> Iterator[Finding]:
    """Every finding of the trigger nodes of one DSL file and of the references to them."""
    resolved: dict[str, tuple[TriggerUse, PluginSpec, EventSpec]] = {}
    for node in dsl.nodes:
        if node.type != TRIGGER_NODE:
            continue
        use = _use(dsl, node)
        plugin = catalog.plugins.get(use.plugin)
        spec = plugin.events.get((use.provider, use.event)) if plugin is not None else None
        if plugin is None or spec is None:
            yield EVENT_UNKNOWN.at(use.where, node=_shown(node), what=_missing(use, plugin))
            continue
        resolved[node.id] = (use, plugin, spec)
        yield from _parameters(dsl, use, spec)
        yield from _stale(dsl, use, plugin, spec)
    if not resolved:
        return
    for reference in references(dsl):
        target = resolved.get(reference.source)
        if target is None or not reference.path or declares(target[2].outputs, reference.path):
            continue
        _, _, spec = target
        shown = "{{#" + ".".join((reference.source, *reference.path)) + "#}}"
        yield EVENT_OUTPUT_UNKNOWN.at(
            reference.where,
            node=_shown(reference.node),
            reference=shown,
            event=_event(spec),
            path=".".join(reference.path),
            known=Listing(sorted({normal_path(o) for o in spec.outputs}), 12),
        )


def _use(dsl: Dsl, node: Node) -> TriggerUse:
    data = node.data
    plugin = _text(data.get("plugin_id"))
    if not plugin:
        # An older export without `plugin_id`: the identifier names the plugin as well.
        parsed = plugin_of_identifier(data.get("plugin_unique_identifier"))
        plugin = parsed[0] if parsed else ""
    # `provider_id` is `author/plugin/provider` like a tool's; its last part is the provider's name.
    provider = _text(data.get("provider_id")).rsplit("/", 1)[-1]
    return TriggerUse(
        node, plugin, provider, _text(data.get("event_name")), dsl.at(*node.parts, "event_name")
    )


def _missing(use: TriggerUse, plugin: PluginSpec | None) -> str:
    if plugin is None:
        return f"plugin {use.plugin or '(none)'} is not in the catalog"
    providers = {provider for provider, _ in plugin.events}
    if use.provider not in providers:
        return f"plugin {plugin.id} {plugin.version} has no trigger provider {use.provider or '(none)'}"
    return f"plugin {plugin.id} {plugin.version} has no event {use.event or '(none)'} in {use.provider}"


def _parameters(dsl: Dsl, use: TriggerUse, spec: EventSpec) -> Iterator[Finding]:
    given = use.node.data.get("event_parameters")
    given = given if isinstance(given, dict) else {}
    node, event = _shown(use.node), _event(spec)
    for name, value in given.items():
        parts = (*use.node.parts, "event_parameters", name)
        if name not in spec.parameters:
            known = Listing(sorted(spec.parameters), 12)
            where = dsl.document.key_at(*parts)
            yield EVENT_PARAMETER_UNKNOWN.at(where, node=node, event=event, name=name, known=known)
            continue
        kind = value.get("type") if isinstance(value, dict) else None
        if isinstance(value, dict) and kind != "constant":  # what resolve_parameters raises on
            yield EVENT_PARAMETER_NOT_CONSTANT.at(
                dsl.at(*parts, "type"), node=node, event=event, name=name, kind=kind or "value of no type"
            )
    for parameter in spec.parameters.values():
        if not parameter.required or parameter.default not in _EMPTY:
            continue
        value = given.get(parameter.name)
        inner = value.get("value") if isinstance(value, dict) else value
        if inner in _EMPTY:
            parts = (*use.node.parts, "event_parameters", parameter.name)
            where = dsl.at(*parts, "value") if isinstance(value, dict) else dsl.at(*parts)
            yield EVENT_REQUIRED_UNSET.at(where, node=node, event=event, name=parameter.name)


def _stale(dsl: Dsl, use: TriggerUse, plugin: PluginSpec, spec: EventSpec) -> Iterator[Finding]:
    carried = use.node.data.get("output_schema")
    if not isinstance(carried, dict):
        return  # nothing exported: nothing stale
    theirs = {path: output.type for path, output in schema_outputs(carried, None, shipped_schemas())}
    differences = _differences(theirs, spec.outputs)
    if differences:
        yield EVENT_SCHEMA_STALE.at(
            dsl.at(*use.node.parts, "output_schema"),
            node=_shown(use.node),
            event=_event(spec),
            version=plugin.version,
            differences=Listing(differences, 8),
        )


def _differences(carried: dict[str, str], catalog: dict[str, str]) -> list[str]:
    """What the node's schema has that the event's no longer declares, what the event declares
    that the node's lacks (an object once, not once per property inside it), and changed types."""
    found = [f"{path} no longer declared" for path in _tops(carried, catalog)]
    found += [f"{path} newly declared" for path in _tops(catalog, carried)]
    found += [
        f"{path} is now {catalog[path] or 'any'} (was {kind or 'any'})"
        for path, kind in sorted(carried.items())
        if path in catalog and catalog[path] != kind
    ]
    return found


def _tops(present: dict[str, str], other: dict[str, str]) -> list[str]:
    """Paths of `present` that `other` does not declare, without those below another such path.
    A path inside one that `other` leaves free-form counts as declared: an `index.json` lists a
    `$ref` as the object it is, without the referenced schema's properties, which the node's copy,
    read here with the references followed, has."""
    tops: list[str] = []
    for path in sorted(p for p in present if not declares(other, tuple(normal_path(p).split(".")))):
        if not any(path.startswith((f"{top}.", f"{top}[]")) for top in tops):
            tops.append(path)
    return tops


def _event(spec: EventSpec) -> str:
    return f"{spec.provider}/{spec.name}"


def _shown(node: Node) -> str:
    return f"{node.id} ({node.title})" if node.title else node.id


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
