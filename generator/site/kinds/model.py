"""The model kind on the site: a model provider's section of its plugin page, one table of the
models its YAMLs declare (type, context size, features, parameter rules, pricing). Models are
catalogued for browsing: no page below the provider, no run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.kind_models.model import Model, ModelProvider
from generator.plugin_model import KindPart, part_as

if TYPE_CHECKING:
    from generator.site.kinds import Build, Index, KindSection, Listed

PROVIDER_TEMPLATE = "models_provider.html.j2"
# A model provider has no pages below it: its models are rows of its section.
NO_CHILD_TEMPLATE = ""


def children(part: KindPart) -> tuple[str, ...]:
    """None: the models are listed on the plugin page."""
    part_as(part, ModelProvider)
    return ()


def section(part: KindPart, index: int, build: Build) -> KindSection:
    """The provider's section (its models' table)."""
    from generator.site.kinds import KindSection

    provider = part_as(part, ModelProvider)
    listed = tuple(_listed(model) for model in provider.models)
    return KindSection("models", provider, PROVIDER_TEMPLATE, NO_CHILD_TEMPLATE, (), listed)


def _listed(model: Model) -> Listed:
    """A model's facts as its YAML declares them, for the plugin's Markdown."""
    from generator.site.kinds import Listed

    facts = [model.model_type, model.mode]
    if model.context_size is not None:
        facts.append(f"context_size={model.context_size}")
    facts += model.features
    if model.pricing:
        price = model.pricing
        facts.append(f"pricing={price.input}/{price.output} {price.currency} per {price.unit}")
    if model.deprecated:
        facts.append("deprecated")
    return Listed(model.name, model.label, tuple(fact for fact in facts if fact))


def indexed(section: KindSection, index: Index) -> dict[str, Any]:
    """A model provider in `index.json`: how it is configured and each model as its YAML declares it."""
    provider = part_as(section.part, ModelProvider)
    return {
        "name": provider.name,
        "label": index.i18n(provider.label),
        "description": index.i18n(provider.description),
        "supported_model_types": list(provider.supported_model_types),
        "configurate_methods": list(provider.configurate_methods),
        "models": [
            {
                "name": model.name,
                "label": index.i18n(model.label),
                "model_type": model.model_type,
                "mode": model.mode,
                "context_size": model.context_size,
                "features": list(model.features),
                "deprecated": model.deprecated,
                "parameter_rules": [rule.name for rule in model.parameter_rules],
                "pricing": (
                    {
                        "input": model.pricing.input,
                        "output": model.pricing.output,
                        "unit": model.pricing.unit,
                        "currency": model.pricing.currency,
                    }
                    if model.pricing
                    else None
                ),
            }
            for model in provider.models
        ],
    }
