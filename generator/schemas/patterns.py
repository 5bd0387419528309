"""Regular expressions from untrusted schemas, matched within a time budget.

A `pattern` such as `^(a|a)*$` makes a backtracking engine take exponential time on a string of a
few dozen characters, and Python's `re` cannot be interrupted. Patterns named by a schema are
therefore matched with the `regex` engine, which takes a timeout; a pattern that runs out of time
is not applied (the caller reports it), and once the budget of one check is spent no further
pattern is tried.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import regex
from jsonschema import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend

SEARCH_SECONDS = 0.25
BUDGET_SECONDS = 1.0


class BoundedPatterns:
    """Searches sharing one time budget; remembers the patterns that were too slow."""

    def __init__(self, per_search: float = SEARCH_SECONDS, budget: float = BUDGET_SECONDS) -> None:
        self.per_search = per_search
        self.budget = budget
        self.slow: list[str] = []

    def search(self, pattern: str, text: str) -> bool | None:
        """True or False as the pattern matches `text`; None when it was not applied in time."""
        if pattern in self.slow or self.budget <= 0:
            return None
        started = time.monotonic()
        try:
            return regex.search(pattern, text, timeout=min(self.per_search, self.budget)) is not None
        except TimeoutError:
            self.slow.append(pattern)
            return None
        except (regex.error, TypeError, ValueError, OverflowError):  # invalid patterns are linted elsewhere
            return None
        finally:
            self.budget -= time.monotonic() - started


Keyword = Callable[[Any, Any, Any, dict[str, Any]], Iterator[ValidationError]]


def _keywords(patterns: BoundedPatterns) -> dict[str, Keyword]:
    # Unapplied patterns (None) raise no error: the caller notes them instead.
    def pattern(
        validator: Any, expected: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if validator.is_type(instance, "string") and patterns.search(expected, instance) is False:
            yield ValidationError(f"{instance!r} does not match {expected!r}")

    def pattern_properties(
        validator: Any, expected: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if not validator.is_type(instance, "object"):
            return
        for key_pattern, subschema in expected.items():
            for name, value in instance.items():
                if patterns.search(key_pattern, name):
                    yield from validator.descend(value, subschema, path=name, schema_path=key_pattern)

    def additional_properties(
        validator: Any, expected: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if not validator.is_type(instance, "object"):
            return
        declared = schema.get("properties", {})
        key_patterns = list(schema.get("patternProperties", {}))
        extras = [
            name
            for name in instance
            if name not in declared and not any(patterns.search(p, name) is not False for p in key_patterns)
        ]
        if validator.is_type(expected, "object"):
            for name in extras:
                yield from validator.descend(instance[name], expected, path=name)
        elif not expected and extras:
            listed = ", ".join(repr(name) for name in sorted(extras))
            yield ValidationError(f"Additional properties are not allowed ({listed} unexpected)")

    return {
        "pattern": pattern,
        "patternProperties": pattern_properties,
        "additionalProperties": additional_properties,
    }


def bounded_validator_class(base: type[Validator], patterns: BoundedPatterns) -> type[Validator]:
    """`base` with every pattern keyword matched through `patterns`."""
    extended: type[Validator] = extend(base, _keywords(patterns))  # type: ignore[no-untyped-call]
    return extended
