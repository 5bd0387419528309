"""The workflow check: each tool use and each reference to a tool's outputs against the catalog.

Severities follow the house rule. Errors only where Dify refuses the workflow: the editor's checklist
(`checkValid` of the tool node, web/app/components/workflow/nodes/tool/default.ts) marks a required
parameter left empty with `fieldRequired`, and Dify neither publishes nor runs a workflow whose
checklist has errors. Everything Dify accepts is a warning: a tool missing from the catalog may be
installed elsewhere, a value the tool does not expect reaches it anyway, and a reference to an
output the tool does not declare reads None unless the tool sets that variable without declaring it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from generator.findings import Finding, Severity
from generator.rules import Listing, Rule, rule
from generator.workflow.catalog import Catalog, ParameterSpec, PluginSpec, ToolSpec, declares, normal_path
from generator.workflow.dsl import Dsl
from generator.workflow.legacy import moved_to
from generator.workflow.pipeline import pipeline_findings
from generator.workflow.pipeline_dsl import PIPELINE_KIND
from generator.workflow.triggers import trigger_findings
from generator.workflow.uses import (
    Input,
    Pin,
    Reference,
    ToolUse,
    pins,
    provider_parts,
    references,
    tool_uses,
)

TOOL_UNKNOWN = rule(
    "W010",
    "tool-not-in-catalog",
    Severity.WARNING,
    "node {node}: {what}",
    "Install the plugin that provides it, or check `provider_id` and `tool_name`; with `--catalog`, "
    "name the registry or index that holds it.",
    """
A tool node (or a tool of an agent node) names a provider and tool that the catalog does not
have: the plugin is missing, or it has no such provider or tool. Dify imports the workflow and
asks to install the plugin; the node fails when it runs without it. The catalog may simply not
hold a plugin the workspace has, so this is a warning.
""",
)
TOOL_NOT_CHECKED = rule(
    "W011",
    "workspace-tool",
    Severity.INFO,
    "node {node}: {kind} tool {tool} is not in any plugin and is not checked",
    "Nothing to do: custom API, workflow and MCP tools are defined in the workspace, and Dify ships "
    "a few tools inside itself.",
    """
Tools of the provider types `api`, `workflow`, `mcp` and `app` are defined in one Dify workspace,
not in plugins, so no catalog holds them; nor does one hold the providers Dify still ships inside
itself instead of as plugins (`audio`, `code`, `time`, `webscraper`, in
api/core/tools/builtin_tool/providers).
""",
)
PARAMETER_UNKNOWN = rule(
    "W012",
    "parameter-unknown",
    Severity.WARNING,
    "node {node}: tool {tool} has no parameter {name}",
    "Remove the value, or set the parameter the tool has under that name now ({known}).",
    """
The node gives a value to a parameter the tool does not declare. Dify passes it on (as None, or
not at all), so the value the builder set is lost; a renamed parameter is the usual cause.
""",
)
REQUIRED_UNSET = rule(
    "W013",
    "required-parameter-unset",
    Severity.ERROR,
    "node {node}: required parameter {name} of tool {tool} is not set and has no default",
    "Give {name} a value or a variable in the node.",
    """
A required parameter with no default has no value in the node. Dify's editor checks each tool node
before it publishes or runs a workflow (`checkValid` in
web/app/components/workflow/nodes/tool/default.ts: a required input or setting whose value, or the
`value` inside its `{type, value}`, is missing, null, empty text or an empty list gives
`fieldRequired`; an empty list is allowed as a constant for `any` and `array` parameters), and a
workflow whose checklist has an error is neither published nor run. Older Dify versions refused it
at run time as well (`init_frontend_parameter`: "tool parameter ... not found in tool config").
The parameter is judged against the catalog's version of the tool: in a node that pins another
version, which may not require it, the finding is a warning about the upgrade.
""",
)
OPTION_UNKNOWN = rule(
    "W014",
    "option-not-offered",
    Severity.WARNING,
    "node {node}: {value} is not an option of {name} (tool {tool}); options: {options}",
    "Pick one of the options the tool offers.",
    """
A select parameter is given a constant the tool does not offer. Older Dify versions refused it when
preparing the node (`init_frontend_parameter`: "... not in options"); current ones pass it to the
tool, which then meets a value it was not written for.
""",
)
WRONG_TYPE = rule(
    "W015",
    "constant-wrong-type",
    Severity.WARNING,
    "node {node}: parameter {name} of tool {tool} is {type}, but the node gives it {given}",
    "Give a value of the parameter's type, or a variable that holds one.",
    """
A constant does not fit the parameter's type: text for a number, a list for a string, a constant
for a file, a word other than true/false/yes/no/y/n/1/0 for a boolean. Dify casts what it can
(`cast_parameter_value`: any other text is read as True for a boolean) and fails the node on what
it cannot (text that is no number).
""",
)
OUTPUT_UNKNOWN = rule(
    "W020",
    "output-not-produced",
    Severity.WARNING,
    "node {node} reads {reference}, but tool {tool} has no output {path}",
    "Read one of the outputs the tool declares ({known}); an undeclared variable reads None.",
    """
A later node reads a variable of a tool node (`{{#node_id.name#}}` in text, or a selector list) that
the tool neither always produces (`text`, `files`, `json`) nor declares in its `output_schema`
(every path of it, hosted `$ref`s followed). Dify never checks this: the reference reads None,
unless the tool sets the variable without declaring it.
""",
)
OUTPUT_REMOVED = rule(
    "W021",
    "output-removed-on-upgrade",
    Severity.WARNING,
    "node {node} reads {reference}: tool {tool} had it in {pinned}, and {version} does not",
    "Before upgrading {plugin} to {version}, read another output in this node.",
    """
The workflow pins an older version of the plugin whose tool produced the variable this node
reads; the catalog's version does not have it. The workflow works with the pinned version and
silently reads None after the upgrade. The pinned version is compared with the catalog's directly
when the catalog holds it (an output removed by one release and restored by a later one is no
loss); otherwise the outputs the releases in between removed are added up.
""",
)
PINNED_BREAKING = rule(
    "W022",
    "pinned-version-has-breaking-upgrade",
    Severity.WARNING,
    "{plugin} is pinned to {pinned}; {version} has breaking changes since: {changes}",
    "Read the changes before upgrading, and adjust the nodes that use {plugin}.",
    """
The file pins a plugin version older than the catalog's, and the catalog's version changes the
interface in ways that break existing workflows (the `diff` engine's breaking class: a parameter
removed or made required, an output removed, ...). The pinned version is compared with the catalog's
directly, as an upgrade replaces one with the other: a change that a later release undid (a
parameter removed by a broken release and restored by the next) breaks nothing. Only when the
catalog does not hold the pinned version itself (an `index.json` written before this comparison, a
version missing from the history) are the breaking changes of the releases in between added up.
""",
)

PROVIDER_ID_INVALID = rule(
    "W016",
    "provider-id-invalid",
    Severity.ERROR,
    "node {node}: provider_id {provider_id!r} is not an id Dify can read",
    "Write the provider as `author/plugin/provider` (as the plugin's page names it), or a former "
    "built-in provider's bare name.",
    """
Dify reads a tool's `provider_id` with `ToolProviderID` (api/models/provider_ids.py): three parts,
`organization/plugin/provider`, or one, a former built-in name `P` read as `langgenius/P/P`; each
part lower-case letters, digits, `_` and `-`. Anything else, a two-part `plugin/provider` too,
raises "Invalid plugin id": the node fails every time it runs, and the import cannot say which
plugin to install.
""",
)

_CUSTOM_KINDS = ("api", "workflow", "mcp", "app")
# Providers Dify still ships inside itself rather than as plugins (api/core/tools/builtin_tool/providers).
DIFY_BUILTIN_PROVIDERS = ("audio", "code", "time", "webscraper")
_NUMBER = ("number",)
_TEXT = ("string", "secret-input", "select", "dynamic-select", "text-input", "paragraph")
_FILES = ("file", "files", "system-files")
_EMPTY: tuple[object, ...] = (None, "", [])
_BOOLEAN_WORDS = ("true", "false", "yes", "no", "y", "n", "1", "0")


def check(dsl: Dsl, catalog: Catalog) -> list[Finding]:
    """Every finding of one DSL file against the catalog."""
    found: list[Finding] = list(dsl.findings)
    if not dsl.nodes:
        return found
    pinned = pins(dsl)
    by_node: dict[str, tuple[ToolUse, PluginSpec, ToolSpec]] = {}
    misses: dict[tuple[str, str], list[_Miss]] = {}
    for use in tool_uses(dsl, pinned):
        resolved = _resolve(use, catalog, misses)
        if resolved is not None:
            plugin, spec = resolved
            found.extend(_inputs(use, spec, plugin))
            if not use.agent:
                by_node.setdefault(use.node.id, (use, plugin, spec))
    found.extend(_grouped(misses))
    for reference in references(dsl):
        target = by_node.get(reference.source)
        if target is not None:
            found.extend(_reference(reference, *target, pinned))
    if dsl.kind == PIPELINE_KIND:
        found.extend(
            pipeline_findings(dsl, catalog, {node: spec for node, (_u, _p, spec) in by_node.items()})
        )
    found.extend(_pins(pinned, catalog))
    found.extend(trigger_findings(dsl, catalog))
    return found


def _node(use: ToolUse) -> str:
    return f"{use.node.id} ({use.node.title})" if use.node.title else use.node.id


@dataclasses.dataclass(frozen=True, slots=True)
class _Miss:
    """A tool use the catalog cannot check: the rule, its values besides the node, and a hint."""

    use: ToolUse
    rule: Rule
    values: dict[str, object]
    hint: str | None = None


def _resolve(
    use: ToolUse, catalog: Catalog, misses: dict[tuple[str, str], list[_Miss]]
) -> tuple[PluginSpec, ToolSpec] | None:
    """The plugin and tool a use names, as Dify resolves its `provider_id`; else None, with the miss
    kept in `misses` under what it is about (one finding per plugin, tool or provider id)."""

    def missed(key: str, miss: _Miss) -> None:
        misses.setdefault((miss.rule.code, key), []).append(miss)

    if not use.from_plugin:
        if use.provider_type in _CUSTOM_KINDS:
            values: dict[str, object] = {"kind": use.provider_type, "tool": use.tool}
            missed(f"{use.provider_type}:{use.provider_id}:{use.tool}", _Miss(use, TOOL_NOT_CHECKED, values))
        return None
    if use.provider_id in DIFY_BUILTIN_PROVIDERS:
        values = {"kind": "Dify's built-in", "tool": use.tool}
        missed(f"builtin:{use.provider_id}:{use.tool}", _Miss(use, TOOL_NOT_CHECKED, values))
        return None
    parts = provider_parts(use.provider_id)
    if parts is None:
        missed(use.provider_id, _Miss(use, PROVIDER_ID_INVALID, {"provider_id": use.provider_id}))
        return None
    plugin_id, provider = parts
    plugin = catalog.plugins.get(plugin_id)
    if plugin is None:
        key, what = plugin_id, f"plugin {plugin_id} (provider {use.provider_id}) is not in the catalog"
    else:
        spec = plugin.tools.get((provider, use.tool))
        if spec is not None:
            return plugin, spec
        key = f"{plugin_id}/{provider}/{use.tool}"
        what = f"plugin {plugin_id} {plugin.version} has no tool {use.tool} in provider {provider}"
    missed(key, _Miss(use, TOOL_UNKNOWN, {"what": what}, _moved_hint(use, plugin_id, catalog)))
    return None


def _moved_hint(use: ToolUse, plugin_id: str, catalog: Catalog) -> str | None:
    """Where the tools of a former built-in provider are now, when Dify looks for them elsewhere."""
    target = moved_to(use.provider_id)
    if not target:
        return None
    author, name, provider = target.split("/")
    held = catalog.plugins.get(f"{author}/{name}")
    where = (
        ""
        if held is None or (provider, use.tool) in held.tools
        else f" (the catalog's {held.version} has no tool {use.tool})"
    )
    return (
        f"Dify looks for `{use.provider_id}` in the plugin {plugin_id} (ToolProviderID); its tools are "
        f"now in {author}/{name}{where}: set provider_id to `{target}`."
    )


def _grouped(misses: dict[tuple[str, str], list[_Miss]]) -> Iterator[Finding]:
    """One finding per missing plugin, tool or provider id, at its first use, naming every node."""
    for group in misses.values():
        first = group[0]
        nodes = [_node(miss.use) for miss in group]
        shown = (
            nodes[0] if len(nodes) == 1 else f"{nodes[0]} and {len(nodes) - 1} more ({Listing(nodes[1:], 8)})"
        )
        yield first.rule.at(first.use.where, None, first.hint, node=shown, **first.values)


def _inputs(use: ToolUse, spec: ToolSpec, plugin: PluginSpec) -> Iterator[Finding]:
    given: dict[str, Input] = {}
    for item in use.inputs:
        parameter = spec.parameters.get(item.name)
        if parameter is None:
            # An agent's settings and parameters repeat names the tool itself lists elsewhere.
            known = Listing(sorted(spec.parameters), 12)
            yield PARAMETER_UNKNOWN.at(item.key, node=_node(use), tool=use.tool, name=item.name, known=known)
            continue
        if item.name not in given or _set(given[item.name]):
            given[item.name] = item
        yield from _value(use, parameter, item)
    if use.agent:
        return  # the agent's model fills what the builder left to it
    for parameter in spec.parameters.values():
        unset = given.get(parameter.name)
        if (
            parameter.required
            and parameter.default in _EMPTY
            and (unset is None or not _set(unset, parameter))
        ):
            where = unset.where if unset is not None else use.where
            # Judged against the catalog's version: a node pinned to another version may be right
            # for the version it runs, so there the finding is a warning about the upgrade.
            other = use.pin is not None and use.pin.version != plugin.version
            yield REQUIRED_UNSET.at(
                where,
                severity=Severity.WARNING if other else None,
                hint=f"Version {plugin.version} requires it: give it a value before upgrading."
                if other
                else None,
                node=_node(use),
                tool=use.tool,
                name=parameter.name,
            )


def _set(item: Input, parameter: ParameterSpec | None = None) -> bool:
    """True when the node gives a value, as the editor's `isMissingValue` judges it: not missing,
    null or empty text, nor an empty list (which a constant for an `any` or `array` parameter may be)."""
    if item.kind == "auto":
        return True
    if item.value == [] and parameter is not None:
        return item.kind != "variable" and parameter.type in ("any", "array")
    return item.value not in _EMPTY


def _value(use: ToolUse, parameter: ParameterSpec, item: Input) -> Iterator[Finding]:
    value = item.value
    if item.kind not in ("constant", "plain", "mixed") or value in _EMPTY:
        return
    if isinstance(value, str) and "{{#" in value:
        return  # a template: its value is known only at run time
    node = _node(use)
    if parameter.type == "select" and parameter.options and not isinstance(value, list | dict):
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if text not in parameter.options:
            yield OPTION_UNKNOWN.at(
                item.where,
                node=node,
                tool=use.tool,
                name=parameter.name,
                value=text,
                options=Listing(list(parameter.options), 12),
            )
        return
    problem = _type_problem(parameter.type, value)
    if problem:
        yield WRONG_TYPE.at(
            item.where, node=node, tool=use.tool, name=parameter.name, type=parameter.type, given=problem
        )


def _type_problem(kind: str, value: object) -> str:
    """How a constant does not fit a parameter type ("" when it fits or cannot be judged)."""
    if kind in _NUMBER:
        if isinstance(value, bool | list | dict):
            return _kind(value)
        if isinstance(value, str):
            try:
                float(value)
            except ValueError:
                return f"the text {value!r}"
        return ""
    if kind == "boolean":
        # Dify's cast (`cast_parameter_value`) reads these words; any other text becomes True
        fits = isinstance(value, bool) or value in (0, 1) or str(value).lower() in _BOOLEAN_WORDS
        return "" if fits else (f"the text {value!r}" if isinstance(value, str) else _kind(value))
    if kind in _TEXT and isinstance(value, list | dict):
        return _kind(value)
    if kind in _FILES:
        return f"a constant ({_kind(value)}); files come from variables"
    return ""


def _kind(value: object) -> str:
    from generator.load.values import kind_of

    return kind_of(value)


def _reference(
    reference: Reference, use: ToolUse, plugin: PluginSpec, spec: ToolSpec, pinned: dict[str, Pin]
) -> Iterator[Finding]:
    path = ".".join(reference.path)
    if not reference.path or _produced(reference.path, spec.outputs):
        return
    shown = "{{#" + ".".join((reference.source, *reference.path)) + "#}}"
    node = f"{reference.node.id} ({reference.node.title})" if reference.node.title else reference.node.id
    pin = use.pin or pinned.get(plugin.id)
    if pin is not None:
        removed = plugin.upgrade_from(pin.version).removed_outputs
        if any((spec.provider, spec.name) == (p, t) and normal_path(o) == path for p, t, o in removed):
            yield OUTPUT_REMOVED.at(
                reference.where,
                node=node,
                reference=shown,
                tool=use.tool,
                pinned=pin.version,
                plugin=plugin.id,
                version=plugin.version,
            )
            return
    known = Listing(sorted(spec.outputs), 12)
    yield OUTPUT_UNKNOWN.at(
        reference.where, node=node, reference=shown, tool=use.tool, path=path, known=known
    )


def _produced(path: tuple[str, ...], outputs: frozenset[str]) -> bool:
    """True when the tool produces the variable at `path`: a fixed variable (anything inside
    `json` and `files` included), or a declared path or something inside a free-form one."""
    if path[0] in ("json", "files") or (path[0] == "text" and len(path) == 1):
        return True
    return declares(outputs, path)


def _pins(pinned: dict[str, Pin], catalog: Catalog) -> Iterator[Finding]:
    for pin in pinned.values():
        plugin = catalog.plugins.get(pin.plugin)
        if plugin is None:
            continue
        upgrade = plugin.upgrade_from(pin.version)
        breaking = list(dict.fromkeys(message.removeprefix("breaking: ") for message in upgrade.breaking))
        if breaking:
            yield PINNED_BREAKING.at(
                pin.where,
                plugin=pin.plugin,
                pinned=pin.version,
                version=plugin.version,
                changes=Listing(breaking, 10),
            )
