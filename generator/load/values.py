"""Reading untrusted YAML values: any level may be missing or of the wrong type."""

from __future__ import annotations

from typing import Any


def dig(data: Any, *parts: str) -> Any:
    """The value at a path of keys, or None where a level is missing or not a mapping."""
    for part in parts:
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def kind_of(value: Any) -> str:
    """How a YAML value reads, for messages: 'a boolean', 'an integer', ..."""
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list"}
    return names.get(type(value), "a mapping" if isinstance(value, dict) else type(value).__name__)
