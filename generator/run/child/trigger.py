"""One webhook delivery in its child: the trigger provider's class and the event's class loaded as the
SDK loads them, the request through `dispatch_event`, then, when the dispatch names the example's
event, through that event's `on_event`, each answer sent on as the SDK puts it on the wire to Dify.

What the SDK does (0.10, `core/plugin_executor.py`): `dispatch_trigger_event` makes the provider
class with a `TriggerRuntime(session, credential_type, credentials)`, deserializes Dify's
`raw_http_request` with `deserialize_request` and calls `dispatch_event(subscription, request)`; it
answers `TriggerDispatchResponse(user_id, events, response, payload)`. Dify then calls
`invoke_trigger_event` for each event named, with the payload it was given back: the SDK makes the
event class with an `EventRuntime(session, credential_type, subscription, credentials)`,
deserializes the same raw request again and calls `on_event(request, parameters, payload)`,
answering `TriggerInvokeEventResponse(variables=variables.variables)`, or `cancelled=True` when
the event raised `EventIgnoreError`.
"""

from __future__ import annotations

import binascii
import importlib
import json
from pathlib import Path
from typing import Any

from ..wire import Delivery, Dispatched, Done, EventWriter, Exited, Task, Variables
from .daemon import Daemon
from .harness import report_error
from .session import Sdk, build_session

# Dify allocates the endpoint; a delivery's run has none, and a plugin must not reach it anyway.
ENDPOINT = "https://registry.invalid/triggers/registry-run"


def run_event(events: EventWriter, task: Task, plugin_root: str, allowed_ports: list[int], sdk: Sdk) -> None:
    """Dispatch the task's delivery and, when it names the task's event, run that event."""
    delivery = task.delivery
    if delivery is None:
        return
    daemon = Daemon(events, task.upload_base, allowed_ports)
    daemon.start()
    try:
        interfaces = importlib.import_module("dify_plugin.interfaces.trigger")
        parser = importlib.import_module("dify_plugin.core.utils.http_parser")
        answers = importlib.import_module("dify_plugin.core.entities.plugin.request")
        credential_types = importlib.import_module("dify_plugin.entities.provider_config").CredentialType
        unauthorized = credential_types.UNAUTHORIZED
    except BaseException as problem:  # an SDK before triggers (0.6 and older) has none of these
        report_error(events, "sdk", problem, "")
        return
    session = build_session(sdk, daemon.url)
    subscription = interfaces.Subscription(
        expires_at=-1, endpoint=ENDPOINT, properties=dict(delivery.properties)
    )
    try:
        provider_class = _load(sdk, delivery.provider, interfaces.Trigger)
    except BaseException as problem:
        report_error(events, "load-trigger", problem, plugin_root)
        return
    try:
        runtime = interfaces.TriggerRuntime(session=session, credential_type=unauthorized, credentials={})
        provider = provider_class(runtime=runtime)
        dispatch = provider.dispatch_event(
            subscription=subscription, request=parser.deserialize_request(raw_data=delivery.request)
        )
        answer = answers.TriggerDispatchResponse(
            user_id=dispatch.user_id,
            events=dispatch.events,
            response=binascii.hexlify(parser.serialize_response(response=dispatch.response)).decode(),
            payload=dispatch.payload,
        )
        streamed = _streamed(sdk.frame(answer))
    except SystemExit as stop:
        events.send(Exited(code=str(stop.code)))
        return
    except BaseException as problem:
        report_error(events, "dispatch", problem, plugin_root)
        return
    named = [str(name) for name in streamed.get("events") or []]
    given = streamed.get("payload")
    payload: dict[str, Any] = given if isinstance(given, dict) else {}
    events.send(Dispatched(events=named, payload=json.dumps(payload)))
    if delivery.event in named:
        sdk_parts = (interfaces, parser, answers, unauthorized)
        _on_event(events, task, delivery, payload, plugin_root, sdk, (session, subscription, *sdk_parts))
        return
    events.send(Done())


def _on_event(
    events: EventWriter,
    task: Task,
    delivery: Delivery,
    payload: dict[str, Any],
    plugin_root: str,
    sdk: Sdk,
    parts: tuple[Any, ...],
) -> None:
    """The event's class made as the SDK makes it, and its `on_event` on the same delivery."""
    session, subscription, interfaces, parser, answers, unauthorized = parts
    try:
        event_class = _load(sdk, task.source, interfaces.Event)
    except BaseException as problem:
        report_error(events, "load-event", problem, plugin_root)
        return
    try:
        runtime = interfaces.EventRuntime(
            session=session, credential_type=unauthorized, subscription=subscription, credentials={}
        )
        event = event_class(runtime)
        variables = event.on_event(
            request=parser.deserialize_request(raw_data=delivery.request),
            parameters=dict(task.inputs),
            payload=payload,
        )
        answer = answers.TriggerInvokeEventResponse(variables=variables.variables, cancelled=False)
        framed = sdk.frame(answer)
    except interfaces.EventIgnoreError as ignored:
        events.send(Variables(frame=str(ignored)[:2000], ignored=True))
        events.send(Done())
        return
    except SystemExit as stop:
        events.send(Exited(code=str(stop.code)))
        return
    except BaseException as problem:
        report_error(events, "event", problem, plugin_root)
        return
    events.send(Variables(frame=framed))
    events.send(Done())


def _load(sdk: Sdk, source: str, parent: type) -> type:
    """The one subclass of `parent` in the plugin's file `source`, loaded as the SDK loads it."""
    loaded: type = sdk.loader.load_single_subclass_from_source(
        module_name=Path(source).with_suffix("").as_posix().replace("/", "."),
        script_path=str(Path.cwd() / source),
        parent_type=parent,
    )
    return loaded


def _streamed(framed: str) -> dict[str, Any]:
    """`data.data` of the SDK's frame to Dify."""
    frame = json.loads(framed)
    session = frame.get("data") if isinstance(frame, dict) else None
    streamed = session.get("data") if isinstance(session, dict) else None
    return streamed if isinstance(streamed, dict) else {}
