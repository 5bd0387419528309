"""Agent-strategy plugins: a provider YAML (`plugins: agent_strategies:`) and the strategy YAMLs it
lists (`strategies:`), each with its parameters and features. Catalogued for browsing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.findings import Location
from generator.kind_models.key import PartKey
from generator.plugin_model import I18n, Parameter, PluginKind

# The identity of a strategy in the registry.
StrategyKey = PartKey


@dataclass(frozen=True, slots=True)
class AgentStrategy:
    """One strategy YAML (its parameters' help text is `help`)."""

    key: StrategyKey
    file: str
    label: I18n
    description: I18n
    parameters: tuple[Parameter, ...]
    features: tuple[str, ...]
    output_schema: Any
    source: str
    origin: Location

    @property
    def name(self) -> str:
        """The strategy's `identity.name`."""
        return self.key.name


@dataclass(frozen=True, slots=True)
class AgentStrategyProvider:
    """An agent-strategy provider YAML and the strategies it lists."""

    name: str
    file: str
    author: str
    label: I18n
    description: I18n
    icon: str
    strategies: tuple[AgentStrategy, ...]
    source: str
    origin: Location
    kind: PluginKind = "agent_strategies"
