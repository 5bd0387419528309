"""The datasource kind on the site: a datasource provider's section of its plugin page (its provider
type, how a workspace connects: credentials or OAuth, its datasources) and one page per datasource
(its parameters, its output variables, how a knowledge pipeline reads them). Datasources read a
remote service, so they are never run on invented inputs: their pages say they were checked
statically only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.kind_models.datasource import Datasource, DatasourceProvider
from generator.plugin_model import KindPart, part_as

if TYPE_CHECKING:
    from generator.site.kinds import Build, ChildEntry, Index, KindSection

PROVIDER_TEMPLATE = "datasources_provider.html.j2"
DATASOURCE_TEMPLATE = "datasources_datasource.html.j2"


def children(part: KindPart) -> tuple[str, ...]:
    """The datasources' names, in the provider's order."""
    return tuple(datasource.name for datasource in part_as(part, DatasourceProvider).datasources)


def section(part: KindPart, index: int, build: Build) -> KindSection:
    """The provider's section and its datasources' pages."""
    from generator.site.kinds import KindSection

    provider = part_as(part, DatasourceProvider)
    pages = tuple(
        _datasource(datasource, build.child_src(index, number), build)
        for number, datasource in enumerate(provider.datasources)
    )
    return KindSection(
        "datasources", provider, PROVIDER_TEMPLATE, DATASOURCE_TEMPLATE, pages, child_word="datasources"
    )


def _datasource(datasource: Datasource, src: str, build: Build) -> ChildEntry:
    from generator.site.kinds import child_entry

    return child_entry("datasources", datasource, str(datasource.key), src, build)


def indexed(section: KindSection, index: Index) -> dict[str, Any]:
    """A datasource provider in `index.json`: its type, how to connect, each datasource's variables."""
    provider = part_as(section.part, DatasourceProvider)

    return {
        "name": provider.name,
        "label": index.i18n(provider.label),
        "description": index.i18n(provider.description),
        "provider_type": provider.provider_type,
        "credentials": [index.field(f) for f in provider.credentials],
        "oauth": bool(provider.oauth_client or provider.oauth_credentials),
        "datasources": [
            {
                "provider": provider.name,
                "name": child.name,
                "label": index.i18n(child.label),
                "description": index.i18n(child.description),
                "parameters": [index.parameter(p) for p in child.parameters],
                "output_variables": index.outputs(child.outputs),
                "schema_refs": sorted(child.references),
                "checksum": child.checksum,
                "checked_by": "static",
                "pages": index.pages(child.src),
            }
            for child in section.children
        ],
    }
