"""Read a trigger event's examples file (`events/<event>/<event>.examples.yaml`): each example is a
webhook delivery (method, headers, body) with the subscription's properties and the event's
parameters, and what the event must make of it.

A delivery cannot be guessed, so an event without an examples file is never run. The file is the
plugin's own or, for a plugin the registry does not own, the registry's overlay
(`overlays/<author>/<plugin>/events/<event>/<event>.examples.yaml`, `registry_examples.py`).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from generator.findings import Finding, Location, Severity
from generator.load.examples import (
    MAX_EXAMPLES,
    MAX_EXAMPLES_BYTES,
    entry_parts,
    examples_path,
    unknown_keys,
)
from generator.load.yamlload import YamlDocument, read_yaml
from generator.plugin_model import I18n
from generator.rules import rule

if TYPE_CHECKING:
    from generator.kind_models.trigger import Event, TriggerProvider
    from generator.load.crawl import LoadedPlugin
    from generator.plugin_model import Plugin

# GitHub caps a webhook payload at 25 MB ("Payloads are capped at 25 MB", its webhook docs) and
# drops larger deliveries; no service sends Dify more. A larger body is refused unread.
MAX_BODY_BYTES = 25 * 1024 * 1024
METHODS = ("POST", "GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
# The keys trigger_event_examples.json allows (a test keeps them equal).
EXAMPLE_KEYS = ("name", "description", "request", "properties", "parameters", "expect")
REQUEST_KEYS = ("method", "path", "query", "headers", "body", "body_file", "body_text")
EXPECT_KEYS = ("ignored", "variables")
BODIES = ("body", "body_file", "body_text")
# An HTTP token without `_`: the SDK's `deserialize_request` refuses a header name with an underscore.
HEADER_NAME = re.compile(r"^[A-Za-z0-9!#$%&'*+.^`|~-]+$")

BAD_EVENT_EXAMPLES = rule(
    "R101",
    "event-examples-file-invalid",
    Severity.ERROR,
    "event examples file: {problem}",
    "Follow the format of https://dify.ai/schemas/v1/trigger_event_examples.json.",
    """
An event's examples file holds named webhook deliveries: `request` (`method`, default POST;
`headers`; one of `body_file`, a file relative to the examples file, `body`, JSON written in the
YAML, or `body_text`; a `body` or a `.json` body file is sent with `Content-Type: application/json`
unless the headers name a type), `properties` (the subscription's values of the provider's
`subscription_schema`), `parameters` (the event's) and `expect` (`ignored`, `variables`). An
example that cannot be used as written (no unique `name`, a part that is not a mapping, a body file
missing, outside the plugin or larger than 25 MB, GitHub's cap on a delivery, more than one body, a
header name with an underscore, which the SDK's HTTP parser refuses, or a line break in a header)
is skipped and the rest still run; a key the format does not know is reported and the example runs
without it. Only the first 100 examples of a file are read.
""",
)


@dataclass(frozen=True, slots=True)
class Delivery:
    """The HTTP request a service sends to the subscription's endpoint."""

    method: str
    target: str  # the path with its query string
    headers: tuple[tuple[str, str], ...]
    body: bytes
    body_file: str = ""  # the file the body was read from (plugin-relative), "" when written inline

    def raw(self) -> bytes:
        """The request as bytes on the wire, as Dify hands it to the plugin (`raw_http_request`)."""
        named = {name.lower() for name, _ in self.headers}
        lines = [f"{self.method} {self.target} HTTP/1.1"]
        lines += [] if "host" in named else ["Host: registry.invalid"]
        lines += [f"{name}: {value}" for name, value in self.headers]
        lines += [] if "content-length" in named else [f"Content-Length: {len(self.body)}"]
        return "\r\n".join(lines).encode("latin-1", "replace") + b"\r\n\r\n" + self.body


@dataclass(frozen=True, slots=True)
class EventExample:
    """One named delivery of an event."""

    name: str
    delivery: Delivery
    properties: MappingProxyType[str, Any]
    parameters: MappingProxyType[str, Any]
    expect: MappingProxyType[str, Any]
    origin: Location
    source_file: str = ""
    raw: Any = field(default=None, compare=False)
    description: I18n = field(default_factory=I18n)


def plugin_events(plugin: Plugin) -> tuple[Event, ...]:
    """Every event of every trigger provider of the plugin, in manifest order."""
    from generator.kind_models.trigger import TriggerProvider

    return tuple(event for provider in plugin.parts_of(TriggerProvider) for event in provider.events)


def event_provider(plugin: Plugin, event: Event) -> TriggerProvider | None:
    """The trigger provider an event belongs to."""
    from generator.kind_models.trigger import TriggerProvider

    return next((p for p in plugin.parts_of(TriggerProvider) if event in p.events), None)


def load_event_examples(loaded: LoadedPlugin, event: Event) -> tuple[list[EventExample], list[Finding]]:
    """The event's examples (the plugin's own file, else the registry's overlay), and the findings
    of reading them; none when neither exists."""
    relative = examples_path(event)
    overlay = loaded.registry_examples
    source = loaded
    if not loaded.reader.is_file(relative):
        if overlay is None or relative not in overlay.supplied:
            return [], []
        source = overlay.as_plugin(loaded)
    read, findings = source.reader.derived("event-examples", relative, lambda: _read(source, relative))
    return list(read), list(findings)


def _read(loaded: LoadedPlugin, relative: str) -> tuple[tuple[EventExample, ...], tuple[Finding, ...]]:
    raw = loaded.reader.head(relative, MAX_EXAMPLES_BYTES) or b""
    document = read_yaml(raw, loaded.display_path(relative))
    findings = list(document.findings)
    if not document.ok:
        return (), tuple(findings)
    entries = document.data.get("examples") if isinstance(document.data, dict) else None
    if not isinstance(entries, list):
        findings.append(
            BAD_EVENT_EXAMPLES.at(document.at(), problem="expected a mapping with an `examples` list")
        )
        return (), tuple(findings)
    seen: set[str] = set()
    examples = [
        example
        for index, entry in enumerate(entries[:MAX_EXAMPLES])
        if (example := _example(loaded, relative, document, index, entry, seen, findings)) is not None
    ]
    if len(entries) > MAX_EXAMPLES:
        problem = f"the file holds {len(entries)} examples; only the first {MAX_EXAMPLES} are read and run"
        findings.append(BAD_EVENT_EXAMPLES.at(document.at("examples", MAX_EXAMPLES), problem=problem))
    return tuple(examples), tuple(findings)


def _example(
    loaded: LoadedPlugin,
    relative: str,
    document: YamlDocument,
    index: int,
    entry: Any,
    seen: set[str],
    findings: list[Finding],
) -> EventExample | None:
    where = document.at("examples", index)
    keys = ("request", "properties", "parameters", "expect")
    shaped = entry_parts(document, index, entry, seen, keys, BAD_EVENT_EXAMPLES)
    if isinstance(shaped, Finding):
        findings.append(shaped)
        return None
    name, parts = shaped
    at = ("examples", index)
    findings.extend(unknown_keys(document, at, entry, EXAMPLE_KEYS, name, BAD_EVENT_EXAMPLES))
    for key, known in (("request", REQUEST_KEYS), ("expect", EXPECT_KEYS)):
        findings.extend(unknown_keys(document, (*at, key), parts[key], known, name, BAD_EVENT_EXAMPLES))
    delivery = _delivery(loaded, relative, parts["request"], name)
    if isinstance(delivery, tuple):
        problem, *inside = delivery
        findings.append(BAD_EVENT_EXAMPLES.at(document.at(*at, "request", *inside), problem=problem))
        return None
    return EventExample(
        name=name,
        delivery=delivery,
        properties=MappingProxyType(dict(parts["properties"])),
        parameters=MappingProxyType(dict(parts["parameters"])),
        expect=MappingProxyType(dict(parts["expect"])),
        origin=where,
        source_file=document.path,
        raw=entry,
        description=I18n.of(entry.get("description")),
    )


def _delivery(
    loaded: LoadedPlugin, relative: str, request: dict[str, Any], name: str
) -> Delivery | tuple[str, ...]:
    """The delivery an example's `request` describes, or (what is wrong, the key it is at)."""
    method = request.get("method", "POST")
    if not isinstance(method, str) or method.upper() not in METHODS:
        return (f"example {name}: `method` must be one of {', '.join(METHODS)}", "method")
    headers = request.get("headers") or {}
    if not isinstance(headers, dict) or not all(_scalar(v) for v in headers.values()):
        return (f"example {name}: `headers` must map header names to texts", "headers")
    for header, value in headers.items():
        # a name the SDK's HTTP parser refuses, or a line break that would split the request
        if not HEADER_NAME.match(str(header)) or any(c in _text(value) for c in "\r\n\0"):
            problem = f"example {name}: {str(header)[:80]!r} is not a valid HTTP header (name or value)"
            return (problem, "headers", str(header))
    target = _target(request)
    if target is None:
        return (f"example {name}: `path` must start with / and `query` be a mapping of texts", "path")
    given = [key for key in BODIES if key in request]
    if len(given) > 1:
        return (f"example {name}: give one of {', '.join(BODIES)}, not {' and '.join(given)}", given[1])
    pairs = tuple((str(k), _text(v)) for k, v in headers.items())
    body, body_file = b"", ""
    if given == ["body_text"]:
        if not isinstance(request["body_text"], str):
            return (f"example {name}: `body_text` must be a text", "body_text")
        body = request["body_text"].encode("utf-8")
    elif given == ["body"]:
        try:
            body = json.dumps(request["body"], ensure_ascii=False).encode("utf-8")
        except (TypeError, ValueError, RecursionError) as problem:
            return (f"example {name}: `body` cannot be written as JSON: {problem}", "body")
        pairs = _with_json_type(pairs)
    elif given == ["body_file"]:
        read = _body_file(loaded, relative, request["body_file"], name)
        if isinstance(read, str):
            return (read, "body_file")
        body_file, body = read
        pairs = _with_json_type(pairs) if body_file.lower().endswith(".json") else pairs
    return Delivery(method.upper(), target, pairs, body, body_file)


def _target(request: dict[str, Any]) -> str | None:
    path = request.get("path", "/")
    query = request.get("query") or {}
    if not isinstance(path, str) or not path.startswith("/") or not isinstance(query, dict):
        return None
    if not all(_scalar(v) for v in query.values()) or any(c in path for c in " ?#\r\n"):
        return None
    return path + ("?" + urlencode({str(k): _text(v) for k, v in query.items()}) if query else "")


def _body_file(loaded: LoadedPlugin, relative: str, named: Any, name: str) -> tuple[str, bytes] | str:
    """(the plugin-relative path, its bytes) of a body file named relative to the examples file."""
    if not isinstance(named, str) or not named:
        return f"example {name}: `body_file` must be a path relative to the examples file"
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(relative), named))
    resolved = loaded.reader.resolve(joined)
    if resolved.path is None:
        return f"example {name}: body file {named!r} is not inside the plugin: {resolved.problem}"
    if not loaded.reader.is_file(resolved.relative):
        return f"example {name}: body file {named!r} does not exist"
    size = loaded.reader.size(resolved.relative) or 0
    if size > MAX_BODY_BYTES:
        return (
            f"example {name}: body file {named!r} holds {size} bytes, more than the {MAX_BODY_BYTES} "
            "a service delivers; it was not read"
        )
    data = loaded.reader.head(resolved.relative, MAX_BODY_BYTES, keep=False)
    if data is None:
        why = loaded.reader.why_unreadable(resolved.relative)
        return f"example {name}: body file {named!r} cannot be read: {why}"
    return resolved.relative, data


def _with_json_type(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """A JSON body (`body`, or a `.json` body file) is sent as JSON, as services send their
    deliveries, unless the example names another type."""
    if any(name.lower() == "content-type" for name, _ in headers):
        return headers
    return (*headers, ("Content-Type", "application/json"))


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
