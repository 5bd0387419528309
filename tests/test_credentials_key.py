"""A tool provider's credential fields are read where Dify's daemon reads them: `credentials_schema`
when it is not empty, else `credentials_for_provider`; the page, the run's credentials and the
credential checks all see the same fields."""

from __future__ import annotations

from pathlib import Path

from generator.load.crawl import load_plugin

GOOD = Path(__file__).parent / "cases" / "validate" / "good"


def _credentials(folder: str) -> list[tuple[str, str, int]]:
    loaded = load_plugin(GOOD / folder, folder)
    assert loaded.plugin is not None
    (provider,) = loaded.plugin.providers
    return [(c.name, c.type, c.origin.line) for c in provider.credentials]


def test_credentials_schema_is_read_when_it_is_not_empty() -> None:
    assert _credentials("credentials-schema-key") == [("api_key", "secret-input", 14)]


def test_credentials_for_provider_otherwise() -> None:
    assert _credentials("minimal") == [("api_key", "secret-input", 13)]
