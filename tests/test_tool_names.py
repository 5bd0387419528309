"""Tools that share a name: the SDK keeps the last class listed, and so does the registry's model."""

from __future__ import annotations

from generator.load.crawl import load_plugin
from tests.validate_cases import CASES

SHARED = CASES / "bad" / "tools-share-a-name"


def test_only_the_last_tool_of_a_name_is_reachable() -> None:
    """Of three tool YAMLs named `echo`, only the last listed is run (the runner plans from this)."""
    plugin = load_plugin(SHARED, "").plugin
    assert plugin is not None
    (provider,) = plugin.providers
    assert [tool.file for tool in provider.tools] == [
        "tools/echo.yaml",
        "tools/shout.yaml",
        "tools/shout_again.yaml",
    ]
    assert [tool.file for tool in provider.reachable_tools] == ["tools/shout_again.yaml"]
    assert [(lost.file, kept.file) for lost, kept in provider.shadowed_tools] == [
        ("tools/echo.yaml", "tools/shout_again.yaml"),
        ("tools/shout.yaml", "tools/shout_again.yaml"),
    ]


def test_tools_with_their_own_names_are_all_reachable() -> None:
    """A provider whose tools have distinct names loses none."""
    plugin = load_plugin(CASES / "good" / "several-tools", "").plugin
    assert plugin is not None
    for provider in plugin.providers:
        assert provider.reachable_tools == provider.tools
        assert provider.shadowed_tools == ()
