"""What a run on made-up inputs can prove, and what it cannot.

A smoke run (no examples file) uses invented inputs and no credentials, and every run is offline
with a stand-in for Dify that serves only file upload and storage. So a failure inside `_invoke`
says nothing about the plugin when a credential was missing, a connection was refused, a call back
into Dify was not served, or the tool rejected a value it was never meant to get: such a failure
becomes a warning that names the cause and the example to add. What does not depend on the inputs
stays an error: the module does not import, the class cannot be loaded or created, an SDK API that
does not exist, a message Dify refuses. Runs of examples the author wrote keep their severity.

The run with only the required parameters (see `invented.required_only_example`) contributes one
finding only: a crash caused by reading an optional parameter that a workflow left empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from generator.diagnostics import Diagnostic, Location, Severity
from generator.load.examples import Example
from generator.model import Tool
from generator.rules import Listing, Phrase, rule
from generator.run.outcome import CRASHED, STAGES, TIMED_OUT
from generator.run.wire import Event, NetworkAttempt, Raised, Unserved

INCONCLUSIVE = rule(
    "R035",
    "smoke-run-inconclusive",
    Severity.WARNING,
    "the smoke run failed with {type}: {problem!s}; {cause!s}, so the failure may not be the tool's",
    "{advice!s}",
    """
A tool without an examples file runs once on invented inputs, with no credentials and no network.
When that run fails inside `_invoke` because a credential had no value, a connection was refused,
the tool called back into Dify (a model, an app, another tool), it started a program that is not
installed (a plugin's environment holds only what its requirements install) or it rejected a
made-up value, the failure proves nothing about the plugin: a workflow user gives real values.
The finding names the cause and the example to add. What a smoke run does prove stays an error:
the module does not import, there is not exactly one `Tool` subclass, the class cannot be created,
the tool calls an SDK API that does not exist, or it yields a message Dify refuses.
""",
)
OPTIONAL_READ = rule(
    "R036",
    "optional-parameter-read",
    Severity.ERROR,
    "with the optional parameter `{name!s}` left empty, _invoke fails with {type}: {problem!s}",
    "Read it with tool_parameters.get({name!r}) and handle None, or make the parameter required.",
    """
Every tool also runs once with only its required parameters, in the form Dify passes a tool whose
workflow user left the optional fields empty: Dify's tool node passes only the parameters the node
configures (`ToolNode._generate_parameters`), so an optional `llm` or `schema` parameter is absent,
and a `form` parameter holds its default or None (`ToolManager._init_runtime_parameter`). A crash
there that reading the optional parameter causes (`tool_parameters["x"]`, or a method called on its
None) is what every such user hits.
""",
)
READ_ONLY_ENVIRONMENT = rule(
    "R037",
    "environment-read-only",
    Severity.WARNING,
    "{stage!s} failed with {type}: {problem!s}; the tool (or a library it uses) writes into its own "
    "environment, which runs keep read-only",
    "Nothing to fix for Dify, which lets a plugin write into its environment; to be shown in the registry, "
    "write caches and unpacked data to a temporary folder instead.",
    """
Runs bind the plugin's environment read-only, so that one example cannot change what the next one
imports. Dify installs a plugin's environment writable by the plugin, and some libraries unpack data
or write caches beside their code the first time they are imported. Such a failure is the sandbox's,
not the plugin's: it is a warning, and the run shows nothing.
""",
)
# Words of an error message that point at a missing credential when the provider declares some.
_CREDENTIAL_WORDS = re.compile(r"credential|api[ _-]?key|token|secret|unauthori[sz]ed", re.IGNORECASE)
_NONE_USE = re.compile(r"'NoneType' object|NoneType")


def weigh(
    findings: Sequence[Diagnostic],
    events: Sequence[Event],
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
    environment: str = "",
) -> list[Diagnostic]:
    """The run's findings, with what its inputs cannot prove turned into warnings."""
    refused = _environment_write(events, environment)
    if refused is not None:
        crashes = [f for f in findings if f.rule == CRASHED.code]
        kept = [f for f in findings if f.rule != CRASHED.code]
        place = _place(crashes[0]) if crashes else Location(examples_file)
        stage = STAGES.get(refused.stage, "the run")
        found = READ_ONLY_ENVIRONMENT.at(place, stage=stage, type=refused.type, problem=refused.message)
        return [] if example.required_only else [*kept, found]
    if example.required_only:
        return _optional_read(findings, events, example, tool)
    if not example.smoke:
        return list(findings)
    explained = _cause(events, example, tool, credentials, examples_file)
    crash = _crash_event(events)
    # A tool class may read its credentials when it is created, as Dify creates it with them: without
    # credentials, that failure proves nothing either. Without any credential declared, it does.
    unsupplied = bool(credentials) and not example.credentials
    created = _crash_event(events, "init") if unsupplied else None
    weighed: list[Diagnostic] = []
    for finding in findings:
        if created is not None and _init_crash(finding):
            named = _mentioned(_said(created, created.code), credentials)
            shown = Listing([named or credentials[0]])
            weighed.append(
                INCONCLUSIVE.at(
                    _place(finding),
                    type=created.type,
                    problem=created.message,
                    cause=Phrase(f"the tool was created without a value for the credential `{shown}`"),
                    advice=Phrase(
                        f"Add {Listing([examples_file])} with an example that sets "
                        f"`credentials: {{{shown}: ...}}`."
                    ),
                )
            )
        elif crash is not None and _invoke_crash(finding):
            weighed.append(
                INCONCLUSIVE.at(
                    _place(finding),
                    type=crash.type,
                    problem=crash.message,
                    cause=explained[0],
                    advice=explained[1],
                )
            )
        elif finding.rule == TIMED_OUT.code and _outside_calls(events):
            weighed.append(replace(finding, severity=Severity.WARNING, hint=explained[1]))
        elif finding.rule == "R015":  # outputs of made-up inputs may be a correct error path
            weighed.append(replace(finding, severity=Severity.WARNING))
        else:
            weighed.append(finding)
    return weighed


def _environment_write(events: Iterable[Event], environment: str) -> Raised | None:
    """The error of a write refused inside the read-only environment, if that is how the run failed."""
    for event in events:
        if not isinstance(event, Raised) or not environment:
            continue
        refused = "[Errno 13]" in event.message or "[Errno 30]" in event.message
        if refused and environment + "/" in event.message:
            return event
    return None


def _said(crash: Raised, *more: str | None) -> str:
    """The error's message and what else of it names a cause, as one text to search."""
    return " ".join(text for text in (crash.message, *more) if text)


def _place(finding: Diagnostic) -> Location:
    return Location(finding.file, finding.line, finding.column, finding.pointer)


def _invoke_crash(finding: Diagnostic) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["invoke"] + " ")


def _init_crash(finding: Diagnostic) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["init"] + " ")


def _crash_event(events: Iterable[Event], stage: str = "invoke") -> Raised | None:
    """The error raised inside `_invoke` (or while creating the tool), unless it is a lookup of an
    SDK API that does not exist (that fails whatever the inputs)."""
    for event in events:
        if isinstance(event, Raised) and event.stage == stage and not event.sdk_api:
            return event
    return None


def _outside_calls(events: Iterable[Event]) -> list[str]:
    """What the run tried to reach outside the sandbox: hosts, and calls back into Dify."""
    reached: list[str] = []
    for event in events:
        if isinstance(event, NetworkAttempt):
            reached.append(f"a connection to {event.address}")
        elif isinstance(event, Unserved):
            reached.append(f"a `{event.call}` call back into Dify")
    return list(dict.fromkeys(reached))


def _cause(
    events: Sequence[Event],
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
) -> tuple[str, str]:
    """(what the run could not supply, which example to add), most specific first."""
    crash = _crash_event(events)
    said = _said(crash, crash.code, crash.key) if crash is not None else ""
    examples_file = str(Listing([examples_file]))
    outside = _outside_calls(events)
    if outside:
        return (
            Phrase(
                f"it made {Listing(outside, most=5)}, which example runs do not allow (they are offline "
                "and serve only file upload and storage)"
            ),
            Phrase(
                f"Add {examples_file} with an example whose inputs the tool can answer without them; "
                "until then the registry shows no run of this tool."
            ),
        )
    key = crash.key if crash is not None else None
    named = key if key in credentials else _mentioned(said, credentials)
    if named is None and credentials and _CREDENTIAL_WORDS.search(said):
        named = credentials[0]
    if named is not None:
        shown = Listing([named])
        return (
            Phrase(f"the run had no value for the credential `{shown}`"),
            Phrase(f"Add {examples_file} with an example that sets `credentials: {{{shown}: ...}}`."),
        )
    program = _missing_program(crash) if crash is not None else None
    if program is not None:
        shown = Listing([program])
        return (
            Phrase(
                f"the tool started the program `{shown}`, which the run's environment does not have "
                "(a plugin's environment holds what its requirements install, not system programs)"
            ),
            Phrase(
                f"If the tool needs `{shown}`, say so in the README (Dify's plugin daemon must have it "
                f"installed), or use a Python package that brings it; then add {examples_file} with an "
                "example the registry can run."
            ),
        )
    files = [name for name in example.files if _mentioned(said, [name])]
    if files:
        shown = Listing(files[:1])
        return (
            Phrase(f"the file parameter `{shown}` got an invented file"),
            Phrase(f"Add {examples_file} with an example that gives `{shown}` a real file under `files:`."),
        )
    invented = Listing([f"{k}={v!r}" for k, v in example.inputs.items()], most=6)
    return (
        Phrase(f"the tool may have rejected the invented inputs ({str(invented) or 'none'})"),
        Phrase(f"Add {examples_file} with an example on real inputs."),
    )


# what `subprocess` raises when the program it was asked to start is not on the PATH
_NO_PROGRAM = re.compile(r"No such file or directory: '([^'/]{1,100})'")


def _missing_program(crash: Raised) -> str | None:
    """The program a subprocess call could not find, when that is what the crash is."""
    found = _NO_PROGRAM.search(crash.message)
    if crash.type != "FileNotFoundError" or found is None or "_execute_child" not in crash.traceback:
        return None
    return found.group(1)


def _mentioned(text: str, names: Iterable[str]) -> str | None:
    """The first name that the text quotes or uses as a word."""
    for name in names:
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            return name
    return None


def _optional_read(
    findings: Sequence[Diagnostic], events: Sequence[Event], example: Example, tool: Tool
) -> list[Diagnostic]:
    """R036 when the run with only required parameters crashed on an optional one; nothing else
    (the tool's other runs report everything else)."""
    crash = _crash_event(events)
    place = next((f for f in findings if _invoke_crash(f)), None)
    if crash is None or place is None:
        return []
    optional = [p.name for p in tool.parameters if p.name and not p.required]
    empty = [name for name in optional if example.inputs.get(name) is None]
    name = crash.key if crash.key in empty else None
    if name is None and _NONE_USE.search(crash.message):
        name = _mentioned(crash.code or "", empty)
    if name is None:
        return []
    return [OPTIONAL_READ.at(_place(place), name=name, type=crash.type, problem=crash.message)]
