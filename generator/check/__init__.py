"""The check stage: rules over a loaded plugin, returning findings.

Each check module exposes `check(loaded, context) -> Iterable[Diagnostic]` and declares its rules
as data (`generator.ruleset` collects them). `CHECK_MODULES` lists them in the order they run;
adding a module is adding a line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from generator.diagnostics import Diagnostic
from generator.load.crawl import LoadedPlugin

if TYPE_CHECKING:
    from generator.schemas import SchemaSet

CHECK_MODULES: tuple[str, ...] = (
    "schema",
    "manifest",
    "provider",
    "tool",
    "parameters",
    "local_defaults",
    "locales",
    "submission",
    "secrets",
    "binaries",
    "dependencies",
    "python",
    "safety",
    "domains",
    "output_schema",
    "texts",
    "readme",
    "examples",
    "unyielded",
    "undeclared",
    "sdk_file",
    "unparsed",
)


@dataclass(frozen=True)
class CheckContext:
    """Options and shared read-only data for every check."""

    submission: bool = False
    # The hosted schemas `$ref`s resolve against; None means the schemas shipped with the generator.
    schemas: SchemaSet | None = None
    # What a check remembers within one run, under a key of its own (results by content): the run's
    # data and schemas do not change while it lasts.
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


CheckFunction = Callable[[LoadedPlugin, CheckContext], Iterable[Diagnostic]]


@cache  # asked once per plugin: importlib's lookup of a loaded module is not free
def check_modules() -> tuple[ModuleType, ...]:
    """The check modules, imported (each declares its rules; `generator.ruleset` collects them)."""
    return tuple(importlib.import_module(f"generator.check.{name}") for name in CHECK_MODULES)


def check_plugin(loaded: LoadedPlugin, context: CheckContext) -> list[Diagnostic]:
    """Every finding for one plugin: loading findings plus every check's."""
    findings = list(loaded.diagnostics)
    for module in check_modules():
        findings.extend(module.check(loaded, context))
    return findings
