"""Load a trigger provider YAML and the event YAMLs its `events:` list names.

Read as the SDK reads them (`dify_plugin/entities/trigger.py`, 0.10.2): the provider is a
`TriggerProviderConfiguration` (`identity`, `subscription_schema`, `subscription_constructor`,
`events`, `extra.python.source`); each entry of `events:` is a path to a YAML that its
`validate_events` validator opens with `load_yaml_file(event)` and reads as `identity`,
`parameters`, `description`, `extra`, `output_schema`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from generator.findings import Location, Severity
from generator.kind_models.trigger import Event, EventKey, TriggerProvider
from generator.load.builders import as_list, build_credentials, build_parameters, text
from generator.load.paths import printable
from generator.load.values import dig
from generator.load.yamlload import YamlDocument, read_yaml
from generator.plugin_model import I18n
from generator.rules import rule

if TYPE_CHECKING:
    from generator.load.crawl import Crawl

EVENT_ROLE = "event"
_EXAMPLES_SUFFIX = ".examples.yaml"
_ORPHAN_READ_LIMIT = 1 << 20
_MAX_ORPHAN_CANDIDATES = 5000

ORPHAN_EVENT = rule(
    "E001",
    "orphan-event-yaml",
    Severity.WARNING,
    "event YAML {path} is not listed by the trigger provider",
    "Add it to the provider's `events:` list, or delete it if it is no longer used.",
    """
The file looks like an event YAML (an `identity` and an `extra.python.source`), sits beside the
events the provider lists, but no provider lists it under `events:`. The SDK reads only the listed
files (`TriggerProviderConfiguration.validate_events` opens each entry of `events:` with
`load_yaml_file`), so this event is never offered in Dify: no workflow can start from it. It is
usually a leftover, or an entry forgotten in the list.
""",
)


def load(crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]) -> TriggerProvider:
    """The trigger provider of `document` with its events (see the module's doc)."""
    data = document.data
    plugin_name = text(manifest.get("name"))
    provider_name = text(dig(data, "identity", "name"))
    events: list[Event] = []
    listed: list[str] = []
    for index, entry in enumerate(as_list(data.get("events"))):
        child = crawl.follow(document, ("events", index), entry, "event YAML")
        if child is None:
            continue
        crawl.listed.add(child)
        listed.append(child)
        child_doc = crawl.read(child, EVENT_ROLE)
        if child_doc is not None:
            events.append(_build_event(child_doc, child, plugin_name, provider_name))
    _report_orphans(crawl, listed)
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    constructor = data.get("subscription_constructor")
    constructor = constructor if isinstance(constructor, dict) else {}
    oauth = constructor.get("oauth_schema")
    made = ("subscription_constructor",)
    oauth_parts = (*made, "oauth_schema")
    schema = data.get("subscription_schema")
    return TriggerProvider(
        name=provider_name,
        file=relative,
        author=text(identity.get("author")),
        label=I18n.of(identity.get("label")),
        description=I18n.of(identity.get("description")),
        icon=text(identity.get("icon")),
        tags=tuple(text(t) for t in as_list(identity.get("tags"))),
        subscription_schema=build_credentials(document, ("subscription_schema",), schema),
        constructor_parameters=build_parameters(
            document, (*made, "parameters"), constructor.get("parameters"), "description"
        ),
        constructor_credentials=build_credentials(
            document, (*made, "credentials_schema"), constructor.get("credentials_schema")
        ),
        oauth_schema=oauth,
        constructor_source=text(dig(constructor, "extra", "python", "source")),
        events=tuple(events),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
        has_constructor=isinstance(data.get("subscription_constructor"), dict),
        icon_dark=text(identity.get("icon_dark")),
        oauth_client=build_credentials(
            document, (*oauth_parts, "client_schema"), dig(oauth, "client_schema")
        ),
        oauth_credentials=build_credentials(
            document, (*oauth_parts, "credentials_schema"), dig(oauth, "credentials_schema")
        ),
    )


def _build_event(document: YamlDocument, relative: str, plugin: str, provider: str) -> Event:
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    description = data.get("description")
    # The SDK reads `description` as one I18n text; the `human`/`llm` pair of tools is kept when
    # an author wrote it (the SDK's own `EventDescription` has that shape).
    split = isinstance(description, dict) and ("human" in description or "llm" in description)
    return Event(
        key=EventKey(plugin, provider, text(identity.get("name"))),
        file=relative,
        label=I18n.of(identity.get("label")),
        description=I18n.of(description.get("human") if split else description),
        parameters=build_parameters(document, ("parameters",), data.get("parameters"), "description"),
        output_schema=data.get("output_schema"),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
        llm_description=I18n.of(description.get("llm")) if split else I18n(),
    )


def _looks_like_event(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("identity"), dict)
        and isinstance(dig(data, "extra", "python", "source"), str)
        and not (isinstance(data.get("description"), dict) and "llm" in data["description"])  # a tool's
    )


def _report_orphans(crawl: Crawl, listed: list[str]) -> None:
    """Event YAMLs no provider lists, looked for beside the listed ones: in their folders, and in
    the folders beside those when each event has a folder of its own (`events/<name>/<name>.yaml`)."""
    folders = {str(PurePosixPath(p).parent) for p in listed}
    parents = {str(PurePosixPath(f).parent) for f in folders if f != "."}
    candidates = [
        file
        for file in crawl.reader.tree.files
        if not file.is_link
        and file.relative.endswith((".yaml", ".yml"))
        and not file.relative.endswith(_EXAMPLES_SUFFIX)
        and file.relative not in crawl.listed
        and file.relative not in crawl.documents
        and (
            (parent := str(PurePosixPath(file.relative).parent)) in folders
            or str(PurePosixPath(parent).parent) in parents
        )
    ]
    for file in candidates[:_MAX_ORPHAN_CANDIDATES]:
        head = crawl.reader.listed_head(file, _ORPHAN_READ_LIMIT)
        if head is None:
            continue
        document = read_yaml(head, crawl.shown(file.relative))
        if document.ok and _looks_like_event(document.data):
            shown = crawl.shown(printable(file.relative))  # a name with a newline must not forge lines
            crawl.findings.append(ORPHAN_EVENT.at(Location(shown, 1, 1), path=file.relative))
