"""`index.json`: the registry as data (plugins, tools, parameters, output variables, schema references,
checksums, page URLs per language), described by `schemas/v2/registry_index.json`."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from generator.diff.changes import Change, class_of
from generator.findings import Finding
from generator.plugin_model import Credential, I18n, Parameter
from generator.published import SCHEMA_BASE
from generator.run.result import RunResult
from generator.site.kinds import PAGES
from generator.site.languages import LANGUAGE_SITES
from generator.site.llms import LLMS_TXT
from generator.site.site_model import PluginEntry, SiteModel, ToolEntry
from generator.site.texts import texts_for
from generator.site.views import OutputRow, fixed_rows

INDEX_SCHEMA = SCHEMA_BASE + "v2/registry_index.json"
INDEX_VERSION = 2
FIXED_VARIABLES = tuple(fixed_rows(texts_for("en_US")))


_JSON_SCALARS = (str, int, float, bool, type(None))


def jsonable(value: Any) -> Any:
    """YAML values as plain JSON data (dates and other scalars become strings)."""
    if type(value) in _JSON_SCALARS:
        return value  # already JSON data; most defaults are
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def _i18n(text: I18n) -> dict[str, str]:
    return {
        code: value for code, value in text.texts.items() if code in {lang.code for lang in LANGUAGE_SITES}
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
    """Builds the index; a kind's pages (`site.kinds`) use it as their `Index`."""

    def __init__(self, model: SiteModel, site_url: str) -> None:
        self.model = model
        self.site_url = site_url if site_url.endswith("/") else site_url + "/"

    def pages(self, src: str) -> dict[str, str]:
        return {code: self.site_url + path for code, path in self.model.paths(src).items()}

    def markdown(self, path: str) -> dict[str, str]:
        """The URL in each language of a file served as it is (`llms.txt`, a page's Markdown)."""
        return {code: self.site_url + where for code, where in self.model.served(path, path).items()}

    def i18n(self, text: I18n) -> dict[str, str]:
        return _i18n(text)

    def parameter(self, parameter: Parameter) -> dict[str, Any]:
        return _parameter(parameter)

    def field(self, field: Credential) -> dict[str, Any]:
        return {
            "name": field.name,
            "type": field.type,
            "required": field.required,
            "label": _i18n(field.label),
            "help": _i18n(field.help),
        }

    def outputs(self, rows: tuple[OutputRow, ...]) -> list[dict[str, Any]]:
        return [{"path": r.path, "type": r.type, "required": r.required, "ref": r.ref} for r in rows]

    def tool(self, entry: ToolEntry) -> dict[str, Any]:
        tool = entry.tool
        return {
            "provider": tool.key.provider,
            "name": tool.name,
            "label": _i18n(tool.label),
            "description": _i18n(tool.description),
            "llm_description": tool.llm_description,
            "parameters": [_parameter(p) for p in tool.parameters],
            "output_variables": self.outputs((*FIXED_VARIABLES, *entry.outputs)),
            "schema_refs": sorted(entry.references),
            "checksum": entry.checksum,
            "examples": [
                {
                    "name": run.name,
                    "passed": run.result is RunResult.PASSED,
                    "smoke": run.smoke,
                    "result": run.result.value,
                    "detail": run.detail,
                }
                for run in entry.runs
            ],
            "pages": self.pages(entry.src),
            "markdown": self.markdown(entry.src),
        }

    def plugin(self, entry: PluginEntry) -> dict[str, Any]:
        plugin = entry.plugin
        return {
            "name": plugin.name,
            "path": entry.loaded.display,
            "author": plugin.author,
            "version": plugin.version,
            "label": _i18n(plugin.label),
            "description": _i18n(plugin.description),
            "tags": list(plugin.tags),
            "repo": plugin.repo,
            "checksum": entry.checksum,
            "checked_by": entry.checked_by,
            "findings": {
                "errors": entry.counts.errors,
                "warnings": entry.counts.warnings,
                "infos": entry.counts.infos,
            },
            "pages": self.pages(entry.src),
            "markdown": self.markdown(entry.src),
            "tools": [self.tool(tool) for tool in entry.tools],
            "kinds": list(entry.kinds),
            **self.kinds(entry),
            **self.versions(entry),
        }

    def kinds(self, entry: PluginEntry) -> dict[str, Any]:
        """The plugin's providers of other kinds, under their kind's key (`triggers`...), as each
        kind's pages index them."""
        found: dict[str, list[dict[str, Any]]] = {}
        for section in entry.sections:
            found.setdefault(section.kind, []).append(PAGES[section.kind].indexed(section, self))
        return found

    def versions(self, entry: PluginEntry) -> dict[str, Any]:
        """The plugin's releases with what each breaks (absent outside git): what the workflow check
        needs to judge a pinned older version."""
        history = self.model.catalog.histories.get(entry.loaded.display)
        if history is None:
            return {}
        return {
            "versions": [
                {
                    "version": release.version,
                    "date": release.date,
                    "breaking": _breaking(release.changes),
                    "removed_outputs": _paths(release.removed_outputs),
                    "upgrade_breaking": _breaking(release.upgrade),
                    "upgrade_removed_outputs": _paths(release.upgrade_removed),
                }
                for release in history.releases
            ]
        }

    def schemas(self) -> list[dict[str, Any]]:
        return [
            {
                "id": entry.schema.id,
                "url": self.site_url + entry.schema.served_path,
                "sha256": entry.sha256,
                "pages": self.pages(entry.src),
            }
            for entry in self.model.schemas
        ]


def _breaking(changes: Iterable[Finding]) -> list[str]:
    return [d.message.removeprefix("breaking: ") for d in changes if class_of(d) is Change.BREAKING]


def _paths(paths: Iterable[tuple[str, str, str]]) -> list[dict[str, str]]:
    return [{"provider": provider, "tool": tool, "path": path} for provider, tool, path in sorted(paths)]


def registry_index(model: SiteModel, site_url: str) -> dict[str, Any]:
    """The whole index as JSON data."""
    indexer = _Indexer(model, site_url)
    return {
        "$schema": INDEX_SCHEMA,
        "version": INDEX_VERSION,
        "site_url": indexer.site_url,
        "languages": [lang.code for lang in LANGUAGE_SITES],
        "llms": indexer.markdown(LLMS_TXT),
        "plugins": [indexer.plugin(entry) for entry in model.plugins],
        "schemas": indexer.schemas(),
    }
