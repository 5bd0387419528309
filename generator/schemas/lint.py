"""Lint of JSON Schemas: hosted schema files (rules `S...`) and tools' inline `output_schema` (`O...`).

Both get the same structural checks, defined once as twin rules with the same number. Severities
differ on purpose: Dify never validates a tool's `output_schema` (the daemon accepts any mapping
and the workflow engine never checks outputs against it), so almost every finding on an inline
schema is a warning; a defect in a schema this registry publishes breaks every consumer, so the
hosted twin is an error where the file would be unusable.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import referencing.jsonschema
from jsonschema import Draft7Validator

from generator.findings import Finding, Severity
from generator.published import SCHEMA_BASE
from generator.rules import Phrase, Rule, rule
from generator.schemas.dialect import declared_types, metaschema_errors, validator_class
from generator.schemas.patterns import BoundedPatterns
from generator.schemas.refs import MAX_REF_CHAIN, LoopKind, RefKind, RefReport, analyse
from generator.schemas.schema_set import SchemaSet
from generator.schemas.walk import MAX_SCHEMA_DEPTH, Locator, Parts, SchemaNode, walk
from generator.shorten import PROBLEM, shorten

JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
MAX_METASCHEMA_FINDINGS = 50
MAX_ENUM = 1000
# Keywords that only constrain values of one type; validators ignore them for any other type.
KEYWORD_TYPES: dict[str, str] = {
    **dict.fromkeys(
        (
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependencies",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ),
        "object",
    ),
    **dict.fromkeys(
        (
            "items",
            "additionalItems",
            "prefixItems",
            "contains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ),
        "array",
    ),
    **dict.fromkeys(("minLength", "maxLength", "pattern", "contentMediaType", "contentEncoding"), "string"),
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"), "number"),
}
_TYPED_ARRAY = re.compile(r"^\s*(?:array|list)\s*[\[<]\s*([A-Za-z]+)\s*[\]>]\s*$")
# The fields that make an object schema describe one of Dify's file objects.
_FILE_SHAPE = ("mime_type", "transfer_method")

_HOSTED_DOC = "\nOn a schema this registry publishes, the finding is shown on the schema's page."
_INLINE_DOC = (
    "\nDify does not validate `output_schema`: it only fills the workflow editor's variable picker, so"
    " this is a warning; but the schema does not say what its author meant."
)


def _twin(
    number: int,
    name: str,
    severities: tuple[Severity, Severity],
    message: str,
    hint: str,
    doc: str,
) -> tuple[Rule, Rule]:
    """The hosted-schema rule `S<number>` and the output-schema rule `O<number>` for one check."""
    hosted = rule(f"S{number:03d}", f"schema-{name}", severities[0], message, hint, doc + _HOSTED_DOC)
    inline = rule(f"O{number:03d}", f"output-schema-{name}", severities[1], message, hint, doc + _INLINE_DOC)
    return hosted, inline


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

INVALID = _twin(
    1,
    "invalid",
    (_E, _W),
    "not valid JSON Schema: {problem}",
    "Correct the keyword's value; the JSON Schema specification (draft-07 unless `$schema` says"
    " otherwise) lists what each keyword accepts.",
    "The schema does not validate against its metaschema, so validators and editors either reject it"
    " or silently ignore the offending keyword.",
)
UNKNOWN_TYPE = _twin(
    2,
    "unknown-type",
    (_E, _W),
    "unknown type {type!s}",
    "Use one of {types}.",
    "`type` names one of JSON's seven types. Anything else, such as `array[string]` borrowed from"
    " Dify's parameter syntax, makes the schema invalid and says nothing about the value: write"
    " `type: array` with `items: {type: string}` instead.",
)
IGNORED_KEYWORD = _twin(
    3,
    "keyword-ignored",
    (_W, _W),
    "{keyword} applies only to {applies}, but this schema has type {declared}: it is ignored",
    "Move {keyword} to the schema of the {applies} it describes (for an array of objects: under `items`),"
    " or correct `type`.",
    "Keywords such as `properties`, `items` or `minLength` constrain only values of one type; on a"
    " schema of another type, validators ignore them without a word. Dify's published"
    " `multimodal_general_structure` declares `properties` on `type: array`, so it accepts any array"
    " and rejects the object its properties describe.",
)
NO_ITEMS = _twin(
    4,
    "array-without-items",
    (_W, _W),
    "array without items: any list is accepted and its elements are undocumented",
    "Add `items` with the schema of one element.",
    "An array schema without `items` accepts lists of anything, and documentation and the workflow"
    " editor cannot show what the elements are.",
)
REQUIRED_UNDECLARED = _twin(
    5,
    "required-undeclared",
    (_W, _W),
    "required property {name!s} is not declared in properties",
    "Declare {name!s} under `properties`, or remove it from `required` if the name is misspelt.",
    "A name listed in `required` but absent from `properties` is usually a typo: the value must then"
    " carry a property that nothing describes, and the intended property stays optional.",
)
UNRESOLVED_REF = _twin(
    6,
    "unresolved-ref",
    (_E, _W),
    "$ref {ref!s} does not resolve: {problem}",
    "Point the reference at an existing definition or a hosted schema.",
    "A reference names a schema or a place in it that does not exist. Dify resolves only its hosted"
    " schemas (`https://dify.ai/schemas/v1/...`) from bundled copies and leaves any other reference in"
    " place with a log warning, so whatever the reference was meant to describe is not described.",
)
REMOTE_REF = _twin(
    7,
    "remote-ref",
    (_E, _W),
    "$ref {ref!s} points at a remote address, which is never fetched",
    "Reference a hosted schema ({base}...) or write the schema inline.",
    "Neither Dify nor this registry downloads schemas: a reference to another web address is left"
    " unresolved, so the part of the output it should describe is not described.",
)
OUTSIDE_REF = _twin(
    8,
    "ref-outside-registry",
    (_E, _W),
    "$ref {ref!s} points outside the registry's schemas",
    "Reference a hosted schema by its full URL ({base}v1/<name>.json), or an internal `#/definitions/...`.",
    "A reference to a file path, a `file:` URL or a dify.ai address outside `/schemas/` is never"
    " read: the registry resolves only the schemas it hosts, and reading paths named by a manifest"
    " would let a plugin read files that are not part of it.",
)
REF_LOOP = _twin(
    9,
    "ref-loop",
    (_E, _W),
    "{problem}: {chain}",
    "Make every chain of references end in a schema with content; a recursive structure must recurse"
    " through `properties` or `items`, not through `$ref` or `allOf` alone.",
    "References that lead back to themselves without descending into the value (a `$ref` to a"
    f" `$ref`, `allOf` containing `$ref: '#'`) never reach a schema, and chains longer than"
    f" {MAX_REF_CHAIN} links exhaust a validator's recursion. The registry stops following them.",
)
TOO_DEEP = _twin(
    10,
    "too-deep",
    (_E, _W),
    "subschemas nest deeper than {limit} levels; deeper levels are not checked",
    "Flatten the schema, or move repeated parts into `definitions` referenced with `$ref`.",
    f"Schemas nested more than {MAX_SCHEMA_DEPTH} subschemas deep exceed what the registry checks;"
    " real output schemas nest fewer than ten levels.",
)
ITEMS_DESCRIPTION = _twin(
    11,
    "description-on-items",
    (_I, _I),
    "the array has no description but its items do: {text!s}",
    "Move the description up to the array if it describes the list (as in `description: List of files`).",
    "Documentation and the workflow editor show the description of a property. When it sits on the"
    " array's `items` instead (as in Dify's published `multimodal_general_structure`, whose"
    " `files.items` says `List of files`), the property itself shows none.",
)
FILE_NAME = _twin(
    12,
    "file-name-required",
    (_W, _W),
    "this file object requires `name`, but Dify's file objects carry `filename`",
    "Require `filename` (and declare it), or make `name` optional.",
    "Dify's file descriptors (file parameters and the files of a tool's output) name the file in"
    " `filename`. Dify's published `file.json` requires `name` instead, so a real file descriptor"
    " fails that schema; schemas modelled on it inherit the defect.",
)
UNKNOWN_DIALECT = _twin(
    13,
    "unknown-dialect",
    (_W, _W),
    "$schema {dialect!s} is not a known JSON Schema dialect; draft-07 is assumed",
    "Use http://json-schema.org/draft-07/schema# as Dify's own schemas do.",
    "`$schema` names the JSON Schema version a schema is written in. An unknown value leaves"
    " validators guessing; the registry checks the schema as draft-07, the version Dify uses.",
)

SLOW_PATTERN = _twin(
    14,
    "pattern-too-slow",
    (_E, _W),
    "pattern {pattern!s} takes too long to match; it is not applied",
    "Rewrite the expression without nested or overlapping repetition such as `(a|a)*` or `(a+)+`.",
    'Some regular expressions take exponential time on a backtracking engine ("catastrophic'
    ' backtracking"): a string of a few dozen characters keeps a validator busy for hours. The'
    " registry matches patterns with a time limit and does not apply one that exceeds it, so the"
    " values it should constrain are not checked.",
)
HUGE_ENUM = _twin(
    15,
    "enum-too-large",
    (_W, _W),
    "enum lists {count} values, more than {limit}; pages show only its size",
    "Describe the values with `pattern`, `format` or a shorter list.",
    "A list of thousands of allowed values cannot be reviewed by people, bloats every page and"
    " index that shows the schema, and makes each validation compare the value with every entry.",
)
NULLABLE = _twin(
    16,
    "nullable-ignored",
    (_W, _W),
    "`nullable: true` is OpenAPI, not JSON Schema: validators ignore it{places}",
    'Add null to the type instead: `type: [string, "null"]`.',
    "`nullable` is a keyword of OpenAPI 3.0's schema dialect. JSON Schema has no such keyword, so"
    " validators skip it: a value of null still fails `type`, and documentation does not say the value"
    ' may be missing. JSON Schema spells it with the type itself, `type: [string, "null"]`. A plugin'
    " written against OpenAPI uses it on every property, so on tools' output schemas one finding per"
    " plugin, at the first place, lists every place.",
)
# One O016 per plugin lists every place (check/output_schema.py); a single schema's lint has no list.
NO_PLACES = Phrase("")


@dataclass(frozen=True)
class Flavour:
    """Which twin of each rule applies: 0 for hosted files, 1 for inline output schemas."""

    index: int

    def __call__(self, twin: tuple[Rule, Rule]) -> Rule:
        return twin[self.index]


HOSTED = Flavour(0)
INLINE = Flavour(1)


def lint_schema(
    schema: Any, schemas: SchemaSet, locate: Locator, flavour: Flavour, base: str = ""
) -> list[Finding]:
    """Every structural, metaschema and reference finding on one schema document."""
    walked = walk(schema, base)
    findings: list[Finding] = []
    for node in walked.nodes:
        findings.extend(_node_findings(node, locate, flavour))
    if walked.too_deep is not None:
        findings.append(flavour(TOO_DEEP).at(locate(walked.too_deep, False), limit=MAX_SCHEMA_DEPTH))
    else:
        # The metaschema check recurses through the schema: only run it within the depth bound.
        findings.extend(_metaschema(schema, locate, flavour, _unknown_type_places(walked.nodes)))
    report = analyse(schema, schemas, base, walked)
    findings.extend(_reference_findings(report, schemas, locate, flavour))
    return findings


def _unknown_type_places(nodes: tuple[SchemaNode, ...]) -> set[Parts]:
    return {
        (*node.parts, "type")
        for node in nodes
        if any(name not in JSON_TYPES for name in declared_types(node.schema))
    }


def _node_findings(node: SchemaNode, locate: Locator, flavour: Flavour) -> Iterator[Finding]:
    schema, parts = node.schema, node.parts
    names = declared_types(schema)
    unknown = [name for name in names if name not in JSON_TYPES]
    for name in unknown:
        yield flavour(UNKNOWN_TYPE).at(
            locate((*parts, "type"), False), type=name, hint=_type_hint(name), types=", ".join(JSON_TYPES)
        )
    if names and not unknown:
        yield from _ignored_keywords(schema, parts, names, locate, flavour)
        if "array" in names and "items" not in schema and "prefixItems" not in schema:
            yield flavour(NO_ITEMS).at(locate((*parts, "type"), False))
    yield from _required_undeclared(schema, parts, locate, flavour)
    choices = schema.get("enum")
    if isinstance(choices, list) and len(choices) > MAX_ENUM:
        yield flavour(HUGE_ENUM).at(locate((*parts, "enum"), True), count=len(choices), limit=MAX_ENUM)
    items = schema.get("items")
    if "array" in names and "description" not in schema and isinstance(items, dict):
        text = items.get("description")
        if isinstance(text, str) and text:
            yield flavour(ITEMS_DESCRIPTION).at(locate((*parts, "items", "description"), True), text=text)
    yield from _file_name(schema, parts, locate, flavour)
    if schema.get("nullable") is True:
        yield flavour(NULLABLE).at(
            locate((*parts, "nullable"), True), hint=_nullable_hint(names), places=NO_PLACES
        )


def _type_hint(name: str) -> str:
    typed = _TYPED_ARRAY.match(name)
    if typed:
        return f"Write `type: array` with `items: {{{{type: {typed.group(1)}}}}}`."
    close = difflib.get_close_matches(name.lower(), JSON_TYPES, n=1)
    return f"Did you mean {close[0]}? Use one of {{types}}." if close else "Use one of {types}."


def _nullable_hint(names: tuple[str, ...]) -> str:
    """The JSON Schema spelling of this schema's type with null allowed, built from its own type."""
    known = [name for name in names if name in JSON_TYPES]
    if "null" in known:
        return "Remove `nullable`: the type already allows null."
    if not names:
        return "Remove `nullable`: a schema without `type` accepts null already."
    if len(known) != len(names):
        return 'Add null to the schema\'s type (`type: [<its type>, "null"]`), then remove `nullable`.'
    spelled = ", ".join([*known, '"null"'])
    return f"Write `type: [{spelled}]` and remove `nullable`."


def _ignored_keywords(
    schema: dict[str, Any], parts: Parts, names: tuple[str, ...], locate: Locator, flavour: Flavour
) -> Iterator[Finding]:
    kinds = {"number" if name == "integer" else name for name in names}
    for keyword in schema:
        applies = KEYWORD_TYPES.get(keyword)
        if applies is not None and applies not in kinds:
            yield flavour(IGNORED_KEYWORD).at(
                locate((*parts, keyword), True),
                keyword=keyword,
                applies=f"{applies}s" if applies != "number" else "numbers",
                declared=" | ".join(names),
            )


def _required_undeclared(
    schema: dict[str, Any], parts: Parts, locate: Locator, flavour: Flavour
) -> Iterator[Finding]:
    required, properties = schema.get("required"), schema.get("properties")
    if not isinstance(required, list) or not isinstance(properties, dict):
        return
    declared = schema.get("patternProperties")
    patterns = BoundedPatterns()
    for index, name in enumerate(required):
        if not isinstance(name, str) or name in properties:
            continue
        matches = [patterns.search(p, name) for p in declared] if isinstance(declared, dict) else []
        if not any(found is not False for found in matches):
            yield flavour(REQUIRED_UNDECLARED).at(locate((*parts, "required", index), False), name=name)
    for slow in patterns.slow:
        yield flavour(SLOW_PATTERN).at(locate((*parts, "patternProperties", slow), True), pattern=slow)


def _file_name(schema: dict[str, Any], parts: Parts, locate: Locator, flavour: Flavour) -> Iterator[Finding]:
    properties, required = schema.get("properties"), schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return
    if all(field in properties for field in _FILE_SHAPE) and "filename" not in properties:
        for index, name in enumerate(required):
            if name == "name":
                yield flavour(FILE_NAME).at(locate((*parts, "required", index), False))


def _metaschema(schema: Any, locate: Locator, flavour: Flavour, skip: set[Parts]) -> Iterator[Finding]:
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(dialect, str) and validator_class(schema) is Draft7Validator:
        try:
            referencing.jsonschema.specification_with(dialect)
        except referencing.jsonschema.UnknownDialect:
            yield flavour(UNKNOWN_DIALECT).at(locate(("$schema",), False), dialect=dialect)
    for error in metaschema_errors(schema)[:MAX_METASCHEMA_FINDINGS]:
        parts = tuple(error.absolute_path)
        if parts not in skip:
            yield flavour(INVALID).at(locate(parts, False), problem=shorten(error.message, PROBLEM))


def _reference_findings(
    report: RefReport, schemas: SchemaSet, locate: Locator, flavour: Flavour
) -> Iterator[Finding]:
    base = SCHEMA_BASE
    for ref in report.problems:
        where = locate(ref.parts, False)
        if ref.kind is RefKind.REMOTE:
            yield flavour(REMOTE_REF).at(where, ref=ref.ref, base=base)
        elif ref.kind is RefKind.OUTSIDE:
            yield flavour(OUTSIDE_REF).at(where, ref=ref.ref, base=base)
        else:
            yield flavour(UNRESOLVED_REF).at(
                where, ref=ref.ref, problem=_ref_problem(ref.kind, ref.detail), hint=_suggest(ref, schemas)
            )
    for loop in report.loops:
        problem = (
            "reference cycle"
            if loop.kind is LoopKind.CYCLE
            else f"reference chain over {MAX_REF_CHAIN} links"
        )
        chain = " -> ".join(loop.chain) + (" -> ..." if loop.kind is LoopKind.TOO_DEEP else "")
        yield flavour(REF_LOOP).at(locate(loop.parts, False), problem=problem, chain=chain)


def _ref_problem(kind: RefKind, detail: str) -> str:
    if kind is RefKind.UNKNOWN:
        return "no hosted schema has this $id"
    return detail or "it names nothing"


def _suggest(ref: Any, schemas: SchemaSet) -> str:
    if ref.suggestions:
        listed = ", ".join(ref.suggestions).replace("{", "{{").replace("}", "}}")
        return f"Closest hosted schemas: {listed}."
    if ref.kind is RefKind.UNKNOWN:
        return f"No hosted schema is close; {len(schemas.ids)} are hosted, listed in the schema catalog."
    return "Point the reference at an existing definition (`#/definitions/<name>`) or a hosted schema."
