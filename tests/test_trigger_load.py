"""The trigger kind's loader: a trigger provider and its events become the model, every value placed."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.kind_models.trigger import EventKey, TriggerProvider
from generator.load.crawl import load_plugin

CASES = Path(__file__).resolve().parent / "cases" / "validate"


def test_a_trigger_plugin_loads_into_its_model() -> None:
    loaded = load_plugin(CASES / "good" / "trigger", "shop")
    assert loaded.plugin is not None
    assert loaded.plugin.providers == ()
    (provider,) = loaded.plugin.parts_of(TriggerProvider)
    assert (provider.kind, provider.name, provider.file) == ("triggers", "shop", "provider/shop.yaml")
    assert provider.label.get("zh_Hans") == "商店 Webhook"
    assert [c.name for c in provider.subscription_schema] == ["signing_secret"]
    assert provider.subscription_schema[0].origin.line == 12
    (store,) = provider.constructor_parameters
    assert (store.name, store.type, store.required) == ("store", "string", True)
    assert store.human_description.en == "The store whose orders start the workflow."
    assert [c.name for c in provider.constructor_credentials] == ["api_token"]
    assert (provider.has_constructor, provider.constructor_source, provider.source) == (
        True,
        "provider/shop.py",
        "provider/shop.py",
    )
    (event,) = provider.events
    assert event.key == EventKey("shop_trigger", "shop", "order_paid")
    assert str(event.key) == "shop_trigger/shop/order_paid"
    assert (event.name, event.file, event.source) == (
        "order_paid",
        "events/order_paid/order_paid.yaml",
        "events/order_paid/order_paid.py",
    )
    assert event.description.get("zh_Hans") == "顾客支付订单时启动。"
    assert [(p.name, p.type, p.multiple) for p in event.parameters] == [
        ("minimum_total", "number", False),
        ("currencies", "select", True),
    ]
    assert [o.value for o in event.parameters[1].options] == ["EUR", "USD"]
    assert event.parameters[1].origin.line == 20
    assert event.output_schema["required"] == ["order_id", "total"]
    assert (event.origin.file, event.origin.line) == ("shop/events/order_paid/order_paid.yaml", 1)
    assert loaded.roles["events/order_paid/order_paid.yaml"] == "event"
    assert loaded.roles["provider/shop.yaml"] == "triggers provider"


def test_an_events_description_may_be_split_like_a_tools(tmp_path: Path) -> None:
    """`description: {human, llm}` is kept apart: the human text is the description."""
    folder = tmp_path / "shop"
    shutil.copytree(CASES / "good" / "trigger", folder)
    event_yaml = folder / "events" / "order_paid" / "order_paid.yaml"
    text = event_yaml.read_text(encoding="utf-8")
    text = text.replace(
        "description:\n  en_US: Starts when a customer pays an order.\n  zh_Hans: 顾客支付订单时启动。\n",
        "description:\n  human:\n    en_US: Paid.\n  llm:\n    en_US: An order was paid.\n",
    )
    event_yaml.write_text(text, encoding="utf-8")
    loaded = load_plugin(folder, "shop")
    assert loaded.plugin is not None
    (event,) = loaded.plugin.parts_of(TriggerProvider)[0].events
    assert (event.description.en, event.llm_description.en) == ("Paid.", "An order was paid.")
