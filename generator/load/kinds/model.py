"""The model provider YAML and the model YAMLs its `models:` patterns find.

The SDK finds model files by glob (`ProviderEntity.validate_models` in
`dify_plugin/entities/model/provider.py`: for each model type, `cwd.glob(path)` for every pattern of
`predefined`; a file ending in `_position.yaml` orders the models instead), so this loader matches
the same patterns against the plugin's files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.kind_models.model import Model, ModelKey, ModelProvider, ParameterRule, Pricing
from generator.load.builders import as_list, number, text
from generator.load.kinds.children import globbed
from generator.load.values import dig
from generator.plugin_model import I18n

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument

# The model types the SDK reads, in its order (`load_models(...)` calls).
MODEL_TYPES = ("llm", "text_embedding", "rerank", "tts", "speech2text", "moderation")
POSITION_SUFFIX = "_position.yaml"


def load(
    crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]
) -> ModelProvider | None:
    """The provider in `document` with every model its patterns find."""
    data = document.data
    provider = text(data.get("provider"))
    plugin = text(manifest.get("name"))
    patterns = data.get("models") if isinstance(data.get("models"), dict) else {}
    models: list[Model] = []
    for model_type in MODEL_TYPES:
        spec = patterns.get(model_type)
        for pattern in as_list(spec.get("predefined") if isinstance(spec, dict) else None):
            for child in globbed(crawl, text(pattern)):
                crawl.listed.add(child)
                if child.endswith(POSITION_SUFFIX):
                    continue
                child_document = crawl.read(child, "model")
                if child_document is not None:
                    models.append(_model(child_document, child, ModelKey(plugin, provider, "")))
    icon = data.get("icon_small") if isinstance(data.get("icon_small"), dict) else {}
    return ModelProvider(
        name=provider,
        file=relative,
        label=I18n.of(data.get("label")),
        description=I18n.of(data.get("description")),
        icon=text(icon.get("en_US")),
        supported_model_types=tuple(text(t) for t in as_list(data.get("supported_model_types"))),
        configurate_methods=tuple(text(m) for m in as_list(data.get("configurate_methods"))),
        provider_credentials=_fields(dig(data, "provider_credential_schema", "credential_form_schemas")),
        model_credentials=_fields(dig(data, "model_credential_schema", "credential_form_schemas")),
        models=tuple(models),
        source=text(dig(data, "extra", "python", "provider_source")),
        origin=document.at(),
    )


def _fields(schemas: Any) -> tuple[str, ...]:
    return tuple(text(field.get("variable")) for field in as_list(schemas) if isinstance(field, dict))


def _model(document: YamlDocument, relative: str, key: ModelKey) -> Model:
    data = document.data
    properties = data.get("model_properties") if isinstance(data.get("model_properties"), dict) else {}
    context = properties.get("context_size")
    pricing = data.get("pricing")
    return Model(
        key=ModelKey(key.plugin, key.provider, text(data.get("model"))),
        file=relative,
        model_type=text(data.get("model_type")),
        label=I18n.of(data.get("label")),
        features=tuple(text(feature) for feature in as_list(data.get("features"))),
        mode=text(properties.get("mode")),
        context_size=context if isinstance(context, int) and not isinstance(context, bool) else None,
        deprecated=data.get("deprecated") is True,
        parameter_rules=tuple(
            _rule(document, index, rule)
            for index, rule in enumerate(as_list(data.get("parameter_rules")))
            if isinstance(rule, dict)
        ),
        pricing=Pricing(
            text(pricing.get("input")),
            text(pricing.get("output")),
            text(pricing.get("unit")),
            text(pricing.get("currency")),
        )
        if isinstance(pricing, dict)
        else None,
        origin=document.at(),
    )


def _rule(document: YamlDocument, index: int, rule: dict[str, Any]) -> ParameterRule:
    return ParameterRule(
        name=text(rule.get("name")),
        template=text(rule.get("use_template")),
        label=I18n.of(rule.get("label")),
        type=text(rule.get("type")),
        required=rule.get("required") is True,
        default=rule.get("default"),
        minimum=number(rule.get("min")),
        maximum=number(rule.get("max")),
        options=tuple(text(option) for option in as_list(rule.get("options"))),
        origin=document.at("parameter_rules", index),
    )
