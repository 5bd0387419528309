"""Check what a run returned: the tool's `output_schema`, declared and undeclared variables, blobs
without a MIME type, and the example's expectations."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from generator.findings import Finding, Location, Severity
from generator.plugin_model import FIXED_OUTPUTS, Tool
from generator.rules import Listing, rule
from generator.run.runtypes import RunMessage
from generator.schemas import SchemaSet, shipped_schemas, validate_output

# Items listed in one finding; the rest are counted.
MAX_LISTED = 30

SCHEMA_MISMATCH = rule(
    "R015",
    "output-schema-mismatch",
    Severity.ERROR,
    "example {example!s}: {count!s} not match output_schema: {problems!s}",
    "Make the tool return what output_schema declares, or correct the schema.",
    """
The variables of an example run, assembled as Dify assembles them, are validated against the tool's
`output_schema` with every `$ref` resolved. The tool node's fixed outputs `text`, `files` and `json`
are not among them (unless the schema declares one): Dify's tool node gives them beside the
variables, and the schema only drives the editor's variable picker, so an `additionalProperties:
false` there speaks of variables. Dify never checks this at run time: the next node
receives whatever the tool returned. A smoke run's mismatch is a warning; when the tool answered the
invented inputs with its own error (an error text or JSON, or variables saying `success: false` or
setting `error`, typically with every other field None for want of a credential), the finding says
the run took the tool's error path, which proves nothing against the schema, and names the
credential or example that would reach the code that sets the outputs.
""",
)
UNDECLARED = rule(
    "R017",
    "undeclared-variable",
    Severity.WARNING,
    "example {example!s} sets variables that output_schema does not declare, so they cannot be picked "
    "in the editor: {names!s}",
    "Declare them under output_schema.properties (for example {first!r}).",
    """
The workflow editor offers only the variables that `output_schema` declares. A variable the tool
sets without declaring it is in the outputs but nobody can select it.
""",
)
BLOB_WITHOUT_MIME = rule(
    "R018",
    "blob-without-mime-type",
    Severity.WARNING,
    "example {example!s}: blobs without a MIME type, which Dify stores as application/octet-stream: "
    "{filename!s}",
    "Pass meta={{'mime_type': ..., 'filename': ...}} to create_blob_message.",
    """
Dify takes a blob's type from `meta.mime_type`. Without it the file is application/octet-stream:
images are not shown as images and downstream nodes cannot tell what the file is.
""",
)
EXPECTATION_FAILED = rule(
    "R019",
    "expectation-failed",
    Severity.ERROR,
    "example {example!s}: {what!s}",
    "Fix the tool, or correct the expectation in the examples file.",
    """
An example's `expect` block (variables, text, text_contains, json, number of files) does not
match what the run returned.
""",
)


class Checked(NamedTuple):
    """The findings about a run's outputs, and which of them are remarks: what the output check
    could not check (a schema that checks little, a `$ref` that does not resolve), not a failure of
    the output (`verdict.weigh` makes them warnings)."""

    findings: tuple[Finding, ...]
    remarks: tuple[Finding, ...]


def validate_against_schema(
    schema: Any, outputs: Mapping[str, Any], schemas: SchemaSet | None
) -> list[tuple[str, str, bool]]:
    """(JSON path, message, is_note) for every mismatch; `$ref`s resolved through the registry."""
    known = schemas if schemas is not None else shipped_schemas()
    return [(m.path, m.message, m.note) for m in validate_output(schema, dict(outputs), known)]


def declared_variables(schema: Any) -> tuple[str, ...]:
    """Variables an `output_schema`'s `properties` declares (the fixed outputs are not variables)."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return ()
    return tuple(str(name) for name in properties if name not in FIXED_OUTPUTS)


def check_run(
    tool: Tool,
    example: str,
    outputs: Mapping[str, Any],
    messages: Sequence[RunMessage],
    expect: Mapping[str, Any],
    schemas: SchemaSet | None,
    where: Location,
    schema_where: Location,
) -> Checked:
    """Every finding about the outputs of one completed run, at its rule's severity."""
    checked = check_outputs(
        tool.output_schema, example, outputs, expect, schemas, where, schema_where, FIXED_OUTPUTS
    )
    metas = [m.meta if isinstance(m.meta, dict) else {} for m in messages if m.type == "blob"]
    nameless = [meta.get("filename") or "(no name)" for meta in metas if not meta.get("mime_type")]
    if not nameless:
        return checked
    blobs = Listing(nameless, most=MAX_LISTED)
    return Checked(
        (*checked.findings, BLOB_WITHOUT_MIME.at(where, example=example, filename=blobs)), checked.remarks
    )


def check_outputs(
    output_schema: Any,
    example: str,
    outputs: Mapping[str, Any],
    expect: Mapping[str, Any],
    schemas: SchemaSet | None,
    where: Location,
    schema_where: Location,
    fixed: Collection[str] = (),
) -> Checked:
    """The findings about the variables one completed run returned (a tool's outputs, a trigger
    event's variables): its `output_schema`, variables it does not declare, and the example's
    expectations. The `fixed` outputs (a tool node's `text`, `files` and `json`) are no variables:
    the schema is checked without them unless it declares them itself."""
    findings: list[Finding] = []
    remarks: list[Finding] = []
    if isinstance(output_schema, dict):
        properties = output_schema.get("properties")
        named = properties if isinstance(properties, dict) else {}
        variables = {key: value for key, value in outputs.items() if key not in fixed or key in named}
        mismatches = validate_against_schema(output_schema, variables, schemas)
        # One finding for the failures and one for the remarks per example: an error path that sets
        # fourteen declared variables to None is one problem, listed path by path, not fourteen findings.
        for note in (False, True):
            listed = [f"{path}: {problem}" for path, problem, is_note in mismatches if is_note is note]
            if listed:
                mismatch = SCHEMA_MISMATCH.at(
                    schema_where,
                    example=example,
                    count=_outputs(len(listed)),
                    problems=Listing(listed, most=MAX_LISTED),
                )
                findings.append(mismatch)
                if note:
                    remarks.append(mismatch)
        declared = set(declared_variables(output_schema))
        undeclared = [name for name in outputs if name not in FIXED_OUTPUTS and name not in declared]
        if undeclared:
            findings.append(
                UNDECLARED.at(
                    schema_where,
                    example=example,
                    names=Listing(undeclared, most=MAX_LISTED),
                    first=undeclared[0],
                )
            )
    failures = failed_expectations(outputs, expect)
    if failures:
        what = Listing(failures, most=MAX_LISTED)
        findings.append(EXPECTATION_FAILED.at(where, example=example, what=what))
    return Checked(tuple(findings), tuple(remarks))


def _outputs(count: int) -> str:
    return "1 output does" if count == 1 else f"{count} outputs do"


def failed_expectations(outputs: Mapping[str, Any], expect: Mapping[str, Any]) -> list[str]:
    """What in `expect` the outputs do not satisfy, in words."""
    failures: list[str] = []
    variables = expect.get("variables")
    for name, wanted in variables.items() if isinstance(variables, dict) else []:
        got = outputs.get(name)
        if name not in outputs:
            failures.append(f"variable {name} was not set (expected {wanted!r})")
        elif got != wanted or (type(got) is not type(wanted) and not _numbers(got, wanted)):
            failures.append(f"variable {name} is {got!r}, expected {wanted!r}")
    text = outputs.get("text", "")
    if "text" in expect and text != expect["text"]:
        failures.append(f"text is {text!r}, expected {expect['text']!r}")
    contains = expect.get("text_contains")
    for needle in contains if isinstance(contains, list) else []:
        if str(needle) not in text:
            failures.append(f"text does not contain {needle!r}")
    if "json" in expect and outputs.get("json") != expect["json"]:
        failures.append(f"json is {outputs.get('json')!r}, expected {expect['json']!r}")
    if "files" in expect and len(outputs.get("files") or []) != expect["files"]:
        failures.append(f"{len(outputs.get('files') or [])} files returned, expected {expect['files']}")
    return failures


def _numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
