"""validate_output: mismatches with JSON paths, notes for what a schema cannot check, never a crash."""

from __future__ import annotations

from typing import Any

import pytest

from generator.findings import Location
from generator.schemas import (
    INLINE,
    SCHEMA_BASE,
    example_instance,
    flatten_properties,
    json_path,
    lint_schema,
    validate_output,
)
from tests.schema_helpers import repo_schemas

MULTIMODAL_GENERAL = f"{SCHEMA_BASE}v1/multimodal_general_structure.json"


def _result_schema(ref: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"result": {"$ref": ref}}}


def test_json_paths() -> None:
    """Names, odd names and indexes."""
    assert json_path([]) == "$"
    assert json_path(["result", 0, "content"]) == "$.result[0].content"
    assert json_path(["a b", "it's"]) == "$['a b']['it\\'s']"


def test_mismatch_paths_inside_hosted_schema() -> None:
    """A wrong value deep inside a referenced hosted schema is reported at its JSON path."""
    schema = _result_schema(f"{SCHEMA_BASE}v1/parent_child_structure.json")
    output = {
        "result": {
            "parent_mode": "paragraph",
            "parent_child_chunks": [{"parent_content": "p", "child_contents": ["a", 3]}],
        }
    }
    found = validate_output(schema, output, repo_schemas())
    assert [(m.path, m.note) for m in found] == [("$.result.parent_child_chunks[0].child_contents[1]", False)]
    assert "is not of type 'string'" in found[0].message


def test_valid_output_has_no_mismatch() -> None:
    """The hosted example of a schema passes through a tool's reference to it."""
    schemas = repo_schemas()
    hosted = schemas.get(f"{SCHEMA_BASE}v1/qa_structure.json")
    assert hosted is not None
    assert validate_output(_result_schema(hosted.id), {"result": hosted.example}, schemas) == []


def test_multimodal_general_structure_gets_a_note() -> None:
    """Any array passes, the intended object fails, and a note says the schema checks only arrays."""
    schema = _result_schema(MULTIMODAL_GENERAL)
    anything = validate_output(schema, {"result": [1, "x", None]}, repo_schemas())
    assert [(m.path, m.note) for m in anything] == [("$.result", True)]
    assert "checks only that the value is an array" in anything[0].message
    intended = {"result": {"general_chunks": [{"content": "c"}]}}
    failures = [m for m in validate_output(schema, intended, repo_schemas()) if not m.note]
    assert [m.path for m in failures] == ["$.result"]


def test_unresolved_reference_is_noted_and_the_rest_checked() -> None:
    """An unknown reference accepts anything (as in Dify) with a note; other properties are checked."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": f"{SCHEMA_BASE}v1/nope.json"}, "b": {"type": "string"}},
    }
    found = validate_output(schema, {"a": 1, "b": 2}, repo_schemas())
    assert [(m.path, m.note) for m in found] == [("$.a", True), ("$.b", False)]


def test_hostile_values_never_raise() -> None:
    """Huge messages are shortened; deep instances and non-schemas come back as mismatches."""
    recursive = {"type": "object", "properties": {"c": {"type": "array", "items": {"$ref": "#"}}}}
    deep: dict[str, Any] = {"c": []}
    for _ in range(3000):
        deep = {"c": [deep]}
    found = validate_output(recursive, deep, repo_schemas())
    assert found
    assert found[-1].path == "$"
    long = validate_output({"type": "string"}, ["x" * 100_000], repo_schemas())
    assert len(long[0].message) <= 200
    assert validate_output(["not", "a schema"], {}, repo_schemas())[0].note


MALFORMED_SCHEMAS: list[Any] = [
    {"properties": {"a": 5}},
    {"$id": 3},
    {"items": [1, "x"]},
    {"definitions": []},
    {"$id": "http://[::1"},
    {"properties": {"a": {"$id": 5, "$ref": "#"}}},
    {"dependencies": {"a": 3}},
    {"allOf": 3},
    {"not": "x"},
    {"$ref": None},
    {"$schema": 5},
    {"enum": 3},
    {"type": ["string", 3]},
    {"patternProperties": {"[": {}}, "required": ["a"], "properties": {}},
    {"properties": {"a": {"pattern": "("}}},
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "$dynamicRef": "#meta"},
]


@pytest.mark.parametrize("schema", MALFORMED_SCHEMAS, ids=range(len(MALFORMED_SCHEMAS)))
def test_malformed_schemas_never_raise(schema: Any) -> None:
    """Every public function copes with keywords of the wrong JSON type."""
    schemas = repo_schemas()
    validate_output(schema, {"a": 1}, schemas)
    flatten_properties(schema, schemas)
    example_instance(schema, schemas)
    assert isinstance(lint_schema(schema, schemas, lambda parts, key: Location("x", 1, 1), INLINE), list)


def test_invalid_parts_are_skipped_and_the_rest_checked() -> None:
    """`type: array[string]` is left out with a note; a sibling property is still checked."""
    schema = {"type": "object", "properties": {"a": {"type": "array[string]"}, "b": {"type": "string"}}}
    found = validate_output(schema, {"a": 1, "b": 2}, repo_schemas())
    assert [(m.path, m.note) for m in found] == [("$", True), ("$.b", False)]
    assert "/properties/a/type" in found[0].message


def test_nested_properties_follow_their_parent() -> None:
    """Tables list each property's own nested properties right under it, in declared order."""
    schema = {
        "type": "object",
        "required": ["b"],
        "properties": {
            "a": {
                "type": "array",
                "items": {"type": "object", "properties": {"x": {}, "y": {"properties": {"z": {}}}}},
            },
            "b": {"type": "string"},
            "c": {"type": "object", "properties": {"d": {"type": "number"}}},
        },
    }
    rows = flatten_properties(schema, repo_schemas())
    assert [(r.path, r.required) for r in rows] == [
        ("a", False),
        ("a[].x", False),
        ("a[].y", False),
        ("a[].y.z", False),
        ("b", True),
        ("c", False),
        ("c.d", False),
    ]
