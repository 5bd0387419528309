"""Lint every tool's, datasource's and event's inline `output_schema`, resolving its `$ref`s offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from generator.check import CheckContext
from generator.findings import Finding, Location
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument
from generator.rules import Listing, Phrase
from generator.schemas import SchemaSet, shipped_schemas
from generator.schemas.inline import lint_output_schema
from generator.schemas.lint import INLINE, NULLABLE
from generator.schemas.walk import Locator, Parts

ROLES_WITH_OUTPUT_SCHEMA = ("tool", "datasource", "event")
MAX_REMEMBERED = 32 * 1024  # characters of a schema's JSON; larger ones are linted each time
Places = tuple[tuple[Parts, bool], ...]
Linted = tuple[list[Finding], Places]
NULLABLE_INLINE = INLINE(NULLABLE)
_NULLABLE_ALL = 'At each place listed, add null to the type (`type: [string, "null"]`) and remove `nullable`.'


def _locator(document: YamlDocument) -> Locator:
    def locate(parts: Parts, key: bool) -> Location:
        full = ("output_schema", *parts)
        return document.key_at(*full) if key else document.at(*full)

    return locate


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterator[Finding]:
    """Findings on each `output_schema` of the plugin's tool, datasource and event YAMLs."""
    schemas: SchemaSet = context.schemas or shipped_schemas()
    nullable: list[tuple[str, Finding]] = []
    for relative, role in loaded.roles.items():
        document = loaded.documents.get(relative)
        if role not in ROLES_WITH_OUTPUT_SCHEMA or document is None or not isinstance(document.data, dict):
            continue
        if "output_schema" in document.data:
            value = document.data["output_schema"]
            findings, places = _lint_once(value, schemas, context.memo.setdefault(__name__, {}))
            for finding in _placed(findings, places, _locator(document)):
                if finding.rule == NULLABLE_INLINE.code:
                    nullable.append((relative, finding))
                else:
                    yield finding
    yield from _nullable_once(nullable)


def _nullable_once(found: list[tuple[str, Finding]]) -> Iterator[Finding]:
    """O016 once per plugin: a plugin written against OpenAPI puts `nullable` on every property
    (hundreds of findings saying one thing), so the first place lists them all."""
    if len(found) < 2:
        yield from (finding for _relative, finding in found)
        return
    first = found[0][1]
    files = len({relative for relative, _finding in found})
    shown = Listing([f"{relative}:{finding.line}" for relative, finding in found], most=10)
    where = Location(first.file, first.line, first.column, first.pointer)
    places = Phrase(f" (used {len(found)} times in {files} file{'s' if files > 1 else ''}: {shown})")
    yield NULLABLE_INLINE.at(where, hint=_NULLABLE_ALL, places=places)


def _lint_once(value: Any, schemas: SchemaSet, memo: dict[str, Linted]) -> Linted:
    """The findings on `value` with the places they point at, linted once per distinct schema: tools
    repeat schemas (the same `$ref` and fields), and the lint only depends on the schema's content."""
    try:
        # Not sorted: findings follow the schema's key order, so a different order is another schema.
        key = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        key = ""
    if len(key) > MAX_REMEMBERED:
        key = ""
    linted = memo.get(key) if key else None
    if linted is None:
        places: list[tuple[Parts, bool]] = []

        def record(parts: Parts, is_key: bool) -> Location:
            places.append((parts, is_key))
            return Location("", len(places) - 1)  # the line stands for the place's index

        linted = (lint_output_schema(value, schemas, record), tuple(places))
        if key:
            memo[key] = linted
    return linted


def _placed(findings: list[Finding], places: Places, locate: Locator) -> Iterator[Finding]:
    for finding in findings:
        where = locate(*places[finding.line])
        yield replace(finding, file=where.file, line=where.line, column=where.column, pointer=where.pointer)
