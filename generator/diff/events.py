"""Changes of a trigger plugin's events between two versions: trigger providers and events added,
removed or renamed, event parameters, and the output variables a workflow starts with.

A workflow's `trigger-plugin` node names its event by `provider_id` and `event_name`, stores
`event_parameters` by name, and later nodes read the event's variables by path
(`{{#<node>.<path>#}}`), exactly as they read a tool's outputs: the output comparison is the tools'.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.diff.changes import Change, change_rule
from generator.diff.interface import EventFace, Face
from generator.diff.tools import OutputRules, output_changes
from generator.findings import Finding
from generator.rules import Listing

TRIGGER_REMOVED = change_rule(
    "D070",
    "trigger-provider-removed",
    Change.BREAKING,
    "trigger provider {name} was removed (with its events {events})",
    "Keep the trigger provider, or release the change as a major version.",
    """
A workflow's trigger-plugin node names its provider (`provider_id`); the subscriptions users made
belong to the provider. Without it, every workflow started by its events stops starting.
""",
)
TRIGGER_ADDED = change_rule(
    "D071",
    "trigger-provider-added",
    Change.COMPATIBLE,
    "trigger provider {name} was added",
    "Release it as a minor version.",
    """
A new trigger provider; existing workflows do not use it.
""",
)
EVENT_REMOVED = change_rule(
    "D072",
    "event-removed",
    Change.BREAKING,
    "event {event} was removed",
    "Keep the event (its `_on_event` may ignore what it no longer handles), or release a major version.",
    """
A trigger-plugin node names its event by `event_name`; after the upgrade it names nothing and the
workflow is never started again.
""",
)
EVENT_RENAMED = change_rule(
    "D073",
    "event-renamed",
    Change.BREAKING,
    "event {old} renamed? {event} has the same label",
    "Keep the old name; a rename is a removal plus an addition for every workflow started by the event.",
    """
An event disappeared and another with the same English label appeared in the same trigger
provider: most likely a rename. Workflows keep the old `event_name`, so they are never started again.
""",
)
EVENT_ADDED = change_rule(
    "D074",
    "event-added",
    Change.COMPATIBLE,
    "event {event} was added",
    "Release it as a minor version.",
    """
A new event; existing workflows do not use it.
""",
)
EVENT_PARAMETER_ADDED_REQUIRED = change_rule(
    "D075",
    "event-required-parameter-added",
    Change.BREAKING,
    "event {event} gained the required parameter {name}",
    "Make the parameter optional with a default, or release the change as a major version.",
    """
A trigger-plugin node stores `event_parameters` by name; existing nodes have no value for a
parameter that did not exist, and a required one leaves every such node incomplete until someone
edits it.
""",
)
EVENT_PARAMETER_ADDED = change_rule(
    "D076",
    "event-parameter-added",
    Change.COMPATIBLE,
    "event {event} gained the optional parameter {name}",
    "Release it as a minor version.",
    """
A new optional parameter: existing nodes leave it empty and keep working.
""",
)
EVENT_PARAMETER_REMOVED = change_rule(
    "D077",
    "event-parameter-removed",
    Change.BREAKING,
    "parameter {name} of event {event} was removed",
    "Keep the parameter (ignore it if it is no longer used), or release the change as a major version.",
    """
The value a node stored under `event_parameters` is dropped without a word: the event may now
start the workflow for deliveries the node meant to filter out.
""",
)
EVENT_PARAMETER_MADE_REQUIRED = change_rule(
    "D078",
    "event-parameter-made-required",
    Change.BREAKING,
    "parameter {name} of event {event} is now required",
    "Keep it optional (with a default), or release the change as a major version.",
    """
Nodes that left the parameter empty were valid; now they are incomplete.
""",
)
EVENT_PARAMETER_TYPE_CHANGED = change_rule(
    "D079",
    "event-parameter-type-changed",
    Change.BREAKING,
    "parameter {name} of event {event} changed type from {old} to {new}",
    "Add a new parameter of the new type instead, or release the change as a major version.",
    """
The values nodes store for the parameter were made for the old type.
""",
)
EVENT_OUTPUT_REMOVED = change_rule(
    "D080",
    "event-output-removed",
    Change.BREAKING,
    "output variable {path} of event {event} was removed",
    "Keep returning the variable, or release the change as a major version.",
    """
Nodes after the trigger read the variable by its path; once it is gone they silently read None.
""",
)
EVENT_OUTPUT_ADDED = change_rule(
    "D081",
    "event-output-added",
    Change.COMPATIBLE,
    "output variable {path} of event {event} was added",
    "Release it as a minor version.",
    """
A new variable in the picker; existing workflows do not read it.
""",
)
EVENT_OUTPUT_TYPE_CHANGED = change_rule(
    "D082",
    "event-output-type-changed",
    Change.BREAKING,
    "output variable {path} of event {event} changed type from {old} to {new}",
    "Add a variable of the new type instead, or release the change as a major version.",
    """
Nodes reading the variable were built for the old type (a number where a string now arrives).
""",
)
EVENT_OUTPUT_MADE_OPTIONAL = change_rule(
    "D083",
    "event-output-made-optional",
    Change.BREAKING,
    "output variable {path} of event {event} is no longer required",
    "Keep it required (always return it), or release the change as a major version.",
    """
Nodes after the trigger relied on the variable being set; now they may read None.
""",
)
EVENT_OUTPUT_MADE_REQUIRED = change_rule(
    "D084",
    "event-output-made-required",
    Change.NOTE,
    "output variable {path} of event {event} is now required",
    "Nothing to do for workflows; release it as at least a patch.",
    """
The variable is now always set; nodes that read it get a value more often than before.
""",
)
EVENT_OUTPUT_REF_CHANGED = change_rule(
    "D085",
    "event-output-ref-changed",
    Change.BREAKING,
    "output variable {path} of event {event} changed $ref from {old} to {new}",
    "Keep the referenced schema, or release the change as a major version.",
    """
The variable's structure comes from another hosted schema now; nodes reading its parts were built
for the old one.
""",
)
EVENT_OUTPUT_RULES = OutputRules(
    EVENT_OUTPUT_REMOVED,
    EVENT_OUTPUT_ADDED,
    EVENT_OUTPUT_TYPE_CHANGED,
    EVENT_OUTPUT_MADE_OPTIONAL,
    EVENT_OUTPUT_MADE_REQUIRED,
    EVENT_OUTPUT_REF_CHANGED,
)


def event_changes(old: Face, new: Face) -> Iterator[Finding]:
    """Every change of trigger providers and events from `old` to `new`."""
    for name, was in old.triggers.items():
        if name not in new.triggers:
            events = Listing([event.name for event in was.events])
            yield TRIGGER_REMOVED.at(was.origin, name=name, events=events)
    for name, now in new.triggers.items():
        if name not in old.triggers:
            yield TRIGGER_ADDED.at(now.origin, name=name)
    gone = [face for key, face in old.events.items() if key not in new.events and key[0] in new.triggers]
    came = [face for key, face in new.events.items() if key not in old.events and key[0] in old.triggers]
    for removed in gone:
        twin = next((face for face in came if _same_event(removed, face)), None)
        if twin is None:
            yield EVENT_REMOVED.at(removed.event.origin, event=_name(removed))
        else:
            came.remove(twin)
            yield EVENT_RENAMED.at(twin.event.origin, old=_name(removed), event=_name(twin))
    for added in came:
        yield EVENT_ADDED.at(added.event.origin, event=_name(added))
    for key, was_face in old.events.items():
        now_face = new.events.get(key)
        if now_face is not None:
            yield from _one_event(was_face, now_face)


def _one_event(old: EventFace, new: EventFace) -> Iterator[Finding]:
    event = _name(new)
    before = {p.name: p for p in old.event.parameters}
    after = {p.name: p for p in new.event.parameters}
    for name, was in before.items():
        now = after.get(name)
        if now is None:
            yield EVENT_PARAMETER_REMOVED.at(was.origin, name=name, event=event)
            continue
        if now.required and not was.required:
            yield EVENT_PARAMETER_MADE_REQUIRED.at(now.origin, name=name, event=event)
        if was.type != now.type:
            rule = EVENT_PARAMETER_TYPE_CHANGED
            yield rule.at(now.origin, name=name, event=event, old=was.type, new=now.type)
    for name, now in after.items():
        if name not in before:
            kind = EVENT_PARAMETER_ADDED_REQUIRED if now.required else EVENT_PARAMETER_ADDED
            yield kind.at(now.origin, name=name, event=event)
    yield from output_changes(old.outputs, new.outputs, EVENT_OUTPUT_RULES, event=event)


def _same_event(removed: EventFace, added: EventFace) -> bool:
    """One event removed and one added in the same provider with the same English label."""
    label = removed.event.label.en
    return bool(label) and removed.key[0] == added.key[0] and label == added.event.label.en


def _name(face: EventFace) -> str:
    return "/".join(face.key)
