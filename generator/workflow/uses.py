"""What a workflow asks of its tools: every tool use (tool nodes and the tools of agent nodes), the
plugin versions it pins, and every reference to a tool node's outputs.

Read from langgenius/dify: `ToolNodeData` (`provider_id`, `provider_type`, `tool_name`,
`tool_parameters` as `{type: mixed|variable|constant, value}`, `tool_configurations` as plain values
in DSL 0.1.x-0.3.x and as the same `{type, value}` mapping later, `plugin_unique_identifier`), the
agent node's `agent_parameters.tools.value` list (`provider_name`, `tool_name`, `parameters`,
`settings`), `VariableTemplateParser` (`{{#node_id.name.path#}}`), and selector lists
(`value_selector`, `variable_selector`, ...) whose first item is a node id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.findings import Location
from generator.workflow.dsl import Dsl, Node

# VariableTemplateParser's pattern: a node id of 1-50 word characters, then 1-10 names.
TEMPLATE = re.compile(r"\{\{#([a-zA-Z0-9_]{1,50}(?:\.[a-zA-Z_][a-zA-Z0-9_]{0,29}){1,10})#\}\}")
# Provider types whose tools come from plugins (or from Dify's built-in providers they replaced);
# api, workflow, mcp and app tools belong to one workspace and are in no catalog.
PLUGIN_PROVIDER_TYPES = ("builtin", "plugin")
_IDENTIFIER = re.compile(r"^([^/:@\s]+/[^/:@\s]+):([^@\s]+)")
_NAME = re.compile(r"^[a-z0-9_-]+$")
# A variable aggregator's `variables` (and each group's, under `advanced_settings.groups`) is a list
# of selectors (`VariableAggregatorNodeData.variables: list[list[str]]` in Dify's
# api/core/workflow/nodes/variable_aggregator/entities.py); `variable-assigner` is the type older
# DSLs give the same node (`NodeType.LEGACY_VARIABLE_AGGREGATOR`). Their items are read under a key
# that marks them as selectors, so a key without `selector` in its name still yields them.
AGGREGATOR_TYPES = ("variable-aggregator", "variable-assigner")
_MERGED = "merged_selector"
# Dify's own exceptions to `langgenius/P/P` (ToolProviderID): these providers' plugins are `P_tool`.
DIFY_TOOL_SUFFIXED = ("jina", "siliconflow", "stepfun", "gitee_ai")


@dataclass(frozen=True, slots=True)
class Pin:
    """A plugin version the file names (`author/name:1.2.3@...`) and where."""

    plugin: str
    version: str
    where: Location


@dataclass(frozen=True, slots=True)
class Input:
    """One value a node gives a tool parameter: `mixed`, `variable`, `constant`, or `plain` (a bare
    value of the older `tool_configurations`, or of an agent's tool settings)."""

    name: str
    kind: str
    value: Any
    where: Location
    key: Location  # where the parameter's name is written


@dataclass(frozen=True, slots=True)
class ToolUse:
    """A tool a node calls: a tool node, or a tool configured in an agent node."""

    node: Node
    provider_id: str
    provider_type: str
    tool: str
    inputs: tuple[Input, ...]
    pin: Pin | None
    agent: bool
    where: Location

    @property
    def from_plugin(self) -> bool:
        """True for a built-in or plugin tool (the kinds a catalog can hold)."""
        return self.provider_type in PLUGIN_PROVIDER_TYPES


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference from a node to another node's variable: the node id and the path after it."""

    source: str
    path: tuple[str, ...]
    where: Location
    node: Node


def plugin_of_identifier(identifier: Any) -> tuple[str, str] | None:
    """(plugin id, version) of a `plugin_unique_identifier` such as `author/name:1.0.0@sha`."""
    matched = _IDENTIFIER.match(identifier) if isinstance(identifier, str) else None
    return (matched.group(1), matched.group(2)) if matched else None


def pins(dsl: Dsl) -> dict[str, Pin]:
    """The version each plugin is pinned to: by `dependencies`, else by a node's identifier."""
    found: dict[str, Pin] = {}
    data = dsl.document.data
    listed = data.get("dependencies") if isinstance(data, dict) else None
    for index, item in enumerate(listed if isinstance(listed, list) else []):
        value = item.get("value") if isinstance(item, dict) else None
        for key, identifier in value.items() if isinstance(value, dict) else ():
            if key.endswith("plugin_unique_identifier"):
                _pin(found, identifier, dsl.at("dependencies", index, "value", key))
    for node in dsl.nodes:
        _pin(
            found, node.data.get("plugin_unique_identifier"), dsl.at(*node.parts, "plugin_unique_identifier")
        )
    return found


def _pin(found: dict[str, Pin], identifier: Any, where: Location) -> None:
    parsed = plugin_of_identifier(identifier)
    if parsed is not None:
        found.setdefault(parsed[0], Pin(parsed[0], parsed[1], where))


def tool_uses(dsl: Dsl, pinned: dict[str, Pin]) -> Iterator[ToolUse]:
    """Every tool node and every tool of an agent node, in graph order."""
    for node in dsl.nodes:
        if node.type == "tool":
            yield _tool_node(dsl, node, pinned)
        elif node.type == "agent":
            yield from _agent_tools(dsl, node)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _tool_node(dsl: Dsl, node: Node, pinned: dict[str, Pin]) -> ToolUse:
    data = node.data
    inputs: list[Input] = []
    for section in ("tool_parameters", "tool_configurations"):
        values = data.get(section)
        for name, given in values.items() if isinstance(values, dict) else ():
            inputs.append(_input(dsl, (*node.parts, section, name), name, given))
    own = plugin_of_identifier(data.get("plugin_unique_identifier"))
    pin = pinned.get(own[0]) if own else None
    return ToolUse(
        node,
        _text(data.get("provider_id")),
        _text(data.get("provider_type")),
        _text(data.get("tool_name")),
        tuple(inputs),
        pin,
        False,
        dsl.at(*node.parts, "tool_name"),
    )


def _input(dsl: Dsl, parts: tuple[str | int, ...], name: str, given: Any) -> Input:
    key = dsl.document.key_at(*parts)
    if isinstance(given, dict) and given.get("type") in ("mixed", "variable", "constant"):
        return Input(name, given["type"], given.get("value"), dsl.at(*parts, "value"), key)
    return Input(name, "plain", given, dsl.at(*parts), key)


def _agent_tools(dsl: Dsl, node: Node) -> Iterator[ToolUse]:
    tools = node.data.get("agent_parameters")
    tools = tools.get("tools") if isinstance(tools, dict) else None
    listed = tools.get("value") if isinstance(tools, dict) else None
    for index, tool in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(tool, dict):
            continue
        parts = (*node.parts, "agent_parameters", "tools", "value", index)
        inputs = []
        for section in ("settings", "parameters"):
            values = tool.get(section)
            for name, given in values.items() if isinstance(values, dict) else ():
                inputs.append(_agent_input(dsl, (*parts, section, name), name, given))
        provider = _text(tool.get("provider_name"))
        kind = _text(tool.get("type")) or "builtin"
        yield ToolUse(
            node,
            provider,
            kind,
            _text(tool.get("tool_name")),
            tuple(inputs),
            None,
            True,
            dsl.at(*parts, "tool_name"),
        )


def _agent_input(dsl: Dsl, parts: tuple[str | int, ...], name: str, given: Any) -> Input:
    # A newer agent keeps `{auto: 1, value: null}` per parameter: auto means the model fills it.
    key = dsl.document.key_at(*parts)
    if isinstance(given, dict) and "value" in given:
        inner = given["value"]
        if isinstance(inner, dict) and inner.get("type") in ("mixed", "variable", "constant"):
            return Input(name, inner["type"], inner.get("value"), dsl.at(*parts, "value", "value"), key)
        kind = "auto" if given.get("auto") else "plain"
        return Input(name, kind, inner, dsl.at(*parts, "value"), key)
    return Input(name, "plain", given, dsl.at(*parts), key)


def provider_parts(provider_id: str) -> tuple[str, str] | None:
    """(plugin id, provider name) of a `provider_id`, exactly as Dify's `ToolProviderID` reads it
    (api/models/provider_ids.py): `organization/plugin/provider`, or a bare name `P` read as
    `langgenius/P/P`; for `langgenius`, the providers `jina`, `siliconflow`, `stepfun` and `gitee_ai`
    live in the plugin `P_tool`. Anything else (`plugin/provider` in two parts, capitals, other
    characters) is None: Dify raises "Invalid plugin id"."""
    parts = provider_id.split("/")
    if len(parts) not in (1, 3) or not all(_NAME.match(part) for part in parts):
        return None
    organization, plugin, provider = parts if len(parts) == 3 else ("langgenius", provider_id, provider_id)
    if organization == "langgenius" and provider in DIFY_TOOL_SUFFIXED:
        plugin = f"{provider}_tool"
    return f"{organization}/{plugin}", provider


def references(dsl: Dsl) -> Iterator[Reference]:
    """Every reference of every node: `{{#id.path#}}` in text, selector lists, and the selectors a
    variable aggregator merges."""
    for node in dsl.nodes:
        merges = node.type in AGGREGATOR_TYPES
        # An explicit stack: a hostile file nests as deep as the reader allows, and aliases share
        # values; the reader already bounded how many values there are in all.
        stack: list[tuple[Any, tuple[str | int, ...], str]] = [(node.data, node.parts, "")]
        while stack:
            value, parts, key = stack.pop()
            if isinstance(value, str):
                if "{{#" in value:
                    where = dsl.at(*parts)
                    for match in TEMPLATE.finditer(value):
                        source, *path = match.group(1).split(".")
                        yield Reference(source, tuple(path), where, node)
            elif isinstance(value, list):
                if _is_selector(key, value):
                    yield Reference(value[0], tuple(value[1:]), dsl.at(*parts), node)
                    continue
                inner = _MERGED if merges and key == "variables" else key
                stack.extend((item, (*parts, i), inner) for i, item in enumerate(value))
            elif isinstance(value, dict):
                if value.get("type") == "variable" and _is_selector("value_selector", value.get("value")):
                    selector = value["value"]
                    yield Reference(selector[0], tuple(selector[1:]), dsl.at(*parts, "value"), node)
                    continue
                stack.extend((item, (*parts, str(k)), str(k)) for k, item in value.items())


def _is_selector(key: str, value: Any) -> bool:
    return (
        key.endswith("selector")
        and isinstance(value, list)
        and len(value) >= 2
        and all(isinstance(part, str) for part in value)
    )
