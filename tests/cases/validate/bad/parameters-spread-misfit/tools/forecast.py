from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Query:
    def __init__(self, city: str, units: str, lang: str) -> None:
        self.text = f"{city} {units} {lang}"


def summarize(city: str, units: str | None = None, verbose: bool = False, **extra: Any) -> str:
    return f"{city} ({units or 'metric'}){' in detail' if verbose else ''}"


class Forecast(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # units may be absent, lang is never passed, verbose is always there and not taken
        query = Query(**tool_parameters)
        yield self.create_text_message(query.text)
        yield self.create_text_message(summarize(**tool_parameters))  # fine: defaults and **extra
