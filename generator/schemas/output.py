"""Check a tool's actual output against its `output_schema`, with hosted references resolved."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag

import referencing.jsonschema
from jsonschema import Draft7Validator
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

from generator.schemas.lint import declared_types
from generator.schemas.model import SchemaSet
from generator.schemas.refs import INLINE_URI, RefKind, RefReport, analyse, specification_of

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PLACEHOLDER_KINDS = (RefKind.UNKNOWN, RefKind.REMOTE, RefKind.OUTSIDE)
MAX_MESSAGE = 200


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One way the output differs from its schema, at a JSON path such as `$.result[0].content`.

    `note` marks remarks that are not failures of the output (a schema that checks little, a
    reference that could not be followed)."""

    path: str
    message: str
    note: bool = False


def json_path(parts: Iterable[str | int]) -> str:
    """`$`, then `.name`, `['odd name']` and `[index]` for each step."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _NAME.match(part):
            text += f".{part}"
        else:
            text += "['" + part.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return text


def schema_validator(schema: Any, schemas: SchemaSet, report: RefReport | None = None) -> Validator:
    """A validator for `schema` whose references resolve in the hosted registry only.

    References already known not to resolve to a document are bound to an empty schema, so the rest
    of the output is still checked; the caller reports them."""
    registry: Registry[Any] = schemas.registry
    for ref in report.problems if report else ():
        document = urldefrag(ref.target).url
        if ref.kind in _PLACEHOLDER_KINDS and document:
            registry = registry.with_resource(document, referencing.jsonschema.DRAFT7.create_resource({}))
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    cls: Any = Draft7Validator
    if isinstance(dialect, str) and specification_of(schema) is not referencing.jsonschema.DRAFT7:
        cls = validator_for(schema, default=Draft7Validator)
    validator: Validator = cls(schema, registry=registry)
    return validator


def _short(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _instance_path(parts: tuple[str | int, ...]) -> str | None:
    steps: list[str | int] = []
    index = 0
    while index < len(parts):
        key = parts[index]
        if key == "properties" and index + 1 < len(parts):
            steps.append(parts[index + 1])
            index += 2
        elif key == "items":
            steps.append(0)
            index += 1
        elif key == "$ref":
            index += 1
        else:
            return None
    return json_path(steps).replace("[0]", "[*]")


def _notes(report: RefReport, schema: Any, schemas: SchemaSet) -> list[Mismatch]:
    notes = []
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        hosted = schemas.get(schema["$id"])
        if hosted is not None and _checks_only_array(hosted.data):
            notes.append(Mismatch("$", _array_only(hosted.name), note=True))
    for ref in report.references:
        path = _instance_path(ref.parts) or "$"
        if ref.kind is not RefKind.RESOLVED:
            notes.append(Mismatch(path, f"$ref {_short(ref.ref)} does not resolve; not checked", note=True))
            continue
        hosted = schemas.get(ref.target)
        if hosted is not None and not urldefrag(ref.target).fragment and _checks_only_array(hosted.data):
            notes.append(Mismatch(path, _array_only(hosted.name), note=True))
    return notes


def _checks_only_array(schema: Any) -> bool:
    return isinstance(schema, dict) and declared_types(schema) == ("array",) and "items" not in schema


def _array_only(name: str) -> str:
    return (
        f"{name} checks only that the value is an array: it declares no items, and its properties"
        " are ignored for arrays"
    )


def validate_output(schema: Any, instance: Any, schemas: SchemaSet) -> list[Mismatch]:
    """Every mismatch between `instance` (a tool's outputs) and `schema`, plus notes; never raises."""
    if not isinstance(schema, dict | bool):
        return [
            Mismatch("$", "the output_schema is not a JSON Schema object; nothing was checked", note=True)
        ]
    report = analyse(schema, schemas, INLINE_URI)
    if not report.usable:
        return [Mismatch("$", "the output_schema has a reference loop or nests too deep; not checked")]
    notes = _notes(report, schema, schemas)
    validator = schema_validator(schema, schemas, report)
    try:
        errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    except RecursionError:
        return [*notes, Mismatch("$", "the output nests too deep to be checked")]
    except Unresolvable as bad:
        return [*notes, Mismatch("$", f"checking stopped at an unresolvable reference: {_short(str(bad))}")]
    return [*notes, *(Mismatch(json_path(e.absolute_path), _short(e.message)) for e in errors)]
