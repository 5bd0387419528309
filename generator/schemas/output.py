"""Check a tool's actual output against its `output_schema`, with hosted references resolved."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag

from jsonschema.exceptions import SchemaError, UnknownType
from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from generator.schemas.dialect import declared_types, metaschema_errors, validator_class
from generator.schemas.patterns import BoundedPatterns, bounded_validator_class
from generator.schemas.refs import INLINE_URI, MALFORMED, RefKind, RefReport, analyse
from generator.schemas.schema_set import SchemaSet
from generator.shorten import MESSAGE, shorten

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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


def schema_validator(schema: Any, schemas: SchemaSet, patterns: BoundedPatterns) -> Validator:
    """A validator for `schema` whose references resolve in the hosted registry only, and whose
    regular expressions run within the time budget of `patterns`."""
    cls = bounded_validator_class(validator_class(schema), patterns)
    validator: Validator = cls(schema, registry=schemas.registry)
    return validator


def usable_part(schema: Any, report: RefReport) -> tuple[Any, list[str]]:
    """`schema` without what a validator cannot apply, and the JSON pointers of what was left out.

    References that do not resolve and keywords that break the metaschema are dropped (Dify leaves
    such references in place and checks nothing), so the rest of the output is still checked. Only
    the containers on each dropped path are copied."""
    dropped = [tuple(ref.parts) for ref in report.problems]
    dropped += [tuple(error.absolute_path) for error in metaschema_errors(schema)]
    result = schema
    for path in dropped:
        if path:
            result = _without(result, path)
    return result, ["/" + "/".join(str(p) for p in path) for path in dropped]


def _without(schema: Any, path: tuple[str | int, ...]) -> Any:
    root = copy.copy(schema)
    parent = root
    try:
        for step in path[:-1]:
            child = copy.copy(parent[step])
            parent[step] = child
            parent = child
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = {}
    except (KeyError, IndexError, TypeError):  # already dropped with an enclosing part
        return schema
    return root


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
            notes.append(
                Mismatch(path, f"$ref {shorten(ref.ref, MESSAGE)} does not resolve; not checked", note=True)
            )
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
    usable, dropped = usable_part(schema, report)
    invalid = [p for p in dropped if not p.endswith("/$ref")]
    if invalid:
        where = ", ".join(invalid[:5])
        notes.append(
            Mismatch(
                "$",
                shorten(f"invalid parts of the output_schema were not checked: {where}", MESSAGE),
                note=True,
            )
        )
    patterns = BoundedPatterns()
    try:
        errors = sorted(
            schema_validator(usable, schemas, patterns).iter_errors(instance),
            key=lambda e: [str(p) for p in e.absolute_path],
        )
    except RecursionError:
        return [*notes, Mismatch("$", "the output nests too deep to be checked")]
    except Unresolvable as bad:
        return [
            *notes,
            Mismatch("$", f"checking stopped at an unresolvable reference: {shorten(str(bad), MESSAGE)}"),
        ]
    except (*MALFORMED, re.error, SchemaError, UnknownType) as bad:
        return [
            *notes,
            Mismatch("$", f"the output_schema could not be applied: {shorten(str(bad), MESSAGE)}"),
        ]
    notes.extend(
        Mismatch(
            "$", shorten(f"pattern {slow!r} takes too long to match; it was not applied", MESSAGE), note=True
        )
        for slow in patterns.slow
    )
    if patterns.budget <= 0 and not patterns.slow:
        notes.append(Mismatch("$", "matching patterns took too long; the rest were not applied", note=True))
    return [*notes, *(Mismatch(json_path(e.absolute_path), shorten(e.message, MESSAGE)) for e in errors)]
