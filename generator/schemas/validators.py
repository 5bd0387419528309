"""The published plugin schemas (manifest, provider, tool) as compiled validators, read and compiled
once: from the registry's schema set when it holds them, else from the files the generator ships."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

import jsonschema

from generator.errors import BrokenRegistry
from generator.published import SCHEMA_BASE
from generator.schemas.compiled import FastValidator
from generator.schemas.schema_set import SchemaSet
from generator.shipped import shipped_schemas_root

V1_SCHEMAS = SCHEMA_BASE + "v1/"  # where the hosted v1 schemas live
SCHEMA_ROOT = shipped_schemas_root() / "v1"


@cache
def _read_schema(name: str) -> dict[str, Any]:
    path = SCHEMA_ROOT / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft7Validator.check_schema(data)
    except (OSError, ValueError, jsonschema.SchemaError) as problem:
        raise BrokenRegistry(f"cannot use the schema {path.name}: {problem}") from problem
    if not isinstance(data, dict):
        raise BrokenRegistry(f"the schema {path.name} is not a JSON object")
    return data


def published_data(name: str, schemas: SchemaSet | None = None) -> dict[str, Any]:
    """The published schema `name`, from `schemas` when it holds it, else the shipped file."""
    hosted = schemas.get(V1_SCHEMAS + f"{name}.json") if schemas else None
    data = getattr(hosted, "data", None)
    return data if isinstance(data, dict) else _read_schema(name)


def published_validator(name: str, schemas: SchemaSet | None = None) -> FastValidator:
    """A compiled validator for the published schema `name`, from `schemas` when it holds it (compiled
    once per content), else from the shipped file (once per process)."""
    hosted = schemas.get(V1_SCHEMAS + f"{name}.json") if schemas else None
    content = getattr(hosted, "content", None)
    # The hosted schema's bytes are parsed as its data was (schemas/load.py: json.loads of them).
    usable = isinstance(content, bytes) and isinstance(getattr(hosted, "data", None), dict)
    return _content_validator(content) if usable else _file_validator(name)


@cache  # the shipped file is constant data of the installed generator
def _file_validator(name: str) -> FastValidator:
    return _compile(_read_schema(name))


# Compiled by content, not by run: a validator depends on the schema's bytes alone, and the next
# pipeline of a process (a rebuild under `serve`, the next test) would compile the same schemas
# again (a tenth of a second). Bounded, so schemas edited under `serve` cannot grow it.
@lru_cache(maxsize=64)
def _content_validator(content: bytes) -> FastValidator:
    data = json.loads(content)
    if not isinstance(data, dict):
        raise BrokenRegistry("a hosted schema is not a JSON object")
    return _compile(data)


def _compile(data: dict[str, Any]) -> FastValidator:
    return FastValidator(jsonschema.Draft7Validator(inline_definitions(data)))


def inline_definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of `schema` with its local `#/definitions/...` references replaced by their targets.

    Resolving a `$ref` on every visit dominates validation time; the registry's own schemas use
    local, non-recursive definitions only, so they can be expanded once up front.
    """
    definitions = schema.get("definitions", {})

    def expand(node: Any, depth: int) -> Any:
        if isinstance(node, list):
            return [expand(item, depth) for item in node]
        if not isinstance(node, dict):
            return node
        target = node.get("$ref")
        prefix = "#/definitions/"
        name = target.removeprefix(prefix) if isinstance(target, str) else ""
        if isinstance(target, str) and target.startswith(prefix) and name in definitions and depth < 20:
            return expand(definitions[name], depth + 1)
        return {key: expand(value, depth) for key, value in node.items()}

    return {key: expand(value, 0) for key, value in schema.items()}
