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

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from generator.findings import Finding, Location, Severity
from generator.load.examples import Example
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase, rule
from generator.run.checks import SCHEMA_MISMATCH
from generator.run.child.view import VIEW_NAME
from generator.run.hosts import contacted_hosts
from generator.run.judge import CRASHED, NETWORK_ATTEMPT, STAGES, TIMED_OUT, UNSERVED_CALL
from generator.run.replay import UNMATCHED
from generator.run.result import RunResult
from generator.run.runtypes import RunMessage
from generator.run.wire import CredentialUnset, Event, NetworkAttempt, Raised, StorageUnset, Unserved
from generator.shorten import shorten

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
installed (a plugin's environment holds only what its requirements install; the finding names the
program, found from the `FileNotFoundError` that `subprocess` raised, also when the tool wrapped it
in an error of its own, and says whether Dify's plugin daemon image ships it, as it does ffmpeg and
ffprobe: `apt-get install ... python3.12 ... ffmpeg` in dify-plugin-daemon's
`docker/local.dockerfile`), it read a key of
plugin storage that no one had set (`session.storage.get` of a key another tool of the plugin sets:
every run starts with empty storage, and the runner's stand-in for Dify answers such a read with an
error, as the SDK raises one when Dify has no data) or it rejected a made-up value, the failure
proves nothing about the plugin: a workflow user gives real values.
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
and a `form` parameter holds its default or nothing (`ToolManager._init_runtime_parameter`), cast by
`cast_parameter_value`: "" for an empty string, secret-input or select, False for a boolean. A crash
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
Runs never change the cached environment, so that one example cannot change what the next one
imports. Dify installs a plugin's environment writable by the plugin, and some libraries unpack data
or write caches beside their code the first time they are imported, so each worker runs from a
writable view of it that is thrown away (an overlay inside the namespaces; without them a private
tree whose code files are read-only links to the cache's). Where that view cannot be made (no
overlayfs), or a library rewrites one of its code files in place, the write is refused. Such a
failure is the sandbox's, not the plugin's: it is a warning, and the run shows nothing.
""",
)
# Words of an error message that point at a missing credential when the provider declares some.
_CREDENTIAL_WORDS = re.compile(r"credential|api[ _-]?key|token|secret|unauthori[sz]ed", re.IGNORECASE)
_NONE_USE = re.compile(r"'NoneType' object|NoneType")


def weigh(
    findings: Sequence[Finding],
    events: Sequence[Event],
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
    environment: str = "",
    messages: Sequence[RunMessage] = (),
) -> list[Finding]:
    """The run's findings, with what its inputs cannot prove turned into warnings."""
    refused = _environment_write(events, environment)
    if refused is not None:
        crashes = [f for f in findings if f.rule == CRASHED.code]
        kept = [f for f in findings if f.rule != CRASHED.code]
        place = _place(crashes[0]) if crashes else Location(examples_file)
        stage = STAGES.get(refused.stage, "the run")
        found = READ_ONLY_ENVIRONMENT.at(place, stage=stage, type=refused.type, problem=refused.message)
        return [] if example.required_only else _one_per_cause([*kept, found])
    if example.required_only:
        return _optional_read(findings, events, example, tool)
    if not example.smoke:
        return _one_per_cause(list(findings))
    explained = _cause(events, example, tool, credentials, examples_file)
    crash = _crash_event(events)
    # A tool class may read its credentials when it is created, as Dify creates it with them: without
    # credentials, that failure proves nothing either. Without any credential declared, it does.
    unsupplied = bool(credentials) and not example.credentials
    created = _crash_event(events, "init") if unsupplied else None
    weighed: list[Finding] = []
    for finding in findings:
        if created is not None and _init_crash(finding):
            named = _unset_credential(events, credentials) or _mentioned(
                _said(created, created.code), credentials
            )
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
                    cause=explained.cause,
                    advice=explained.advice,
                )
            )
        elif finding.rule == TIMED_OUT.code:
            # a time-out proves a defect only on inputs the author chose: these were invented
            weighed.append(
                replace(
                    finding,
                    severity=Severity.WARNING,
                    message=f"{finding.message}, on the invented inputs ({_invented(example)})",
                    hint=explained.advice,
                )
            )
        elif finding.rule == SCHEMA_MISMATCH.code:  # outputs of made-up inputs may be a correct error path
            weighed.append(_error_path_outputs(finding, events, messages, credentials, examples_file))
        else:
            weighed.append(finding)
    return _one_per_cause(weighed)


def _error_path_outputs(
    finding: Finding,
    events: Sequence[Event],
    messages: Sequence[RunMessage],
    credentials: Sequence[str],
    examples_file: str,
) -> Finding:
    """R015 of a smoke run, a warning; when the tool answered with its own error (typically every
    field None for want of a credential), it says so: the outputs of an error path are not evidence
    against the schema, and the example to add is what would reach the code that sets them."""
    answer = _error_answer(messages)
    if answer is None:
        return replace(finding, severity=Severity.WARNING)
    named = _answer_credential(events, credentials, answer)
    shown = Listing([examples_file])
    advice = (
        f"Add {shown} with an example that sets `credentials: {{{named}: ...}}`"
        if named
        else f"Add {shown} with an example on real inputs"
    )
    advice += ", so that the run reaches the code that sets the outputs."
    if "None is not of type" in finding.message:
        advice += (
            " If the error path is meant to leave them None, allow null in their types "
            '(`type: [string, "null"]`; `nullable` is OpenAPI, see O016).'
        )
    return replace(
        finding,
        severity=Severity.WARNING,
        message=f"{finding.message}; the smoke run took the tool's error path ({shorten(answer, 160)}), "
        "so these are the outputs of its error path, not proof that the schema is wrong",
        hint=advice,
    )


def _answer_credential(events: Sequence[Event], credentials: Sequence[str], answer: str) -> str | None:
    """The credential a tool's error answer was for: one it read without a value, or one its words
    name (the first declared one when they only speak of a credential)."""
    named = _unset_credential(events, credentials)
    if named is None and credentials and _CREDENTIAL_WORDS.search(answer):
        named = _mentioned(answer, credentials) or credentials[0]
    return named


def _one_per_cause(findings: list[Finding]) -> list[Finding]:
    """Without the connection and call findings when another finding of the run already names them
    as the cause it stopped (R035, or a time-out's hint), and without the connection finding when
    the replay names the same requests better (R044): one finding per cause."""
    told = any(f.rule == INCONCLUSIVE.code for f in findings)
    told = told or any(f.rule == TIMED_OUT.code and f.severity is Severity.WARNING for f in findings)
    said: set[str] = {NETWORK_ATTEMPT.code, UNSERVED_CALL.code} if told else set()
    if any(f.rule == UNMATCHED.code for f in findings):
        said.add(NETWORK_ATTEMPT.code)
    return [f for f in findings if f.rule not in said]


def _environment_write(events: Iterable[Event], environment: str) -> Raised | None:
    """The error of a write refused inside the read-only environment, if that is how the run failed."""
    for event in events:
        if not isinstance(event, Raised) or not environment:
            continue
        refused = "[Errno 13]" in event.message or "[Errno 30]" in event.message
        # the environment, or the private view of it a worker without namespaces runs from
        inside = environment + "/" in event.message or f"/{VIEW_NAME}/" in event.message
        if refused and inside:
            return event
    return None


def _said(crash: Raised, *more: str | None) -> str:
    """The error's message and what else of it names a cause, as one text to search."""
    return " ".join(text for text in (crash.message, *more) if text)


def _place(finding: Finding) -> Location:
    return Location(finding.file, finding.line, finding.column, finding.pointer)


def _invoke_crash(finding: Finding) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["invoke"] + " ")


def _init_crash(finding: Finding) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["init"] + " ")


def _crash_event(events: Iterable[Event], stage: str = "invoke") -> Raised | None:
    """The error raised inside `_invoke` (or while creating the tool), unless it is a lookup of an
    SDK API that does not exist or a misuse of a library's object at the plugin's own line (those
    fail whatever the inputs)."""
    for event in events:
        if isinstance(event, Raised) and event.stage == stage and not event.sdk_api and not event.misuse:
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


@dataclass(frozen=True, slots=True)
class Cause:
    """Why a smoke run stopped: what it shows, what names it, in words, and the example to add."""

    result: RunResult
    detail: str
    cause: str
    advice: str


def _invented(example: Example) -> str:
    """The invented inputs, files too, as a short list."""
    shown = [f"{k}={v!r}" for k, v in example.inputs.items()]
    shown += [f"{k}=<file {_file_names(v)}>" for k, v in example.files.items()]
    return str(Listing(shown, most=6)) or "none"


def _file_names(value: object) -> str:
    files = value if isinstance(value, tuple) else (value,)
    return ", ".join(str(getattr(f, "filename", "")) for f in files)


def _unset_credential(events: Iterable[Event], credentials: Sequence[str]) -> str | None:
    """The first declared credential the tool read without a value."""
    for event in events:
        if isinstance(event, CredentialUnset) and event.name in credentials:
            return event.name
    return None


def _unset_storage(events: Iterable[Event]) -> list[str]:
    """The plugin storage keys the tool read and found unset, quoted, in order."""
    return list(dict.fromkeys(f"`{e.key}`" for e in events if isinstance(e, StorageUnset)))


def _cause(
    events: Sequence[Event],
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
) -> Cause:
    """What the run could not supply and which example to add, most specific first."""
    crash = _crash_event(events)
    said = _said(crash, crash.code, crash.key) if crash is not None else ""
    examples_file = str(Listing([examples_file]))
    hosts = contacted_hosts(list(events))
    outside = _outside_calls(events)
    if outside:
        reached = Phrase(
            f"it made {Listing(outside, most=5)}, which example runs do not allow (they are offline "
            "and serve only file upload and storage)"
        )
        if hosts or any(isinstance(e, NetworkAttempt) for e in events):
            return Cause(
                RunResult.NETWORK,
                str(Listing(list(hosts), most=5)),
                reached,
                Phrase(
                    f"Add {examples_file} with an example on real inputs and record its requests once "
                    "with `dify-registry run --record`: the registry then replays them offline."
                ),
            )
        calls = [e.call for e in events if isinstance(e, Unserved)]
        return Cause(
            RunResult.DIFY_CALL,
            str(Listing(list(dict.fromkeys(calls)), most=5)),
            reached,
            Phrase(
                f"Add {examples_file} with an example whose inputs the tool can answer without calling "
                "back into Dify (the runner serves only file upload and storage)."
            ),
        )
    refused = _network_failure(said)
    if refused is not None:
        return Cause(
            RunResult.NETWORK,
            refused,
            Phrase(
                f"it failed to reach {refused or 'a host'} (a library that opens its own connections "
                "said so: example runs are offline)"
            ),
            Phrase(
                f"Add {examples_file} with an example on real inputs and record its requests once "
                "with `dify-registry run --record`: the registry then replays them offline."
            ),
        )
    stored = _unset_storage(events)
    if stored:
        shown = Listing(stored, most=5)
        return Cause(
            RunResult.ENVIRONMENT,
            f"empty plugin storage: {shown}",
            Phrase(
                f"the run began with empty plugin storage and the tool read the key {shown} from it, "
                "which another tool of the plugin (or an earlier call) must have set"
            ),
            Phrase(
                f"Nothing to fix for Dify once {shown} is set; but every example run starts with empty "
                "storage, so the registry cannot run this tool: read the value from a parameter or a "
                "credential, or answer a missing key with a message (`session.storage.exist`)."
            ),
        )
    key = crash.key if crash is not None else None
    named = key if key in credentials else _unset_credential(events, credentials)
    named = named or _mentioned(said, credentials)
    if named is None and credentials and _CREDENTIAL_WORDS.search(said):
        named = credentials[0]
    if named is not None:
        shown = Listing([named])
        return Cause(
            RunResult.CREDENTIAL,
            named,
            Phrase(f"the run had no value for the credential `{shown}`"),
            Phrase(f"Add {examples_file} with an example that sets `credentials: {{{shown}: ...}}`."),
        )
    program = _missing_program(crash) if crash is not None else None
    if program is not None:
        return _program_cause(program, examples_file)
    problem = f"{crash.type}: {crash.message}" if crash is not None else ""
    files = [name for name in example.files if _mentioned(said, [name])]
    if files:
        shown = Listing(files[:1])
        return Cause(
            RunResult.TOOL_ERROR,
            problem,
            Phrase(f"the file parameter `{shown}` got an invented file"),
            Phrase(f"Add {examples_file} with an example that gives `{shown}` a real file under `files:`."),
        )
    return Cause(
        RunResult.TOOL_ERROR,
        problem,
        Phrase(f"the tool may have rejected the invented inputs ({_invented(example)})"),
        Phrase(f"Add {examples_file} with an example on real inputs."),
    )


def _program_cause(program: str, examples_file: str) -> Cause:
    """A program the tool started and the run's environment lacks: Dify's daemon image has it, or
    the plugin needs what the daemon does not ship."""
    shown = Listing([program])
    if program in DAEMON_PROGRAMS:
        return Cause(
            RunResult.ENVIRONMENT,
            f"no program `{program}`",
            Phrase(
                f"the tool started the program `{shown}`, which Dify's plugin daemon image installs "
                "(with ffmpeg) but the registry's runner does not have"
            ),
            Phrase(
                f"Nothing to fix for Dify, whose plugin daemon image ships `{shown}`; say in the README "
                "that the tool needs ffmpeg (a daemon installed another way may lack it)."
            ),
        )
    return Cause(
        RunResult.ENVIRONMENT,
        f"no program `{program}`",
        Phrase(
            f"the tool started the program `{shown}`, which the run's environment does not have, and "
            "nor does Dify's plugin daemon image (it adds only Python and ffmpeg; a plugin's environment "
            "holds what its requirements install)"
        ),
        Phrase(
            f"Use a Python package that brings `{shown}`, or say in the README that the daemon needs it "
            f"installed, as Dify's image does not ship it; then add {examples_file} with an example the "
            "registry can run."
        ),
    )


# What a failed connection says in the error of a library that opens its own connections (a client
# written in Rust or C, which the sandbox's Python-level guard does not see).
_NETWORK_WORDS = re.compile(
    r"ConnectError|ConnectionError|Connection refused|error sending request|Name or service not known|"
    r"Temporary failure in name resolution|Failed to resolve|Max retries exceeded|nodename nor servname|"
    r"Network is unreachable|getaddrinfo failed|Could not resolve host",
    re.IGNORECASE,
)
_URL_HOST = re.compile(r"https?://([A-Za-z0-9.-]{1,253})")


def _network_failure(text: str) -> str | None:
    """The hosts a failed connection names ("" when it names none), or None when the text does not
    speak of one."""
    if not _NETWORK_WORDS.search(text):
        return None
    return str(Listing(list(dict.fromkeys(_URL_HOST.findall(text))), most=5))


# What `subprocess` raises when the program it was asked to start is not on the PATH: errno 2 for a
# bare program name (a path would be a file the tool expected). Searched in the whole traceback,
# which holds the chained exceptions: tools often wrap it in an error of their own.
_NO_PROGRAM = re.compile(r"FileNotFoundError: \[Errno 2\] No such file or directory: '([^'/\s]{1,100})'")
# Programs Dify's plugin daemon image installs for plugins (dify-plugin-daemon docker/local.dockerfile:
# `apt-get install -y ... python3.12 ... ffmpeg`), beside Python itself.
DAEMON_PROGRAMS = frozenset({"ffmpeg", "ffprobe"})


def _missing_program(crash: Raised) -> str | None:
    """The program a subprocess call could not find, when that is what the crash is."""
    found = _NO_PROGRAM.search(crash.traceback)
    if found is None or "_execute_child" not in crash.traceback:
        return None
    return found.group(1)


def _mentioned(text: str, names: Iterable[str]) -> str | None:
    """The first name that the text quotes or uses as a word."""
    for name in names:
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            return name
    return None


def _optional_read(
    findings: Sequence[Finding], events: Sequence[Event], example: Example, tool: Tool
) -> list[Finding]:
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


# What a tool's own error answer looks like (`registry/docs/runner.md`, "Run results"): a short text
# that starts with or soon says one of these words, or a JSON object whose keys say so.
_ERROR_TEXT = re.compile(
    r"\b(error|failed|failure|invalid|exception|unauthori[sz]ed|forbidden|denied|missing|"
    r"not found|not provided|no .{1,40} provided|is required|are required|cannot|could not|couldn't|"
    r"unable to|"
    r"please (provide|set|enter|configure|check|input)|not configured|not set|must be|错误|失败|无效|エラー)",
    re.IGNORECASE,
)
_ERROR_KEYS = ("error", "errors", "error_message", "error_msg", "errmsg", "err", "exception")
_FAILED_STATES = {"error", "failed", "fail", "failure"}
# An answer longer than this is output, whatever words it holds.
_SHORT_ANSWER = 600


def _error_answer(messages: Sequence[RunMessage]) -> str | None:
    """The tool's own error message when every text and JSON message it yielded is one (and it
    yielded no file, image or link), or, when it yielded neither, when its variables together state
    one (`success: false`, an `error` set): what it answered instead of output."""
    answers: list[str] = []
    variables: dict[str, object] = {}
    for message in messages:
        payload = message.payload if isinstance(message.payload, dict) else {}
        if message.type == "variable" and isinstance(payload.get("variable_name"), str):
            variables[payload["variable_name"]] = payload.get("variable_value")
        if message.type == "text":
            text = str(payload.get("text", "")).strip()
            if not text or len(text) > _SHORT_ANSWER or not _ERROR_TEXT.search(text[:200]):
                return None
            answers.append(text)
        elif message.type == "json":
            found = _json_error(payload.get("json_object"))
            if found is None:
                return None
            answers.append(found)
        elif message.type in ("blob", "image", "image_link", "link", "file"):
            return None
    if not answers and variables:
        return _json_error(variables)
    return answers[0][:300] if answers else None


def _json_error(value: object) -> str | None:
    """The error a JSON answer states (an error key with a value, `success: false`, a failed status)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, dict):
        return None
    for key in _ERROR_KEYS:
        if value.get(key):
            return json.dumps({key: value[key]}, ensure_ascii=False, default=str)[:300]
    status = value.get("status", value.get("state"))
    if value.get("success") is False or (isinstance(status, str) and status.lower() in _FAILED_STATES):
        return json.dumps(value, ensure_ascii=False, default=str)[:300]
    return None


def run_result(
    findings: Sequence[Finding],
    events: Sequence[Event],
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    messages: Sequence[RunMessage],
    finished: bool,
) -> tuple[RunResult, str]:
    """What the run shows (`result.py`) and what names it, from its weighed findings and events."""
    red = [f for f in findings if f.severity is Severity.ERROR]
    if any(f.rule == READ_ONLY_ENVIRONMENT.code for f in findings):  # the sandbox's, not the tool's
        return RunResult.ENVIRONMENT, "a library writes into its own install folder"
    if not example.smoke:
        return (RunResult.FAILED, "") if red or not finished else (RunResult.PASSED, "")
    if red:
        return RunResult.CRASHED, red[0].message[:300]
    cause = _cause(events, example, tool, credentials, "")
    if cause.result in (RunResult.NETWORK, RunResult.DIFY_CALL):
        return cause.result, cause.detail
    if any(f.rule == TIMED_OUT.code for f in findings):
        return RunResult.TIME_LIMIT, _invented(example)
    if not finished:
        return cause.result, cause.detail
    answer = _error_answer(messages)
    if answer is None:
        return RunResult.OUTPUT, ""
    if _unset_storage(events):  # what it answered, empty storage made it answer
        return cause.result, cause.detail
    refused = _network_failure(answer)
    if refused is not None:
        return RunResult.NETWORK, refused
    named = _answer_credential(events, credentials, answer)
    return (RunResult.CREDENTIAL, named) if named else (RunResult.TOOL_ERROR, answer)
