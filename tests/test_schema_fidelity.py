"""Our hosted v1 output schemas accept and reject exactly what Dify's own copies do."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from tests.conftest import REFERENCE_SCHEMAS, REPO, shared
from tests.schema_helpers import OUTPUT_SCHEMAS

NAMES = OUTPUT_SCHEMAS
OTHER_VALUES: tuple[Any, ...] = ("text", 3, 2.5, True, None, [], {}, ["a"], {"k": "v"})


def _schema(folder: Path, name: str) -> Any:
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


def _pair(name: str) -> tuple[Draft7Validator, Draft7Validator]:
    ours = _schema(REPO / "schemas" / "v1", name)
    dify = _schema(shared(REFERENCE_SCHEMAS), name)
    return Draft7Validator(ours), Draft7Validator(dify)


def _full(schema: Any) -> Any:
    """An instance with every declared property, array items included."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        value = {name: _full(sub) for name, sub in schema.get("properties", {}).items()}
        return value if kind != "array" else [value]
    if kind == "array":
        return [_full(schema["items"])] if "items" in schema else []
    return {"string": "s", "number": 1.5, "integer": 1, "boolean": True}.get(str(kind))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, sub in value.items():
            yield from _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield from _paths(sub, (*prefix, index))


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    result = copy.deepcopy(value)
    parent = result
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return result


def _delete(value: Any, path: tuple[Any, ...]) -> Any:
    result = copy.deepcopy(value)
    parent = result
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return result


def systematic_instances(name: str) -> list[Any]:
    """A full instance, then every single-place mutation of it: other types, removals, additions."""
    full = _full(_schema(shared(REFERENCE_SCHEMAS), name))
    intended = {"general_chunks": [{"content": "c", "files": [{"name": "n"}]}]}
    instances: list[Any] = [full, intended, [], {}, [1, "a"], *OTHER_VALUES]
    for path in _paths(full):
        instances.extend(_replace(full, path, other) for other in OTHER_VALUES)
        if path:
            instances.append(_delete(full, path))
        if path and isinstance(path[-1], int):
            instances.append(_replace(full, path[:-1], []))
    if isinstance(full, dict):
        instances.append({**full, "extra": 1})
    return instances


@pytest.mark.parametrize("name", NAMES)
def test_same_identity(name: str) -> None:
    """$id, $schema, title and description are Dify's."""
    ours, dify = _schema(REPO / "schemas" / "v1", name), _schema(shared(REFERENCE_SCHEMAS), name)
    for key in ("$id", "$schema", "title", "description", "type"):
        assert ours[key] == dify[key], key


@pytest.mark.parametrize("name", NAMES)
def test_systematic_instances_agree(name: str) -> None:
    """Every single-place mutation of a full instance gets the same verdict from both schemas."""
    ours, dify = _pair(name)
    instances = systematic_instances(name)
    verdicts = [(ours.is_valid(i), dify.is_valid(i)) for i in instances]
    assert [o for o, _ in verdicts] == [d for _, d in verdicts]
    assert any(o for o, _ in verdicts), "some instances are valid"
    assert not all(o for o, _ in verdicts), "some instances are invalid"


def test_enough_systematic_instances() -> None:
    """The systematic set alone has well over a hundred instances."""
    assert sum(len(systematic_instances(name)) for name in NAMES) >= 300


KEYS = st.sampled_from(
    [
        "name",
        "size",
        "url",
        "content",
        "files",
        "qa_chunks",
        "question",
        "answer",
        "parent_mode",
        "parent_child_chunks",
        "parent_content",
        "child_contents",
        "general_chunks",
        "mime_type",
        "related_id",
        "other",
    ]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=JSON_VALUES, name=st.sampled_from(NAMES))
def test_generated_instances_agree(instance: Any, name: str) -> None:
    """Random JSON shaped with the schemas' own property names gets the same verdict from both."""
    ours, dify = _pair(name)
    assert ours.is_valid(instance) == dify.is_valid(instance)
