"""How bad each finding of the run stage is: the one module that gives a finding a severity other
than its rule's own (the chain is in the package's docstring), from what the run proved.

A smoke run (no examples file) uses invented inputs and no credentials, and every run is offline
with a stand-in for Dify that serves only file upload and storage. So a failure inside `_invoke`
says nothing about the plugin when a credential was missing, a connection was refused, a call back
into Dify was not served, or the tool rejected a value it was never meant to get: such a failure
becomes a warning that names the cause (`causes.py`) and the example to add. What does not depend
on the inputs stays an error: the module does not import, the class cannot be loaded or created, an
SDK API that does not exist, a message Dify refuses. Runs of examples the author wrote keep their
severity.

The run with only the required parameters (see `invented.required_only_example`) contributes only
what it proves about the optional parameters a workflow left empty: a crash caused by reading one,
or an answer that one is required.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.examples import Example
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase, rule
from generator.run.answer_words import REQUIRED_TEXT
from generator.run.causes import (
    answer_credential,
    cause_of,
    crash_event,
    crash_text,
    error_answer,
    invented,
    mentioned,
    network_failure,
    unset_credential,
    unset_storage,
)
from generator.run.child.view import VIEW_NAME
from generator.run.evidence import Evidence
from generator.run.judge import CRASHED, NETWORK_ATTEMPT, NOT_SERIALISABLE, STAGES, TIMED_OUT, UNSERVED_CALL
from generator.run.replay import UNMATCHED
from generator.run.result import RunResult, in_words
from generator.run.returned import MAX_LISTED, SCHEMA_MISMATCH, declared_variables
from generator.run.runtypes import ExampleRun, RunMessage
from generator.run.wire import MAPPING_REFUSED, Raised
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
None) is what every such user hits; so is an answer that is the text of the KeyError the tool caught
on it (`'x'`, `KeyError: 'x'`), found at the parameter's declaration. A KeyError on a credential of
the same name (`self.runtime.credentials["x"]`, which the run did not have) is not the parameter's:
Dify always supplies a provider's required credentials.
""",
)
OPTIONAL_REQUIRED = rule(
    "R038",
    "optional-parameter-required",
    Severity.WARNING,
    "with the optional parameter `{name!s}` left empty, the tool answers with an error: {answer}",
    "If every call needs `{name!s}`, declare it `required: true` (the workflow editor then asks for it); "
    "if only one of several parameters is needed, say which in their descriptions.",
    """
Every tool also runs once with only its required parameters, as Dify calls it when a workflow user
leaves the optional fields empty (see R036). A tool that then answers that one of those optional
parameters is required or missing ("Parameter port is required", "请提供 port") treats it as
required, although the YAML lets every user leave it out and the workflow editor does not ask for
it: those users get an error answer instead of output. Dify accepts the tool, and the tool chose to
answer, so this is a warning; the answer is matched in English, Chinese, Japanese and Portuguese,
and only when it names the parameter. A tool that answers with the text of the KeyError it caught
(`'port'`, `KeyError: 'port'`) read the parameter as if it were always set: that is R036.
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
RUNNER_MEMORY = rule(
    "R039",
    "runner-memory-limit",
    Severity.WARNING,
    "{stage!s} failed with {type}: {problem}{after!s}; the runner's address-space limit of {limit!s} refused "
    "the memory a library maps, so the failure is the runner's, not the plugin's",
    "Nothing to fix for Dify, whose plugin daemon sets no such limit; to see the tool run here, run again "
    "with a higher limit: `--memory {more!s}` (run, validate --run, build).",
    """
Each run is limited to an address space (`RLIMIT_AS`, 2 GiB unless `--memory` says otherwise), so
that one tool cannot take the machine's memory. Some libraries reserve far more address space than
they use: torch with its CUDA libraries maps several GiB when imported, and the dynamic loader then
fails with "failed to map segment from shared object" (or "Cannot allocate memory"), though Dify
runs the plugin: its plugin daemon sets no such limit on the processes it starts (dify-plugin-
daemon's source calls no `setrlimit`). A library may catch that first failure (docling tries
`import torch` and goes on): a later failure of the same process then only follows from it, in
words that name no limit (torch, imported again, answers "`torch` can only be initialized once per
process"); the runner notes the first refused mapping of each run, caught or not, and such a later
failure is the limit's too, said with the earlier failure. Such a failure is the runner's, not the
plugin's: it is a warning that names the limit and the option that raises it, and the run shows
nothing.
""",
)
IMPORT_NETWORK = rule(
    "R081",
    "module-imports-network",
    Severity.WARNING,
    "loading the tool module failed with {type}: {problem}; the module reaches the network ({hosts!s}) "
    "when it is imported, and runs have none, so its tools did not run here",
    "In Dify the module loads only where the plugin daemon can reach {hosts!s} (not in an offline "
    "installation, where the plugin cannot start); to be run here too, fetch what it needs on first use "
    "inside `_invoke`, or ship it with the plugin.",
    """
Runs have no network: a connection to anything but the runner's own stand-in for Dify is refused
(R007). A tool module that reaches the network when it is imported (`pypandoc.download_pandoc()`
at the top of the module, a model downloaded as the module loads) fails to load here, with the
error of the failed connection. Dify's plugin daemon runs the plugin with the network its host
has ("For local runtime, daemon will start plugin as the subprocess", dify-plugin-daemon's
README), and the SDK loads every tool module when the plugin starts (`_resolve_tool_providers`),
so there the plugin starts whenever the daemon can reach the host, and cannot start where it
cannot.
Such a failure is the sandbox's, not a defect that stops every user: it is a warning naming the
host, at the module's line, instead of R001 and R007, and the run shows nothing else of the tools.
A module that fails to load for any other reason (an import nothing provides, a syntax error) keeps
R001's error.
""",
)
NEEDS_RECORDING = rule(
    "R047",
    "example-needs-recording",
    Severity.WARNING,
    "example {example} reaches the network ({hosts!s}) and has no recording; runs are offline, so it "
    "stopped with {type}: {problem}",
    "Record it once with network access: `dify-registry run PATH --record --tool {tool} --example "
    "{example}` (docs/recording.md); later runs replay its requests offline.",
    """
Example runs are offline: a tool's requests reach no host. An example whose tool calls a web API
therefore needs a recording of those requests (`run --record`), which later runs replay. Without
one, the tool fails at its first request (a connection refused, a `ConnectionError` from the
library it uses), and that failure says nothing about the plugin: the finding stands at the example
that needs the recording, not at the plugin's line that made the request, and it is a warning.
""",
)
NEVER_SET = rule(
    "R016",
    "declared-variable-never-set",
    Severity.WARNING,
    "output_schema declares {names!s}, {why!s}",
    "{advice!s}",
    """
A variable that `output_schema` declares can be picked in the workflow editor. If the tool never
sets it, the next node reads None without any error. One finding per tool names every such
variable. When every run that finished was a smoke run that took the tool's own error path (it
answered the invented inputs with an error message, or stopped for a missing credential), the run
did not reach the code that sets them: that proves nothing, and the finding says so as a note.
A variable whose name no variable message of the tool's code uses is never set on any input: that
is said without running, by R089, and not again here.
""",
)

NOTHING_RAN = rule(
    "R052",
    "nothing-ran",
    Severity.INFO,
    "no tool of this plugin ran: {why!s}",
    "Fix the findings above about the manifest, the provider or the tools; `dify-registry validate` "
    "lists them all.",
    """
`run` and `validate --run` say why a plugin that declares tools got no run at all: its manifest could
not be loaded (an error when no other finding says so: Dify refuses such a package), no tool provider
was found, or its tools name no Python source.
""",
)
# What a crash says when the tool used a value that was None (an optional parameter left empty).
_NONE_USE = re.compile(r"'NoneType' object|NoneType")


def weigh(
    findings: Sequence[Finding],
    evidence: Evidence,
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
    environment: str = "",
    messages: Sequence[RunMessage] = (),
    remarks: Collection[Finding] = (),
    memory: int = 0,
) -> list[Finding]:
    """The run's findings, each of its rule's severity until here, weighed: the remarks of the output
    check (what it could not check, not a failure of the output) are warnings, what the runner's own
    sandbox caused (its read-only environment, its address-space limit of `memory` bytes) is said
    to be the runner's, and what the run's inputs cannot prove is turned into warnings."""
    findings = [replace(f, severity=Severity.WARNING) if f in remarks else f for f in findings]
    refused = _environment_write(evidence.raised, environment)
    limited = _over_address_space(evidence.raised) if memory else None
    if refused is not None or limited is not None:
        event = refused or limited
        assert event is not None  # one of the two, said above
        crashes = [f for f in findings if f.rule == CRASHED.code]
        kept = [f for f in findings if f.rule != CRASHED.code]
        place = _place(crashes[0]) if crashes else Location(examples_file)
        stage = STAGES.get(event.stage, "the run")
        if refused is not None:
            found = READ_ONLY_ENVIRONMENT.at(place, stage=stage, type=event.type, problem=event.message)
        else:
            found = RUNNER_MEMORY.at(
                place,
                stage=stage,
                type=event.type,
                problem=event.message.rstrip("."),  # a sentence of its own would end before `after`
                after=_after(event),
                limit=_size(memory),
                more=_size(memory * 4),
            )
        return [] if example.required_only else _one_per_cause([*kept, found])
    fetching = _network_at_import(evidence)
    if fetching is not None:
        return [] if example.required_only else _imported_network(findings, evidence, fetching, examples_file)
    if example.required_only:
        return _optional_read(findings, evidence, example, tool, messages)
    if not example.smoke:
        return _one_per_cause(_unrecorded(list(findings), evidence, example, tool))
    explained = cause_of(evidence, example, tool, credentials, examples_file)
    crash = crash_event(evidence.raised)
    # A tool class may read its credentials when it is created, as Dify creates it with them: without
    # credentials, that failure proves nothing either. Without any credential declared, it does.
    unsupplied = bool(credentials) and not example.credentials
    created = crash_event(evidence.raised, "init") if unsupplied else None
    weighed: list[Finding] = []
    for finding in findings:
        if created is not None and _init_crash(finding):
            named = unset_credential(evidence, credentials) or mentioned(
                crash_text(created, created.code), credentials
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
                    message=f"{finding.message}, on the invented inputs ({invented(example)})",
                    hint=explained.advice,
                )
            )
        elif finding.rule == SCHEMA_MISMATCH.code:  # outputs of made-up inputs may be a correct error path
            weighed.append(_error_path_outputs(finding, evidence, messages, credentials, examples_file))
        else:
            weighed.append(finding)
    return _one_per_cause(weighed)


def weigh_event(findings: Sequence[Finding], remarks: Collection[Finding] = ()) -> list[Finding]:
    """A trigger event run's findings weighed: the remarks of the output check are warnings, and
    one finding per cause. Its example is always one an author wrote (a delivery cannot be
    invented), so every other finding keeps its rule's severity."""
    weighed = [replace(f, severity=Severity.WARNING) if f in remarks else f for f in findings]
    return _one_per_cause(weighed)


def event_result(
    findings: Sequence[Finding], finished: bool, reached: bool, ignored: str | None
) -> tuple[RunResult, str]:
    """What an event run shows, as for an example of a tool: `failed` when it did not finish, the
    dispatch did not name the event, or an error finding was made; `ignored` (with the error's
    text) when the event skipped the delivery (EventIgnoreError); else `passed`."""
    if not finished or not reached or any(f.severity is Severity.ERROR for f in findings):
        return RunResult.FAILED, ""
    if ignored is not None:
        return RunResult.IGNORED, shorten(ignored, 300)
    return RunResult.PASSED, ""


def _error_path_outputs(
    finding: Finding,
    evidence: Evidence,
    messages: Sequence[RunMessage],
    credentials: Sequence[str],
    examples_file: str,
) -> Finding:
    """R015 of a smoke run, a warning; when the tool answered with its own error (typically every
    field None for want of a credential), it says so: the outputs of an error path are not evidence
    against the schema, and the example to add is what would reach the code that sets them."""
    answer = error_answer(messages)
    if answer is None:
        return replace(finding, severity=Severity.WARNING)
    named = answer_credential(evidence, credentials, answer)
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


def _unrecorded(findings: list[Finding], evidence: Evidence, example: Example, tool: Tool) -> list[Finding]:
    """An author's example that stopped because it reached for the network, which runs do not have,
    and that no recording answered: one finding at the example that says it needs a recording,
    instead of the crash at the plugin's line and the connection attempt (the failure is the offline
    runner's, not the plugin's)."""
    crash = crash_event(evidence.raised)
    if crash is None or any(f.rule == UNMATCHED.code for f in findings):
        return findings  # a replayed example: R044 names the requests the recording lacks
    reached = list(evidence.hosts) or list(evidence.connections)
    # the crash itself must be the failed connection: a tool that tried a host and then failed on
    # something else keeps its error
    refused = network_failure(f"{crash.type}: {crash_text(crash, crash.code)}")
    if refused is None:
        return findings
    hosts = Listing(reached, most=5) if reached else Phrase(refused or "a host")
    kept = [f for f in findings if not _invoke_crash(f) and f.rule != NETWORK_ATTEMPT.code]
    found = NEEDS_RECORDING.at(
        example.origin,
        example=example.name,
        hosts=hosts,
        type=crash.type,
        problem=crash.message,
        tool=tool.name,
    )
    return [*kept, found]


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


def _network_at_import(evidence: Evidence) -> Raised | None:
    """The error of a tool module that failed to load because the sandbox refused the connection it
    made as it was imported: the run saw the attempt, and the error is that of a failed connection
    (a module that tried a host and then failed on something else keeps its error)."""
    crash = crash_event(evidence.raised, "load")
    if crash is None or not (evidence.hosts or evidence.connections):
        return None
    return crash if network_failure(f"{crash.type}: {crash_text(crash, crash.code)}") is not None else None


def _imported_network(
    findings: Sequence[Finding], evidence: Evidence, crash: Raised, examples_file: str
) -> list[Finding]:
    """R081 at the module's line, instead of the load's R001 and the connection's R007."""
    loads = [f for f in findings if f.rule == CRASHED.code and f.message.startswith(STAGES["load"] + " ")]
    kept = [f for f in findings if f not in loads and f.rule != NETWORK_ATTEMPT.code]
    found = IMPORT_NETWORK.at(
        _place(loads[0]) if loads else Location(examples_file),
        type=crash.type,
        problem=crash.message,
        hosts=Listing(list(evidence.hosts or evidence.connections), most=5),
    )
    return _one_per_cause([*kept, found])


def _environment_write(raised: Iterable[Raised], environment: str) -> Raised | None:
    """The error of a write refused inside the read-only environment, if that is how the run failed."""
    if not environment:
        return None
    for event in raised:
        refused = "[Errno 13]" in event.message or "[Errno 30]" in event.message
        # the environment, or the private view of it a worker without namespaces runs from
        inside = environment + "/" in event.message or f"/{VIEW_NAME}/" in event.message
        if refused and inside:
            return event
    return None


def _over_address_space(raised: Iterable[Raised]) -> Raised | None:
    """The error of a library that could not be mapped into memory, if that is how the run failed:
    its own words say so, or it followed such an error earlier in the same process (`refused`)."""
    return next((event for event in raised if MAPPING_REFUSED.search(event.message) or event.refused), None)


def _after(event: Raised) -> Phrase:
    """What the failure followed, when its own words do not name the refused mapping."""
    if event.refused is None or MAPPING_REFUSED.search(event.message):
        return Phrase("")
    earlier = shorten(event.refused, 160)
    return Phrase(f", after a library caught an earlier failure of the same process ({earlier})")


def _size(count: int) -> str:
    """A number of bytes as the `--memory` option takes it."""
    return f"{count // 1024**3}G" if count % 1024**3 == 0 else f"{count // 1024**2}M"


def _place(finding: Finding) -> Location:
    return Location(finding.file, finding.line, finding.column, finding.pointer)


def _invoke_crash(finding: Finding) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["invoke"] + " ")


def _init_crash(finding: Finding) -> bool:
    return finding.rule == CRASHED.code and finding.message.startswith(STAGES["init"] + " ")


def _optional_read(
    findings: Sequence[Finding],
    evidence: Evidence,
    example: Example,
    tool: Tool,
    messages: Sequence[RunMessage] = (),
) -> list[Finding]:
    """R036 when the run with only required parameters crashed on an optional one, or answered with
    the KeyError it caught; R038 when it answered that an optional one is required; nothing else
    (the tool's other runs report everything else)."""
    crash = crash_event(evidence.raised)
    place = next((f for f in findings if _invoke_crash(f)), None)
    if crash is None or place is None:
        return _optional_answer(evidence, example, tool, messages)
    optional = [p.name for p in tool.parameters if p.name and not p.required]
    empty = [name for name in optional if example.inputs.get(name) is None]
    name = crash.key if crash.key in empty else None
    if name is None and _NONE_USE.search(crash.message):
        name = mentioned(crash.code or "", empty)
    if name is None or _credential_read(crash, name, evidence):
        return []
    return [OPTIONAL_READ.at(_place(place), name=name, type=crash.type, problem=crash.message)]


def _optional_answer(
    evidence: Evidence, example: Example, tool: Tool, messages: Sequence[RunMessage]
) -> list[Finding]:
    """What a tool answered when the run left its optional parameters empty, when the answer names
    one of them: a caught KeyError on it (`'port'`, `KeyError: 'port'`: read as if always set, R036),
    or a request for it ("Parameter port is required": treated as required, R038). Found at the
    parameter's declaration, as the run cannot say which line read it."""
    answer = error_answer(messages) if evidence.done else None
    if answer is None or mentioned(answer, list(evidence.unset_credentials)):
        # "Missing api_key in provider credentials.": an answer about a credential the run did not
        # have (Dify always supplies a required one), whatever parameter its words also name
        return []
    empty = [
        p
        for p in tool.parameters
        if p.name
        and not p.required
        and example.inputs.get(p.name) in (None, "")
        and p.name not in evidence.unset_credentials
    ]
    for parameter in empty:
        quoted = rf"""['"]{re.escape(parameter.name)}['"]"""
        if re.search(rf"KeyError\W{{0,3}}{quoted}", answer) or re.fullmatch(
            rf"""[^'"]{{0,40}}{quoted}[.!]?""", answer.strip()
        ):
            return [
                OPTIONAL_READ.at(
                    parameter.origin, name=parameter.name, type="a KeyError it caught", problem=answer
                )
            ]
        if mentioned(answer, [parameter.name]) and REQUIRED_TEXT.search(answer):
            return [OPTIONAL_REQUIRED.at(parameter.origin, name=parameter.name, answer=answer)]
    return []


def _credential_read(crash: Raised, name: str, evidence: Evidence) -> bool:
    """True when what failed under the parameter's name was the credential of that name the run did
    not have: the run's credentials told that it was read without a value, and the failing line
    reads credentials. Dify always supplies a provider's required credentials."""
    return name in evidence.unset_credentials and "credentials" in (crash.code or crash.traceback)


# What a tool's own error answer looks like (`registry/docs/runner.md`, "Run results"): a short text
# that starts with or soon says one of these words, or a JSON object whose keys say so.
def run_result(
    findings: Sequence[Finding],
    evidence: Evidence,
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    messages: Sequence[RunMessage],
    finished: bool,
) -> tuple[RunResult, str]:
    """What the run shows (`result.py`) and what names it, from its weighed findings and what its
    events show."""
    red = [f for f in findings if f.severity is Severity.ERROR]
    if any(f.rule == READ_ONLY_ENVIRONMENT.code for f in findings):  # the sandbox's, not the tool's
        return RunResult.ENVIRONMENT, "a library writes into its own install folder"
    if any(f.rule == RUNNER_MEMORY.code for f in findings):
        return RunResult.ENVIRONMENT, "a library maps more memory than the runner's limit"
    if any(f.rule == IMPORT_NETWORK.code for f in findings):
        return RunResult.NETWORK, str(Listing(list(evidence.hosts or evidence.connections), most=5))
    if not example.smoke:
        if not red and any(f.rule == NEEDS_RECORDING.code for f in findings):
            return RunResult.NETWORK, str(Listing(list(evidence.hosts or evidence.connections), most=5))
        return (RunResult.FAILED, "") if red or not finished else (RunResult.PASSED, "")
    if red:
        return RunResult.CRASHED, red[0].message[:300]
    cause = cause_of(evidence, example, tool, credentials, "")
    if cause.result in (RunResult.NETWORK, RunResult.DIFY_CALL):
        return cause.result, cause.detail
    if any(f.rule == TIMED_OUT.code for f in findings):
        return RunResult.TIME_LIMIT, invented(example)
    if not finished:
        return cause.result, cause.detail
    answer = error_answer(messages)
    if answer is None:
        return RunResult.OUTPUT, ""
    if unset_storage(evidence):  # what it answered, empty storage made it answer
        return cause.result, cause.detail
    refused = network_failure(answer)
    if refused is not None:
        return RunResult.NETWORK, refused
    named = answer_credential(evidence, credentials, answer)
    return (RunResult.CREDENTIAL, named) if named else (RunResult.TOOL_ERROR, answer)


def one_per_place(found: Iterable[tuple[str, Finding]]) -> list[Finding]:
    """The findings of a plugin's runs, each with the tool whose run it came from, one per cause:
    the same finding at the same line of a shared module (an import that fails for every tool
    importing it) is one finding naming every tool it stops, not one per tool."""
    tools: dict[tuple[str, str, int, str, str], list[str]] = {}
    first: dict[tuple[str, str, int, str, str], Finding] = {}
    for tool, finding in found:
        key = (finding.rule, finding.file, finding.line, finding.severity.value, finding.message)
        first.setdefault(key, finding)
        named = tools.setdefault(key, [])
        if tool not in named:
            named.append(tool)
    merged = []
    for key, finding in first.items():
        named = tools[key]
        said = f"{finding.message} (the same for {len(named)} tools: {Listing(named, most=10)})"
        merged.append(replace(finding, message=said) if len(named) > 1 else finding)
    return merged


def told_without_running(findings: Iterable[Finding], static: Iterable[Finding]) -> list[Finding]:
    """The run's findings without those whose crash the code's static checks already name at the
    same line, at least as severely (a KeyError that R021 found without running is not told again by
    the smoke run that hit it), and those a static check made at the same place with the same rule
    (an environment without the SDK): one cause, one finding."""
    worst: dict[tuple[str, int], int] = {}
    told: set[tuple[str, str, int]] = set()
    for finding in static:
        place = (finding.file, finding.line)
        worst[place] = max(worst.get(place, -1), finding.severity.rank)
        told.add((finding.rule, finding.file, finding.line))
    # R075 finds R036's without running; R087 finds the R014 of a generator yielded as a message
    crashes = (CRASHED.code, INCONCLUSIVE.code, OPTIONAL_READ.code, NOT_SERIALISABLE.code)
    return [
        f
        for f in findings
        if not (f.rule in crashes and worst.get((f.file, f.line), -1) >= f.severity.rank)
        and (f.rule, f.file, f.line) not in told  # a rule the checks already applied there (R056)
    ]


def reached_invoke(run: ExampleRun) -> bool:
    """True when the run got as far as the tool's `_invoke`: the SDK imported, the tool's module
    loaded and its class was created."""
    before = tuple(f"{STAGES[stage]} " for stage in ("sdk", "load", "init", "setup", "tape"))
    stopped = (CRASHED.code, READ_ONLY_ENVIRONMENT.code, RUNNER_MEMORY.code)
    for finding in run.findings:
        if finding.rule == IMPORT_NETWORK.code:  # always said of a module that did not load
            return False
        if finding.rule in stopped and finding.message.startswith(before):
            return False
    return True


def never_set(
    tool: Tool,
    runs: Iterable[ExampleRun],
    where: Location,
    examples_file: str,
    in_code: frozenset[str] | None = None,
) -> list[Finding]:
    """One finding naming the declared variables that no completed run of the tool sets, among those
    its code can set (`in_code`, every name its variable messages use, when known: the others are
    told without running, R089)."""
    completed = [run for run in runs if run.outputs]
    declared = declared_variables(tool.output_schema)
    unset = [name for name in declared if not any(name in run.outputs for run in completed)]
    if not completed or not unset:
        return []
    if in_code is not None:
        # a name no code sets is told without running (R089, check/variables_in_code.py)
        unset = [name for name in unset if name in in_code]
    if not unset:
        return []
    names = Listing(unset, most=MAX_LISTED)
    if not any(run.result.proven for run in completed):
        shown = completed[0]
        return [
            NEVER_SET.at(
                where,
                severity=Severity.INFO,
                names=names,
                why=Phrase(
                    f"which the {shown.example} run did not set: it did not reach the code that sets them "
                    f"({in_words(shown.result, shown.detail)})"
                ),
                advice=Phrase(f"Add {Listing([examples_file])} with an example on real inputs."),
            ),
        ]
    return [
        NEVER_SET.at(
            where,
            names=names,
            why=Phrase("but no example run sets them; the next node reads None"),
            advice=Phrase(
                f"Yield create_variable_message(name, ...) for {names} in every path of _invoke, or remove "
                "them from output_schema."
            ),
        ),
    ]


def nothing_ran(loaded: LoadedPlugin) -> list[Finding]:
    """Why no tool of a plugin ran, when it is meant to have tools; an error when nothing else says
    so (Dify refuses a plugin whose manifest does not load)."""
    where = Location(loaded.display_path("manifest.yaml"))
    plugin = loaded.plugin
    if plugin is None:
        told = any(d.severity is Severity.ERROR for d in loaded.findings)
        severity = Severity.INFO if told else Severity.ERROR
        return [NOTHING_RAN.at(where, severity=severity, why="its manifest could not be loaded")]
    manifest = loaded.documents.get("manifest.yaml")
    declared = (
        manifest.data.get("plugins") if manifest is not None and isinstance(manifest.data, dict) else None
    )
    if not isinstance(declared, dict) or not declared.get("tools"):
        return []  # not a tool plugin: nothing was meant to run
    if not plugin.providers:
        why = "no tool provider was found (the files `plugins.tools` names did not load)"
    elif not any(loaded.loads(tool) for tool in plugin.tools):
        why = "its providers list no tool that loads"
    else:
        why = "its tools name no Python source (`extra.python.source`)"
    return [NOTHING_RAN.at(where, why=why)]
