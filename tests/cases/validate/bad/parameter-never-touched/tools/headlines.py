from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

FEED = "https://news.example.com/today.json"


class Headlines(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        items = requests.get(FEED, timeout=30).json().get("items", [])
        for item in items[:5]:
            yield self.create_text_message(f"{item.get('title', '')}\n{item.get('link', '')}")
