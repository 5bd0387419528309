from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from requests import post


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = str(tool_parameters["query"])
        response = post("https://api.acme.example/search", json={"q": query}, timeout=10)
        result = response.json()
        if result.get("code") != 0:
            # the data is a dict: `result.msg` fails where `result["msg"]` was meant
            raise ValueError(f"search failed: {result.msg}")
        pages = requests.get("https://api.acme.example/pages", timeout=10)
        count = pages.json().total  # fails on every call that gets here
        yield self.create_text_message(f"{result.get('items')} {count} {pages.json().keys()}")
