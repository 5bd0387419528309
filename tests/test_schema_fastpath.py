"""The compiled fast path never accepts a document jsonschema rejects, so findings are the same
with it as without it (they are always jsonschema's)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.check.common import documents
from generator.check.schema import ROLE_SCHEMAS, validator
from generator.inputs import open_inputs
from generator.schemas.compiled import FastValidator, compile_check
from generator.schemas.validators import inline_definitions, published_data
from tests.conftest import CORPUS, REPO, shared


def plugin_roots() -> Iterator[Path]:
    """Every plugin folder of the registry, the test cases and the corpus."""
    for root in (REPO / "plugins", REPO / "tests" / "cases", shared(CORPUS)):
        yield from (manifest.parent for manifest in sorted(root.rglob("manifest.yaml")))


def errors(found: Any) -> list[tuple[str, ...]]:
    return sorted((str(list(e.absolute_path)), e.validator, e.message) for e in found)


def plain(name: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(inline_definitions(published_data(name)))


def test_every_validator_schema_is_compiled() -> None:
    for name in ROLE_SCHEMAS.values():
        assert compile_check(validator(name).validator.schema, formats=False) is not None, name


def test_same_errors_on_every_known_document() -> None:
    checked = rejected = 0
    with open_inputs(list(plugin_roots())) as inputs:
        for loaded in inputs.plugins:
            for role, name in ROLE_SCHEMAS.items():
                fast, slow = validator(name), plain(name)
                for _relative, document in documents(loaded, role):
                    expected = errors(slow.iter_errors(document.data))
                    assert errors(fast.iter_errors(document.data)) == expected, document.path
                    checked += 1
                    rejected += bool(expected)
    # The comparison means something only if it saw many documents, bad ones among them.
    assert checked > 500
    assert rejected >= 5


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.sampled_from(["", "a", "1.0.0", "0.0.1", "tool", "string", "llm", "form", "en_US", "x\n", "A b"]),
)


def near(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values shaped like documents of `schema`: its own property names and enum values, mixed."""
    names: set[str] = set()
    values: list[Any] = []

    def gather(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    names.update(value)
                if key == "enum" and isinstance(value, list):
                    values.extend(value)
                gather(value)
        elif isinstance(node, list):
            for item in node:
                gather(item)

    gather(schema)
    leaves = st.one_of(SCALARS, st.sampled_from(sorted(map(str, values)) or ["a"]))
    keys = st.sampled_from(sorted(names) or ["a"])
    return st.recursive(
        leaves,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=6)),
        max_leaves=30,
    )


def registry_documents(name: str) -> list[Any]:
    """The valid documents checked against the schema `name`: the registry's own plugins, and the
    good validate cases (the plugin kinds the registry has no plugin of)."""
    role = next(r for r, n in ROLE_SCHEMAS.items() if n == name)
    # the repository is the registry (it holds plugins/)
    with open_inputs([REPO, REPO / "tests" / "cases" / "validate" / "good"]) as inputs:
        return [d.data for loaded in inputs.plugins for _relative, d in documents(loaded, role)]


def paths_of(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    children = (
        value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    )
    for key, child in children:
        yield from paths_of(child, (*path, key))


@pytest.mark.parametrize("name", sorted(ROLE_SCHEMAS.values()))
def test_mutated_valid_documents(name: str) -> None:
    """One change to a valid document (a value replaced or a key removed): both agree."""
    fast, slow = validator(name), plain(name)
    originals = registry_documents(name)
    assert originals

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def same(data: st.DataObject) -> None:
        document = copy.deepcopy(data.draw(st.sampled_from(originals)))
        path = data.draw(st.sampled_from(list(paths_of(document))[1:]))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(SCALARS)
        assert errors(fast.iter_errors(document)) == errors(slow.iter_errors(document))

    same()


@pytest.mark.parametrize("name", sorted(ROLE_SCHEMAS.values()))
def test_never_looser_than_jsonschema(name: str) -> None:
    schema = inline_definitions(published_data(name))
    fast, slow = FastValidator(jsonschema.Draft7Validator(schema)), jsonschema.Draft7Validator(schema)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(near(schema))
    def same(instance: Any) -> None:
        assert errors(fast.iter_errors(instance)) == errors(slow.iter_errors(instance))

    same()


def test_never_looser_on_output_schemas() -> None:
    """The metaschema check of output schemas: the same errors with and without the fast path."""
    meta = jsonschema.Draft7Validator.META_SCHEMA
    checker = jsonschema.Draft7Validator(meta, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    fast = FastValidator(checker)
    assert fast._valid is not None
    cases = [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "objekt"},
        {"pattern": "(unclosed"},
        {"required": "name"},
        {"properties": {"a": {"minLength": -1}}},
        {"enum": []},
        {"$ref": 3},
        {"items": [{"type": "string"}, {"type": 5}]},
    ]
    for case in cases:
        assert errors(fast.iter_errors(case)) == errors(checker.iter_errors(case)), case


def test_booleans_against_numbers_are_left_to_jsonschema() -> None:
    # Python's `True == 1` would let a compiled enum accept `true` where JSON Schema does not.
    assert compile_check({"enum": [1, 2]}, formats=False) is None
    assert compile_check({"const": False}, formats=False) is None
    assert compile_check({"properties": {"const": {"enum": ["a"]}}}, formats=False) is not None
    fast = FastValidator(jsonschema.Draft7Validator({"enum": [1, 2]}))
    assert [e.validator for e in fast.iter_errors(True)] == ["enum"]


def test_no_remote_reference_is_fetched() -> None:
    assert compile_check({"$ref": "https://example.invalid/schema.json"}, formats=False) is None
    assert compile_check({"$ref": "http://example.invalid/schema.json"}, formats=False) is None


def test_defaults_are_not_written_into_the_document() -> None:
    fast = FastValidator(jsonschema.Draft7Validator({"type": "object", "properties": {"a": {"default": 1}}}))
    document: dict[str, Any] = {"b": 2}
    before = copy.deepcopy(document)
    assert list(fast.iter_errors(document)) == []
    assert document == before
