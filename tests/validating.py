"""`validate` for tests and benchmarks that hold a check context: thin shells over `generator.pipeline`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from generator.catalog import Catalog
from generator.check import CheckContext
from generator.findings import Finding
from generator.inputs import Inputs
from generator.load.crawl import LoadedPlugin
from generator.pipeline import Pipeline, resolve_schemas


def validate_loaded(
    plugins: Sequence[LoadedPlugin], extra: Sequence[Finding], context: CheckContext
) -> Catalog:
    """Check already-loaded plugins."""
    pipeline = Pipeline((), context.schemas or resolve_schemas(), submission=context.submission)
    return pipeline.catalog_of(Inputs(tuple(plugins), tuple(extra)))


def validate_paths(paths: Sequence[Path], context: CheckContext) -> Catalog:
    """Load and check everything `paths` name (packages are unpacked to a temporary folder)."""
    schemas = context.schemas or resolve_schemas(paths)
    return Pipeline(tuple(paths), schemas, submission=context.submission).catalog()
