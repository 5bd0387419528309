"""Turn a tool's messages into workflow outputs exactly as Dify's tool node does.

Pure data in, data out: no child process is involved, so the rules are tested with tables of
message sequences. Messages arrive as Dify decodes them from the SDK's JSON frames (see the
harness): what the SDK cannot serialise never gets here, and is judged with the run's outcome.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.findings import Finding, Location, Severity
from generator.plugin_model import FIXED_OUTPUTS
from generator.rules import rule
from generator.run.runtypes import OutputFile, RunMessage

DEFAULT_BLOB_MIME = "application/octet-stream"
# Which SDK payload class belongs to which message type (dify_plugin.entities.invoke_message).
PAYLOAD_KIND = {
    "text": "TextMessage",
    "link": "TextMessage",
    "image": "TextMessage",
    "image_link": "TextMessage",
    "json": "JsonMessage",
    "blob": "BlobMessage",
    "variable": "VariableMessage",
    "log": "LogMessage",
    "retriever_resources": "RetrieverResourceMessage",
}

RESERVED_VARIABLE = rule(
    "R010",
    "reserved-variable-name",
    Severity.ERROR,
    "message {index} sets variable {name!s}, a name Dify reserves for its fixed outputs",
    "Rename the variable: `text`, `files` and `json` are the tool node's own outputs.",
    """
Dify refuses a variable message named `text`, `files` or `json` while reading the tool's
messages: those names are the tool node's fixed outputs, and the run fails.
""",
)
STREAM_NOT_TEXT = rule(
    "R012",
    "stream-variable-not-string",
    Severity.ERROR,
    "message {index} streams into variable {name!s}: {problem}",
    "Stream only strings with create_stream_variable_message, into a variable that holds a string.",
    """
Stream variable messages are appended to a string. Dify refuses a streamed value that is not a
string, and appending to a variable that holds something else fails.
""",
)
PAYLOAD_MISMATCH = rule(
    "R013",
    "payload-type-mismatch",
    Severity.ERROR,
    "message {index} has type {type!s} but carries {kind!s}",
    "Build messages with the SDK's create_*_message helpers instead of constructing them by hand.",
    """
The SDK does not check that a message's payload matches its type; Dify reads the payload
according to the type and fails (or silently drops the message) when they disagree.
""",
)


@dataclass(frozen=True, slots=True)
class Assembly:
    """The outputs Dify would hand to the next node, and what Dify would refuse on the way."""

    outputs: dict[str, Any]
    findings: tuple[Finding, ...]


def file_type(mime_type: str) -> str:
    """Dify's file type for a MIME type (image, video, audio, else document)."""
    for kind in ("image", "video", "audio"):
        if mime_type.startswith(kind + "/"):
            return kind
    return "document"


def file_descriptor(stored: OutputFile, site_url: str) -> dict[str, Any]:
    """The file object a blob becomes in the `files` output."""
    mime_type = stored.mime_type or DEFAULT_BLOB_MIME
    return {
        "type": file_type(mime_type),
        "transfer_method": "tool_file",
        "filename": stored.filename,
        "extension": posixpath.splitext(stored.filename)[1],
        "mime_type": mime_type,
        "size": stored.size,
        "url": site_url + stored.site_path,
    }


def image_descriptor(url: str) -> dict[str, Any]:
    """The file object an image message becomes (Dify downloads it; the registry keeps the URL)."""
    name = posixpath.basename(url.split("?", 1)[0]) or "image"
    return {"type": "image", "transfer_method": "remote_url", "filename": name, "url": url}


class _Assembler:
    def __init__(self, where: Location, files: Sequence[OutputFile], site_url: str) -> None:
        self.where = where
        self.files = files
        self.site_url = site_url
        self.text: list[str] = []
        self.files_out: list[dict[str, Any]] = []
        self.json: list[Any] = []
        self.variables: dict[str, Any] = {}
        self.findings: list[Finding] = []

    def add(self, index: int, message: RunMessage) -> None:
        expected = PAYLOAD_KIND.get(message.type)
        payload = message.payload if isinstance(message.payload, dict) else {}
        if expected is None or (message.kind and message.kind != expected):
            shown = message.kind or "an unknown payload"
            self.findings.append(PAYLOAD_MISMATCH.at(self.where, index=index, type=message.type, kind=shown))
            return
        handler = getattr(self, "_" + message.type)
        handler(index, message, payload)

    def _text(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        if self._textual(index, message, payload):
            self.text.append(payload["text"])

    def _link(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        if self._textual(index, message, payload):
            self.text.append(f"Link: {payload['text']}\n")

    def _image(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        if self._textual(index, message, payload):
            self.files_out.append(image_descriptor(payload["text"]))

    _image_link = _image

    def _textual(self, index: int, message: RunMessage, payload: dict[str, Any]) -> bool:
        if isinstance(payload.get("text"), str):
            return True
        self.findings.append(PAYLOAD_MISMATCH.at(self.where, index=index, type=message.type, kind="no text"))
        return False

    def _json(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        value = payload.get("json_object")
        if value:
            self.json.append(value)

    def _blob(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        reference = payload.get("blob")
        number = reference.get("file") if isinstance(reference, dict) else None
        if not isinstance(number, int) or not 0 <= number < len(self.files):
            self.findings.append(PAYLOAD_MISMATCH.at(self.where, index=index, type="blob", kind="no bytes"))
            return
        self.files_out.append(file_descriptor(self.files[number], self.site_url))

    def _variable(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        name = payload.get("variable_name")
        value = payload.get("variable_value")
        if not isinstance(name, str):
            self.findings.append(
                PAYLOAD_MISMATCH.at(self.where, index=index, type="variable", kind="no variable name")
            )
            return
        if name in FIXED_OUTPUTS:
            self.findings.append(RESERVED_VARIABLE.at(self.where, index=index, name=name))
            return
        if payload.get("stream"):
            self._stream(index, name, value)
            return
        self.variables[name] = value

    def _stream(self, index: int, name: str, value: Any) -> None:
        current = self.variables.get(name, "")
        if not isinstance(value, str):
            problem = f"the value is {_kind(value)}, not a string"
        elif not isinstance(current, str):
            problem = f"the variable already holds {_kind(current)}"
        else:
            self.variables[name] = current + value
            return
        self.findings.append(STREAM_NOT_TEXT.at(self.where, index=index, name=name, problem=problem))

    def _log(self, index: int, message: RunMessage, payload: dict[str, Any]) -> None:
        """Logs are shown in Dify's run panel but never become variables."""

    _retriever_resources = _log

    def result(self) -> Assembly:
        outputs: dict[str, Any] = {
            "text": "".join(self.text),
            "files": self.files_out,
            "json": self.json or [{"data": []}],
            **self.variables,
        }
        return Assembly(outputs, tuple(self.findings))


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def assemble(
    messages: Sequence[RunMessage], where: Location, files: Sequence[OutputFile] = (), site_url: str = ""
) -> Assembly:
    """The outputs `{"text", "files", "json", **variables}` and the findings on the way."""
    assembler = _Assembler(where, files, site_url)
    for index, message in enumerate(messages):
        assembler.add(index, message)
    return assembler.result()
