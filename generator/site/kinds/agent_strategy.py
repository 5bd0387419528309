"""The agent-strategy kind on the site: a strategy provider's section of its plugin page, its
strategies with their parameters and features. Catalogued for browsing: no page below it, no run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.kind_models.agent_strategy import AgentStrategy, AgentStrategyProvider
from generator.plugin_model import KindPart, part_as

if TYPE_CHECKING:
    from generator.site.kinds import Build, Index, KindSection, Listed

PROVIDER_TEMPLATE = "agent_strategies_provider.html.j2"
# A strategy provider has no pages below it: its strategies are listed in its section.
NO_CHILD_TEMPLATE = ""


def children(part: KindPart) -> tuple[str, ...]:
    """None: the strategies are listed on the plugin page."""
    part_as(part, AgentStrategyProvider)
    return ()


def section(part: KindPart, index: int, build: Build) -> KindSection:
    """The provider's section (its strategies)."""
    from generator.site.kinds import KindSection

    provider = part_as(part, AgentStrategyProvider)
    listed = tuple(_listed(strategy) for strategy in provider.strategies)
    return KindSection("agent_strategies", provider, PROVIDER_TEMPLATE, NO_CHILD_TEMPLATE, (), listed)


def _listed(strategy: AgentStrategy) -> Listed:
    from generator.site.kinds import Listed

    facts = tuple(f"{p.name} ({p.type})" for p in strategy.parameters) + strategy.features
    return Listed(strategy.name, strategy.label, facts)


def indexed(section: KindSection, index: Index) -> dict[str, Any]:
    """A strategy provider in `index.json`: each strategy with its parameters and features."""
    provider = part_as(section.part, AgentStrategyProvider)
    return {
        "name": provider.name,
        "label": index.i18n(provider.label),
        "description": index.i18n(provider.description),
        "strategies": [
            {
                "name": strategy.name,
                "label": index.i18n(strategy.label),
                "description": index.i18n(strategy.description),
                "parameters": [index.parameter(p) for p in strategy.parameters],
                "features": list(strategy.features),
            }
            for strategy in provider.strategies
        ],
    }
