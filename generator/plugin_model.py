"""The immutable plugin model: Plugin > Provider > Tool > Parameter.

Every node knows where it came from (`origin`); tools are keyed by (plugin, provider, tool name),
never by file names. Values copied from YAML (defaults, output schemas) are plain JSON data and
must be treated as read-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeVar

from generator.findings import Location

LANGUAGES: tuple[str, ...] = ("en_US", "zh_Hans", "ja_JP", "pt_BR")
FIXED_OUTPUTS: tuple[str, ...] = ("text", "files", "json")

# The plugin kinds, spelt as the manifest's `plugins:` keys name them.
PluginKind = Literal["tools", "triggers", "datasources", "models", "agent_strategies", "endpoints"]
# The module that holds each kind's code (but tools') in every stage's package (`load.kinds`,
# `site.kinds`): one table, which each stage's `ModuleTable` reads.
KIND_MODULES: Mapping[PluginKind, str] = MappingProxyType(
    {
        "triggers": "trigger",
        "datasources": "datasource",
        "models": "model",
        "agent_strategies": "agent_strategy",
        "endpoints": "endpoint",
    }
)
PLUGIN_KINDS: tuple[PluginKind, ...] = (
    "tools",
    "models",
    "endpoints",
    "agent_strategies",
    "datasources",
    "triggers",
)


@dataclass(frozen=True, slots=True)
class I18n:
    """A text in Dify's languages; `en_US` is the fallback for the others."""

    texts: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, value: Any) -> I18n:
        """Build from a YAML value: a mapping of locale -> text (a bare string counts as en_US)."""
        if isinstance(value, str):
            return cls(MappingProxyType({"en_US": value}))
        if isinstance(value, dict):
            texts = {str(k): v for k, v in value.items() if isinstance(v, str)}
            return cls(MappingProxyType(texts))
        return cls()

    def get(self, language: str) -> str:
        """The text in `language`, falling back to en_US when missing or empty (as the SDK does)."""
        return self.texts.get(language) or self.texts.get("en_US") or ""

    def has(self, language: str) -> bool:
        """True when the text exists in `language` itself, without falling back."""
        return bool(self.texts.get(language))

    @property
    def en(self) -> str:
        """The English text."""
        return self.get("en_US")


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a select parameter; Dify coerces `value` to a string."""

    value: str
    raw_value: Any
    label: I18n
    origin: Location


@dataclass(frozen=True, slots=True)
class Parameter:
    """One tool parameter as declared in the tool YAML."""

    name: str
    type: str
    form: str
    label: I18n
    human_description: I18n
    llm_description: str
    required: bool
    default: Any
    options: tuple[Option, ...]
    multiple: bool
    minimum: float | None
    maximum: float | None
    placeholder: I18n
    origin: Location
    # what a selector offers (`llm`, `text-embedding`, `llm&vision`...); empty when not declared
    scope: str = ""


@dataclass(frozen=True, slots=True)
class ToolKey:
    """The identity of a tool in the registry."""

    plugin: str
    provider: str
    tool: str

    def __str__(self) -> str:
        return f"{self.plugin}/{self.provider}/{self.tool}"


@dataclass(frozen=True, slots=True)
class Tool:
    """A tool: its YAML file, identity, parameters, output schema and implementation file."""

    key: ToolKey
    file: str
    label: I18n
    description: I18n
    llm_description: str
    icon: str
    parameters: tuple[Parameter, ...]
    output_schema: Any
    source: str
    origin: Location

    @property
    def name(self) -> str:
        """The tool's `identity.name`."""
        return self.key.tool


@dataclass(frozen=True, slots=True)
class Credential:
    """One provider credential field (`credentials_for_provider`)."""

    name: str
    type: str
    required: bool
    label: I18n
    help: I18n
    placeholder: I18n
    url: str
    default: Any
    options: tuple[Option, ...]
    origin: Location


@dataclass(frozen=True, slots=True)
class Provider:
    """A tool provider YAML and the tools it lists."""

    name: str
    file: str
    author: str
    label: I18n
    description: I18n
    icon: str
    tags: tuple[str, ...]
    credentials: tuple[Credential, ...]
    tools: tuple[Tool, ...]
    source: str
    origin: Location

    @property
    def reachable_tools(self) -> tuple[Tool, ...]:
        """The tools the SDK can run, in listing order. It keeps one class per `identity.name`, in a
        dict filled in the order of the provider's `tools:` list (`_resolve_tool_providers` in
        `dify_plugin/core/plugin_registration.py`: `tools[tool.identity.name] = (tool, tool_cls)`),
        so of tools sharing a name only the last listed is ever run."""
        last = {tool.name: tool for tool in self.tools}
        return tuple(tool for tool in self.tools if last[tool.name] is tool)

    @property
    def shadowed_tools(self) -> tuple[tuple[Tool, Tool], ...]:
        """Each tool that can never run, with the tool of the same name that runs in its place."""
        last = {tool.name: tool for tool in self.tools}
        return tuple((tool, last[tool.name]) for tool in self.tools if last[tool.name] is not tool)


class KindPart(Protocol):
    """A provider of a plugin kind other than tools (a trigger provider, a datasource provider, a
    model provider...), as its kind's loader (`generator/load/kinds/`) built it. What every stage
    may read of any kind; the rest is the kind's own dataclass, reached through `Plugin.parts_of`."""

    @property
    def kind(self) -> PluginKind: ...
    @property
    def name(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def label(self) -> I18n: ...
    @property
    def description(self) -> I18n: ...
    @property
    def icon(self) -> str: ...
    @property
    def origin(self) -> Location: ...


PartT = TypeVar("PartT", bound=KindPart)


def part_as(part: KindPart, cls: type[PartT]) -> PartT:
    """`part` as its kind's dataclass; a kind's stage module handed another kind's part is the
    generator's own mistake (its kind table routes each part to its own module), so it raises."""
    if not isinstance(part, cls):
        raise TypeError(f"not a {cls.__name__}: {part!r}")
    return part


@dataclass(frozen=True, slots=True)
class Plugin:
    """A plugin: its manifest, providers and tools, and the files it was read from."""

    name: str
    root_name: str
    version: str
    author: str
    label: I18n
    description: I18n
    icon: str
    icon_dark: str
    tags: tuple[str, ...]
    kinds: MappingProxyType[str, tuple[str, ...]]
    providers: tuple[Provider, ...]
    runner_language: str
    runner_version: str
    minimum_dify_version: str
    repo: str
    readme: str
    origin: Location
    # The providers of the other kinds that have a loader, in manifest order (tool providers are
    # `providers`, which predate the kinds).
    parts: tuple[KindPart, ...] = ()

    def parts_of(self, cls: type[PartT]) -> tuple[PartT, ...]:
        """The providers of one kind, by its dataclass."""
        return tuple(part for part in self.parts if isinstance(part, cls))

    @property
    def tools(self) -> tuple[Tool, ...]:
        """Every tool of every provider, in manifest order."""
        return tuple(tool for provider in self.providers for tool in provider.tools)

    @property
    def other_kinds(self) -> tuple[str, ...]:
        """Plugin kinds other than tools that are listed (loaded by their kind's loader or not)."""
        return tuple(kind for kind, files in self.kinds.items() if kind != "tools" and files)
