"""Model pieces every plugin kind declares alike: options, credential fields, parameters.

Tool providers (`load/crawl.py`) and the other kinds' loaders (`load/kinds/`) build them here, so a
parameter or a credential field reads the same whichever YAML it sits in.
"""

from __future__ import annotations

from typing import Any

from generator.load.yamlload import YamlDocument
from generator.plugin_model import Credential, I18n, Option, Parameter


def text(value: Any) -> str:
    """A scalar YAML value as text; "" for a missing value, a mapping or a list."""
    if value is None or isinstance(value, dict | list):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def as_list(value: Any) -> list[Any]:
    """The value when it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def number(value: Any) -> float | None:
    """A numeric YAML value (not a boolean) as a float; None otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def build_options(document: YamlDocument, parts: tuple[str | int, ...], options: Any) -> tuple[Option, ...]:
    """The `options:` list at `parts` of `document` (entries that are not mappings left out)."""
    result = []
    for index, option in enumerate(as_list(options)):
        if isinstance(option, dict):
            raw = option.get("value")
            result.append(
                Option(text(raw), raw, I18n.of(option.get("label")), document.at(*parts, "options", index))
            )
    return tuple(result)


def credentials_key(provider: dict[str, Any]) -> str:
    """The key of a tool provider YAML whose credential fields Dify uses: the daemon's
    `ToolProviderDeclaration.UnmarshalYAML` (tool_declaration.go) takes `credentials_schema` when it
    is not empty, else `credentials_for_provider` (the key the SDK's model names)."""
    return "credentials_schema" if provider.get("credentials_schema") else "credentials_for_provider"


def build_credentials(
    document: YamlDocument, parts: tuple[str | int, ...], credentials: Any
) -> tuple[Credential, ...]:
    """The credential fields (the SDK's `ProviderConfig` list) at `parts` of `document`."""
    # The SDK accepts both a mapping name -> field and a list of fields with `name`.
    if isinstance(credentials, dict):
        items: list[tuple[str, Any, str | int]] = [(str(k), v, str(k)) for k, v in credentials.items()]
    else:
        items = [
            (text(v.get("name")) if isinstance(v, dict) else "", v, index)
            for index, v in enumerate(as_list(credentials))
        ]
    result = []
    for name, spec, part in items:
        if not isinstance(spec, dict):
            continue
        result.append(
            Credential(
                name=text(spec.get("name")) or name,
                type=text(spec.get("type")),
                required=spec.get("required") is True,
                label=I18n.of(spec.get("label")),
                help=I18n.of(spec.get("help")),
                placeholder=I18n.of(spec.get("placeholder")),
                url=text(spec.get("url")),
                default=spec.get("default"),
                options=build_options(document, (*parts, part), spec.get("options")),
                origin=document.at(*parts, part),
            )
        )
    return tuple(result)


def build_parameters(
    document: YamlDocument,
    parts: tuple[str | int, ...],
    specs: Any,
    description_key: str = "human_description",
) -> tuple[Parameter, ...]:
    """The parameter list at `parts` of `document`. A tool's parameter describes itself in
    `human_description`, an event's in `description` (`description_key` says which)."""
    parameters = []
    for index, spec in enumerate(as_list(specs)):
        if not isinstance(spec, dict):
            continue
        parameters.append(
            Parameter(
                name=text(spec.get("name")),
                type=text(spec.get("type")),
                form=text(spec.get("form")),
                label=I18n.of(spec.get("label")),
                human_description=I18n.of(spec.get(description_key)),
                llm_description=text(spec.get("llm_description")),
                required=spec.get("required") is True,
                default=spec.get("default"),
                options=build_options(document, (*parts, index), spec.get("options")),
                multiple=spec.get("multiple") is True,
                minimum=number(spec.get("min")),
                maximum=number(spec.get("max")),
                placeholder=I18n.of(spec.get("placeholder")),
                origin=document.at(*parts, index),
                scope=text(spec.get("scope")),
            )
        )
    return tuple(parameters)
