from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Words(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        reply = requests.get(
            f"https://words.example.com/define/{tool_parameters['word']}",
            headers={"Authorization": f"Bearer {self.runtime.credentials['api_key']}"},
            timeout=30,
        )
        reply.raise_for_status()
        yield self.create_json_message(reply.json())
