"""The trigger kind: a provider that receives a service's webhook, and the events it turns into a
workflow's starting variables.

Read from the provider YAML listed under the manifest's `plugins: triggers:` and the event YAMLs
its `events:` list names, as the SDK's `TriggerProviderConfiguration` and `EventConfiguration`
(`dify_plugin/entities/trigger.py`) read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from generator.findings import Location
from generator.plugin_model import Credential, I18n, Parameter


@dataclass(frozen=True, slots=True)
class EventKey:
    """The identity of an event in the registry."""

    plugin: str
    provider: str
    event: str

    def __str__(self) -> str:
        return f"{self.plugin}/{self.provider}/{self.event}"


@dataclass(frozen=True, slots=True)
class Event:
    """An event: its YAML file, identity, parameters, output schema and implementation file."""

    key: EventKey
    file: str
    label: I18n
    # `description` is an I18n text in the SDK; `description.human` / `.llm` is accepted too.
    description: I18n
    parameters: tuple[Parameter, ...]
    output_schema: Any
    source: str
    origin: Location
    llm_description: I18n = field(default_factory=I18n)

    @property
    def name(self) -> str:
        """The event's `identity.name`."""
        return self.key.event


@dataclass(frozen=True, slots=True)
class TriggerProvider:
    """A trigger provider YAML, how a subscription is made, and the events it lists."""

    name: str
    file: str
    author: str
    label: I18n
    description: I18n
    icon: str
    tags: tuple[str, ...]
    # The subscription's properties (`subscription_schema`, the SDK's ProviderConfig list).
    subscription_schema: tuple[Credential, ...]
    # `subscription_constructor.parameters` and `.credentials_schema`.
    constructor_parameters: tuple[Parameter, ...]
    constructor_credentials: tuple[Credential, ...]
    # `subscription_constructor.oauth_schema` as read (`client_schema`, `credentials_schema` lists).
    oauth_schema: Any
    # `subscription_constructor.extra.python.source` ("" if none).
    constructor_source: str
    events: tuple[Event, ...]
    source: str
    origin: Location
    # True when the YAML has a `subscription_constructor` (the SDK then needs its class).
    has_constructor: bool = False
    icon_dark: str = ""
    oauth_client: tuple[Credential, ...] = ()
    oauth_credentials: tuple[Credential, ...] = ()

    @property
    def kind(self) -> Literal["triggers"]:
        """The manifest key of this kind."""
        return "triggers"
