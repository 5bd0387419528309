"""Read the recording of an example (`tools/<tool>.recordings/<example>.yaml`): the HTTP exchanges
that a run with network made, replayed in later runs. A recording is a stranger's file like any
other of a plugin: read through the bounded YAML reader, inside the plugin only, checked against the
published schema, with limits on interactions and bodies."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath
from typing import Any

import jsonschema

from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument, pointer_of, read_yaml
from generator.plugin_model import Tool
from generator.rules import rule
from generator.shipped import shipped_schemas_root

RECORDING_SCHEMA = shipped_schemas_root() / "v1" / "tool_recording.json"
RECORDING_FORMAT = 1
MAX_INTERACTIONS = 200
MAX_BODY_BYTES = 4 * 1024 * 1024
MAX_SCHEMA_FINDINGS = 20

BAD_RECORDING = rule(
    "R043",
    "recording-invalid",
    Severity.ERROR,
    "recording {path}: {problem}",
    "Record the example again (dify-registry run PATH --record --tool TOOL --example EXAMPLE); "
    "see docs/recording.",
    """
The recording of an example cannot be used: it is not valid YAML, does not follow the recording
format (https://dify.ai/schemas/v1/tool_recording.json), holds more than 200 interactions or a body
over 4 MiB, or lies outside the plugin. The example runs without it, as an offline run.
""",
)


@dataclass(frozen=True, slots=True)
class Recording:
    """An example's recorded HTTP exchanges and what they were recorded with."""

    path: str
    recorded_at: str
    plugin_version: str
    inputs_sha256: str
    code_sha256: str
    interactions: tuple[dict[str, Any], ...]
    origin: Location


def recordings_folder(tool: Tool) -> str:
    """The folder of a tool's recordings, beside its YAML (`tools/x.yaml` -> `tools/x.recordings`)."""
    path = PurePosixPath(tool.file)
    return str(path.with_name(path.stem + ".recordings"))


def recording_path(tool: Tool, example: str) -> str:
    """Where the recording of one example lives, relative to the plugin root."""
    return f"{recordings_folder(tool)}/{example}.yaml"


@cache
def _validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads(RECORDING_SCHEMA.read_text(encoding="utf-8")))


def load_recording(loaded: LoadedPlugin, tool: Tool, example: str) -> tuple[Recording | None, list[Finding]]:
    """The example's recording, None when it has none, and the findings of reading it."""
    relative = recording_path(tool, example)
    overlay = loaded.registry_examples
    if overlay is not None and not loaded.reader.is_file(relative) and overlay.reader.is_file(relative):
        loaded = overlay.as_plugin(loaded)  # the registry's recording, beside its examples
    shown = loaded.display_path(relative)
    resolved = loaded.reader.resolve(relative)
    if resolved.path is None:
        where = Location(shown, 1, 1)
        return None, [BAD_RECORDING.at(where, path=relative, problem=resolved.problem or "refused")]
    if not loaded.reader.is_file(relative):
        return None, []
    document = read_yaml(loaded.reader.head(relative, 8 * 1024 * 1024 + 1) or b"", shown)
    findings = list(document.findings)
    if not document.ok:
        return None, findings
    problems = _problems(document)
    if problems:
        return None, [*findings, *(BAD_RECORDING.at(w, path=relative, problem=p) for w, p in problems)]
    data = document.data
    recording = Recording(
        path=relative,
        recorded_at=str(data["recorded_at"]),
        plugin_version=str(data.get("plugin_version", "")),
        inputs_sha256=str(data["inputs_sha256"]),
        code_sha256=str(data["code_sha256"]),
        interactions=tuple(data["interactions"]),
        origin=document.at(),
    )
    return recording, findings


def _problems(document: YamlDocument) -> list[tuple[Location, str]]:
    """Where the recording breaks the format or the limits, and how."""
    found: list[tuple[Location, str]] = []
    for error in _validator().iter_errors(document.data):
        path = list(error.absolute_path)
        found.append(
            (
                document.locate(pointer_of(*path)),
                f"{'/'.join(map(str, path)) or 'the file'}: {error.message[:200]}",
            )
        )
        if len(found) >= MAX_SCHEMA_FINDINGS:
            return found
    if found:
        return found
    interactions = document.data["interactions"]
    if len(interactions) > MAX_INTERACTIONS:
        where = document.at("interactions", MAX_INTERACTIONS)
        return [(where, f"{len(interactions)} interactions, over the limit of {MAX_INTERACTIONS}")]
    for index, interaction in enumerate(interactions):
        for side in ("request", "response"):
            body = interaction[side].get("body") or {}
            size = _body_size(body)
            if size is None:
                found.append(
                    (document.at("interactions", index, side, "body"), "the base64 body is not base64")
                )
            elif size > MAX_BODY_BYTES:
                where = document.at("interactions", index, side, "body")
                found.append((where, f"a body of {size} bytes, over the limit of {MAX_BODY_BYTES}"))
    return found


def _body_size(body: dict[str, Any]) -> int | None:
    if "base64" in body:
        try:
            return len(base64.b64decode(str(body["base64"]), validate=True))
        except (binascii.Error, ValueError):
            return None
    return len(str(body.get("text", "")).encode("utf-8"))
