from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Search(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        headers = {"Authorization": f"Bearer {self.runtime.credentials['api_key']}"}
        try:
            reply = requests.get(
                "https://search.example.com/find",
                params={"q": tool_parameters["query"]},
                headers=headers,
                timeout=30,
            )
            reply.raise_for_status()
        except requests.RequestException as error:
            yield self.create_text_message(f"The search failed: {error}")
            return
        yield self.create_json_message(reply.json())
