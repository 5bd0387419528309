"""`index.json`: the registry as data (plugins, tools, parameters, output variables, schema references,
checksums, page URLs per language), described by `schemas/v1/registry_index.json`."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from generator.diagnostics import Severity, count_by_severity
from generator.load.crawl import LoadedPlugin
from generator.model import I18n, Parameter, Tool
from generator.site.languages import LANGUAGE_SITES
from generator.site.shared import SharedViews
from generator.site.texts import texts_for
from generator.site.urls import page_url, schema_src
from generator.site.views import fixed_rows

INDEX_SCHEMA = "https://dify.ai/schemas/v1/registry_index.json"
INDEX_VERSION = 1
FIXED_VARIABLES = tuple(fixed_rows(texts_for("en_US")))


_JSON_SCALARS = (str, int, float, bool, type(None))


def jsonable(value: Any) -> Any:
    """YAML values as plain JSON data (dates and other scalars become strings)."""
    if type(value) in _JSON_SCALARS:
        return value  # already JSON data; most defaults are
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def checksum(value: Any) -> str:
    """sha256 of a value's canonical JSON form: changes exactly when the declaration changes."""
    canonical = json.dumps(value, default=str, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def _i18n(text: I18n) -> dict[str, str]:
    return {
        code: value for code, value in text.texts.items() if code in {lang.code for lang in LANGUAGE_SITES}
    }


def _pages(site_url: str, src: str, use_directory_urls: bool) -> dict[str, str]:
    return {
        lang.code: f"{site_url}{lang.folder}{page_url(src, use_directory_urls)}" for lang in LANGUAGE_SITES
    }


def _parameter(parameter: Parameter) -> dict[str, Any]:
    return {
        "name": parameter.name,
        "type": parameter.type,
        "form": parameter.form,
        "required": parameter.required,
        "default": jsonable(parameter.default),
        "label": _i18n(parameter.label),
        "human_description": _i18n(parameter.human_description),
        "llm_description": parameter.llm_description,
        "options": [{"value": o.value, "label": _i18n(o.label)} for o in parameter.options],
    }


class _Indexer:
    def __init__(self, shared: SharedViews, site_url: str, use_directory_urls: bool) -> None:
        self.shared = shared
        self.catalog = shared.catalog
        self.site_url = site_url if site_url.endswith("/") else site_url + "/"
        self.use_directory_urls = use_directory_urls
        self.sitemap = shared.sitemap

    def pages(self, src: str) -> dict[str, str]:
        return _pages(self.site_url, src, self.use_directory_urls)

    def tool(self, loaded: LoadedPlugin, index: int, tool: Tool) -> dict[str, Any]:
        document = loaded.documents.get(tool.file)
        return {
            "provider": tool.key.provider,
            "name": tool.name,
            "label": _i18n(tool.label),
            "description": _i18n(tool.description),
            "llm_description": tool.llm_description,
            "parameters": [_parameter(p) for p in tool.parameters],
            "output_variables": [
                {"path": r.path, "type": r.type, "required": r.required, "ref": r.ref}
                for r in (*FIXED_VARIABLES, *self.shared.output_properties(tool))
            ],
            "schema_refs": sorted(self.shared.references(tool)),
            "checksum": checksum(document.data if document else None),
            "examples": [
                {"name": run.example, "passed": run.passed, "smoke": run.smoke}
                for run in self.catalog.runs_of(tool.key)
            ],
            "pages": self.pages(self.sitemap.tools[(loaded.display, index)]),
        }

    def plugin(self, loaded: LoadedPlugin) -> dict[str, Any] | None:
        plugin = loaded.plugin
        if plugin is None:
            return None
        counts = count_by_severity(self.catalog.findings_of(loaded))
        manifest = loaded.documents.get("manifest.yaml")
        return {
            "name": plugin.name,
            "path": loaded.display,
            "author": plugin.author,
            "version": plugin.version,
            "label": _i18n(plugin.label),
            "description": _i18n(plugin.description),
            "tags": list(plugin.tags),
            "repo": plugin.repo,
            "checksum": checksum(manifest.data if manifest else None),
            "findings": {
                "errors": counts[Severity.ERROR],
                "warnings": counts[Severity.WARNING],
                "infos": counts[Severity.INFO],
            },
            "pages": self.pages(self.sitemap.plugins[loaded.display]),
            "tools": [self.tool(loaded, i, t) for i, t in enumerate(plugin.tools)],
        }

    def schemas(self) -> list[dict[str, Any]]:
        hosted = self.catalog.schemas.hosted if self.catalog.schemas is not None else ()
        listed = []
        for schema in hosted:
            listed.append(
                {
                    "id": schema.id,
                    "url": self.site_url + schema.served_path,
                    "sha256": hashlib.sha256(schema.content).hexdigest(),
                    "pages": self.pages(schema_src(schema)),
                }
            )
        return listed


def registry_index(shared: SharedViews, site_url: str, use_directory_urls: bool = True) -> dict[str, Any]:
    """The whole index as JSON data."""
    indexer = _Indexer(shared, site_url, use_directory_urls)
    plugins = [entry for loaded in shared.catalog.plugins if (entry := indexer.plugin(loaded)) is not None]
    return {
        "$schema": INDEX_SCHEMA,
        "version": INDEX_VERSION,
        "site_url": indexer.site_url,
        "languages": [lang.code for lang in LANGUAGE_SITES],
        "plugins": plugins,
        "schemas": indexer.schemas(),
    }
