from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CheckLinks(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        try:
            reply = requests.get(
                "https://links.example.com/check",
                params={"url": tool_parameters["query"]},
                headers={"Authorization": f"Token {self.runtime.credentials['api_key']}"},
                timeout=30,
            )
        except Exception as error:
            yield self.create_text_message(f"The check failed: {error}")
            return
        if reply.status_code == 401:
            raise PermissionError("The API key was refused.")
        yield self.create_json_message(reply.json())
