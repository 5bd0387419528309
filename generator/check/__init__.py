"""The check stage: rules over a loaded plugin, returning findings.

Each check module exposes `check(loaded, context) -> Iterable[Diagnostic]` and defines its rules at
import time. `CHECKS` lists them in the order they run; adding a module is adding a line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from generator.diagnostics import Diagnostic
from generator.load.crawl import LoadedPlugin

CHECK_MODULES: tuple[str, ...] = ("output_schema",)


@dataclass(frozen=True)
class CheckContext:
    """Options and shared read-only data for every check."""

    submission: bool = False
    # The schema registry (generator.schemas) once available; typed loosely to keep stages apart.
    schemas: Any = None


CheckFunction = Callable[[LoadedPlugin, CheckContext], Iterable[Diagnostic]]


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f"generator.check.{name}") for name in CHECK_MODULES]


def check_plugin(loaded: LoadedPlugin, context: CheckContext) -> list[Diagnostic]:
    """Every finding for one plugin: loading findings plus every check's."""
    findings = list(loaded.diagnostics)
    for module in _modules():
        findings.extend(module.check(loaded, context))
    return findings
