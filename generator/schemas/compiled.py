"""A fast answer to "is this document valid?" before jsonschema explains why it is not.

Almost every manifest, tool YAML and output schema is valid, and jsonschema's interpreter spends most
of the validator's time proving it. fastjsonschema compiles a schema to Python code that answers the
yes/no question about twenty times faster. Only a document it rejects goes through jsonschema, whose
errors (paths, keywords, messages) the findings are made of; so findings never depend on it.

The fast answer may only ever be stricter than jsonschema, never looser: a document it wrongly
rejects costs a jsonschema pass, one it wrongly accepted would lose findings. Where the two could
disagree in that direction (enum or const values compared with Python's `==`, where `True == 1`), no
code is compiled and jsonschema alone decides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import fastjsonschema
from jsonschema import ValidationError
from jsonschema.protocols import Validator

# Keywords whose value maps names (or patterns) to subschemas, rather than being a subschema.
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "definitions", "$defs", "dependencies"})
# Keywords whose value is data, not a subschema.
_DATA = frozenset({"default", "examples", "enum", "const"})


def _refuse_remote(uri: str) -> Any:
    # A compiled schema must never fetch anything: every reference is local or inlined.
    raise fastjsonschema.JsonSchemaDefinitionException(f"remote reference refused: {uri}")


def _plain_equality(node: Any, names: bool = False) -> bool:
    """True when every enum and const value in the schema is a string or null (compared alike)."""
    if isinstance(node, list):
        return all(_plain_equality(item) for item in node)
    if not isinstance(node, dict):
        return True
    for key, value in node.items():
        if names:
            if not _plain_equality(value):
                return False
        elif key in ("enum", "const"):
            values = value if key == "enum" and isinstance(value, list) else [value]
            if not all(v is None or isinstance(v, str) for v in values):
                return False
        elif key in _SCHEMA_MAPS:
            if not _plain_equality(value, names=True):
                return False
        elif key not in _DATA and not _plain_equality(value):
            return False
    return True


def compile_check(schema: Any, formats: bool) -> Callable[[Any], Any] | None:
    """The schema as a compiled yes/no check, or None when it must not or cannot be compiled."""
    if not isinstance(schema, dict) or not _plain_equality(schema):
        return None
    try:
        return fastjsonschema.compile(
            schema,
            handlers={"http": _refuse_remote, "https": _refuse_remote},
            use_default=False,  # never write defaults into the document checked
            use_formats=formats,
        )
    except Exception:  # any schema it cannot compile is left to jsonschema
        return None


class FastValidator:
    """A jsonschema validator with a compiled yes/no check in front of it."""

    def __init__(self, validator: Validator) -> None:
        self.validator = validator
        self._valid = compile_check(
            validator.schema, formats=getattr(validator, "format_checker", None) is not None
        )

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        """jsonschema's errors for `instance`, skipped when the compiled check accepts it."""
        if self._valid is not None:
            try:
                self._valid(instance)
            except Exception:  # rejected, or data the compiled code did not expect: ask jsonschema
                pass
            else:
                return iter(())
        return self.validator.iter_errors(instance)
