"""The agent-strategy provider YAML and the strategy YAMLs it lists (`strategies:`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.kind_models.agent_strategy import AgentStrategy, AgentStrategyProvider, StrategyKey
from generator.load.builders import as_list, build_parameters, text
from generator.load.kinds.children import listed_children
from generator.load.values import dig
from generator.plugin_model import I18n

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument


def load(
    crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]
) -> AgentStrategyProvider | None:
    """The provider in `document` with every strategy it lists that could be read."""
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    provider = text(identity.get("name"))
    plugin = text(manifest.get("name"))
    strategies = [
        _strategy(child_document, child, StrategyKey(plugin, provider, ""))
        for child, child_document in listed_children(crawl, document, "strategies", "agent strategy")
    ]
    return AgentStrategyProvider(
        name=provider,
        file=relative,
        author=text(identity.get("author")),
        label=I18n.of(identity.get("label")),
        description=I18n.of(identity.get("description")),
        icon=text(identity.get("icon")),
        strategies=tuple(strategies),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
    )


def _strategy(document: YamlDocument, relative: str, key: StrategyKey) -> AgentStrategy:
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    return AgentStrategy(
        key=StrategyKey(key.plugin, key.provider, text(identity.get("name"))),
        file=relative,
        label=I18n.of(identity.get("label")),
        description=I18n.of(data.get("description")),
        # an agent strategy's parameter explains itself in `help` (`AgentStrategyParameter`)
        parameters=build_parameters(document, ("parameters",), data.get("parameters"), "help"),
        features=tuple(text(feature) for feature in as_list(data.get("features"))),
        output_schema=data.get("output_schema"),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
    )
