"""The parent's side of recorded examples: the credentials a run gets, the job's `http` part, what a
replayed run is told about (requests without an answer, a stale recording), and writing a new
recording with every secret replaced by its marker.

A credential written as `{env: NAME}` is read from the caller's environment only when recording;
every other run hands the tool the credential's marker instead, which is exactly what the recording
holds wherever the value was, so requests built from it match the recorded ones."""

from __future__ import annotations

import difflib
import hashlib
import json
import urllib.parse
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.examples import Example
from generator.load.reader import PluginReader
from generator.load.recordings import RECORDING_FORMAT, Recording, recording_path
from generator.load.registry_examples import examples_root
from generator.plugin_model import Tool
from generator.published import SCHEMA_BASE
from generator.rules import Phrase, rule
from generator.run.cache import MAX_HASHED_BYTES
from generator.run.runtypes import Replay
from generator.run.wire import Event, Exchange, Http, Recorded, Unmatched

# The marker and header policy of the child's recorder, which cannot import the project.
MARKER_PREFIX = "dify-registry-credential-"
RECORDING_HEADER = f"# yaml-language-server: $schema={SCHEMA_BASE}v1/tool_recording.json\n"
DOCS = "docs/recording.md"

UNMATCHED = rule(
    "R044",
    "recording-unmatched-request",
    Severity.ERROR,
    "example {example}: {request} has no answer in the recording{closest}",
    "Record the example again (dify-registry run PATH --record --tool {tool} --example {example}), "
    "see " + DOCS + ".",
    """
A replayed example made a request that its recording does not hold. Requests are matched on the
method, the address (scheme, host, port, path and query, with credential markers in place of the
values) and the body. The tool got a connection error, as it would offline, so the run shows what
the tool does then, not what the recording was made for. Usually the tool or the example changed
since the recording; record it again.
""",
)
STALE = rule(
    "R045",
    "recording-stale",
    Severity.WARNING,
    "example {example}: the recording of {recorded} is stale: {what}",
    "Record the example again (dify-registry run PATH --record --tool {tool} --example {example}), "
    "see " + DOCS + ".",
    """
The example was replayed from a recording made before the tool's code or the example's inputs last
changed. The run used the recording all the same; its outputs show what the old requests were
answered with, which may no longer be what the tool receives.
""",
)
NO_RECORDER = rule(
    "R046",
    "recorder-unavailable",
    Severity.WARNING,
    "example {example} has a recording, but it cannot be replayed: {problem}",
    "Let the runner reach the package index once (it installs vcrpy into its cache), then run again.",
    """
Replaying needs vcrpy, which the runner installs into its cache (not into the plugin's
environment) the first time a recording is replayed. It could not: the example ran offline, without
its recording.
""",
)


def marker(name: str) -> str:
    """The marker of a credential (the child's recorder spells it the same way)."""
    return MARKER_PREFIX + "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def env_name(value: Any) -> str | None:
    """The environment variable a credential names (`{env: NAME}`), or None for a written value."""
    if isinstance(value, Mapping) and set(value) == {"env"} and isinstance(value["env"], str):
        return value["env"]
    return None


def missing_variables(examples: Sequence[Example], environ: Mapping[str, str]) -> list[str]:
    """The variables the examples' credentials name that the environment does not set."""
    named = [env_name(v) for example in examples for v in example.credentials.values()]
    return sorted({name for name in named if name and not environ.get(name)})


def run_credentials(example: Example, recording: bool, environ: Mapping[str, str]) -> dict[str, Any]:
    """The credentials the tool gets: written values as written; a variable's value when recording,
    else its marker."""
    given: dict[str, Any] = {}
    for name, value in example.credentials.items():
        variable = env_name(value)
        if variable is None:
            given[name] = value
        else:
            given[name] = environ.get(variable, "") if recording else marker(name)
    return given


def secrets(example: Example, given: Mapping[str, Any], secret_names: Sequence[str]) -> dict[str, str]:
    """The credential values the recorder replaces, as text: every value read from the environment,
    and the written value of every credential the provider declares `secret-input`. Other written
    values (a base URL, a user name) stay: the examples file shows them already, and a replayed
    tool needs them as they are to build its requests."""
    chosen = {name for name, value in example.credentials.items() if env_name(value)} | set(secret_names)
    return {
        name: str(value)
        for name, value in given.items()
        if name in chosen and value not in (None, "", True, False) and str(value) != marker(name)
    }


def inputs_digest(example: Example) -> str:
    """What the example was run with: inputs, input files and the credentials' names."""
    files = {
        name: [hashlib.sha256(f.data).hexdigest() for f in (group if isinstance(group, tuple) else (group,))]
        for name, group in example.files.items()
    }
    data = {"inputs": dict(example.inputs), "files": files, "credentials": sorted(example.credentials)}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()


def code_digest(reader: PluginReader) -> str:
    """The plugin's Python files, by path and content (recordings store it: keep it stable).
    Asked for each replayed example: computed once per plugin, from the reader's snapshot."""
    return reader.derived("code-digest", "", lambda: _code_digest(reader))


def _code_digest(reader: PluginReader) -> str:
    digest = hashlib.sha256()
    for file in reader.local_files():
        if not file.relative.endswith(".py") or file.is_link:
            continue
        data = reader.listed_head(file, MAX_HASHED_BYTES, keep=False)
        if data is not None:
            digest.update(file.relative.encode() + b"\0")
            digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def http_job(mode: str, overlay: Path, hidden: Mapping[str, str], recording: Recording | None) -> Http:
    """The task's `http` part for the child's recorder; `hidden` are the values to replace."""
    return Http(
        mode=mode,
        overlay=str(overlay),
        secrets=tuple((value, marker(name)) for name, value in hidden.items()),
        interactions=list(recording.interactions) if recording else [],
    )


def _requests(events: Sequence[Event]) -> tuple[str, ...]:
    return tuple(f"{e.method} {e.url}"[:500] for e in events if isinstance(e, Exchange))


def replay_of(events: Sequence[Event], recording: Recording | None, recorded: bool) -> Replay | None:
    """What the run did with its recording, for the page."""
    if recorded:
        return Replay(datetime.now(UTC).strftime("%Y-%m-%d"), _requests(events), recorded=True)
    if recording is None:
        return None
    return Replay(recording.recorded_at[:10], _requests(events))


def _closest(method: str, url: str, recording: Recording) -> str:
    recorded = [f"{i['request']['method']} {i['request']['url']}" for i in recording.interactions]
    close = difflib.get_close_matches(f"{method} {url}", recorded, n=1, cutoff=0.0)
    return f"; the closest recorded request is {Phrase(close[0][:300])}" if close else ""


def replay_findings(
    unmatched: Sequence[Unmatched],
    recording: Recording,
    example: Example,
    tool: Tool,
    loaded: LoadedPlugin,
    where: Location,
) -> list[Finding]:
    """Requests without an answer (one finding per request), and a stale recording."""
    findings: list[Finding] = []
    seen: set[str] = set()
    for event in unmatched:
        method, url = event.method, event.url
        if f"{method} {url}" in seen:
            continue
        seen.add(f"{method} {url}")
        shown = Phrase(f"{method} {urllib.parse.unquote(url)[:300]}")
        closest = _closest(method, url, recording)
        findings.append(
            UNMATCHED.at(where, example=example.name, request=shown, closest=closest, tool=tool.name)
        )
        if len(seen) >= 10:
            break
    changed = []
    if recording.inputs_sha256 != inputs_digest(example):
        changed.append("the example's inputs changed since")
    if recording.code_sha256 != code_digest(loaded.reader):
        changed.append("the plugin's Python code changed since")
    if changed:
        findings.append(
            STALE.at(
                where,
                example=example.name,
                recorded=recording.recorded_at[:10],
                what=Phrase(" and ".join(changed)),
                tool=tool.name,
            )
        )
    return findings


def recorded_interactions(events: Sequence[Event]) -> list[dict[str, Any]] | None:
    """The interactions the child recorded, or None when it sent none."""
    for event in events:
        if isinstance(event, Recorded):
            return list(event.interactions)
    return None


def _scrubbed(text: str, values: Mapping[str, str]) -> str:
    """`text` with every spelling of every value replaced, as a last line of defence."""
    for name, value in sorted(values.items(), key=lambda item: len(item[1]), reverse=True):
        for form in {value, urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)}:
            text = text.replace(form, marker(name))
            text = text.replace(json.dumps(form)[1:-1], marker(name))
    return text


def hide_in(value: Any, hidden: Mapping[str, str]) -> Any:
    """A JSON-like value with every spelling of the hidden values replaced by their markers: a
    recording run talks to the real API, which may echo a credential back into the outputs."""
    if not hidden:
        return value
    if isinstance(value, str):
        return _scrubbed(value, hidden)
    if isinstance(value, Mapping):
        return {hide_in(k, hidden): hide_in(v, hidden) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [hide_in(item, hidden) for item in value]
    return value


class _Dumper(yaml.SafeDumper):
    """Safe YAML with multi-line texts (JSON lines, HTML) as literal blocks, readable in a diff."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and "\r" not in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def write_recording(
    loaded: LoadedPlugin,
    tool: Tool,
    example: Example,
    interactions: list[dict[str, Any]],
    hidden: Mapping[str, str],
) -> Path:
    """Write the example's recording (replacing an older one); returns its path."""
    data = {
        "format": RECORDING_FORMAT,
        "recorded_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "plugin_version": loaded.plugin.version if loaded.plugin else "",
        "tool": tool.name,
        "example": example.name,
        "inputs_sha256": inputs_digest(example),
        "code_sha256": code_digest(loaded.reader),
        "interactions": interactions,
    }
    text = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
    text = _scrubbed(text, hidden)
    path = examples_root(loaded, tool) / recording_path(tool, example.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(RECORDING_HEADER + text, encoding="utf-8")
    temporary.replace(path)
    return path
