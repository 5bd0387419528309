"""Why a smoke run stopped, from what its events show: the credential it had no value for, the
hosts or the calls back into Dify it tried, the storage key no one set, the program the runner's
environment lacks, or the invented inputs; and the tool's own error answer. `verdict` weighs a
run's findings and says what the run shows with them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.load.examples import Example
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase
from generator.run.answer_words import ERROR_TEXT
from generator.run.evidence import Evidence
from generator.run.result import RunResult
from generator.run.runtypes import RunMessage
from generator.run.wire import NetworkAttempt, Raised, Unserved

# Words of an error message that point at a missing credential when the provider declares some.
_CREDENTIAL_WORDS = re.compile(r"credential|api[ _-]?key|token|secret|unauthori[sz]ed", re.IGNORECASE)


def answer_credential(evidence: Evidence, credentials: Sequence[str], answer: str) -> str | None:
    """The credential a tool's error answer was for: one it read without a value, or one its words
    name (the first declared one when they only speak of a credential)."""
    named = unset_credential(evidence, credentials)
    if named is None and credentials and _CREDENTIAL_WORDS.search(answer):
        named = mentioned(answer, credentials) or credentials[0]
    return named


def crash_text(crash: Raised, *more: str | None) -> str:
    """The error's message and what else of it names a cause, as one text to search."""
    return " ".join(text for text in (crash.message, *more) if text)


def crash_event(raised: Iterable[Raised], stage: str = "invoke") -> Raised | None:
    """The error raised inside `_invoke` (or while creating the tool), unless it is a lookup of an
    SDK API that does not exist or a misuse of a library's object at the plugin's own line (those
    fail whatever the inputs)."""
    for event in raised:
        if event.stage == stage and not event.sdk_api and not event.misuse:
            return event
    return None


def _outside_calls(evidence: Evidence) -> list[str]:
    """What the run tried to reach outside the sandbox: hosts, and calls back into Dify."""
    reached: list[str] = []
    for event in evidence.outside:
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


def invented(example: Example) -> str:
    """The invented inputs, files too, as a short list."""
    shown = [f"{k}={v!r}" for k, v in example.inputs.items()]
    shown += [f"{k}=<file {_file_names(v)}>" for k, v in example.files.items()]
    return str(Listing(shown, most=6)) or "none"


def _file_names(value: object) -> str:
    files = value if isinstance(value, tuple) else (value,)
    return ", ".join(str(getattr(f, "filename", "")) for f in files)


def unset_credential(evidence: Evidence, credentials: Sequence[str]) -> str | None:
    """The first declared credential the tool read without a value."""
    return next((name for name in evidence.unset_credentials if name in credentials), None)


def unset_storage(evidence: Evidence) -> list[str]:
    """The plugin storage keys the tool read and found unset, quoted, in order."""
    return [f"`{key}`" for key in evidence.unset_storage]


def cause_of(
    evidence: Evidence,
    example: Example,
    tool: Tool,
    credentials: Sequence[str],
    examples_file: str,
) -> Cause:
    """What the run could not supply and which example to add, most specific first."""
    crash = crash_event(evidence.raised)
    said = crash_text(crash, crash.code, crash.key) if crash is not None else ""
    examples_file = str(Listing([examples_file]))
    hosts = evidence.hosts
    outside = _outside_calls(evidence)
    if outside:
        reached = Phrase(
            f"it made {Listing(outside, most=5)}, which example runs do not allow (they are offline "
            "and serve only file upload and storage)"
        )
        if hosts or evidence.connections:
            return Cause(
                RunResult.NETWORK,
                str(Listing(list(hosts), most=5)),
                reached,
                Phrase(
                    f"Add {examples_file} with an example on real inputs and record its requests once "
                    "with `dify-registry run --record`: the registry then replays them offline."
                ),
            )
        return Cause(
            RunResult.DIFY_CALL,
            str(Listing(list(evidence.calls), most=5)),
            reached,
            Phrase(
                f"Add {examples_file} with an example whose inputs the tool can answer without calling "
                "back into Dify (the runner serves only file upload and storage)."
            ),
        )
    refused = network_failure(said)
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
    stored = unset_storage(evidence)
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
    named = key if key in credentials else unset_credential(evidence, credentials)
    named = named or mentioned(said, credentials)
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
    files = [name for name in example.files if mentioned(said, [name])]
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
        Phrase(f"the tool may have rejected the invented inputs ({invented(example)})"),
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


def network_failure(text: str) -> str | None:
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


def mentioned(text: str, names: Iterable[str]) -> str | None:
    """The first name that the text quotes or uses as a word."""
    for name in names:
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            return name
    return None


_ERROR_KEYS = ("error", "errors", "error_message", "error_msg", "errmsg", "err", "exception")
_FAILED_STATES = {"error", "failed", "fail", "failure"}
# An answer longer than this is output, whatever words it holds.
_SHORT_ANSWER = 600


def error_answer(messages: Sequence[RunMessage]) -> str | None:
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
            if not text or len(text) > _SHORT_ANSWER or not ERROR_TEXT.search(text[:200]):
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
