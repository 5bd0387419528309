"""What the site publishes besides pages: raw schemas at their `$id` paths, the schema catalog,
`index.json`, and the files example runs produced; and what `mkdocs serve` watches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from generator.catalog import Catalog, build_catalog
from generator.check import CheckContext
from generator.inputs import is_registry
from generator.site.index_json import registry_index
from generator.site.pages import SCHEMA_CATALOG_FILE
from generator.site.urls import schema_file
from generator.site.views import published_path


def load_hosted(root: Path) -> Any:
    """The schema set of the registry's `schemas/` folder, or None when the folder is absent."""
    if not root.is_dir():
        return None
    try:
        from generator.schemas import load_schemas  # type: ignore[import-not-found]
    except ImportError:  # the schema registry package is not installed in this checkout
        return None
    return load_schemas(root)


def build_catalog_for(registry: Path, schemas_root: Path, run: bool) -> Catalog:
    """The catalog of a registry folder (or of one plugin folder) with its hosted schemas."""
    schemas = load_hosted(schemas_root)
    return build_catalog([registry], CheckContext(schemas=schemas), schemas=schemas)


def shared_files(catalog: Catalog, config: MkDocsConfig) -> dict[str, bytes | str | Path]:
    """Files served once at the site root, by path under the site: bytes, text, or a file to copy."""
    published: dict[str, bytes | str | Path] = {}
    if catalog.schemas is not None:
        from generator.schemas import schema_catalog

        for schema in catalog.schemas.hosted:
            target = schema_file(schema.id)
            if target is not None:
                published[target] = schema.content
        published[SCHEMA_CATALOG_FILE] = json.dumps(schema_catalog(catalog.schemas), indent=2) + "\n"
    for run in catalog.runs:
        for output in run.files:
            published[published_path(output.site_path)] = output.path
    index = registry_index(catalog, config.site_url or "", config.use_directory_urls)
    published["index.json"] = json.dumps(index, ensure_ascii=False, indent=1) + "\n"
    return published


def watched_paths(registry: Path, schemas_root: Path) -> list[Path]:
    """The folders whose changes must rebuild the site: plugin sources and hosted schemas."""
    plugins = registry / "plugins" if is_registry(registry) else registry
    return [plugins, schemas_root]
