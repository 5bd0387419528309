"""Trigger events run on their example deliveries, beside the tools' runs: the same sandboxed
workers, environments, cache, findings and result vocabulary (`runner.py` plans and runs both).

A delivery goes through the provider's `_dispatch_event` with a subscription holding the example's
`properties`; when the dispatch names the example's event, through that event's `_on_event` with
the example's `parameters` and the payload the dispatch handed on (`child/trigger.py`). What the
event returned is checked against its `output_schema` as a tool's outputs are (`returned.py`).
An event without examples is never run: a delivery cannot be invented.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.findings import Finding, Location, Severity, sort_findings
from generator.load.crawl import LoadedPlugin
from generator.load.event_examples import EventExample, event_provider, load_event_examples, plugin_events
from generator.load.examples import examples_path
from generator.rules import Listing, rule
from generator.run import cache, wire
from generator.run.environment import Environment
from generator.run.outcome import read_outcome
from generator.run.returned import EXPECTATION_FAILED, Checked, check_outputs
from generator.run.runtypes import RUN_SITE_URL, EventRun, Request, RunOptions
from generator.run.verdict import event_result, weigh_event
from generator.run.worker import EXAMPLE_FOLDER, Workers
from generator.schemas import SchemaSet

if TYPE_CHECKING:
    from generator.kind_models.trigger import Event, TriggerProvider

SHOWN_BODY = 64 * 1024  # of a delivery's body, kept with the run for its page

UNDECLARED_EVENT = rule(
    "R102",
    "dispatch-names-undeclared-event",
    Severity.ERROR,
    "example {example}: _dispatch_event names {names}, which the provider does not declare under `events`",
    "Declare the event in the provider YAML's `events:` list, or return only declared event names from "
    "_dispatch_event.",
    """
A trigger provider's `_dispatch_event` returns `EventDispatch(events=[...])`, the names of the events
Dify then invokes on the delivery. Dify checks each name before it queues any workflow run
(`api/services/trigger/trigger_service.py`: `for event_name in dispatch_response.events: if
controller.get_event(event_name) is None: ... raise ValueError(f"Event name {event_name} not found
in provider ...")`), so a name the provider does not declare fails the whole delivery, and no
workflow subscribed to any of its events runs; the SDK refuses it too (dify_plugin 0.10,
`core/trigger_factory.py`, `get_trigger_event_handler`: "Event `{event}` not found in provider").
""",
)
NOT_DISPATCHED = rule(
    "R103",
    "dispatch-skips-event",
    Severity.WARNING,
    "example {example}: _dispatch_event names {named}, not the example's event `{event}`, so Dify "
    "would not run it on this delivery",
    "Check the delivery's headers and body against what _dispatch_event reads (an event-type header, "
    "an `action` field, the subscription's `properties`), or move the example to the event it belongs to.",
    """
Dify invokes only the events the provider's `_dispatch_event` names for a delivery (the SDK's
`dispatch_trigger_event` returns `events=dispatch_result.events`, and Dify calls
`invoke_trigger_event` for each). An example is a delivery written for one event: when the dispatch
does not name that event, either the dispatch misses deliveries of its own event or the example
belongs elsewhere, and `_on_event` is not run. A warning: which one is wrong needs a reader.
""",
)
STATIC_ONLY = rule(
    "R104",
    "event-checked-statically",
    Severity.INFO,
    "event {event} has no examples file ({path}); it was checked statically only",
    "Add {path} with deliveries the service documents, so that the registry runs the event on them.",
    """
A trigger event turns a service's webhook delivery into workflow variables. A delivery cannot be
guessed from the event's YAML, so an event without examples is never run on invented input: its
`output_schema` is checked as a schema, not against what the event returns.
""",
)
IGNORED_UNEXPECTED = rule(
    "R105",
    "event-ignored-delivery",
    Severity.WARNING,
    "example {example}: _on_event raised EventIgnoreError ({why}); Dify starts no workflow run for it",
    "Say `expect: {{ignored: true}}` when the event is meant to skip this delivery, or change the "
    "example's `parameters` so that it passes the event's filter.",
    """
An event raises `EventIgnoreError` to skip a delivery its parameters filter out; the SDK then
answers `TriggerInvokeEventResponse(variables={}, cancelled=True)` and Dify starts no workflow run.
That is a result of its own (`ignored`), not a crash; an example that does not say
`expect: {ignored: true}` was written to reach the workflow, so this is a warning.
""",
)


@dataclass(frozen=True, slots=True)
class EventJob:
    """One example delivery of one event, ready to run."""

    loaded: LoadedPlugin
    provider: TriggerProvider
    event: Event
    example: EventExample
    environment: Environment
    key: str


@dataclass(frozen=True, slots=True)
class EventPlan:
    """A plugin's events that have examples, with the examples, and the findings of reading them."""

    examples: tuple[tuple[TriggerProvider, Event, tuple[EventExample, ...]], ...]
    findings: tuple[Finding, ...]


def plan_events(loaded: LoadedPlugin, options: RunOptions) -> EventPlan:
    """The events of the plugin to run (all with examples, or those `--tool` and `--example` name)."""
    plugin = loaded.plugin
    if plugin is None:
        return EventPlan((), ())
    chosen: list[tuple[TriggerProvider, Event, tuple[EventExample, ...]]] = []
    findings: list[Finding] = []
    for event in plugin_events(plugin):
        provider = event_provider(plugin, event)
        if provider is None or options.tool not in (None, event.name):
            continue
        examples, problems = load_event_examples(loaded, event)
        findings.extend(problems)
        if not examples and not problems:
            where = Location(loaded.display_path(event.file), 1, 1)
            findings.append(STATIC_ONLY.at(where, event=str(event.key), path=examples_path(event)))
        picked = tuple(e for e in examples if options.example in (None, e.name))
        if picked and event.source and provider.source:
            chosen.append((provider, event, picked))
    return EventPlan(tuple(chosen), tuple(findings))


def event_jobs(
    loaded: LoadedPlugin, plan: EventPlan, environment: Environment, common: Sequence[str], digest: str
) -> list[EventJob]:
    """A job per example of the plan, keyed by what its result depends on."""
    jobs: list[EventJob] = []
    for provider, event, examples in plan.examples:
        for example in examples:
            # the delivery's bytes themselves: a registry's overlay file lies outside the plugin's digest
            request = hashlib.sha256(example.delivery.raw()).hexdigest()
            parts = [digest, str(event.key), example.name, repr(example.raw), request]
            key = cache.run_key([*common, "event", *parts, environment.portable_key])
            jobs.append(EventJob(loaded, provider, event, example, environment, key))
    return jobs


def site_prefix(event: Event, example: str) -> str:
    """`files/<plugin>/<provider>/<event>/<example>/`: where a run's files would be served."""
    key = event.key
    return f"files/{key.plugin}/{key.provider}/{key.event}/{example}/"


def execute_event(
    job: EventJob, slot: int, options: RunOptions, workers: Workers, schemas: SchemaSet | None
) -> EventRun:
    """Run one delivery in a sandboxed child and check what the dispatch and the event returned."""
    event, example = job.event, job.example
    prefix = site_prefix(event, example.name)
    task = wire.Task(
        source=event.source,
        inputs=dict(example.parameters),
        credentials={},
        files={},
        # the runs' one fixed address (runner._published moves tools' files to the site's)
        upload_base=RUN_SITE_URL + prefix,
        delivery=wire.Delivery(
            provider=job.provider.source,
            event=event.name,
            request=example.delivery.raw(),
            properties=dict(example.properties),
        ),
    )
    where = example.origin
    result = workers.run(slot, job.environment.python, job.loaded.root.resolve(), task)
    folder = cache.run_folder(options.cache_dir, job.key) / "files"
    outcome = read_outcome(result, where, job.loaded.display, options.limits, folder, prefix)
    dispatched = next((e for e in result.events if isinstance(e, wire.Dispatched)), None)
    returned = next((e for e in result.events if isinstance(e, wire.Variables)), None)
    named = tuple(dispatched.events) if dispatched is not None else ()
    findings = [*outcome.findings, *_dispatch_findings(job, named, dispatched is not None)]
    variables: dict[str, Any] = {}
    ignored: str | None = None
    checked = Checked((), ())
    if outcome.finished and returned is not None:
        if returned.ignored:
            ignored = returned.frame
            findings.extend(_ignored_findings(example, returned.frame))
        else:
            variables = _variables(returned.frame)
            checked = check_outputs(
                event.output_schema,
                example.name,
                variables,
                _variables_expected(example),
                schemas,
                where,
                _schema_where(job.loaded, event),
            )
            findings.extend(checked.findings)
            if example.expect.get("ignored") is True:
                what = Listing(["the event returned variables, expected it to ignore the delivery"])
                findings.append(EXPECTATION_FAILED.at(where, example=example.name, what=what))
    ordered = sort_findings(weigh_event(findings, checked.remarks))
    reached = event.name in named
    shows, detail = event_result(ordered, outcome.finished, reached, ignored)
    run = EventRun(
        event=event.key,
        plugin=job.loaded.display,
        example=example.name,
        request=_shown_request(example),
        properties=MappingProxyType(dict(example.properties)),
        parameters=MappingProxyType(dict(example.parameters)),
        dispatched=named,
        variables=MappingProxyType(variables),
        findings=tuple(ordered),
        result=shows,
        duration=result.duration,
        python=outcome.evidence.python or job.environment.interpreter.name,
        stdout=result.stdout.decode("utf-8", errors="replace"),
        stderr=result.stderr.decode("utf-8", errors="replace"),
        description=example.description,
        detail=detail,
    )
    return _placeless(run, job, options)


def _dispatch_findings(job: EventJob, named: tuple[str, ...], finished: bool) -> list[Finding]:
    """The dispatch names events the provider does not declare; it does not name the example's."""
    if not finished:
        return []
    findings: list[Finding] = []
    declared = {event.name for event in job.provider.events}
    unknown = [name for name in named if name not in declared]
    if unknown:
        document = job.loaded.documents.get(job.provider.file)
        where = document.at("events") if document is not None else job.provider.origin
        findings.append(UNDECLARED_EVENT.at(where, example=job.example.name, names=Listing(unknown)))
    if job.event.name not in named:
        shown = Listing(list(named)) if named else "no event"
        findings.append(
            NOT_DISPATCHED.at(job.example.origin, example=job.example.name, named=shown, event=job.event.name)
        )
    return findings


def _ignored_findings(example: EventExample, why: str) -> list[Finding]:
    """An ignored delivery is what the example expects, or a warning."""
    if example.expect.get("ignored") is True:
        return []
    return [IGNORED_UNEXPECTED.at(example.origin, example=example.name, why=why or "no message")]


def _variables_expected(example: EventExample) -> MappingProxyType[str, Any]:
    """The part of `expect` that `check_outputs` reads (`variables`); `ignored` is the runner's."""
    variables = example.expect.get("variables")
    return MappingProxyType({"variables": variables} if isinstance(variables, dict) else {})


def _variables(framed: str) -> dict[str, Any]:
    """`variables` of the SDK's `TriggerInvokeEventResponse` frame (the child is untrusted)."""
    try:
        frame = json.loads(framed)
    except (ValueError, RecursionError):
        return {}
    session = frame.get("data") if isinstance(frame, dict) else None
    streamed = session.get("data") if isinstance(session, dict) else None
    variables = streamed.get("variables") if isinstance(streamed, dict) else None
    return variables if isinstance(variables, dict) else {}


def _schema_where(loaded: LoadedPlugin, event: Event) -> Location:
    document = loaded.documents.get(event.file)
    return document.at("output_schema") if document is not None else event.origin


def _shown_request(example: EventExample) -> Request:
    delivery = example.delivery
    body = delivery.body[:SHOWN_BODY].decode("utf-8", errors="replace")
    return Request(
        delivery.method, delivery.target, delivery.headers, body, len(delivery.body), delivery.body_file
    )


def run_places(loaded: LoadedPlugin, environment: Environment, options: RunOptions) -> cache.Places:
    """This machine's folders a run of `loaded` in `environment` may name (the plugin, its
    environment, the interpreter, the cache, the working folder): what a cached run says instead."""
    return cache.machine_places(
        loaded.root.resolve(),
        loaded.display,
        [environment.python.parent.parent, environment.interpreter.path.parent.parent, options.cache_dir],
        EXAMPLE_FOLDER,
    )


def _placeless(run: EventRun, job: EventJob, options: RunOptions) -> EventRun:
    """The run without this machine's paths, as a tool's run is cached (`runner._placeless`)."""
    places = run_places(job.loaded, job.environment, options)

    def change(value: str) -> str:
        return str(cache.each_text(value, places.rewrite))

    return replace(
        run,
        findings=tuple(replace(d, message=change(d.message), hint=change(d.hint)) for d in run.findings),
        stdout=change(run.stdout),
        stderr=change(run.stderr),
        detail=change(run.detail),
    )
