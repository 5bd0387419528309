"""Model plugins: a model provider YAML (`plugins: models:`) and the model YAMLs its `models:` globs
find (`ProviderEntity.validate_models` of the SDK reads `predefined` patterns per model type), each
with its type, context size, features, parameter rules and pricing. Catalogued for browsing."""

from __future__ import annotations

from dataclasses import dataclass

from generator.findings import Location
from generator.kind_models.key import PartKey
from generator.plugin_model import I18n, PluginKind

# The identity of a model in the registry.
ModelKey = PartKey


@dataclass(frozen=True, slots=True)
class ParameterRule:
    """One tunable parameter of a model (`parameter_rules`), possibly from a template (`use_template`)."""

    name: str
    template: str
    label: I18n
    type: str
    required: bool
    default: object
    minimum: float | None
    maximum: float | None
    options: tuple[str, ...]
    origin: Location


@dataclass(frozen=True, slots=True)
class Pricing:
    """What a model costs, as its YAML declares it (texts, as written: prices are decimals)."""

    input: str
    output: str
    unit: str
    currency: str


@dataclass(frozen=True, slots=True)
class Model:
    """One model YAML."""

    key: ModelKey
    file: str
    model_type: str
    label: I18n
    features: tuple[str, ...]
    mode: str
    context_size: int | None
    deprecated: bool
    parameter_rules: tuple[ParameterRule, ...]
    pricing: Pricing | None
    origin: Location

    @property
    def name(self) -> str:
        """The model's `model`."""
        return self.key.name


@dataclass(frozen=True, slots=True)
class ModelProvider:
    """A model provider YAML and the models its globs find."""

    name: str
    file: str
    label: I18n
    description: I18n
    icon: str
    supported_model_types: tuple[str, ...]
    configurate_methods: tuple[str, ...]
    # the credential fields of the provider (`provider_credential_schema`) and of a custom model
    provider_credentials: tuple[str, ...]
    model_credentials: tuple[str, ...]
    models: tuple[Model, ...]
    source: str
    origin: Location
    kind: PluginKind = "models"
