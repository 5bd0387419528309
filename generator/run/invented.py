"""Inputs the runner makes up: the smoke run of a tool without examples, and the run with only the
required parameters that every tool gets.

A made-up value proves only what does not depend on it (see `verdict.py`), so the values aim at
what a tool most plausibly accepts: its default, its first option, a number inside `min`/`max`,
and for file parameters a small real file of a type that fits the parameter's name.
"""

from __future__ import annotations

import io
import struct
import wave
import zlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from generator.load.examples import FILE_TYPES, Example, InputFile
from generator.plugin_model import Parameter, Tool

SMOKE = "smoke"
# Not a name an examples file can use (they start with a letter or digit), so it never collides.
REQUIRED_ONLY = "_required-only"
# Dify passes these as they are configured, or their default, or None (see `required_only_example`).
CONFIGURED_FORM = "form"


def _png() -> bytes:
    """A 1x1 white PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\xff\xff")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _wav() -> bytes:
    """A tenth of a second of silence, 8 kHz mono."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(8000)
        sound.writeframes(b"\x00\x00" * 800)
    return buffer.getvalue()


def _pdf() -> bytes:
    """A one-page PDF with one line of text and a correct cross-reference table."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length 44 >>\nstream\nBT /F1 12 Tf 20 50 Td (Sample text) Tj ET\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    return bytes(out)


# (words in the parameter's name or descriptions, file name, MIME type, maker), first match wins;
# a plain text file when nothing matches.
_SAMPLES: tuple[tuple[tuple[str, ...], str, str, Any], ...] = (
    (("image", "img", "photo", "picture", "png", "jpg", "jpeg"), "sample.png", "image/png", _png),
    (("audio", "voice", "speech", "sound", "wav", "mp3"), "sample.wav", "audio/wav", _wav),
    (("pdf",), "sample.pdf", "application/pdf", _pdf),
    (("csv", "excel", "xlsx", "spreadsheet", "table"), "sample.csv", "text/csv", lambda: b"a,b\n1,2\n"),
    (("json",), "sample.json", "application/json", lambda: b'{"sample": true}\n'),
    (("markdown", "md"), "sample.md", "text/markdown", lambda: b"# Sample\n\nSome text.\n"),
)


def sample_file(parameter: Parameter) -> InputFile:
    """A small real file whose type fits what the parameter's name and descriptions suggest."""
    texts = (parameter.name, parameter.label.en, parameter.human_description.en, parameter.llm_description)
    words = " ".join(texts).lower()
    tokens = set(words.replace("_", " ").replace("-", " ").split())
    for hints, filename, mime_type, make in _SAMPLES:
        if tokens.intersection(hints):
            return InputFile(filename, mime_type, make())
    return InputFile("sample.txt", "text/plain", b"Sample text for a tool run.\n")


def _number(parameter: Parameter) -> int | float:
    value: int | float = 1
    if parameter.minimum is not None and value < parameter.minimum:
        value = parameter.minimum
    if parameter.maximum is not None and value > parameter.maximum:
        value = parameter.maximum
    return int(value) if float(value).is_integer() else value


def placeholder(parameter: Parameter) -> Any:
    """A value for a parameter: its default, its first option(s), a number inside min/max, or a
    typed placeholder (None for files: they go under `files`)."""
    if parameter.default is not None:
        return form_value(parameter)  # cast as Dify casts a default
    if parameter.options:
        first = parameter.options[0].value
        return [first] if parameter.multiple else first
    if parameter.type == "number":
        return _number(parameter)
    if parameter.type in SELECTORS:
        return _selection(parameter)
    return {
        "boolean": False,
        "checkbox": False,
        "array": [],
        "object": {},
    }.get(parameter.type, None if parameter.type in FILE_TYPES else "example")


# Dify refuses a selector value that is not an object (`cast_parameter_value` in
# core/plugin/entities/parameters.py: "The selector must be a dictionary."), so a string would make
# the tool fail where no workflow can; these are the objects its editors store.
SELECTORS = ("model-selector", "app-selector")
_MODEL_TYPES = ("llm", "text-embedding", "rerank", "speech2text", "tts", "moderation")


def _selection(parameter: Parameter) -> dict[str, Any]:
    """A model (of the type the scope names, an LLM otherwise) or an app, as Dify passes one."""
    if parameter.type == "app-selector":
        return {"app_id": "example-app", "inputs": {}, "files": []}
    named = parameter.scope.partition("&")[0]
    return {
        "provider": "langgenius/openai/openai",
        "model": "gpt-4o-mini",
        "model_type": named if named in _MODEL_TYPES else "llm",
        "mode": "chat",
        "completion_params": {},
    }


def _invented_files(parameters: list[Parameter]) -> dict[str, tuple[InputFile, ...] | InputFile]:
    return {
        p.name: (sample_file(p),) if p.type == "files" else sample_file(p)
        for p in parameters
        if p.type in FILE_TYPES
    }


def smoke_example(tool: Tool) -> Example:
    """The one run of a tool that has no examples file, on invented inputs and no credentials."""
    named = [p for p in tool.parameters if p.name]
    inputs = {p.name: placeholder(p) for p in named if p.type not in FILE_TYPES}
    return Example(
        name=SMOKE,
        inputs=MappingProxyType({k: v for k, v in inputs.items() if v is not None}),
        credentials=MappingProxyType({}),
        files=MappingProxyType(_invented_files(named)),
        expect=MappingProxyType({}),
        smoke=True,
        origin=tool.origin,
    )


def required_only_example(tool: Tool, model: Example) -> Example | None:
    """The call Dify makes when a workflow user leaves every optional field empty, built on `model`
    (the tool's first example, or its smoke example): None when the tool has no optional parameter.

    Dify's tool node passes only the parameters the node configures (`ToolNode._generate_parameters`
    iterates `node_data.tool_parameters`), so an optional `llm` or `schema` parameter left empty is
    absent; a `form` parameter is set from the node's configuration or its default, and None when
    it has neither (`ToolManager._init_runtime_parameter`), and that key is present, cast by type
    (`form_value`).
    """
    named = [p for p in tool.parameters if p.name]
    optional = [p for p in named if not p.required]
    if not optional:
        return None
    kept = {p.name for p in named if p.required}
    inputs: dict[str, Any] = {k: v for k, v in model.inputs.items() if k in kept}
    inputs.update({p.name: form_value(p) for p in optional if p.form == CONFIGURED_FORM})
    files: Mapping[str, tuple[InputFile, ...] | InputFile] = {
        k: v for k, v in model.files.items() if k in kept
    }
    return Example(
        name=REQUIRED_ONLY,
        inputs=MappingProxyType(inputs),
        credentials=model.credentials,
        files=MappingProxyType(dict(files)),
        expect=MappingProxyType({}),
        smoke=model.smoke,
        origin=model.origin,
        source_file=model.source_file,
        raw=("required-only", model.raw),
        required_only=True,
    )


_AS_TEXT = ("string", "secret-input", "select")
_FALSE_WORDS = ("false", "no", "n", "0")


def form_value(parameter: Parameter) -> Any:
    """What Dify passes for a form parameter a workflow user left empty: its default, else nothing,
    cast as `cast_parameter_value` (api/core/plugin/entities/parameters.py) casts it: `None`
    becomes "" for string, secret-input and select and False for boolean, a declared default is cast
    to the parameter's type ("false"/"no"/"n"/"0" are False for a boolean, other text True), and
    other types keep None."""
    value = parameter.default
    if parameter.type in _AS_TEXT:
        return "" if value is None else value if isinstance(value, str) else str(value)
    if parameter.type == "boolean":
        if isinstance(value, str) and value.lower() in _FALSE_WORDS:
            return False
        return bool(value)
    return value
