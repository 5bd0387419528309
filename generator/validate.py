"""`validate`: load every input, run every check, collect every finding."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.check import CheckContext, check_plugin
from generator.diagnostics import Diagnostic, sort_diagnostics
from generator.inputs import is_registry, open_inputs
from generator.load.crawl import LoadedPlugin
from generator.schemas import SchemaSet, load_schemas, shipped_schemas


@dataclass(frozen=True)
class Validation:
    """The loaded plugins and all findings, sorted."""

    plugins: tuple[LoadedPlugin, ...]
    diagnostics: tuple[Diagnostic, ...]


def validate_loaded(
    plugins: Sequence[LoadedPlugin], extra: Sequence[Diagnostic], context: CheckContext
) -> Validation:
    """Check already-loaded plugins."""
    findings = list(extra)
    for loaded in plugins:
        findings.extend(check_plugin(loaded, context))
    return Validation(tuple(plugins), tuple(sort_diagnostics(findings)))


def schemas_for(paths: Sequence[Path]) -> SchemaSet:
    """The schemas of the first registry named (its `schemas/` folder), else the generator's own.

    Raises SchemaLoadError when that registry's schemas cannot be read."""
    for path in paths:
        if is_registry(path) and (path / "schemas").is_dir():
            return load_schemas(path / "schemas")
    return shipped_schemas()


def validate_paths(paths: Sequence[Path], context: CheckContext) -> Validation:
    """Load and check everything `paths` name (packages are unpacked to a temporary folder)."""
    if context.schemas is None:
        context = replace(context, schemas=schemas_for(paths))
    with open_inputs(paths) as inputs:
        return validate_loaded(inputs.plugins, inputs.diagnostics, context)
