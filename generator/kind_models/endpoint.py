"""Extension plugins: an endpoint group YAML (`plugins: endpoints:`) with its settings and the
endpoint YAMLs it lists, each an HTTP path and method served by the plugin. Catalogued for browsing.
A group has no identity of its own: it is shown under the plugin's name, label and icon."""

from __future__ import annotations

from dataclasses import dataclass

from generator.findings import Location
from generator.plugin_model import Credential, I18n, PluginKind


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint YAML: the request it answers and the class that answers it."""

    file: str
    path: str
    method: str
    hidden: bool
    source: str
    origin: Location


@dataclass(frozen=True, slots=True)
class EndpointGroup:
    """An endpoint group YAML: the settings a user fills when enabling it, and its endpoints."""

    name: str
    file: str
    label: I18n
    description: I18n
    icon: str
    settings: tuple[Credential, ...]
    endpoints: tuple[Endpoint, ...]
    origin: Location
    kind: PluginKind = "endpoints"
