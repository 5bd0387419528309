"""Loading hosted schemas: one immutable registry keyed by $id, publication data, broken files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from referencing import Resource
from referencing.exceptions import Unresolvable

from generator.schemas import (
    SCHEMA_BASE,
    SchemaLoadError,
    load_schemas,
    schema_catalog,
    served_files,
    shipped_schemas_root,
    validate_output,
)
from tests.conftest import REPO
from tests.schema_helpers import OUTPUT_SCHEMAS, hosted, repo_schemas, write_schemas


def test_repo_schemas_are_keyed_by_id() -> None:
    """Each of Dify's six output schemas is found by its $id and carries its metadata."""
    schemas = repo_schemas()
    for name in OUTPUT_SCHEMAS:
        schema = schemas.get(f"{SCHEMA_BASE}v1/{name}.json")
        assert schema is not None, name
        assert (schema.name, schema.version, schema.path) == (name, "v1", f"schemas/v1/{name}.json")
        assert schema.title
        assert schema.description
        assert schemas.registry.contents(schema.id) == schema.data
    assert schemas.get(f"{SCHEMA_BASE}v1/file.json#") is schemas.get(f"{SCHEMA_BASE}v1/file.json")


def test_every_hosted_file_is_consistent() -> None:
    """Every file under schemas/vN (whoever wrote it) has $id == served URL and no lint error."""
    for schema in repo_schemas().hosted:
        assert schema.id == schema.url, schema.path
        assert not [d for d in schema.lint if d.severity == "error"], schema.path


def test_registry_is_immutable_and_fails_closed() -> None:
    """Adding a resource makes a new registry; unknown URIs are never retrieved."""
    schemas = repo_schemas()
    extra = Resource.from_contents({"$schema": "http://json-schema.org/draft-07/schema#"})
    grown = schemas.registry.with_resource("https://example.com/x.json", extra)
    assert grown is not schemas.registry
    for uri in ("https://example.com/x.json", "https://dify.ai/schemas/v9/none.json", "/etc/passwd"):
        with pytest.raises(Unresolvable):
            schemas.registry.resolver().lookup(uri)


def test_served_files_are_the_exact_bytes() -> None:
    """The site serves each schema at its $id path with the source file's bytes."""
    schemas = repo_schemas()
    served = served_files(schemas)
    for schema in schemas.hosted:
        assert served[schema.served_path] == (REPO / schema.path).read_bytes()
        assert "https://dify.ai/" + schema.served_path == schema.id


def test_catalog_is_schemastore_format() -> None:
    """One entry per schema name with name, description, url and versions."""
    catalog = schema_catalog(repo_schemas())
    assert catalog["$schema"] == "https://json.schemastore.org/schema-catalog.json"
    assert catalog["version"] == 1
    entries = {entry["url"]: entry for entry in catalog["schemas"]}
    file_entry = entries[f"{SCHEMA_BASE}v1/file.json"]
    assert file_entry == {
        "name": "File Schema",
        "description": "Schema for file objects (v1)",
        "url": f"{SCHEMA_BASE}v1/file.json",
        "versions": {"v1": f"{SCHEMA_BASE}v1/file.json"},
    }


def test_catalog_lists_versions_newest_first_url(tmp_path: Path) -> None:
    """A schema in v1 and v2 is one catalog entry whose url is v2's."""
    v2 = hosted("thing", type="object")
    v2["$id"] = f"{SCHEMA_BASE}v2/thing.json"
    root = write_schemas(tmp_path, {"v1/thing.json": hosted("thing", type="object"), "v2/thing.json": v2})
    (entry,) = schema_catalog(load_schemas(root))["schemas"]
    assert entry["url"] == f"{SCHEMA_BASE}v2/thing.json"
    assert entry["versions"] == {"v1": f"{SCHEMA_BASE}v1/thing.json", "v2": f"{SCHEMA_BASE}v2/thing.json"}


def test_examples_validate() -> None:
    """Every hosted schema's example instance is accepted by the schema."""
    for schema in repo_schemas().hosted:
        if schema.name in OUTPUT_SCHEMAS:
            assert schema.example is not None, schema.path
        if schema.example is not None:
            assert Draft7Validator(schema.data).is_valid(schema.example), schema.path


def test_property_tree_of_a_hosted_schema() -> None:
    """Paths, required markers, types, descriptions and unique anchors."""
    schema = repo_schemas().get(f"{SCHEMA_BASE}v1/multimodal_parent_child_structure.json")
    assert schema is not None
    rows = {row.path: row for row in schema.properties}
    assert rows["parent_child_chunks"].type == "array[object]"
    assert rows["parent_child_chunks"].required
    assert rows["parent_child_chunks[].files"].description
    assert not rows["parent_child_chunks[].files"].required
    assert rows["parent_child_chunks[].files[].name"].required
    assert rows["parent_child_chunks[].child_contents"].type == "array[string]"
    anchors = [row.anchor for row in schema.properties]
    assert len(set(anchors)) == len(anchors)
    assert all(a.replace("-", "").replace("_", "").isalnum() for a in anchors)


def test_id_problems_are_findings(tmp_path: Path) -> None:
    """A wrong, missing or duplicate $id and missing metadata are reported with lines."""
    wrong = hosted("a", type="object")
    wrong["$id"] = f"{SCHEMA_BASE}v1/b.json"
    missing = {"type": "object"}
    duplicate = hosted("c", type="object")
    duplicate["$id"] = f"{SCHEMA_BASE}v1/b.json"
    root = write_schemas(tmp_path, {"v1/a.json": wrong, "v1/b.json": missing, "v1/c.json": duplicate})
    schemas = load_schemas(root)
    rules = {s.name: sorted(d.rule for d in s.lint) for s in schemas.hosted}
    assert rules["a"] == ["S020"]
    assert rules["b"] == ["S021", "S022", "S022", "S022"]
    assert rules["c"] == ["S020", "S023"]
    assert schemas.get(f"{SCHEMA_BASE}v1/b.json").path == "schemas/v1/a.json"  # type: ignore[union-attr]
    (finding,) = schemas.hosted[0].lint
    assert (finding.line, finding.column, finding.pointer) == (3, 10, "/$id")


def test_not_an_object_is_a_finding(tmp_path: Path) -> None:
    """A JSON file holding a list is reported, not loaded into the registry."""
    schemas = load_schemas(write_schemas(tmp_path, {"v1/list.json": "[1, 2]"}))
    assert [d.rule for d in schemas.hosted[0].lint] == ["S024"]
    assert schemas.ids == ()


@pytest.mark.parametrize(
    ("content", "problem"),
    [("{not json", "not JSON"), ("\udcff", "not JSON"), ("[" * 100_000 + "]" * 100_000, "not JSON")],
)
def test_unreadable_files_break_the_registry(tmp_path: Path, content: str, problem: str) -> None:
    """Bytes that are not JSON raise SchemaLoadError naming the file."""
    path = tmp_path / "v1" / "bad.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    with pytest.raises(SchemaLoadError, match=problem) as raised:
        load_schemas(tmp_path)
    assert raised.value.path == "schemas/v1/bad.json"


def test_symlinks_are_refused(tmp_path: Path) -> None:
    """A schema file that is a link (possibly to a file outside) is not read."""
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps(hosted("x")), encoding="utf-8")
    (tmp_path / "schemas" / "v1").mkdir(parents=True)
    (tmp_path / "schemas" / "v1" / "x.json").symlink_to(outside)
    with pytest.raises(SchemaLoadError, match="symbolic link"):
        load_schemas(tmp_path / "schemas")


def test_only_version_folders_are_published(tmp_path: Path) -> None:
    """Files outside vN/ (the lock, drafts) are not schemas."""
    root = write_schemas(
        tmp_path, {"v1/a.json": hosted("a", type="object"), "drafts/b.json": "{", "lock.json": "{}"}
    )
    assert [s.path for s in load_schemas(root).hosted] == ["schemas/v1/a.json"]


def test_shipped_schemas_of_a_source_checkout() -> None:
    """Without a wheel, the generator ships the repository's schemas folder."""
    assert shipped_schemas_root() == REPO / "schemas"


def test_validate_output_against_a_hosted_schema_itself() -> None:
    """A hosted schema's own data validates instances with JSON paths."""
    schema = repo_schemas().get(f"{SCHEMA_BASE}v1/qa_structure.json")
    assert schema is not None
    found = validate_output(schema.data, {"qa_chunks": [{"question": "q", "answer": 1}]}, repo_schemas())
    assert [(m.path, m.note) for m in found] == [("$.qa_chunks[0].answer", False)]
