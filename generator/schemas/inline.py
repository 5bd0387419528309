"""Lint of a tool's (or datasource's) inline `output_schema`: the shared schema lint plus root rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.findings import Finding, Severity
from generator.plugin_model import FIXED_OUTPUTS
from generator.rules import rule
from generator.schemas.dialect import declared_types
from generator.schemas.lint import INLINE, lint_schema
from generator.schemas.schema_set import SchemaSet
from generator.schemas.walk import Locator

NOT_MAPPING = rule(
    "O020",
    "output-schema-not-mapping",
    Severity.ERROR,
    "output_schema must be a mapping (a JSON Schema object), got {kind}",
    "Write `output_schema:` as a mapping with `type: object` and `properties:`, or remove it.",
    """
The plugin daemon reads `output_schema` as a map; any other value (a list, a string, a number)
fails to decode and Dify refuses the plugin.
""",
)
ROOT_NOT_OBJECT = rule(
    "O021",
    "output-schema-root-not-object",
    Severity.WARNING,
    "output_schema root declares {declared}, not type: object",
    "Declare `type: object` at the root and one entry under `properties` per output variable.",
    """
A tool's outputs are a mapping of variable names to values, and the workflow editor offers the root's
`properties` as the tool's variables. A root that is not `type: object` describes no variables;
Dify accepts it but nothing can be picked in the editor.
""",
)
RESERVED_NAME = rule(
    "O022",
    "output-schema-reserved-name",
    Severity.WARNING,
    "output variable {name!s} is reserved: every tool already outputs text, files and json",
    "Rename the variable; Dify refuses a variable message named text, files or json at run time.",
    """
Every tool's outputs include `text`, `files` and `json`, assembled by Dify from the tool's messages.
Dify refuses a variable named like one of them when the tool runs, so declaring one in
`output_schema` advertises a variable the tool can never set.
""",
)


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean"}.get(type(value), f"a {type(value).__name__}")


def lint_output_schema(value: Any, schemas: SchemaSet, locate: Locator) -> list[Finding]:
    """Every finding on one inline `output_schema` (None, an absent schema, has none)."""
    if value is None:
        return []
    if not isinstance(value, dict):
        return [NOT_MAPPING.at(locate((), False), kind=_kind(value))]
    return [*_root_findings(value, locate), *lint_schema(value, schemas, locate, INLINE)]


def _root_findings(schema: dict[str, Any], locate: Locator) -> Iterator[Finding]:
    names = declared_types(schema)
    if names != ("object",):
        declared = (
            "no type" if "type" not in schema else "type " + " | ".join(map(str, names or [schema["type"]]))
        )
        yield ROOT_NOT_OBJECT.at(locate(("type",) if "type" in schema else (), False), declared=declared)
    properties = schema.get("properties")
    for name in properties if isinstance(properties, dict) else ():
        if name in FIXED_OUTPUTS:
            yield RESERVED_NAME.at(locate(("properties", name), True), name=name)
