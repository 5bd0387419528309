"""What the site publishes besides pages: raw schemas at their `$id` paths, the schema catalog,
`index.json`, and the files example runs produced; and what `mkdocs serve` watches."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from generator.inputs import is_registry
from generator.schemas import CATALOG_PATH, schema_catalog, served_files
from generator.site.index_json import registry_index
from generator.site.site_model import MISSING_JSON, SiteModel
from generator.site.views import published_path


def shared_files(model: SiteModel, site_url: str) -> dict[str, bytes | str | Path]:
    """Files served once at the site root, by path under the site: bytes, text, or a file to copy."""
    catalog = model.catalog
    published: dict[str, bytes | str | Path] = {}
    if catalog.schemas is not None:
        published.update(served_files(catalog.schemas))
        published[CATALOG_PATH] = json.dumps(schema_catalog(catalog.schemas), indent=2) + "\n"
    published.update(model.media)
    published[MISSING_JSON] = json.dumps(model.missing_texts(), ensure_ascii=False, separators=(",", ":"))
    for run in catalog.runs:
        for output in run.files:
            published[published_path(output.site_path)] = output.path
    index = registry_index(model, site_url)
    # Compact: an indented dump takes json's pure-Python encoder, several seconds for 10,000 tools.
    published["index.json"] = json.dumps(index, ensure_ascii=False, separators=(",", ":")) + "\n"
    return published


def watched_paths(registries: Sequence[Path], schemas_root: Path) -> list[Path]:
    """The folders whose changes must rebuild the site: plugin sources and hosted schemas."""
    return [*(r / "plugins" if is_registry(r) else r for r in registries), schemas_root]
