"""The datasource provider YAML and the datasource YAMLs it lists (`datasources:`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.kind_models.datasource import Datasource, DatasourceKey, DatasourceProvider
from generator.load.builders import as_list, build_credentials, build_parameters, text
from generator.load.kinds.children import listed_children
from generator.load.values import dig
from generator.plugin_model import I18n

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument

CHILD_ROLE = "datasource"


def load(
    crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]
) -> DatasourceProvider | None:
    """The provider in `document` with every datasource it lists that could be read."""
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    provider_name = text(identity.get("name"))
    plugin_name = text(manifest.get("name"))
    datasources = [
        _datasource(child_document, child, plugin_name, provider_name)
        for child, child_document in listed_children(crawl, document, "datasources", CHILD_ROLE)
    ]
    oauth = data.get("oauth_schema") if isinstance(data.get("oauth_schema"), dict) else {}
    return DatasourceProvider(
        name=provider_name,
        file=relative,
        author=text(identity.get("author")),
        label=I18n.of(identity.get("label")),
        description=I18n.of(identity.get("description")),
        icon=text(identity.get("icon")),
        tags=tuple(text(tag) for tag in as_list(identity.get("tags"))),
        provider_type=text(data.get("provider_type")),
        credentials=build_credentials(document, ("credentials_schema",), data.get("credentials_schema")),
        oauth_client=build_credentials(
            document, ("oauth_schema", "client_schema"), oauth.get("client_schema")
        ),
        oauth_credentials=build_credentials(
            document, ("oauth_schema", "credentials_schema"), oauth.get("credentials_schema")
        ),
        datasources=tuple(datasources),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
    )


def _datasource(document: YamlDocument, relative: str, plugin: str, provider: str) -> Datasource:
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    return Datasource(
        key=DatasourceKey(plugin, provider, text(identity.get("name"))),
        file=relative,
        label=I18n.of(identity.get("label")),
        description=I18n.of(data.get("description")),
        icon=text(identity.get("icon")),
        parameters=build_parameters(document, ("parameters",), data.get("parameters"), "description"),
        output_schema=data.get("output_schema"),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
    )
