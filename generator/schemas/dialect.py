"""What a JSON Schema declares of itself: its types, the validator class of its dialect, and where it
breaks its dialect's metaschema (remembered by content: a schema is asked about more than once)."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

import referencing.jsonschema
from jsonschema import Draft7Validator, ValidationError
from jsonschema.validators import validator_for

from generator.schemas.compiled import FastValidator


def declared_types(schema: dict[str, Any]) -> tuple[str, ...]:
    """The type names a schema declares (`type` as a string or a list of strings)."""
    value = schema.get("type")
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def validator_class(schema: Any) -> Any:
    """The jsonschema validator class for the dialect `schema` declares (draft-07 when unknown)."""
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(dialect, str):
        try:
            referencing.jsonschema.specification_with(dialect)
        except referencing.jsonschema.UnknownDialect:
            return Draft7Validator
        return validator_for(schema, default=Draft7Validator)
    return Draft7Validator


@cache
def _metaschema_checker(cls: Any) -> FastValidator:
    # One checker per dialect: compiling the metaschema is the costly part, checking is cheap.
    checker_cls = validator_for(cls.META_SCHEMA, default=cls)
    return FastValidator(checker_cls(cls.META_SCHEMA, format_checker=checker_cls.FORMAT_CHECKER))


def metaschema_errors(schema: Any) -> list[ValidationError]:
    """Where `schema` breaks its metaschema (regular expressions included), in path order."""
    try:
        text = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):  # not JSON data (YAML dates, odd keys): no reuse
        return _metaschema_errors(schema)
    if len(text) > MAX_REMEMBERED:
        return _metaschema_errors(schema)
    return list(_known_errors(text))


# Schemas larger than this are checked every time: the memo must stay small whatever plugins send.
MAX_REMEMBERED = 32 * 1024


@lru_cache(maxsize=1024)
def _known_errors(text: str) -> tuple[ValidationError, ...]:
    # A schema is linted when it loads and again when its usable part is taken: the same answer.
    return tuple(_metaschema_errors(json.loads(text)))


def _metaschema_errors(schema: Any) -> list[ValidationError]:
    checker = _metaschema_checker(validator_class(schema))
    try:
        errors = list(checker.iter_errors(schema))
    except RecursionError:  # callers bound the depth first; never crash on it anyway
        return []
    return sorted(errors, key=lambda e: [str(p) for p in e.absolute_path])
