"""The endpoint group YAML and the endpoint YAMLs it lists (`endpoints:`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from generator.kind_models.endpoint import Endpoint, EndpointGroup
from generator.load.builders import build_credentials, text
from generator.load.kinds.children import listed_children
from generator.load.values import dig
from generator.plugin_model import I18n

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument


def load(
    crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]
) -> EndpointGroup | None:
    """The group in `document`, named after its file and shown with the plugin's label and icon."""
    data = document.data
    endpoints = [
        Endpoint(
            file=child,
            path=text(endpoint.data.get("path")),
            method=text(endpoint.data.get("method")).upper(),
            hidden=endpoint.data.get("hidden") is True,
            source=text(dig(endpoint.data, "extra", "python", "source")),
            origin=endpoint.at(),
        )
        for child, endpoint in listed_children(crawl, document, "endpoints", "endpoint")
    ]
    return EndpointGroup(
        name=PurePosixPath(relative).stem,
        file=relative,
        label=I18n.of(manifest.get("label")),
        description=I18n.of(manifest.get("description")),
        icon=text(manifest.get("icon")),
        settings=build_credentials(document, ("settings",), data.get("settings")),
        endpoints=tuple(endpoints),
        origin=document.at(),
    )
