"""What a knowledge pipeline needs of the catalog beyond tools: each datasource (its provider type,
parameters, output paths) and the hosted chunk structure each output of a tool or datasource
declares through its `$ref`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.diff.interface import schema_outputs
from generator.kind_models.datasource import DatasourceProvider
from generator.load.crawl import LoadedPlugin
from generator.schemas import SchemaSet

HOSTED = "https://dify.ai/schemas/v1/"
# The hosted chunk schemas and the `chunk_structure` of the processor that reads each (Dify's
# `IndexStructureType`: PARAGRAPH_INDEX "text_model", PARENT_CHILD_INDEX "hierarchical_model",
# QA_INDEX "qa_model"); the multimodal forms are read by the same processors.
STRUCTURES: Mapping[str, str] = {
    HOSTED + "general_structure.json": "text_model",
    HOSTED + "multimodal_general_structure.json": "text_model",
    HOSTED + "parent_child_structure.json": "hierarchical_model",
    HOSTED + "multimodal_parent_child_structure.json": "hierarchical_model",
    HOSTED + "qa_structure.json": "qa_model",
}
# Files a datasource node hands on besides its schema (an online drive's download).
DATASOURCE_FIXED_OUTPUTS = frozenset({"file"})


@dataclass(frozen=True, slots=True)
class DatasourceSpec:
    """A datasource as a pipeline needs it: its type, parameters, outputs and their chunk structures."""

    provider: str
    name: str
    provider_type: str
    parameters: tuple[str, ...]
    outputs: frozenset[str]
    structures: Mapping[str, str]  # output path -> hosted chunk schema `$id`


def chunk_structures(outputs: Iterable[tuple[str, Any]]) -> dict[str, str]:
    """Output path -> the hosted chunk schema its `$ref` resolves to, for the outputs that have one
    (`outputs` as `diff.interface.schema_outputs` yields them)."""
    found: dict[str, str] = {}
    for path, output in outputs:
        target = (output.ref or "").split("#", 1)[0]
        if target in STRUCTURES:
            found[path] = target
    return found


def datasource_specs(
    plugins: Sequence[LoadedPlugin], schemas: SchemaSet
) -> dict[str, dict[tuple[str, str], DatasourceSpec]]:
    """Plugin id (`author/name`) -> its datasources by (provider, datasource), for the loaded plugins."""
    found: dict[str, dict[tuple[str, str], DatasourceSpec]] = {}
    for loaded in plugins:
        plugin = loaded.plugin
        if plugin is None:
            continue
        for provider in plugin.parts_of(DatasourceProvider):
            for datasource in provider.datasources:
                document = loaded.documents.get(datasource.file)
                rows = dict(schema_outputs(datasource.output_schema, document, schemas))
                spec = DatasourceSpec(
                    provider.name,
                    datasource.name,
                    provider.provider_type,
                    tuple(p.name for p in datasource.parameters),
                    frozenset(rows) | DATASOURCE_FIXED_OUTPUTS,
                    chunk_structures(rows.items()),
                )
                found.setdefault(f"{plugin.author}/{plugin.name}", {})[(provider.name, datasource.name)] = (
                    spec
                )
    return found
