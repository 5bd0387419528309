"""Kinds of interface change: each a rule (its own code, message, hint and page) with a class that
says what it does to the workflows built on the old version, and so which version bump it needs."""

from __future__ import annotations

import enum

from generator.findings import Finding, Severity
from generator.rules import Rule, rule


class Change(enum.StrEnum):
    """What a change does to existing workflows."""

    BREAKING = "breaking"  # a workflow stops working or silently reads None
    COMPATIBLE = "compatible"  # something was added; existing workflows work as before
    NOTE = "note"  # worth knowing; nothing a workflow relies on changed


# Breaking changes are warnings (with `--strict` they fail a run); the version check is the error.
_SEVERITY = {Change.BREAKING: Severity.WARNING, Change.COMPATIBLE: Severity.INFO, Change.NOTE: Severity.INFO}
_CLASS_OF: dict[str, Change] = {}
_CLASS_DOC = {
    Change.BREAKING: "A **breaking** change: it needs a major version bump (a minor one below 1.0.0).",
    Change.COMPATIBLE: "A **compatible** change: it needs at least a minor version bump.",
    Change.NOTE: "A **note**: it needs at least a patch version bump.",
}


def change_rule(code: str, name: str, kind: Change, message: str, hint: str, doc: str) -> Rule:
    """Define the rule of one kind of change; its message starts with the class."""
    defined = rule(
        code, name, _SEVERITY[kind], f"{kind.value}: {message}", hint, f"{doc.strip()}\n\n{_CLASS_DOC[kind]}"
    )
    _CLASS_OF[code] = kind
    return defined


def class_of(finding: Finding) -> Change | None:
    """The class of a change finding (None for findings that are not changes)."""
    return class_of_code(finding.rule)


def class_of_code(code: str) -> Change | None:
    """The class of the change rule with this code (None for rules that are not changes)."""
    return _CLASS_OF.get(code)
