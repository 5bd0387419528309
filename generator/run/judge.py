"""Judge how a child run went, from what its events show (crash, time-out, limits, exit, printing,
calls out of the sandbox): findings of their rules' own severity (see the package's docstring for
what happens to them next)."""

from __future__ import annotations

import json
import signal
from typing import Any

from generator.findings import Finding, Location, Severity
from generator.load.paths import display_path
from generator.rules import Listing, Phrase, rule
from generator.run.evidence import Evidence
from generator.run.sandbox import ChildResult
from generator.run.wire import Exited, OverLimit, Raised, Unsendable

# The SDK loads every tool's module when the plugin starts (`_resolve_tool_providers`): a module
# that fails stops the plugin, not only its tool. Said of the plugin's own failures only: one the
# runner's sandbox caused (R038, R039) does not happen in Dify.
LOAD_STOPS_PLUGIN = " (the SDK loads every tool module at start: the plugin cannot start)"
# What the child was doing when an error event came, in words.
STAGES = {
    "sdk": "importing dify_plugin",
    "load": "loading the tool module",
    "init": "creating the tool",
    "invoke": "running _invoke",
    "setup": "setting up the sandbox",
    "tape": "setting up the recording or its replay",
    "load-trigger": "loading the trigger provider's module",
    "dispatch": "running the trigger's _dispatch_event",
    "load-event": "loading the event's module",
    "event": "running the event's _on_event",
}


CRASHED = rule(
    "R001",
    "tool-raised",
    Severity.ERROR,
    "{stage} failed with {type}: {problem}",
    "{frames!s}",
    """
The tool raised an exception while its module was imported, while its class was loaded, or while
`_invoke` ran; for a trigger's example, while the provider's `_dispatch_event` or the event's
`_on_event` ran (except `EventIgnoreError`, the SDK's way to skip a delivery). In Dify the same
error fails the workflow node (for a trigger, the delivery starts no run). The hint gives the last
frames of the traceback in the plugin's own files (file, line, code), innermost last. When the
exception arose at the plugin's own line on an object of the SDK or of an installed library, used
the same way whatever the input (an attribute its class does not have; `file.blob()` where the SDK's
`File.blob` is a property holding bytes), the hint says so: the line fails on every input, so even a
smoke run on invented inputs keeps the error.

A tool module that fails to load breaks more than its tool: the SDK loads the module of every tool
of every provider when the plugin starts (`dify_plugin/core/plugin_registration.py`,
`_resolve_tool_providers`: `load_single_subclass_from_source` for each `tool.extra.python.source`,
with no handler), so the plugin does not start in Dify and none of its tools can be used, although
the registry's runs of its other tools (each in its own process) pass.
""",
)


TIMED_OUT = rule(
    "R002",
    "run-timeout",
    Severity.ERROR,
    "the run was stopped after {limit}: {why}",
    "Make the tool finish quickly on its examples; loops that wait for a network or never end are stopped.",
    """
Each example runs under a wall-clock timeout and a CPU-time limit. A tool that exceeds them (an
endless loop, a sleep, a wait on a network the sandbox does not have) is killed with every process
it started.
""",
)


OUT_OF_MEMORY = rule(
    "R003",
    "memory-limit",
    Severity.ERROR,
    "the run ran out of memory (limit {limit} bytes)",
    "Reduce what the tool holds in memory at once; stream large data instead.",
    """
Each example runs under an address-space limit. Allocations past it fail with MemoryError (or the
process is killed), and the run is reported.
""",
)


OUTPUT_LIMIT = rule(
    "R004",
    "output-limit",
    Severity.ERROR,
    "the tool produced {what}; the run was stopped",
    "Yield fewer, larger messages; keep blobs under Dify's 30 MB limit.",
    """
The number of messages and the total size of what one run returns are capped, so that a tool that
yields millions of messages or a huge blob cannot exhaust the registry's memory or disk.
""",
)


ABNORMAL_EXIT = rule(
    "R005",
    "abnormal-exit",
    Severity.ERROR,
    "the tool process ended before the run finished: {why}",
    "Do not call sys.exit, os._exit or kill processes in a tool; return from `_invoke` and raise on errors.",
    """
The tool's process ended without finishing the run: it called `sys.exit` or `os._exit`, was killed
by a signal, or broke the channel its results travel on. In Dify this kills the plugin process.
""",
)


UNSERVED_CALL = rule(
    "R006",
    "call-into-dify",
    Severity.WARNING,
    "the tool called back into Dify (`{call}`), which the registry's runner does not serve",
    "Only session.file.upload and session.storage are served while running examples; make the example "
    "independent of models, apps and other tools.",
    """
During a run the session given to the tool serves file uploads and storage. Other calls back into
Dify (models, apps, other tools, workflow nodes) fail with an error that names the call.
""",
)


NETWORK_ATTEMPT = rule(
    "R007",
    "network-access",
    Severity.WARNING,
    "the tool tried to open a network connection to {address}",
    "Examples run offline: record the example's requests once with `dify-registry run --record` "
    "(docs/recording.md), and later runs replay them; or bundle the data the example needs.",
    """
Examples run without network access, so results are repeatable and a stranger's code cannot reach
other machines. A tool that connects anywhere but the runner's local file server is reported.
""",
)


PRINTED = rule(
    "R008",
    "printed-output",
    Severity.WARNING,
    "the tool wrote to {stream}: {text!s}",
    "Use logging or log messages (create_log_message) instead of print: in Dify's local mode stdout "
    "carries the plugin protocol.",
    """
A plugin started by Dify's daemon in local mode talks to it over stdin and stdout, so printing to
stdout corrupts the protocol. The runner captures both streams and reports them. The lines the
SDK's own log handler (`dify_plugin.config.logger_format.plugin_logger_handler`) writes are log
events of that protocol, and are not reported.
""",
)


VARIABLE_VALUE_TYPE = rule(
    "R011",
    "variable-value-type",
    Severity.ERROR,
    "message {index} sets variable {name!s} to a value the SDK cannot send to Dify: {problem!s}",
    "Convert the value to a string, number, boolean, list, dict or None before yielding it.",
    """
Dify receives a tool's messages as the SDK's writer serialises them: `message.model_dump()` inside a
JSON frame (`ResponseWriter.stream_object` and `put` in the SDK's `core/server/__base/response_writer.py`).
So what the runner judges is that serialised form, decoded as Dify decodes it: a tuple arrives as a
list, a pydantic model as a dict, a datetime as an ISO string, and Dify accepts all of them. A value
that pydantic cannot serialise (an object of some class, bytes that are not UTF-8) makes the writer
raise; the SDK then ends the invocation with an error, and the workflow node fails. The run stops
at that message, as the invocation does. The finding points at the plugin's line that yielded the
message when the runner knows it.
""",
)


NOT_SERIALISABLE = rule(
    "R014",
    "message-not-serialisable",
    Severity.ERROR,
    "message {index} (a {kind!s}) cannot be sent to Dify: {problem!s}",
    "Yield messages made by the create_*_message helpers, holding plain JSON data (dict, list, str, number, "
    "bool, None).",
    """
The SDK sends each message to Dify as `message.model_dump()` in a JSON frame. When that fails (an
object pydantic cannot serialise inside a JSON payload, or something yielded that is not a
`ToolInvokeMessage` at all), the SDK ends the invocation with an error and Dify's workflow node
fails. The run stops at that message, as the invocation does. Values that pydantic can serialise
(tuples, sets, datetimes, models) are not reported: Dify receives them as JSON. The finding points at
the plugin's line the message came from: the `yield` its generator stood at, or the `return` of an
`_invoke` that is not a generator (one that returns a message instead of yielding it hands the SDK
the message's fields, as tuples); the tool's YAML when neither is known.
""",
)


# The rules whose finding means the run did not complete: the invocation ended there, as it does in
# Dify (the outputs of such a run are not assembled nor checked).
STOPS_RUN = frozenset(
    {CRASHED, TIMED_OUT, OUT_OF_MEMORY, OUTPUT_LIMIT, ABNORMAL_EXIT, VARIABLE_VALUE_TYPE, NOT_SERIALISABLE}
)


def judge(
    result: ChildResult, evidence: Evidence, where: Location, plugin_display: str, limits: Any
) -> list[Finding]:
    """Findings about how the run went (not about what it returned), at their rules' severity."""
    findings: list[Finding] = []
    for event in evidence.failures:
        if isinstance(event, Raised):
            findings.append(_crash(event, where, plugin_display, limits))
        elif isinstance(event, Exited):
            findings.append(ABNORMAL_EXIT.at(where, why=f"sys.exit({event.code}) in the tool"))
        elif isinstance(event, OverLimit):
            findings.append(OUTPUT_LIMIT.at(where, what=event.what))
        else:
            findings.append(_unsendable(event, where, plugin_display))
    # One finding each per run, however often the tool retried.
    if evidence.calls:
        findings.append(UNSERVED_CALL.at(where, call=Listing(list(evidence.calls), most=10)))
    if evidence.connections:
        findings.append(NETWORK_ATTEMPT.at(where, address=Listing(list(evidence.connections), most=10)))
    if result.timed_out:
        findings.append(TIMED_OUT.at(where, limit=f"{limits.timeout:g} s", why="wall-clock timeout"))
    elif result.over_limit:
        findings.append(OUTPUT_LIMIT.at(where, what=result.over_limit))
    elif result.returncode == -signal.SIGXCPU:
        findings.append(TIMED_OUT.at(where, limit=f"{limits.cpu_seconds} s of CPU", why="CPU-time limit"))
    elif result.protocol_problem:
        findings.append(ABNORMAL_EXIT.at(where, why=result.protocol_problem))
    elif not evidence.done and not findings:
        findings.append(ABNORMAL_EXIT.at(where, why=_exit_reason(result.returncode)))
    findings.extend(_printed(result, where))
    return findings


def _crash(event: Raised, where: Location, plugin_display: str, limits: Any) -> Finding:
    if event.type == "MemoryError":
        return OUT_OF_MEMORY.at(where, limit=limits.memory_bytes)
    place = where
    if event.file is not None and event.line is not None:
        place = Location(display_path(plugin_display, event.file), event.line, 1)
    stage = STAGES.get(event.stage, "the run") + (LOAD_STOPS_PLUGIN if event.stage == "load" else "")
    return CRASHED.at(
        place, stage=stage, type=event.type, problem=event.message, frames=_frames(event, plugin_display)
    )


def _frames(event: Raised, plugin_display: str) -> Phrase:
    """The crash's last frames in the plugin's own files, and what the line did wrong when known."""
    shown = "; ".join(
        f"{display_path(plugin_display, f.file)}:{f.line} `{f.code.strip()}`" for f in event.frames
    )
    said = (
        f"The plugin's code, innermost last: {shown}."
        if shown
        else ("The error arose outside the plugin's own files (in the SDK or a library it imports).")
    )
    if event.misuse:
        said = f"{event.misuse[:300]}: the line fails the same way whatever the inputs. {said}"
    return Phrase(said)


def _unsendable(event: Unsendable, where: Location, plugin_display: str) -> Finding:
    if event.file is not None and event.line is not None:  # the plugin's line that produced it
        where = Location(display_path(plugin_display, event.file), event.line, 1)
    if event.variable is not None:
        return VARIABLE_VALUE_TYPE.at(where, index=event.index, name=event.variable, problem=event.problem)
    return NOT_SERIALISABLE.at(where, index=event.index, kind=event.kind, problem=event.problem)


def _exit_reason(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _printed(result: ChildResult, where: Location) -> list[Finding]:
    # stderr is shown with the run but not reported: warnings and logging belong there
    text = result.stdout.decode("utf-8", errors="replace")
    printed = [line for line in text.splitlines() if line.strip() and not is_sdk_log_line(line)]
    return [PRINTED.at(where, stream="stdout", text=printed[0].strip())] if printed else []


def is_sdk_log_line(line: str) -> bool:
    """True for a line of the SDK's own log handler (`dify_plugin.config.logger_format.
    plugin_logger_handler` writes `{"event": "log", "data": {...}}` to stdout): "log" is an event
    of the plugin's stdout protocol (the SDK's `writer_entities.Event.LOG`), so in local mode the
    daemon reads it as a log, and it corrupts nothing."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return False
    return isinstance(data, dict) and data.get("event") == "log" and isinstance(data.get("data"), dict)


def findings_block(findings: list[Finding]) -> bool:
    """True when a finding means the run did not complete."""
    stopping = {stops.code for stops in STOPS_RUN}
    return any(f.rule in stopping for f in findings)
