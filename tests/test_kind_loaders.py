"""The loaders of datasource, model, agent-strategy and extension plugins (`generator/load/kinds/`):
each good case folder loads into its kind's model with the values its YAML holds, at their lines."""

from __future__ import annotations

from pathlib import Path

from generator.kind_models.agent_strategy import AgentStrategyProvider
from generator.kind_models.datasource import DatasourceProvider
from generator.kind_models.endpoint import EndpointGroup
from generator.kind_models.model import ModelProvider
from generator.load.crawl import Crawl, load_plugin
from generator.load.kinds.children import globbed
from generator.load.reader import PluginReader
from tests.validate_cases import CASES

GOOD = CASES / "good"


def test_a_datasource_provider_and_its_datasource() -> None:
    loaded = load_plugin(GOOD / "datasource-drive")
    assert loaded.plugin is not None
    (provider,) = loaded.plugin.parts_of(DatasourceProvider)
    assert (provider.kind, provider.name, provider.provider_type) == ("datasources", "drive", "online_drive")
    assert [c.name for c in provider.credentials] == ["token"]
    assert [c.name for c in provider.oauth_client] == ["client_id"]
    assert [c.name for c in provider.oauth_credentials] == ["access_token"]
    (datasource,) = provider.datasources
    assert str(datasource.key) == "drive/drive/files"
    assert [(p.name, p.type, p.human_description.en) for p in datasource.parameters] == [
        ("folder", "string", "The folder to start from."),
        ("recursive", "boolean", "Also list the files of subfolders."),
    ]
    assert datasource.output_schema["properties"]["file"] == {"$ref": "https://dify.ai/schemas/v1/file.json"}
    assert datasource.parameters[1].origin.line == 16
    # listed children are known to the crawl: no orphan finding, and the role is the datasource's
    assert loaded.roles["datasources/files.yaml"] == "datasource"


def test_a_model_provider_finds_its_models_by_its_patterns() -> None:
    loaded = load_plugin(GOOD / "model-provider")
    assert loaded.plugin is not None
    (provider,) = loaded.plugin.parts_of(ModelProvider)
    assert (provider.kind, provider.name, provider.icon) == ("models", "acme", "icon.svg")
    assert provider.supported_model_types == ("llm", "text-embedding")
    assert provider.provider_credentials == ("api_key",)
    chat, embed = provider.models  # the position file orders, it is no model
    assert (chat.name, chat.model_type, chat.mode, chat.context_size) == ("acme-chat", "llm", "chat", 128000)
    assert chat.features == ("tool-call", "vision")
    assert [(r.name, r.template, r.maximum) for r in chat.parameter_rules] == [
        ("temperature", "temperature", None),
        ("max_tokens", "max_tokens", 8192.0),
        ("response_format", "", None),
    ]
    assert chat.parameter_rules[2].options == ("text", "json_object")
    assert chat.pricing is not None
    assert (chat.pricing.input, chat.pricing.currency) == ("0.50", "USD")
    assert (embed.name, embed.context_size, embed.pricing) == ("acme-embed", 8192, None)


def test_an_agent_strategy_provider_and_an_endpoint_group() -> None:
    agent = load_plugin(GOOD / "agent-strategy").plugin
    assert agent is not None
    (provider,) = agent.parts_of(AgentStrategyProvider)
    (strategy,) = provider.strategies
    assert (provider.kind, str(strategy.key), strategy.features) == (
        "agent_strategies",
        "acme_agent/acme_agent/plan",
        ("history-messages",),
    )
    assert [(p.name, p.type, p.scope) for p in strategy.parameters][:2] == [
        ("model", "model-selector", "tool-call&llm"),
        ("tools", "array[tools]", ""),
    ]
    assert strategy.parameters[2].human_description.en == "What the user asked."
    extension = load_plugin(GOOD / "extension").plugin
    assert extension is not None
    (group,) = extension.parts_of(EndpointGroup)
    assert (group.kind, group.name, group.label.en) == ("endpoints", "acme_hook", "Acme hook")
    assert [s.name for s in group.settings] == ["secret"]
    assert [(e.method, e.path, e.source) for e in group.endpoints] == [("POST", "/hook", "endpoints/hook.py")]


def test_model_patterns_stay_inside_the_plugin_and_within_one_segment(tmp_path: Path) -> None:
    (tmp_path / "models" / "llm" / "deep").mkdir(parents=True)
    for name in ("models/llm/a.yaml", "models/llm/b.yml", "models/llm/deep/c.yaml", "outside.yaml"):
        (tmp_path / name).write_text("model: x\n")
    crawl = Crawl(PluginReader(tmp_path), "")
    assert globbed(crawl, "models/llm/*.yaml") == ["models/llm/a.yaml"]
    assert globbed(crawl, "models/llm/*.y*ml") == ["models/llm/a.yaml", "models/llm/b.yml"]
    assert globbed(crawl, "../*.yaml") == []
    assert globbed(crawl, "/outside.yaml") == []
    assert globbed(crawl, "") == []
