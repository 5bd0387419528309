"""The check stage: rules over a loaded plugin, returning findings.

Each check module exposes `check(loaded, context) -> Iterable[Finding]` and declares its rules
as data (`generator.ruleset` collects them). `all_checks.CHECKS` names them in the order they run;
adding a module is adding a line there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.schemas import SchemaSet


@dataclass(frozen=True)
class CheckContext:
    """Options and shared read-only data for every check."""

    submission: bool = False
    # The hosted schemas `$ref`s resolve against; None means the schemas shipped with the generator.
    schemas: SchemaSet | None = None
    # What a check remembers within one run, under a key of its own (results by content): the run's
    # data and schemas do not change while it lasts.
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
