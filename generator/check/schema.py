"""Validate manifests, provider and tool YAMLs against the registry's published JSON Schemas.

Each subschema names the rule its failures belong to with an `x-rule` keyword (ignored by editors),
so every schema error becomes a stable finding at the file, line and column of the offending value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import jsonschema

from generator.check import CheckContext
from generator.check.common import documents
from generator.findings import Finding, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument, pointer_of
from generator.rules import Rule, rule
from generator.schemas.compiled import FastValidator
from generator.schemas.validators import published_validator
from generator.shorten import VALUE, shorten_json

# Which published schema each loaded role is checked against.
ROLE_SCHEMAS = {
    "manifest": "plugin_manifest",
    "tools provider": "tool_provider",
    "tool": "tool",
    "datasources provider": "datasource_provider",
    "datasource": "datasource",
    "models provider": "model_provider",
    "model": "model",
    "agent_strategies provider": "agent_strategy_provider",
    "agent strategy": "agent_strategy",
    "endpoints provider": "endpoint_group",
    "endpoint": "endpoint",
    "triggers provider": "trigger_provider",
    "event": "trigger_event",
}

_E = Severity.ERROR
MANIFEST_SCHEMA = rule(
    "M001",
    "manifest-schema",
    _E,
    "manifest: {detail}",
    "Compare with the published schema plugin_manifest.json; required fields and types are fixed.",
    """
The manifest lacks a field Dify requires (`version`, `type`, `author`, `name`, `label`, `description`,
`icon`, `created_at`, `resource`, `plugins`, `meta`), or a field has the wrong type. The plugin SDK
reads the manifest into a typed model and the daemon validates it on install, so such a manifest is
refused.
""",
)
PROVIDER_SCHEMA = rule(
    "P001",
    "provider-schema",
    _E,
    "tool provider: {detail}",
    "Compare with the published schema tool_provider.json.",
    """
The tool provider YAML lacks a field the SDK requires (`identity` with `author`, `name`, `label`,
`description` and `icon`; `extra.python.source`), or a field has the wrong type. The SDK cannot
load such a provider, so the plugin fails to start.
""",
)
TOOL_SCHEMA = rule(
    "T001",
    "tool-schema",
    _E,
    "tool: {detail}",
    "Compare with the published schema tool.json.",
    """
The tool YAML lacks a field the SDK requires (`identity` with `author`, `name`, `label`;
`description` with `human` and `llm`; `extra.python.source`), or a field has the wrong type. The SDK
cannot load the tool, so the whole provider fails to load.
""",
)
DATASOURCE_PROVIDER_SCHEMA = rule(
    "B001",
    "datasource-provider-schema",
    _E,
    "datasource provider: {detail}",
    "Compare with the published schema datasource_provider.json.",
    """
The datasource provider YAML lacks a field the SDK requires, or a field has the wrong type. The SDK
reads it into `DatasourceProviderManifest` (`dify_plugin/entities/datasource_manifest.py`):
`identity` with `author`, `name`, `description`, `icon` and `label` (all `Field(...)`), tags from
`DatasourceLabelEnum`, `credentials_schema` and the OAuth `client_schema` / `credentials_schema` as
lists of `ProviderConfig` (each with `name`, `type` and `label`), `datasources` a list of file paths
("datasources should be a list", "datasource path should be a string"), and `extra.python.source`.
A provider it cannot read stops the plugin at start-up.
""",
)
DATASOURCE_SCHEMA = rule(
    "B003",
    "datasource-schema",
    _E,
    "datasource: {detail}",
    "Compare with the published schema datasource.json.",
    """
The datasource YAML lacks a field the SDK requires, or a field has the wrong type. The SDK reads
each file a provider lists into `DatasourceEntity` while it reads the provider ("Error loading
datasource configuration"): `identity` with `author`, `name` and `label`, a `description`, an
`output_schema` that is a mapping when given, and `extra.python.source`. One unreadable datasource
stops the whole plugin at start-up.
""",
)
MODEL_PROVIDER_SCHEMA = rule(
    "N001",
    "model-provider-schema",
    _E,
    "model provider: {detail}",
    "Compare with the published schema model_provider.json.",
    """
The model provider YAML lacks a field the SDK requires, or a field has the wrong type. The SDK reads
it into `ModelProviderConfiguration` (`dify_plugin/entities/model/provider.py`): `provider`,
`label`, `supported_model_types` and `configurate_methods` from fixed lists, credential forms
(`CredentialFormSchema`: `variable`, `label`, a `type` of text-input, secret-input, select, radio or
switch, a `default` and option values that are texts), `models` a mapping ("models should be a glob
path list") and `extra.python.provider_source`. A provider it cannot read stops the plugin.
""",
)
MODEL_SCHEMA = rule(
    "N002",
    "model-schema",
    _E,
    "model: {detail}",
    "Compare with the published schema model.json.",
    """
A model YAML that the provider's patterns find lacks a field the SDK requires, or a field has the
wrong type. The SDK reads every such file into `AIModelEntity` while it reads the provider
(`ProviderEntity.validate_models`): `model`, a `model_type` from `ModelType`, `model_properties`
whose keys are `ModelPropertyKey` values (an unknown key is refused), `features` from
`ModelFeature`, and `pricing` with decimal `input`, `unit` and a `currency`. One unreadable model
stops the whole plugin.
""",
)
AGENT_STRATEGY_SCHEMA = rule(
    "G001",
    "agent-strategy-schema",
    _E,
    "agent strategy: {detail}",
    "Compare with the published schemas agent_strategy_provider.json and agent_strategy.json.",
    """
An agent strategy provider or strategy YAML lacks a field the SDK requires, or a field has the wrong
type. The SDK reads the provider into `AgentStrategyProviderConfiguration`
(`dify_plugin/entities/agent.py`: an `identity` as a tool provider's, `strategies` a list of paths,
"strategies should be a list", "strategy path should be a string") and each strategy file as
`AgentStrategyIdentity(**file["identity"])`, `I18nObject(**file["description"])`,
`AgentStrategyConfigurationExtra(**file.get("extra", {}))` and features from
`AgentStrategyFeature` ("Error loading agent strategy configuration"). The plugin does not start.
""",
)
ENDPOINT_SCHEMA = rule(
    "V001",
    "endpoint-schema",
    _E,
    "endpoint: {detail}",
    "Compare with the published schemas endpoint_group.json and endpoint.json.",
    """
An endpoint group or endpoint YAML lacks a field the SDK requires, or a field has the wrong type.
The SDK reads the group into `EndpointProviderConfiguration` (`dify_plugin/entities/endpoint.py`:
`settings` as `ProviderConfig` fields with `name`, `type` and `label`; `endpoints` a list, "endpoints
should be a list") and each endpoint into `EndpointConfiguration`: `path`, `method` and
`extra.python.source` required, `hidden` a boolean. The plugin does not start.
""",
)
TRIGGER_PROVIDER_SCHEMA = rule(
    "E002",
    "trigger-provider-schema",
    _E,
    "trigger provider: {detail}",
    "Compare with the published schema trigger_provider.json.",
    """
The trigger provider YAML lacks a field the SDK requires (`identity` with `author`, `name`, `label`,
`description`; `extra.python.source`), or a field has the wrong type. The SDK reads it into
`TriggerProviderConfiguration` (`dify_plugin/entities/trigger.py`) when the plugin starts: `events`
must be a list of paths ("event path should be a string"), `subscription_schema` a list of fields,
`subscription_constructor` a mapping ("subscription_constructor should be defined as a mapping")
whose `parameters` and `oauth_schema` lists hold mappings, and `credentials_schema` a list or a
mapping ("credentials_schema should be a list or dict"). Any other shape stops the plugin from
starting. The daemon also requires `identity.icon` (`TriggerProviderIdentity`: `validate:"required"`).
""",
)
EVENT_SCHEMA = rule(
    "E003",
    "event-schema",
    _E,
    "event: {detail}",
    "Compare with the published schema trigger_event.json.",
    """
The event YAML lacks a field the SDK requires, or a field has the wrong type. The SDK's
`TriggerProviderConfiguration.validate_events` reads every listed event with
`EventConfiguration(identity=EventIdentity(**file["identity"]), parameters=[...],
description=I18nObject(**file["description"]), extra=EventConfigurationExtra(**file.get("extra", {})),
output_schema=file.get("output_schema", None))`: `identity` (`author`, `name`, `label`),
`description` (one i18n text: the `human`/`llm` pair of tools has no `en_US` and is refused) and
`extra.python.source` are required, `output_schema` is a mapping or null. A failure is raised as
"Error loading event configuration", and the whole plugin fails to start.
""",
)
BOOLEAN_WORD = rule(
    "Y013",
    "boolean-as-word",
    Severity.WARNING,
    "{field} is the text {value}, which Dify reads as {meaning}",
    "Write {meaning} without quotes: editors and the published schema refuse the text.",
    """
A field that holds a boolean (`required`, `enabled`, ...) is given a quoted word of YAML 1.1 such as
`'yes'`, `'On'` or `'no'`. Both readers of Dify take it as a boolean: the plugin daemon decodes
manifests and tool files with Go's yaml.v3, which turns exactly the words y, yes, on (true) and n,
no, off (false, each also capitalised or in capitals) into a typed boolean, and the SDK's pydantic
models accept those words too. So the plugin works, but the published schema (and any editor using
it) refuses the file. Other text, such as a quoted `'true'`, is refused by the daemon (yaml.v3 does
not convert it) and stays an error.
""",
)
RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        MANIFEST_SCHEMA,
        rule(
            "M002",
            "invalid-version",
            _E,
            "invalid version: {detail}",
            "Write a quoted version of three numbers such as '0.0.1' or '1.2.3-beta'.",
            """
`version` and `meta.version` must match `^\\d{1,4}(\\.\\d{1,4}){2}(-\\w{1,16})?$`: three dotted
numbers of at most four digits, optionally followed by a dash and a short suffix. The daemon refuses
other forms. Unquoted `1.0` is read by YAML as a number and fails too.
""",
        ),
        rule(
            "M003",
            "invalid-author",
            _E,
            "invalid author: {detail}",
            "Use lowercase letters, digits, `_` and `-` only (at most 64 characters).",
            """
The daemon accepts a manifest `author` matching `^[a-z0-9_-]{1,64}$`. The SDK also allows uppercase
letters, but the daemon does not, so a plugin whose author has capitals cannot be installed.
""",
        ),
        rule(
            "M004",
            "invalid-plugin-name",
            _E,
            "invalid plugin name: {detail}",
            "Use lowercase letters, digits, `_` and `-` only (at most 128 characters).",
            """
The manifest `name` identifies the plugin and must match `^[a-z0-9_-]{1,128}$`.
""",
        ),
        rule(
            "M005",
            "invalid-icon-name",
            _E,
            "invalid icon: {detail}",
            "Name a file in `_assets/` with at most 128 characters.",
            """
`icon` is required and, like `icon_dark`, is a file name under `_assets/` of at most 128 characters.
""",
        ),
        rule(
            "M006",
            "invalid-tag",
            _E,
            "invalid tag: {detail}",
            "Use search, image, videos, weather, finance, design, travel, social, news, medical, "
            "productivity, "
            "education, business, entertainment, utilities, agent, rag, other or trigger.",
            """
Manifest `tags` are marketplace categories from a fixed list: search, image, videos, weather,
finance, design, travel, social, news, medical, productivity, education, business, entertainment,
utilities, agent, rag, other, trigger. The daemon refuses other values.
""",
        ),
        rule(
            "M007",
            "invalid-resource",
            _E,
            "invalid resource or permission: {detail}",
            "`resource.memory` is a number of bytes; permissions are booleans; "
            "storage size is 1024..1073741824.",
            """
`resource` declares memory (bytes, an integer) and the permissions the plugin asks for (`tool`,
`model`, `node`, `endpoint`, `app`, `storage`). Each permission's `enabled` is a boolean, and the
storage `size` must lie between 1024 bytes and 1 GiB. The SDK refuses values outside these.
""",
        ),
        rule(
            "M008",
            "invalid-arch",
            _E,
            "invalid architecture: {detail}",
            "List `amd64`, `arm64` or both under `meta.arch`.",
            """
`meta.arch` lists the CPU architectures the plugin runs on; only `amd64` and `arm64` exist.
""",
        ),
        rule(
            "M009",
            "invalid-runner",
            _E,
            "invalid runner: {detail}",
            "Set `meta.runner` to language python, a quoted Python version such as '3.12', "
            "and entrypoint main.",
            """
`meta.runner` tells Dify how to start the plugin: `language` (only `python`), `version` (a string)
and `entrypoint` (the module to run). `meta.minimum_dify_version`, when given, must be a version
such as `1.5.0`. The SDK refuses a manifest without them.
""",
        ),
        PROVIDER_SCHEMA,
        rule(
            "P002",
            "invalid-provider-name",
            _E,
            "invalid provider name: {detail}",
            "Use letters, digits, `_` and `-` only.",
            """
The daemon requires a provider `identity.name` matching `^[a-zA-Z0-9_-]+$`.
""",
        ),
        rule(
            "P003",
            "invalid-provider-tag",
            _E,
            "invalid provider tag: {detail}",
            "Use search, image, videos, weather, finance, design, travel, social, news, medical, "
            "productivity, "
            "education, business, entertainment, utilities, rag or other.",
            """
A provider's `identity.tags` come from the SDK's fixed list: search, image, videos, weather,
finance, design, travel, social, news, medical, productivity, education, business, entertainment,
utilities, rag, other. The SDK refuses other values when it loads the provider.
""",
        ),
        rule(
            "P004",
            "invalid-credential",
            _E,
            "invalid credential field: {detail}",
            "Each credential needs a `label` and a `type`: secret-input, text-input, select, boolean, "
            "model-selector, app-selector or array[tools].",
            """
Every entry of `credentials_for_provider` is a mapping with a `type` from secret-input, text-input,
select, boolean, model-selector, app-selector, array[tools], and a `label` with `en_US`. The SDK
refuses other types.
""",
        ),
        TOOL_SCHEMA,
        rule(
            "T002",
            "invalid-tool-name",
            _E,
            "invalid tool name: {detail}",
            "Use letters, digits, `_` and `-` only.",
            """
The daemon requires a tool `identity.name` matching `^[a-zA-Z0-9_-]+$`.
""",
        ),
        rule(
            "A001",
            "parameter-schema",
            _E,
            "parameter: {detail}",
            "Each parameter needs `name`, `label`, `human_description`, `type` and `form`; see tool.json.",
            """
A tool parameter lacks a field the SDK requires (`name` of 1 to 1023 characters, `label`,
`human_description`, `type`, `form`), or a field such as `required`, `min`, `max` or `options` has
the wrong type. The SDK refuses the tool.
""",
        ),
        rule(
            "A002",
            "invalid-parameter-type",
            _E,
            "invalid parameter type: {detail}",
            "Use one of: string, number, boolean, select, secret-input, file, files, model-selector, "
            "app-selector, checkbox, any, object, array, dynamic-select, date, date-range.",
            """
A parameter `type` outside the SDK's list is refused when the tool is loaded. Note that
`array[string]` and similar are not parameter types; use `array` with an `input_schema`.
""",
        ),
        rule(
            "A003",
            "invalid-parameter-form",
            _E,
            "invalid parameter form: {detail}",
            "Use `llm` (a model fills it), `form` (the user sets it) or `schema`.",
            """
A parameter `form` is one of `schema`, `form` and `llm`. The SDK refuses other values.
""",
        ),
        rule(
            "L001",
            "invalid-i18n",
            _E,
            "invalid i18n text: {detail}",
            "Write a mapping of language to text with at least `en_US`.",
            """
Labels and descriptions are i18n objects: a mapping with a required `en_US` text and optional
`zh_Hans`, `ja_JP` and `pt_BR` texts. A bare string or a mapping without `en_US` is refused by the
SDK.
""",
        ),
        rule(
            "L002",
            "invalid-i18n-text",
            _E,
            "invalid i18n text: {detail}",
            "Keep texts between 1 and 1023 characters (`en_US` must not be empty).",
            """
The daemon limits every i18n text to 1023 characters and requires a non-empty `en_US`. The
translations may be empty (they then fall back to `en_US`) but must be text.
""",
        ),
        DATASOURCE_PROVIDER_SCHEMA,
        rule(
            "B002",
            "invalid-datasource-provider-type",
            _E,
            "invalid datasource provider type: {detail}",
            "Use online_document, website_crawl or online_drive.",
            """
`provider_type` says what a datasource provider reads and which class each of its datasources must
subclass. The SDK knows three (`DatasourceProviderType`: `online_document`, `website_crawl`,
`online_drive`) and the daemon registers the same three (`isDatasourceProviderType` in
`pkg/entities/plugin_entities/datasource_declaration.go`). Dify's fourth datasource type,
`local_file`, is its built-in upload node and cannot be declared by a plugin: the SDK refuses it.
""",
        ),
        DATASOURCE_SCHEMA,
        rule(
            "B004",
            "datasource-parameter-schema",
            _E,
            "datasource parameter: {detail}",
            "Each parameter needs `name`, `label`, `description` and `type`; see datasource.json.",
            """
A datasource parameter lacks a field the SDK requires (`DatasourceParameter`: `name`, `label`,
`type`, `description`, each `Field(...)`), or a field such as `required` (a boolean, never null),
`min`, `max` or `options` (a list) has the wrong type. Unlike a tool parameter it has no `form` or
`human_description`: its help text is `description`. The SDK refuses the datasource.
""",
        ),
        rule(
            "B005",
            "invalid-datasource-parameter-type",
            _E,
            "invalid datasource parameter type: {detail}",
            "Use one of: string, number, boolean, select, secret-input, file, files.",
            """
A datasource parameter's `type` comes from `DatasourceParameter.DatasourceParameterType` of the SDK:
string, number, boolean, select, secret-input, file, files. Other values are refused when the
datasource is loaded.
""",
        ),
        MODEL_PROVIDER_SCHEMA,
        MODEL_SCHEMA,
        rule(
            "N003",
            "model-parameter-rule-schema",
            _E,
            "model parameter rule: {detail}",
            "Give the rule a `type` (float, int, string, boolean, text), or a `use_template` of temperature, "
            "top_p, top_k, presence_penalty, frequency_penalty, max_tokens, response_format or json_schema.",
            """
A model's parameter rule (`ParameterRule` of the SDK) needs a `name` and a `type`; a `use_template`
naming a built-in rule (`DefaultParameterName`) gives both `type` and `label`, any other template is
ignored (`with suppress(ValueError)`). `required` is a boolean, `min` and `max` numbers, `options` a
list of texts (a number is refused). The SDK refuses the model, and with it the plugin.
""",
        ),
        AGENT_STRATEGY_SCHEMA,
        rule(
            "G002",
            "agent-strategy-parameter-schema",
            _E,
            "agent strategy parameter: {detail}",
            "Each parameter needs `name`, `label` and a `type` of string, number, boolean, select, "
            "secret-input, file, files, model-selector, app-selector, array[tools], any, object or array.",
            """
An agent strategy's parameter (`AgentStrategyParameter` of the SDK) needs `name`, `label` and a
`type` from its list (string, number, boolean, select, secret-input, file, files, model-selector,
app-selector, array[tools], any, object, array); `min`, `max` are numbers and `options` a list of
`value` and `label`. Its help text is `help`. The SDK refuses the strategy, and the plugin.
""",
        ),
        ENDPOINT_SCHEMA,
        TRIGGER_PROVIDER_SCHEMA,
        EVENT_SCHEMA,
        rule(
            "E004",
            "invalid-trigger-tag",
            _E,
            "invalid trigger provider tag: {detail}",
            "Leave `identity.tags` out: the manifest's `tags` categorise the plugin.",
            """
The SDK reads a trigger provider's `identity.tags` as `list[EventLabelEnum]`, whose only value is
`webhooks`; any other tag stops the plugin from starting. (The daemon, for its part, checks these
tags against the manifest's tag list, which has no `webhooks`, and fills empty tags from the
manifest's: leaving them out is the one form both accept.)
""",
        ),
        rule(
            "E005",
            "event-parameter-schema",
            _E,
            "parameter: {detail}",
            "Each parameter needs `name`, `label` and `type`; see trigger_event.json.",
            """
A parameter of an event or of a subscription constructor lacks a field the SDK's `EventParameter`
requires (`name`, `label`, `type`), or a field such as `required`, `multiple`, `min`, `max`,
`default` or `options` has the wrong type. The SDK refuses the provider when the plugin starts.
Unlike a tool's parameter, an event parameter has no `form`, `human_description` or
`llm_description`: its help text is `description`.
""",
        ),
        rule(
            "E006",
            "invalid-event-parameter-type",
            _E,
            "invalid parameter type: {detail}",
            "Use one of: string, number, boolean, select, checkbox, file, files, model-selector, "
            "app-selector, object, array, dynamic-select.",
            """
An event parameter's `type` comes from the SDK's `EventParameter.EventParameterType` (string,
number, boolean, select, checkbox, file, files, model-selector, app-selector, object, array,
dynamic-select; the daemon's `isEventParameterType` lists the same). `secret-input`, `any` and the
date types of tools are not among them; the SDK refuses the provider.
""",
        ),
        rule(
            "E007",
            "invalid-trigger-name",
            _E,
            "invalid name: {detail}",
            "Use letters, digits, `_` and `-` only.",
            """
The daemon requires a trigger provider's and an event's `identity.name` to match
`^[a-zA-Z0-9_-]+$` (`tool_provider_identity_name` and `event_identity_name` in
`pkg/entities/plugin_entities/trigger_declaration.go`). The event name is also what the provider's
`_dispatch_event` returns to pick the event.
""",
        ),
        rule(
            "E008",
            "invalid-subscription-field",
            _E,
            "invalid field: {detail}",
            "Each field needs `name`, `label` and a `type`: secret-input, text-input, select, boolean, "
            "model-selector, app-selector or array[tools].",
            """
The entries of `subscription_schema`, `subscription_constructor.credentials_schema` and
`oauth_schema`'s lists are the SDK's `ProviderConfig`: a `name`, a `type` from secret-input,
text-input, select, boolean, model-selector, app-selector, array[tools], a `label` with `en_US`,
`required` a boolean (not null), option values strings. The SDK refuses the provider otherwise.
""",
        ),
        BOOLEAN_WORD,
    )
}
# The rule of a schema error whose subschema names none (`x-rule`).
_FALLBACK = {
    "plugin_manifest": MANIFEST_SCHEMA,
    "tool_provider": PROVIDER_SCHEMA,
    "tool": TOOL_SCHEMA,
    "datasource_provider": DATASOURCE_PROVIDER_SCHEMA,
    "datasource": DATASOURCE_SCHEMA,
    "model_provider": MODEL_PROVIDER_SCHEMA,
    "model": MODEL_SCHEMA,
    "agent_strategy_provider": AGENT_STRATEGY_SCHEMA,
    "agent_strategy": AGENT_STRATEGY_SCHEMA,
    "endpoint_group": ENDPOINT_SCHEMA,
    "endpoint": ENDPOINT_SCHEMA,
    "trigger_provider": TRIGGER_PROVIDER_SCHEMA,
    "trigger_event": EVENT_SCHEMA,
}
_ANY = "*"  # any key or index, in the paths below
# Fields of the published schemas that neither the SDK's models nor the plugin daemon's structs have,
# so both ignore whatever they hold (read from dify_plugin 0.10's pydantic models and the daemon's
# `pkg/entities/plugin_entities`): a tool's `identity.icon` (ToolIdentity: author, name, label), a
# parameter's `placeholder` (ToolParameter has none), a credential option's `icon` (ConfigOption:
# value, label). A schema error there is a warning: the plugin works.
IGNORED_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "tool": (("identity", "icon"), ("parameters", _ANY, "placeholder")),
    "tool_provider": (("credentials_for_provider", _ANY, "options", _ANY, "icon"),),
    "plugin_manifest": (),
    "trigger_provider": (),
    "trigger_event": (),
}
# Fields only the daemon reads, into a Go string (the SDK's models lack them): yaml.v3 decodes any
# scalar into a string field as its text, so a number or a boolean there is read as that text.
DAEMON_STRINGS: dict[str, tuple[tuple[str, ...], ...]] = {
    "plugin_manifest": (("privacy",),),
    "tool_provider": (),
    "tool": (),
    "trigger_provider": (),
    "trigger_event": (),
}
# The YAML 1.1 words that yaml.v3 decodes into a typed bool (and pydantic accepts as well).
_BOOLEAN_WORDS = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF"), False),
}


def validator(name: str, context: CheckContext | None = None) -> FastValidator:
    """The compiled validator of the published schema `name`, looked up once per run (the run's
    memo: its schemas do not change while it lasts)."""
    if context is None:
        return published_validator(name)
    compiled: dict[str, FastValidator] = context.memo.setdefault("schema.validators", {})
    if name not in compiled:
        compiled[name] = published_validator(name, context.schemas)
    return compiled[name]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Every schema error of every manifest, provider and tool YAML of the plugin."""
    for role, name in ROLE_SCHEMAS.items():
        found = list(documents(loaded, role))
        if not found:
            continue  # a schema is compiled only for a run that has documents of its role
        checker = validator(name, context)
        for _relative, document in found:
            yield from schema_findings(document, checker, _FALLBACK[name], name)


def schema_findings(
    document: YamlDocument, checker: FastValidator, fallback: Rule, schema: str = ""
) -> Iterator[Finding]:
    """Findings for one document, one per schema error, located at the offending value; an error
    in a field Dify ignores, or reads as text whatever scalar it holds, is a warning."""
    reported_required: set[tuple[str | int, ...]] = set()
    for error in checker.iter_errors(document.data):
        named = error.schema.get("x-rule") if isinstance(error.schema, dict) else None
        path = list(error.absolute_path)
        if error.validator == "required":
            # jsonschema reports each missing field apart; one finding names them all, so an author
            # learns of every missing field of an object in one round
            if tuple(path) in reported_required:
                continue
            reported_required.add(tuple(path))
            where = document.locate(pointer_of(*path), key=bool(path))
        else:
            where = document.locate(pointer_of(*path))
        meaning = _boolean_word(error)
        if meaning is not None:
            yield BOOLEAN_WORD.at(
                where, field=dotted(path), value=shorten_json(error.instance, VALUE), meaning=meaning
            )
            continue
        found = RULES.get(named, fallback) if isinstance(named, str) else fallback
        why = _accepted_by_dify(schema, path, error)
        if why:
            hint = f"{why}; correct it anyway for editors and the published schema ({found.hint})"
            yield found.at(where, Severity.WARNING, hint=hint, detail=describe(error))
        else:
            yield found.at(where, detail=describe(error))


def _accepted_by_dify(schema: str, path: list[str | int], error: jsonschema.ValidationError) -> str:
    """Why Dify accepts what the schema refuses at `path`, or empty when it does not."""
    for field in IGNORED_FIELDS.get(schema, ()):
        if _within(path, field):
            ignored = dotted(path[: len(field)])
            return f"Dify ignores `{ignored}` (neither the SDK nor the plugin daemon reads it)"
    scalar = not isinstance(error.instance, dict | list) and error.instance is not None
    if error.validator == "type" and scalar:
        for field in DAEMON_STRINGS.get(schema, ()):
            if _within(path, field) and len(path) == len(field):
                text = shorten_json(error.instance, VALUE)
                return f"The plugin daemon reads `{dotted(path)}` as the text {text}"
    return ""


def _within(path: list[str | int], field: tuple[str, ...]) -> bool:
    """True when `path` is `field` or lies below it (`*` matches any key or index)."""
    return len(path) >= len(field) and all(
        part in (_ANY, step) for part, step in zip(field, path, strict=False)
    )


def _boolean_word(error: jsonschema.ValidationError) -> str | None:
    """`true` or `false` when the error is a boolean field given a word Dify reads as one."""
    expected = error.validator_value
    kinds = [expected] if isinstance(expected, str) else expected
    if error.validator != "type" or not isinstance(kinds, list) or "boolean" not in kinds:
        return None
    value = error.instance
    if not isinstance(value, str) or value not in _BOOLEAN_WORDS:
        return None
    return "true" if _BOOLEAN_WORDS[value] else "false"


def dotted(path: Iterable[str | int]) -> str:
    """`parameters[2].options[0].value` for a path of keys and indexes."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def _nested(value: Any, missing: list[Any]) -> str:
    """Where a missing field stands one level too deep (`description` indented under `identity`):
    the author then sees the indentation, not a field to add."""
    if not isinstance(value, dict):
        return ""
    found = [
        f"`{name}` is under `{key}`"
        for name in missing
        for key, child in value.items()
        if isinstance(child, dict) and name in child
    ]
    return f" ({'; '.join(found)}: indented one level too deep?)" if found else ""


_JSON_KINDS = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer"}


def describe(error: jsonschema.ValidationError) -> str:
    """A short message for a schema error, independent of jsonschema's wording."""
    where = dotted(error.absolute_path)
    keyword = error.validator
    value: Any = error.instance
    expected: Any = error.validator_value
    if keyword == "required":
        missing = [name for name in expected if isinstance(value, dict) and name not in value] or [expected]
        fields = ", ".join(f"`{name}`" for name in missing)
        plural = "s" if len(missing) > 1 else ""
        return f"{where} lacks the required field{plural} {fields}{_nested(value, missing)}"
    if keyword == "type":
        kinds = [expected] if isinstance(expected, str) else list(expected)
        wanted = " or ".join(_JSON_KINDS.get(k, f"a {k}") for k in kinds if k != "null")
        return f"{where} must be {wanted}, not {shorten_json(value, VALUE)}"
    if keyword in ("enum", "const"):
        choices = expected if keyword == "enum" else [expected]
        if len(choices) > 6:  # the rule's hint lists long enumerations
            return f"{where} is {shorten_json(value, VALUE)}, which is not an allowed value"
        return f"{where} is {shorten_json(value, VALUE)}, not one of {', '.join(map(str, choices))}"
    if keyword == "pattern":
        return f"{where} {shorten_json(value, VALUE)} does not match {expected}"
    if keyword in ("minLength", "maxLength"):
        bound = "at least" if keyword == "minLength" else "at most"
        return f"{where} has {len(value)} characters; it must have {bound} {expected}"
    if keyword in ("minimum", "maximum"):
        bound = "at least" if keyword == "minimum" else "at most"
        return f"{where} is {shorten_json(value, VALUE)}; it must be {bound} {expected}"
    return f"{where}: {error.message}"
