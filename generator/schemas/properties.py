"""Property trees of schemas, as documentation tables show them."""

from __future__ import annotations

import re
from typing import Any

from generator.schemas.dialect import declared_types
from generator.schemas.refs import RefKind, Resolution
from generator.schemas.schema_set import PropertyRow, SchemaSet
from generator.schemas.walk import MAX_SCHEMA_DEPTH, rebase

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def type_text(schema: Any) -> str:
    """A short type label: `string`, `string | null`, `array[object]` (as Dify writes it); empty
    when undeclared."""
    if not isinstance(schema, dict):
        return ""
    names = declared_types(schema) or (("object",) if isinstance(schema.get("properties"), dict) else ())
    text = " | ".join(names)
    items = schema.get("items")
    if names == ("array",) and isinstance(items, dict):
        inner = " | ".join(declared_types(items)) or ("object" if "properties" in items else "")
        return f"array[{inner}]" if inner else text
    return text


def flatten_properties(schema: Any, schemas: SchemaSet, base: str = "") -> tuple[PropertyRow, ...]:
    """Every property of `schema` with its path, each followed by its own nested properties (as
    people read a tree); a `$ref` is noted on its row, not expanded."""
    resolution = Resolution(schema, schemas, base)
    rows: list[PropertyRow] = []
    anchors: set[str] = set()
    # An explicit stack instead of recursion: a stranger's schema decides how wide the tree is.
    # Entries with `required` set are properties whose row comes next; the others (the root and
    # array items) only open a level. Children are pushed in reverse so they pop in order.
    stack: list[tuple[str, Any, str, int, bool | None]] = [("", schema, base, 0, None)]
    while stack:
        path, node, outer, depth, required = stack.pop()
        if required is not None:
            row, expand = _row(path, node, required, resolution, outer, anchors)
            rows.append(row)
            if expand:
                stack.append((path, node, outer, depth + 1, None))
            continue
        if not isinstance(node, dict) or depth > MAX_SCHEMA_DEPTH:
            continue
        here = rebase(outer, node)
        children: list[tuple[str, Any, str, int, bool | None]] = []
        items = node.get("items")
        if isinstance(items, dict) and "$ref" not in items:
            children.append((f"{path}[]", items, here, depth + 1, None))
        properties = node.get("properties")
        listed = node.get("required")
        names = listed if isinstance(listed, list) else []
        for name, sub in properties.items() if isinstance(properties, dict) else ():
            children.append((f"{path}.{name}" if path else str(name), sub, here, depth, name in names))
        stack.extend(reversed(children))
    return tuple(rows)


def _row(
    path: str, sub: Any, required: bool, resolution: Resolution, base: str, anchors: set[str]
) -> tuple[PropertyRow, bool]:
    schema = sub if isinstance(sub, dict) else {}
    shown, ref = schema, None
    link = schema.get("$ref") if "$ref" in schema else _items_ref(schema)
    if link is not None:
        found = resolution.lookup((), link, rebase(base, schema))
        ref = found.target or str(link)
        if found.kind is RefKind.RESOLVED and isinstance(found.contents, dict) and "$ref" in schema:
            shown = found.contents
    description = schema.get("description") or shown.get("description")
    row = PropertyRow(
        path=path,
        anchor=_anchor(path, anchors),
        type=type_text(shown) if "$ref" in schema else type_text(schema),
        required=required,
        description=description if isinstance(description, str) else "",
        ref=ref,
    )
    return row, "$ref" not in schema and ("properties" in schema or isinstance(schema.get("items"), dict))


def _items_ref(schema: dict[str, Any]) -> Any:
    items = schema.get("items")
    return items.get("$ref") if isinstance(items, dict) else None


def _anchor(path: str, taken: set[str]) -> str:
    slug = "prop-" + (_UNSAFE.sub("-", path.replace("[]", "-items")).strip("-").lower() or "root")
    anchor, counter = slug, 2
    while anchor in taken:
        anchor, counter = f"{slug}-{counter}", counter + 1
    taken.add(anchor)
    return anchor
