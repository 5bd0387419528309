"""What the site publishes about schemas, as plain data: served files, catalog, users of each schema."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from generator.load.crawl import LoadedPlugin
from generator.plugin_model import ToolKey
from generator.published import SITE_URL
from generator.schemas.refs import RefKind, analyse
from generator.schemas.schema_set import SchemaSet

CATALOG_PATH = "schemas/catalog.json"
CATALOG_SCHEMA = "https://json.schemastore.org/schema-catalog.json"


def served_files(schemas: SchemaSet) -> dict[str, bytes]:
    """Site path (`schemas/v1/file.json`) -> the exact bytes of the source file."""
    return {schema.served_path: schema.content for schema in schemas.hosted}


def _version_key(version: str) -> int:
    return int(version.removeprefix("v")) if version.removeprefix("v").isdigit() else 0


def schema_catalog(schemas: SchemaSet) -> dict[str, Any]:
    """The hosted schemas in SchemaStore's `catalog.json` format, one entry per name.

    `url` is the newest version; `versions` maps each version folder to its URL."""
    by_name: dict[str, list[Any]] = {}
    for schema in schemas.hosted:
        if schema.id:
            by_name.setdefault(schema.name, []).append(schema)
    entries = []
    for name in sorted(by_name):
        versions = sorted(by_name[name], key=lambda s: _version_key(s.version))
        newest = versions[-1]
        entries.append(
            {
                "name": newest.title or name,
                "description": newest.description,
                "url": newest.id,
                "versions": {s.version: s.id for s in versions},
            }
        )
    return {"$schema": CATALOG_SCHEMA, "version": 1.0, "schemas": entries}


def catalog_url() -> str:
    """Where the site serves the schema catalog."""
    return SITE_URL + CATALOG_PATH


def referenced_ids(schema: Any, schemas: SchemaSet) -> set[str]:
    """The hosted `$id`s a schema references (directly), resolved as Dify resolves them."""
    if not isinstance(schema, dict):
        return set()
    found = set()
    for ref in analyse(schema, schemas).references:
        hosted = schemas.get(ref.target) if ref.kind is RefKind.RESOLVED else None
        if hosted is not None:
            found.add(hosted.id)
    return found


def referencing_tools(
    plugins: Iterable[LoadedPlugin], schemas: SchemaSet
) -> Mapping[str, tuple[ToolKey, ...]]:
    """Hosted `$id` -> the tools whose `output_schema` references it (sorted; every id present)."""
    users: dict[str, set[ToolKey]] = {schema.id: set() for schema in schemas.hosted if schema.id}
    for loaded in plugins:
        for tool in loaded.plugin.tools if loaded.plugin else ():
            for uri in referenced_ids(tool.output_schema, schemas):
                users.setdefault(uri, set()).add(tool.key)
    return {uri: tuple(sorted(keys, key=_tool_order)) for uri, keys in sorted(users.items())}


def _tool_order(key: ToolKey) -> tuple[str, str, str]:
    return (key.plugin, key.provider, key.tool)
