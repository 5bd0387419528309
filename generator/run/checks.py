"""Check what a run returned: the tool's `output_schema`, declared and undeclared variables, blobs
without a MIME type, and the example's expectations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from generator.findings import Finding, Location, Severity
from generator.plugin_model import FIXED_OUTPUTS, Tool
from generator.rules import Listing, Phrase, rule
from generator.run.result import in_words
from generator.run.runtypes import ExampleRun, RunMessage
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
The outputs of an example run, assembled as Dify assembles them, are validated against the tool's
`output_schema` with every `$ref` resolved. Dify never checks this at run time: the next node
receives whatever the tool returned. A smoke run's mismatch is a warning; when the tool answered the
invented inputs with its own error (an error text or JSON, or variables saying `success: false` or
setting `error`, typically with every other field None for want of a credential), the finding says
the run took the tool's error path, which proves nothing against the schema, and names the
credential or example that would reach the code that sets the outputs.
""",
)
NEVER_SET = rule(
    "R016",
    "declared-variable-never-set",
    Severity.WARNING,
    "output_schema declares {names!s}, {why!s}",
    "{advice!s}",
    """
A variable that `output_schema` declares can be picked in the workflow editor. If the tool never
sets it, the next node reads None without any error. One finding per tool names every such
variable. When every run that finished was a smoke run that took the tool's own error path (it
answered the invented inputs with an error message, or stopped for a missing credential), the run
did not reach the code that sets them: that proves nothing, and the finding says so as a note.
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


def validate_against_schema(
    schema: Any, outputs: Mapping[str, Any], schemas: SchemaSet | None
) -> list[tuple[str, str, bool]]:
    """(JSON path, message, is_note) for every mismatch; `$ref`s resolved through the registry."""
    known = schemas if schemas is not None else shipped_schemas()
    return [(m.path, m.message, m.note) for m in validate_output(schema, dict(outputs), known)]


def declared_variables(tool: Tool) -> tuple[str, ...]:
    """Variables `output_schema.properties` declares (the fixed outputs are not variables)."""
    schema = tool.output_schema
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
) -> list[Finding]:
    """Every finding about the outputs of one completed run."""
    findings: list[Finding] = []
    if isinstance(tool.output_schema, dict):
        mismatches = validate_against_schema(tool.output_schema, outputs, schemas)
        # One finding per example and severity: an error path that sets fourteen declared
        # variables to None is one problem, listed path by path, not fourteen findings.
        for note in (False, True):
            listed = [f"{path}: {problem}" for path, problem, is_note in mismatches if is_note is note]
            if listed:
                findings.append(
                    SCHEMA_MISMATCH.at(
                        schema_where,
                        severity=Severity.WARNING if note else None,
                        example=example,
                        count=_outputs(len(listed)),
                        problems=Listing(listed, most=MAX_LISTED),
                    )
                )
        declared = set(declared_variables(tool))
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
    metas = [m.meta if isinstance(m.meta, dict) else {} for m in messages if m.type == "blob"]
    nameless = [meta.get("filename") or "(no name)" for meta in metas if not meta.get("mime_type")]
    if nameless:
        blobs = Listing(nameless, most=MAX_LISTED)
        findings.append(BLOB_WITHOUT_MIME.at(where, example=example, filename=blobs))
    failures = failed_expectations(outputs, expect)
    if failures:
        what = Listing(failures, most=MAX_LISTED)
        findings.append(EXPECTATION_FAILED.at(where, example=example, what=what))
    return findings


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


def never_set(tool: Tool, runs: Iterable[ExampleRun], where: Location, examples_file: str) -> list[Finding]:
    """One finding naming the declared variables that no completed run of the tool sets."""
    completed = [run for run in runs if run.outputs]
    unset = [name for name in declared_variables(tool) if not any(name in run.outputs for run in completed)]
    if not completed or not unset:
        return []
    names = Listing(unset, most=MAX_LISTED)
    if not any(run.result.proven for run in completed):
        shown = completed[0]
        return [
            NEVER_SET.at(
                where,
                severity=Severity.INFO,
                names=names,
                why=Phrase(
                    f"which the {shown.example} run did not set: it did not reach the code that sets them "
                    f"({in_words(shown.result, shown.detail)})"
                ),
                advice=Phrase(f"Add {Listing([examples_file])} with an example on real inputs."),
            )
        ]
    return [
        NEVER_SET.at(
            where,
            names=names,
            why=Phrase("but no example run sets them; the next node reads None"),
            advice=Phrase(
                f"Yield create_variable_message(name, ...) for {names} in every path of _invoke, or remove "
                "them from output_schema."
            ),
        )
    ]
