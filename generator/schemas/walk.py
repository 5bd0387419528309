"""Iterate over every subschema of a JSON Schema, iteratively and to a bounded depth.

Schemas come from strangers' manifests: a recursive walk would hit Python's recursion limit on a
deep one, so this walk keeps its own stack and stops descending past `MAX_SCHEMA_DEPTH`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from generator.findings import Location

# Real output schemas nest about eight subschemas deep; the validator's recursion needs headroom.
MAX_SCHEMA_DEPTH = 48

Parts = tuple[str | int, ...]
# Where a finding points: (parts from the schema root, whether to point at the key) -> Location.
Locator = Callable[[Parts, bool], Location]

# Keywords whose value is a map of names to subschemas.
SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "$defs", "dependentSchemas")
# Keywords whose value is one subschema.
SCHEMA_VALUES = (
    "additionalProperties",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)
# Keywords whose value is a list of subschemas.
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


@dataclass(frozen=True, slots=True)
class SchemaNode:
    """One subschema: where it sits (keys and indexes from the root), its content and base URI."""

    parts: Parts
    schema: dict[str, Any]
    base: str
    depth: int


def rebase(base: str, schema: dict[str, Any]) -> str:
    """The base URI inside `schema`: its `$id` resolved against the outer base (anchors excluded)."""
    declared = schema.get("$id")
    if not isinstance(declared, str) or not declared or declared.startswith("#"):
        return base
    try:
        return urljoin(base, declared) if base else declared
    except ValueError:  # a malformed URL such as "http://[x" leaves the base unchanged
        return base


def children(schema: dict[str, Any]) -> Iterator[tuple[Parts, Any]]:
    """The direct subschemas of `schema` with their relative parts, in document order."""
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield (key, name), sub
        elif key in SCHEMA_VALUES or (key == "items" and not isinstance(value, list)):
            yield (key,), value
        elif (key in SCHEMA_LISTS or key == "items") and isinstance(value, list):
            for index, sub in enumerate(value):
                yield (key, index), sub
        elif key == "dependencies" and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, dict):
                    yield (key, name), sub


@dataclass(frozen=True)
class Walk:
    """Every subschema found, and the first place where the walk stopped because of depth."""

    nodes: tuple[SchemaNode, ...]
    too_deep: Parts | None


def walk(schema: Any, base: str = "", limit: int = MAX_SCHEMA_DEPTH) -> Walk:
    """Every object subschema of `schema` in document order, the root first."""
    nodes: list[SchemaNode] = []
    too_deep: Parts | None = None
    stack: list[tuple[Parts, Any, str, int]] = [((), schema, base, 0)]
    while stack:
        parts, node, outer, depth = stack.pop()
        if not isinstance(node, dict):
            continue
        if depth > limit:
            too_deep = too_deep or parts
            continue
        here = rebase(outer, node)
        nodes.append(SchemaNode(parts, node, here, depth))
        stack.extend((parts + rel, sub, here, depth + 1) for rel, sub in reversed(list(children(node))))
    return Walk(tuple(nodes), too_deep)
