"""Datasource plugins: a provider YAML (`plugins: datasources:`) of one `provider_type` and the
datasource YAMLs it lists, each with parameters and an `output_schema` (what a knowledge pipeline's
first node hands to the next ones)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.findings import Location
from generator.kind_models.key import PartKey
from generator.plugin_model import Credential, I18n, Parameter, PluginKind

# The provider types a plugin may declare (`DatasourceProviderType` of dify_plugin 0.10); Dify's own
# `local_file` is the built-in upload node, never a plugin.
PROVIDER_TYPES: tuple[str, ...] = ("online_document", "website_crawl", "online_drive")


# The identity of a datasource in the registry.
DatasourceKey = PartKey


@dataclass(frozen=True, slots=True)
class Datasource:
    """One datasource YAML: identity, parameters (`description` is their help text) and outputs."""

    key: DatasourceKey
    file: str
    label: I18n
    description: I18n
    icon: str
    parameters: tuple[Parameter, ...]
    output_schema: Any
    source: str
    origin: Location

    @property
    def name(self) -> str:
        """The datasource's `identity.name`."""
        return self.key.name


@dataclass(frozen=True, slots=True)
class DatasourceProvider:
    """A datasource provider YAML and the datasources it lists."""

    name: str
    file: str
    author: str
    label: I18n
    description: I18n
    icon: str
    tags: tuple[str, ...]
    provider_type: str
    credentials: tuple[Credential, ...]
    # OAuth: what the workspace admin enters (client) and what the authorisation yields
    oauth_client: tuple[Credential, ...]
    oauth_credentials: tuple[Credential, ...]
    datasources: tuple[Datasource, ...]
    source: str
    origin: Location
    kind: PluginKind = "datasources"
