"""Lint every tool's and datasource's inline `output_schema`, resolving its `$ref`s offline."""

from __future__ import annotations

from collections.abc import Iterator

from generator.check import CheckContext
from generator.diagnostics import Diagnostic, Location
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument
from generator.schemas import SchemaSet, shipped_schemas
from generator.schemas.inline import lint_output_schema
from generator.schemas.lint import Locator
from generator.schemas.walk import Parts

ROLES_WITH_OUTPUT_SCHEMA = ("tool", "datasource")


def _locator(document: YamlDocument) -> Locator:
    def locate(parts: Parts, key: bool) -> Location:
        full = ("output_schema", *parts)
        return document.key_at(*full) if key else document.at(*full)

    return locate


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterator[Diagnostic]:
    """Findings on each `output_schema` of the plugin's tool and datasource YAMLs."""
    schemas: SchemaSet = context.schemas or shipped_schemas()
    for relative, role in loaded.roles.items():
        document = loaded.documents.get(relative)
        if role not in ROLES_WITH_OUTPUT_SCHEMA or document is None or not isinstance(document.data, dict):
            continue
        if "output_schema" in document.data:
            yield from lint_output_schema(document.data["output_schema"], schemas, _locator(document))
