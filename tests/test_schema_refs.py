"""$ref resolution: hosted, internal and relative references work; the rest are findings, offline."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from generator.findings import Location
from generator.schemas import (
    INLINE,
    SCHEMA_BASE,
    SchemaSet,
    analyse,
    lint_schema,
    load_schemas,
    validate_output,
)
from generator.schemas.walk import Parts
from tests.schema_helpers import hosted, repo_schemas, write_schemas


def _locate(parts: Parts, key: bool) -> Location:
    return Location("tool.yaml", 1, 1, "/" + "/".join(map(str, parts)))


def _rules(schema: Any, schemas: SchemaSet | None = None) -> list[tuple[str, str]]:
    found = lint_schema(schema, schemas or repo_schemas(), _locate, INLINE)
    return [(d.rule, d.pointer) for d in found]


def _chain(length: int) -> dict[str, Any]:
    definitions: dict[str, Any] = {f"d{i}": {"$ref": f"#/definitions/d{i + 1}"} for i in range(length)}
    definitions[f"d{length}"] = {"type": "string"}
    return {"type": "object", "properties": {"x": {"$ref": "#/definitions/d0"}}, "definitions": definitions}


def test_hosted_refs_resolve() -> None:
    """A property-level $ref to a hosted schema resolves and validates."""
    schema = {"type": "object", "properties": {"result": {"$ref": f"{SCHEMA_BASE}v1/qa_structure.json"}}}
    assert _rules(schema) == []
    bad = {"result": {"qa_chunks": [{"question": "q"}]}}
    assert [m.path for m in validate_output(schema, bad, repo_schemas())] == ["$.result.qa_chunks[0]"]


@pytest.mark.parametrize("keyword", ["definitions", "$defs"])
def test_internal_refs_work(keyword: str) -> None:
    """#/definitions/... and #/$defs/... resolve inside the document."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": f"#/{keyword}/word"}},
        keyword: {"word": {"type": "string"}},
    }
    assert _rules(schema) == []
    assert [m.path for m in validate_output(schema, {"a": 3}, repo_schemas())] == ["$.a"]


def test_relative_refs_between_hosted_schemas(tmp_path: Path) -> None:
    """Inside a hosted file, `item.json` and `#/definitions` resolve against its $id."""
    root = write_schemas(
        tmp_path,
        {
            "v1/list.json": hosted("list", type="array", items={"$ref": "item.json#/definitions/item"}),
            "v1/item.json": hosted("item", definitions={"item": {"type": "string"}}),
        },
    )
    schemas = load_schemas(root)
    assert [d.rule for s in schemas.hosted for d in s.lint] == []
    tool = {"type": "object", "properties": {"l": {"$ref": f"{SCHEMA_BASE}v1/list.json"}}}
    assert [m.path for m in validate_output(tool, {"l": ["a", 2]}, schemas)] == ["$.l[1]"]


def test_deep_chain_is_a_finding_not_a_recursion_error() -> None:
    """A 500-link chain of references is reported once and never crashes validation."""
    schema = _chain(500)
    assert _rules(schema) == [("O009", "/properties/x/$ref")]
    (mismatch,) = validate_output(schema, {"x": "s"}, repo_schemas())
    assert "loop" in mismatch.message
    assert not mismatch.note


def test_short_chain_is_fine() -> None:
    """A chain well under the bound resolves and validates normally."""
    schema = _chain(10)
    assert _rules(schema) == []
    assert [m.path for m in validate_output(schema, {"x": 1}, repo_schemas())] == ["$.x"]


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"type": "object", "allOf": [{"$ref": "#"}]},
        {
            "properties": {"a": {"$ref": "#/definitions/x"}},
            "definitions": {"x": {"$ref": "#/definitions/y"}, "y": {"$ref": "#/definitions/x"}},
        },
    ],
)
def test_cycles_are_findings(schema: dict[str, Any]) -> None:
    """Reference cycles that never descend into the value are reported, not followed."""
    assert [rule for rule, _ in _rules(schema) if rule == "O009"] == ["O009"]
    assert not validate_output(schema, {"a": 1}, repo_schemas())[0].note


def test_recursion_through_properties_is_fine() -> None:
    """A tree schema recursing through `items` is legitimate and validates finite values."""
    tree = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}},
    }
    assert _rules(tree) == []
    value = {"name": "a", "children": [{"name": "b", "children": [{"name": 3, "children": []}]}]}
    assert [m.path for m in validate_output(tree, value, repo_schemas())] == [
        "$.children[0].children[0].name"
    ]


def test_unknown_hosted_ref_names_closest() -> None:
    """A misspelt hosted URL is a finding whose hint names the closest hosted schemas."""
    schema = {"type": "object", "properties": {"r": {"$ref": f"{SCHEMA_BASE}v1/parent_child_structur.json"}}}
    found = lint_schema(schema, repo_schemas(), _locate, INLINE)
    assert [(d.rule, d.pointer) for d in found] == [("O006", "/properties/r/$ref")]
    assert f"{SCHEMA_BASE}v1/parent_child_structure.json" in found[0].hint
    assert f"{SCHEMA_BASE}v2/file.json" not in found[0].hint
    v2 = lint_schema({"$ref": f"{SCHEMA_BASE}v2/file.json"}, repo_schemas(), _locate, INLINE)
    assert f"{SCHEMA_BASE}v1/file.json" in v2[0].hint


@pytest.mark.parametrize(
    ("ref", "rule"),
    [
        ("/etc/passwd", "O008"),
        ("../../secret.json", "O008"),
        ("file:///etc/passwd", "O008"),
        ("https://dify.ai/etc/passwd", "O008"),
        ("https://example.com/schema.json", "O007"),
        ("#/definitions/missing", "O006"),
        ("http://[::1", "O006"),
        (f"{SCHEMA_BASE}v1/file.json#/properties/nope", "O006"),
    ],
)
def test_references_outside_are_findings(ref: str, rule: str) -> None:
    """Files, other hosts and missing fragments are reported, never read."""
    assert _rules({"type": "object", "properties": {"a": {"$ref": ref}}}) == [(rule, "/properties/a/$ref")]


def test_non_string_ref_is_a_finding() -> None:
    """`$ref: 3` is invalid JSON Schema and an unresolved reference."""
    rules = [rule for rule, _ in _rules({"type": "object", "properties": {"a": {"$ref": 3}}})]
    assert "O006" in rules


def test_remote_refs_are_never_fetched() -> None:
    """Lint and validation of a schema referencing a local listener make no connection."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.2)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/schema.json"
        schema = {"type": "object", "properties": {"a": {"$ref": url}, "b": {"$ref": url + "#/x"}}}
        assert {rule for rule, _ in _rules(schema)} == {"O007"}
        found = validate_output(schema, {"a": 1, "b": 2}, repo_schemas())
        assert found
        assert all(m.note for m in found)
        assert analyse(schema, repo_schemas()).problems
        with pytest.raises(TimeoutError):
            listener.accept()
