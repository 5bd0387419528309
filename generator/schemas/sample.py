"""A small valid example instance for a schema, made from the schema itself and then checked."""

from __future__ import annotations

from typing import Any

from generator.schemas.dialect import declared_types
from generator.schemas.output import validate_output
from generator.schemas.refs import RefKind, Resolution
from generator.schemas.schema_set import SchemaSet
from generator.schemas.walk import rebase

# Examples are for reading: a few levels show the shape; deeper parts are left out or minimal.
MAX_EXAMPLE_DEPTH = 12
_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "12:00:00",
    "email": "author@example.com",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def example_instance(schema: Any, schemas: SchemaSet, base: str = "") -> Any:
    """An instance that `schema` accepts, or None when this simple generator cannot make one."""
    maker = _Maker(Resolution(schema, schemas, base))
    candidate = maker.make(schema, base, 0)
    found = validate_output(schema, candidate, schemas)
    return None if any(not m.note or "not checked" in m.message for m in found) else candidate


class _Maker:
    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution

    def make(self, schema: Any, base: str, depth: int) -> Any:
        if not isinstance(schema, dict) or depth > MAX_EXAMPLE_DEPTH:
            return None
        here = rebase(base, schema)
        for key in ("const", "default"):
            if key in schema:
                return schema[key]
        for key in ("examples", "enum"):
            if isinstance(schema.get(key), list) and schema[key]:
                return schema[key][0]
        if "$ref" in schema:
            found = self.resolution.lookup((), schema["$ref"], here)
            return self.make(found.contents, here, depth + 1) if found.kind is RefKind.RESOLVED else None
        for key in ("allOf", "anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options and not declared_types(schema):
                return self.make(options[0], here, depth + 1)
        return self._typed(schema, here, depth)

    def _typed(self, schema: dict[str, Any], base: str, depth: int) -> Any:
        names = [n for n in declared_types(schema) if n != "null"] or list(declared_types(schema))
        kind = names[0] if names else ("object" if isinstance(schema.get("properties"), dict) else "")
        if kind == "object":
            properties = schema.get("properties")
            entries = properties.items() if isinstance(properties, dict) else ()
            return {str(name): self.make(sub, base, depth + 1) for name, sub in entries}
        if kind == "array":
            items = schema.get("items")
            least = schema.get("minItems")
            count = min(least, 3) if isinstance(least, int) and least > 1 else 1
            return (
                [self.make(items, base, depth + 1) for _ in range(count)] if isinstance(items, dict) else []
            )
        return _scalar(kind, schema)


def _scalar(kind: str, schema: dict[str, Any]) -> Any:
    if kind == "string":
        text = _FORMATS.get(str(schema.get("format")), "example")
        least = schema.get("minLength")
        return text.ljust(least, "x") if isinstance(least, int) and least < 1000 else text
    if kind in ("number", "integer"):
        least = schema.get("minimum")
        return least if isinstance(least, int | float) and not isinstance(least, bool) else 1
    return {"boolean": True, "null": None}.get(kind)
