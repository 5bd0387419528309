"""The trigger kind on the site: a trigger provider's section of its plugin page (how to subscribe,
its events) and one page per event (its parameters, its output variables, how a workflow reads
them, its runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.kind_models.trigger import Event, TriggerProvider
from generator.load.examples import examples_path
from generator.plugin_model import Credential, KindPart, part_as

if TYPE_CHECKING:
    from generator.site.kinds import Build, ChildEntry, Index, KindSection

PROVIDER_TEMPLATE = "triggers_provider.html.j2"
EVENT_TEMPLATE = "triggers_event.html.j2"


def children(part: KindPart) -> tuple[str, ...]:
    """The events' names, in the provider's order."""
    return tuple(event.name for event in part_as(part, TriggerProvider).events)


def section(part: KindPart, index: int, build: Build) -> KindSection:
    """The provider's section and its events' pages."""
    from generator.site.kinds import KindSection

    provider = part_as(part, TriggerProvider)
    events = tuple(
        _event(event, build.child_src(index, number), build) for number, event in enumerate(provider.events)
    )
    return KindSection(
        "triggers", provider, PROVIDER_TEMPLATE, EVENT_TEMPLATE, events, child_word="trigger_event"
    )


def _event(event: Event, src: str, build: Build) -> ChildEntry:
    from generator.site.kinds import child_entry

    return child_entry(
        "triggers",
        event,
        str(event.key),
        src,
        build,
        examples_path(event),
        runs=build.event_runs(event.key),
        examples_from=build.examples_from(event),
    )


def indexed(section: KindSection, index: Index) -> dict[str, Any]:
    """A trigger provider in `index.json`: how to subscribe, and each event with its variables."""
    provider = part_as(section.part, TriggerProvider)

    def fields(found: tuple[Credential, ...]) -> list[dict[str, Any]]:
        return [
            {
                "name": f.name,
                "type": f.type,
                "required": f.required,
                "label": index.i18n(f.label),
                "help": index.i18n(f.help),
            }
            for f in found
        ]

    constructor = (
        {
            "parameters": [index.parameter(p) for p in provider.constructor_parameters],
            "credentials": fields(provider.constructor_credentials),
            "oauth": bool(provider.oauth_client or provider.oauth_credentials),
        }
        if provider.has_constructor
        else None
    )
    return {
        "name": provider.name,
        "label": index.i18n(provider.label),
        "description": index.i18n(provider.description),
        "subscription_schema": fields(provider.subscription_schema),
        "constructor": constructor,
        "events": [
            {
                "provider": provider.name,
                "name": child.name,
                "label": index.i18n(child.label),
                "description": index.i18n(child.description),
                "parameters": [index.parameter(p) for p in child.parameters],
                "output_variables": index.outputs(child.outputs),
                "schema_refs": sorted(child.references),
                "checksum": child.checksum,
                "checked_by": child.checked_by,
                "examples": [
                    {"name": run.name, "result": run.result.value, "detail": run.detail} for run in child.runs
                ],
                "pages": index.pages(child.src),
            }
            for child in section.children
        ],
    }
